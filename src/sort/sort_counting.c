/* sort_counting: the counting sort behind the sort interface (sort.h), as sort_algo_counting.
 *
 * For dense keys (a fluid's cells): with K = 2^bits possible keys, 4 dispatches:
 *   counting.count    slots[i] = atomicAdd(counts[key & (K-1)], 1): each key keeps its slot in its
 *                     key's run (counting_count.comp)
 *   counting.scan     the counts into their exclusive prefix sums starts[0 .. K], by a chained scan
 *                     over blocks of COUNTING_SCAN_WG x COUNTING_SCAN_IPT counts in one dispatch,
 *                     many groups, with the look-back with fallback (counting_scan.comp): no group
 *                     needs another to make progress
 *   counting.scatter  each pair to starts[key] + its slot, into the sorter's scratch pair; clears
 *                     the counts and the scan's look-back words for the next sort
 *                     (counting_scatter.comp)
 *   counting.order    the fix-up that makes the result deterministic: each pair finds its place in
 *                     its key's run by (value, key) and is written to the caller's pair
 *                     (counting_order.comp); it costs the run's length per pair
 * so the result is always in the caller's pair, ordered by (key & (K-1), value, key): deterministic
 * whatever order the atomics ran in, and for distinct values given in ascending order (the fluid's
 * particle indices) exactly the stable radix order. starts is kept: sort_key_starts gives it, the
 * range of key k being [starts[k], starts[k + 1]).
 *
 * A producer can make the counts itself (sort_producer_count.glsl, mode 2): no count dispatch; the scatter
 * then takes slots by counting the counts back down with atomics (the producer kept none).
 *
 * It does NOT take keys wider than SORT_COUNTING_MAX_BITS (sort_make refuses a wider key_bits),
 * and the order dispatch costs each pair the length of its key's run: fine for cells of a few to
 * a few hundred pairs, slow for few distinct keys at large n (all equal keys: n^2 steps).
 */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sort/sort.h"
#include "sort/sort_layout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNTING_KPT 8   /* keys per invocation of the count and scatter dispatches */
#define COUNTING_SPIN 64 /* the scan's look-back: reads of a word before it falls back */
#define COUNTING_BLOCK (COUNTING_SCAN_WG * COUNTING_SCAN_IPT)
#define COUNTING_DEFAULT_BITS SORT_COUNTING_MAX_BITS /* key_bits when the description gives 0: 32 MiB */

enum { _COUNTING_COUNT, _COUNTING_SCAN, _COUNTING_SCATTER, _COUNTING_ORDER, _COUNTING_PROGRAMS };
static const char *const _counting_files[_COUNTING_PROGRAMS] = {"sort/counting_count.comp", "sort/counting_scan.comp",
                                                                "sort/counting_scatter.comp", "sort/counting_order.comp"};
static const char *const _counting_names[_COUNTING_PROGRAMS] = {"counting.count", "counting.scan", "counting.scatter",
                                                                "counting.order"};

typedef struct _sort_counting {
    uint32_t capacity, key_bits;
    int max_groups_x;
    GLuint prog[_COUNTING_PROGRAMS];
    GLuint keys2, vals2;   /* the scratch pair (the scatter's output) */
    GLuint counts, starts; /* 2^key_bits counts (zero between sorts); 2^key_bits + 1 starts */
    GLuint slots;          /* each key's slot in its run (capacity) */
    GLuint status, ticket; /* the scan's look-back words (one a block) and block-id counter */
    bool producer_ready;
    char producer_defines[sizeof SORT_LAYOUT_GLSL_TEXT + 64];
} _sort_counting;

static void _counting_destroy(void *p) {
    _sort_counting *c = p;
    if (!c) return;
    for (int i = 0; i < _COUNTING_PROGRAMS; i++) shader_destroy(&c->prog[i]);
    GLuint *bufs[] = {&c->keys2, &c->vals2, &c->counts, &c->starts, &c->slots, &c->status, &c->ticket};
    for (size_t i = 0; i < ARRAY_LEN(bufs); i++) gpu_buffer_destroy(bufs[i]);
    free(c);
}

static void *_counting_make(const sort_desc *desc, const gpu_caps *caps, char *err) {
    _sort_counting *c = calloc(1, sizeof *c);
    if (!c) {
        fail(err, "out of host memory for the counting sorter");
        return NULL;
    }
    c->capacity = desc->capacity;
    c->key_bits = desc->key_bits ? desc->key_bits : COUNTING_DEFAULT_BITS;
    c->max_groups_x = caps->max_groups_x > 0 ? caps->max_groups_x : 65535;
    snprintf(c->producer_defines, sizeof c->producer_defines, "%s#define SORT_PRODUCER_MODE %d\n", SORT_LAYOUT_GLSL_TEXT,
             SORT_PRODUCER_COUNTING);
    const char *label = desc->label ? desc->label : "counting";
    char defines[sizeof SORT_LAYOUT_GLSL_TEXT + 64], name[128];
    snprintf(defines, sizeof defines, "%s#define KPT %d\n#define LB_SPIN %d\n", SORT_LAYOUT_GLSL_TEXT, COUNTING_KPT,
             COUNTING_SPIN);
    for (int i = 0; i < _COUNTING_PROGRAMS; i++) {
        c->prog[i] = shader_make_compute(_counting_files[i], defines, err);
        if (!c->prog[i]) {
            _counting_destroy(c);
            return NULL;
        }
        snprintf(name, sizeof name, "%s.%s", label, _counting_names[i] + 9);
        glObjectLabel(GL_PROGRAM, c->prog[i], -1, name);
    }
    uint64_t pair_bytes = 4ull * (desc->capacity ? desc->capacity : 1), keys = 1ull << c->key_bits;
    struct {
        GLuint *buf;
        uint64_t size;
        const char *what;
    } bufs[] = {{&c->keys2, pair_bytes, "keys-scratch"},
                {&c->vals2, pair_bytes, "vals-scratch"},
                {&c->counts, 4 * keys, "counts"},
                {&c->starts, 4 * (keys + 1), "key-starts"},
                {&c->slots, pair_bytes, "slots"},
                {&c->status, 4 * ((keys + COUNTING_BLOCK - 1) / COUNTING_BLOCK), "scan-lookback"},
                {&c->ticket, 4, "scan-blocks"}};
    for (size_t i = 0; i < ARRAY_LEN(bufs); i++) {
        snprintf(name, sizeof name, "%s.%s", label, bufs[i].what);
        *bufs[i].buf = gpu_buffer_make(bufs[i].size, NULL, name, err);
        if (!*bufs[i].buf) {
            _counting_destroy(c);
            return NULL;
        }
    }
    return c;
}

static void _counting_dispatch(const _sort_counting *c, int which, uint32_t groups, const sort_trace *trace) {
    uint32_t gx = groups, gy = 1;
    if (groups > (uint32_t)c->max_groups_x) {
        gy = (groups + (uint32_t)c->max_groups_x - 1) / (uint32_t)c->max_groups_x;
        gx = (groups + gy - 1) / gy;
    }
    glUseProgram(c->prog[which]);
    sort_trace_begin(trace, _counting_names[which]);
    glDispatchCompute(gx, gy, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    sort_trace_end(trace);
}

static void _counting_bind(sort_pairs a, sort_pairs b) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_KEYS_IN, a.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_VALS_IN, a.vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_KEYS_OUT, b.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_VALS_OUT, b.vals);
}

static sort_pairs _counting_run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    _sort_counting *c = p;
    if (bits > c->key_bits) { /* a programmer error (sort.h): sort by the bits the array holds */
        log_error("SORT", "counting sorter made for keys of %u bits was given %u; sorting by the low %u", c->key_bits, bits,
                  c->key_bits);
        bits = c->key_bits;
    }
    if (n > c->capacity) n = c->capacity;
    uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    if (n == 0) { /* no key: every key's range is empty (and a producer count counted nothing) */
        uint32_t zero = 0;
        glClearNamedBufferSubData(c->starts, GL_R32UI, 0, 4ll * ((int64_t)mask + 2), GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        c->producer_ready = false;
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        return io;
    }
    sort_pairs scratch = {c->keys2, c->vals2};
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_COUNTS, c->counts);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_STARTS, c->starts);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_TICKET, c->ticket);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_SLOTS, c->slots);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, COUNTING_BIND_STATUS, c->status);
    uint32_t blocks = (uint32_t)(((uint64_t)mask + 1 + COUNTING_BLOCK - 1) / COUNTING_BLOCK);
    for (int i = 0; i < _COUNTING_PROGRAMS; i++) {
        if (i != _COUNTING_SCAN) glProgramUniform1ui(c->prog[i], COUNTING_LOC_N, n); /* the scan has no u_n */
        glProgramUniform1ui(c->prog[i], COUNTING_LOC_MASK, mask);
    }
    glProgramUniform1ui(c->prog[_COUNTING_SCAN], COUNTING_LOC_BLOCKS, blocks);
    glProgramUniform1ui(c->prog[_COUNTING_SCATTER], COUNTING_LOC_BLOCKS, blocks);
    glProgramUniform1ui(c->prog[_COUNTING_SCATTER], COUNTING_LOC_PRODUCER, c->producer_ready);
    _counting_bind(io, scratch);
    if (!c->producer_ready) _counting_dispatch(c, _COUNTING_COUNT, gpu_groups(n, COUNTING_WG * COUNTING_KPT), trace);
    c->producer_ready = false;
    _counting_dispatch(c, _COUNTING_SCAN, blocks, trace);
    _counting_dispatch(c, _COUNTING_SCATTER, gpu_groups(n, COUNTING_WG * COUNTING_KPT), trace);
    _counting_bind(scratch, io);
    _counting_dispatch(c, _COUNTING_ORDER, gpu_groups(n, COUNTING_WG), trace);
    glUseProgram(0);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return io;
}

static void _counting_describe(void *p, uint32_t n, uint32_t bits, char *out, size_t len) {
    _sort_counting *c = p;
    if (bits > c->key_bits) bits = c->key_bits;
    snprintf(out, len,
             "counting: keys of %u bits (a count array of %llu), %u dispatches (count with atomics keeping slots, "
             "chained scan of %llu blocks, scatter, order each key's run by value)",
             bits, 1ull << bits, n ? (c->producer_ready ? 3u : 4u) : 0u, ((1ull << bits) + COUNTING_BLOCK - 1) / COUNTING_BLOCK);
}

static GLuint _counting_key_starts(void *p) { return ((_sort_counting *)p)->starts; }
static GLuint _counting_producer_buffer(void *p) { return ((_sort_counting *)p)->counts; }
static const char *_counting_producer_defines(void *p) { return ((_sort_counting *)p)->producer_defines; }
static void _counting_producer_ready(void *p) { ((_sort_counting *)p)->producer_ready = true; }

static void _counting_gate(void *p, const sort_gate *gate) {
    _sort_counting *c = p;
    for (int i = 0; i < _COUNTING_PROGRAMS; i++) glProgramUniform1ui(c->prog[i], SORT_LOC_GATE, sort_gate_value(gate));
}

const sort_algo sort_algo_counting = {.name = "counting",
                                      .summary = "counting sort for dense keys, by key, then value (deterministic)",
                                      .make = _counting_make,
                                      .destroy = _counting_destroy,
                                      .run = _counting_run,
                                      .describe = _counting_describe,
                                      .max_bits = SORT_COUNTING_MAX_BITS,
                                      .key_starts = _counting_key_starts,
                                      .producer_buffer = _counting_producer_buffer,
                                      .producer_defines = _counting_producer_defines,
                                      .producer_ready = _counting_producer_ready,
                                      .gate = _counting_gate};
