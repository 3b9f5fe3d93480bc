/* test_sort_rig: the sort tests' shared rig (included by tests/test_sort_*.c; one translation unit
 * each). A rig is one sorter with its own input pair; run_case sorts n pairs on the GPU and checks
 * keys AND values against an independent CPU reference:
 *   stable     a qsort by (key & mask, input index) (test_sort_ref.h; radix, onesweep)
 *   by value   a qsort by (key & mask, value, key) (counting, whose runs are ordered by value)
 * Neither uses the library's own CPU sort.
 * plus: no GL error from sort_run, nothing written past n in either pair, the result in the pair
 * the pass count says, the traced dispatches as described, and trace names with the algorithm's prefix.
 * Inputs: random at any width, all equal, sorted, reversed, all-max, few distinct, bits above
 * the width set, and low entropy (the AND of 2 and of 4 random words). */
#ifndef FLUID_TEST_SORT_RIG_H
#define FLUID_TEST_SORT_RIG_H
#include "check.h"
#include "test_sort_ref.h"
#include "core/log.h"
#include "gpu/shader.h"
#include "sort/sort.h"
#include <stdlib.h>
#include <string.h>

#define POISON 0xDEADBEEFu

typedef struct trace_count {
    int begins, ends, depth, bad_names;
} trace_count;

static const char *trace_prefix = "radix."; /* what every traced dispatch's name starts with */

static void trace_begin(void *user, const char *name) {
    trace_count *t = user;
    t->begins++;
    t->depth++;
    if (strncmp(name, trace_prefix, strlen(trace_prefix)) != 0) t->bad_names++;
}
static void trace_end(void *user) {
    trace_count *t = user;
    t->ends++;
    t->depth--;
}

/* One sorter with its own input pair of `cap` elements, and the sorter's scratch pair once seen. */
typedef struct rig {
    const char *name;
    bool by_value; /* reference ordered by (key & mask, value, key); result always in the caller's pair */
    bool producer; /* the next run_case's keys come from the producer shader, which makes the first count (set by the test) */
    const sort_gate *gate; /* run_case's gate (sort_run_gated; NULL: sort_run) */
    sorter *s;
    uint32_t cap;
    sort_pairs io, scratch;
    uint32_t *k, *v, *rk, *rv, *ok, *ov; /* input, reference, output (cap each) */
} rig;

static void fill(GLuint buf, uint32_t from, uint32_t count, uint32_t value) {
    if (count) glClearNamedBufferSubData(buf, GL_R32UI, 4ll * from, 4ll * count, GL_RED_INTEGER, GL_UNSIGNED_INT, &value);
}

static uint32_t count_not(const uint32_t *a, uint32_t from, uint32_t to, uint32_t value) {
    uint32_t bad = 0;
    for (uint32_t i = from; i < to; i++) bad += a[i] != value;
    return bad;
}

static void rig_ref_by_value(rig *r, uint32_t n, uint32_t mask);
static int rig_produce(rig *r, uint32_t n, uint32_t bits);

/* The number a describe line writes just before `words`; `none` where the line has no such words. */
static int described_number(const char *line, const char *words, int none) {
    const char *p = strstr(line, words);
    if (!p) return none;
    while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
    return atoi(p);
}
/* Dispatch count as said by describe(). */
static int described_dispatches(const char *line) { return described_number(line, " dispatch", -1); }

/* The digit width a radix describe line names ("of 9-bit digits"); 8 for a line without one. */
static uint32_t described_digit_bits(const char *line) { return (uint32_t)described_number(line, "-bit digits", 8); }

/* Sorts r->k/r->v[0..n) by `bits` on the GPU and compares keys and values with the stable CPU
 * sort of the same pairs (masked to `bits` for ordering, so keys wider than bits are also right). */
static void run_case(rig *r, uint32_t n, uint32_t bits, const char *input) {
    char line[256];
    sort_describe(r->s, n, bits, line, sizeof line);
    printf("  [%s] n=%u bits=%u %s: %s\n", r->name, n, bits, input, line);
    fflush(stdout);

    /* Reference: stable by (key & mask), carrying the input index; or by (key & mask, value, key). */
    uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    if (r->by_value) {
        rig_ref_by_value(r, n, mask);
    } else {
        memcpy(r->rk, r->k, 4ull * n);
        memcpy(r->rv, r->v, 4ull * n);
        ref_sort_stable(r->rk, r->rv, n, mask);
    }

    /* Input, with everything past n and the whole scratch pair poisoned. */
    if (n) {
        glNamedBufferSubData(r->io.keys, 0, 4ll * n, r->k);
        glNamedBufferSubData(r->io.vals, 0, 4ll * n, r->v);
    }
    fill(r->io.keys, n, r->cap - n, POISON);
    fill(r->io.vals, n, r->cap - n, POISON);
    bool poisoned = r->scratch.keys != 0; /* the scratch pair is known (and poisoned) after the first run */
    if (poisoned) {
        fill(r->scratch.keys, 0, r->cap, POISON);
        fill(r->scratch.vals, 0, r->cap, POISON);
    }
    trace_count tc = {0};
    sort_trace trace = {trace_begin, trace_end, &tc};
    int produced_saved = 0;
    if (r->producer) produced_saved = rig_produce(r, n, bits);
    while (glGetError() != GL_NO_ERROR) {} /* only the sort's own errors below */
    sort_pairs out = sort_run_gated(r->s, r->io, n, bits, r->gate, &trace);
    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "%s n=%u bits=%u: GL error 0x%04x from sort_run", r->name, n, bits, gl_err);
    CHECK(tc.begins == tc.ends && tc.depth == 0 && tc.bad_names == 0, "%s n=%u: trace begins %d ends %d bad names %d", r->name, n,
          tc.begins, tc.ends, tc.bad_names);
    CHECK(tc.begins + produced_saved == described_dispatches(line),
          "%s n=%u bits=%u: %d dispatches traced (%d saved by a producer count), describe says '%s'", r->name, n, bits, tc.begins,
          produced_saved, line);

    bool in_io = out.keys == r->io.keys && out.vals == r->io.vals;
    if (!in_io) {
        if (!r->scratch.keys) r->scratch = out;
        CHECK(out.keys == r->scratch.keys && out.vals == r->scratch.vals, "%s: result in a pair that is neither", r->name);
        if (out.keys != r->scratch.keys) return;
    }
    /* The radix sort's digits: 8 bits, or 9 (onesweep's wide scatter) only where they take a pass
     * fewer than 8 would; the passes from that width, independent of the sorter's own arithmetic. */
    uint32_t width = described_digit_bits(line), passes = r->by_value ? 2 : (bits + width - 1) / width;
    CHECK(width == 8 || (width == 9 && (bits + 8) / 9 < (bits + 7) / 8), "%s n=%u bits=%u: %u-bit digits ('%s')", r->name, n, bits,
          width, line);
    if (n)
        CHECK(in_io == (passes % 2 == 0), "%s n=%u bits=%u: %u passes left the result in the %s pair", r->name, n, bits, passes,
              in_io ? "caller's" : "scratch");

    glGetNamedBufferSubData(out.keys, 0, 4ll * r->cap, r->ok);
    glGetNamedBufferSubData(out.vals, 0, 4ll * r->cap, r->ov);
    uint32_t bad_k = 0, bad_v = 0, first = n;
    for (uint32_t i = 0; i < n; i++) {
        bool bk = r->ok[i] != r->rk[i], bv = r->ov[i] != r->rv[i];
        bad_k += bk;
        bad_v += bv;
        if ((bk || bv) && first == n) first = i;
    }
    CHECK(
        bad_k == 0 && bad_v == 0,
        "%s n=%u bits=%u %s: %u keys and %u values differ from the CPU reference (qsort); first at %u: got (%08x, %u) want (%08x, %u)",
        r->name, n, bits, input, bad_k, bad_v, first, first < n ? r->ok[first] : 0, first < n ? r->ov[first] : 0,
        first < n ? r->rk[first] : 0, first < n ? r->rv[first] : 0);
    uint32_t past = in_io || poisoned ? count_not(r->ok, n, r->cap, POISON) + count_not(r->ov, n, r->cap, POISON) : 0;
    CHECK(past == 0, "%s n=%u bits=%u: %u elements past n were written in the result pair", r->name, n, bits, past);
    if (poisoned) { /* the other pair: nothing past n either */
        sort_pairs other = in_io ? r->scratch : r->io;
        glGetNamedBufferSubData(other.keys, 0, 4ll * r->cap, r->ok);
        glGetNamedBufferSubData(other.vals, 0, 4ll * r->cap, r->ov);
        past = count_not(r->ok, n, r->cap, POISON) + count_not(r->ov, n, r->cap, POISON);
        CHECK(past == 0, "%s n=%u bits=%u: %u elements past n were written in the other pair", r->name, n, bits, past);
    }
}

/* A rig for `algo` with desc (capacity = cap, label = name); the sorter is met with a 1-pair sort. */
static bool rig_make_desc(rig *r, const char *algo, const char *name, uint32_t cap, sort_desc d, const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    memset(r, 0, sizeof *r);
    r->name = name;
    r->cap = cap;
    r->by_value = strcmp(algo, "counting") == 0;
    d.capacity = cap;
    d.label = name;
    r->s = sort_make(algo, &d, caps, err);
    CHECK(r->s != NULL, "sort_make(%s, %s): %s", algo, name, err);
    if (!r->s) return false;
    r->io.keys = gpu_buffer_make(4ull * cap, NULL, "test.keys", err);
    r->io.vals = gpu_buffer_make(4ull * cap, NULL, "test.vals", err);
    uint32_t **arrays[] = {&r->k, &r->v, &r->rk, &r->rv, &r->ok, &r->ov};
    for (size_t i = 0; i < ARRAY_LEN(arrays); i++) *arrays[i] = calloc(cap, 4);
    /* Meet the scratch pair: one pass leaves the result there (counting: always the caller's). */
    r->k[0] = 7;
    r->v[0] = 1;
    run_case(r, 1, 8, "one pair");
    CHECK(r->by_value || r->scratch.keys != 0, "%s: a 1-pass sort did not return the scratch pair", name);
    return true;
}

static void rig_destroy(rig *r) {
    if (!r->s) return;
    sort_destroy(r->s);
    gpu_buffer_destroy(&r->io.keys);
    gpu_buffer_destroy(&r->io.vals);
    uint32_t *arrays[] = {r->k, r->v, r->rk, r->rv, r->ok, r->ov};
    for (size_t i = 0; i < ARRAY_LEN(arrays); i++) free(arrays[i]);
}

typedef enum input { IN_RANDOM, IN_EQUAL, IN_SORTED, IN_REVERSED, IN_ALL_ONES, IN_FEW, IN_WIDE, IN_AND2, IN_AND4 } input;
static const char *const input_names[] = {"random",
                                          "all equal",
                                          "sorted",
                                          "reversed",
                                          "all 0xFFFFFFFF (masked)",
                                          "3 distinct",
                                          "random, bits above set",
                                          "AND of 2 random words",
                                          "AND of 4 random words"};

/* Keys that fit in bits (except IN_WIDE), values a random permutation of 0..n-1. */
static void make_input(rig *r, uint32_t n, uint32_t bits, input in, uint32_t seed) {
    uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u, st = seed * 2654435761u + 1u;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = check_rand(&st);
        switch (in) {
        case IN_RANDOM: r->k[i] = x & mask; break;
        case IN_EQUAL: r->k[i] = 0x5A5A5A5Au & mask; break;
        case IN_SORTED: r->k[i] = (uint32_t)((uint64_t)i * mask / (n > 1 ? n - 1 : 1)); break;
        case IN_REVERSED: r->k[i] = (uint32_t)((uint64_t)(n - 1 - i) * mask / (n > 1 ? n - 1 : 1)); break;
        case IN_ALL_ONES: r->k[i] = mask; break;
        case IN_FEW: r->k[i] = (x % 3 == 0 ? 0 : x % 3 == 1 ? mask / 2 : mask); break;
        case IN_WIDE: r->k[i] = x | ~mask; break;
        case IN_AND2: r->k[i] = x & check_rand(&st) & mask; break;
        case IN_AND4: r->k[i] = x & check_rand(&st) & check_rand(&st) & check_rand(&st) & mask; break;
        }
        r->v[i] = i;
    }
    for (uint32_t i = n; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = check_rand(&st) % i, t = r->v[i - 1];
        r->v[i - 1] = r->v[j];
        r->v[j] = t;
    }
}

static void case_of(rig *r, uint32_t n, uint32_t bits, input in) {
    make_input(r, n, bits, in, n ^ (bits << 20) ^ (uint32_t)in << 28);
    run_case(r, n, bits, input_names[in]);
}

/* Every input kind and digit width at one size. */
static inline void sweep(rig *r, uint32_t n) {
    static const uint32_t widths[] = {1, 5, 8, 9, 16, 17, 24, 31, 32};
    for (size_t i = 0; i < ARRAY_LEN(widths); i++) case_of(r, n, widths[i], IN_RANDOM);
    case_of(r, n, 16, IN_EQUAL);
    case_of(r, n, 32, IN_SORTED);
    case_of(r, n, 32, IN_REVERSED);
    case_of(r, n, 32, IN_ALL_ONES);
    case_of(r, n, 12, IN_FEW);
    case_of(r, n, 12, IN_WIDE);
    case_of(r, n, 32, IN_AND2);
    case_of(r, n, 16, IN_AND4);
}
/* The by-value reference: (key & mask, value, key), by qsort on index triples. */
static const rig *_ref_rig;
static uint32_t _ref_mask;
static int _ref_cmp(const void *a, const void *b) {
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint32_t ki = _ref_rig->k[i] & _ref_mask, kj = _ref_rig->k[j] & _ref_mask;
    if (ki != kj) return ki < kj ? -1 : 1;
    if (_ref_rig->v[i] != _ref_rig->v[j]) return _ref_rig->v[i] < _ref_rig->v[j] ? -1 : 1;
    if (_ref_rig->k[i] != _ref_rig->k[j]) return _ref_rig->k[i] < _ref_rig->k[j] ? -1 : 1;
    return 0;
}
static void rig_ref_by_value(rig *r, uint32_t n, uint32_t mask) {
    uint32_t *idx = malloc(4ull * n + 4);
    for (uint32_t i = 0; i < n; i++) idx[i] = i;
    _ref_rig = r;
    _ref_mask = mask;
    qsort(idx, n, 4, _ref_cmp);
    for (uint32_t i = 0; i < n; i++) {
        r->rk[i] = r->k[idx[i]];
        r->rv[i] = r->v[idx[i]];
    }
    free(idx);
}

/* The producer count: a small producer shader (shaders/tests/sort_producer.comp) copies the
 * keys from a source buffer into the rig's input pair (values = the input's) while it makes the
 * sorter's first count with sort_producer_count.glsl. Returns the dispatches that saves. */
#define PRODUCER_BIND_SRC_KEYS 0
#define PRODUCER_BIND_SRC_VALS 1
#define PRODUCER_BIND_KEYS 2
#define PRODUCER_BIND_VALS 3
#define PRODUCER_BIND_COUNT 4
#define PRODUCER_WG 128
static GLuint _producer_prog;
static GLuint _producer_src[2];
static int rig_produce(rig *r, uint32_t n, uint32_t bits) {
    char err[ERR_LEN] = "";
    if (!_producer_prog) {
        char defines[4096];
        snprintf(defines, sizeof defines, "%s#define SORT_PRODUCER_BINDING %d\n#define WG %d\n", sort_producer_defines(r->s),
                 PRODUCER_BIND_COUNT, PRODUCER_WG);
        _producer_prog = shader_make_compute("tests/sort_producer.comp", defines, err);
        CHECK(_producer_prog != 0, "producer: %s", err);
        if (!_producer_prog) return 0;
    }
    /* The source: the input as uploaded by run_case; the producer copies it back into io. */
    for (int i = 0; i < 2; i++) {
        gpu_buffer_destroy(&_producer_src[i]);
        _producer_src[i] = gpu_buffer_make(4ull * (n ? n : 1), i ? (const void *)r->v : (const void *)r->k,
                                           i ? "test.producer.vals" : "test.producer.keys", err);
    }
    uint32_t poison = POISON;
    if (n) { /* the keys the sort gets come from the producer only */
        glClearNamedBufferSubData(r->io.keys, GL_R32UI, 0, 4ll * n, GL_RED_INTEGER, GL_UNSIGNED_INT, &poison);
        glClearNamedBufferSubData(r->io.vals, GL_R32UI, 0, 4ll * n, GL_RED_INTEGER, GL_UNSIGNED_INT, &poison);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PRODUCER_BIND_SRC_KEYS, _producer_src[0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PRODUCER_BIND_SRC_VALS, _producer_src[1]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PRODUCER_BIND_KEYS, r->io.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PRODUCER_BIND_VALS, r->io.vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PRODUCER_BIND_COUNT, sort_producer_buffer(r->s));
    glUseProgram(_producer_prog);
    glProgramUniform1ui(_producer_prog, 0, n);
    glProgramUniform1ui(_producer_prog, 1, bits);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    glDispatchCompute(gpu_groups(n ? n : 1, PRODUCER_WG), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(0);
    sort_producer_ready(r->s);
    /* radix skips its histogram dispatch, counting its count dispatch */
    return n ? 1 : 0;
}

static inline void rig_producer_destroy(void) {
    shader_destroy(&_producer_prog);
    for (int i = 0; i < 2; i++) gpu_buffer_destroy(&_producer_src[i]);
}

/* A run whose gate word is shut (sort.h, "Gate"), after the producer where `producer`: both pairs
 * are left as they were (the input in the caller's pair, poison in the scratch pair where the rig
 * knows it), and so are the key ranges (counting: those of the run before, which sorted keys of as
 * many bits). Kind: an invariant (nothing written). */
static void rig_shut_case(rig *r, uint32_t n, uint32_t bits, bool producer, GLuint gates) {
    GLuint starts = sort_key_starts(r->s);
    uint64_t ranges = starts ? (1ull << bits) + 1 : 0;
    uint32_t *before = ranges ? malloc(4 * ranges) : NULL, *after = ranges ? malloc(4 * ranges) : NULL;
    if (ranges) glGetNamedBufferSubData(starts, 0, 4ll * (int64_t)ranges, before);
    make_input(r, n, bits, IN_RANDOM, n ^ 0x6A7Eu ^ bits << 20);
    glNamedBufferSubData(r->io.keys, 0, 4ll * n, r->k);
    glNamedBufferSubData(r->io.vals, 0, 4ll * n, r->v);
    if (r->scratch.keys) {
        fill(r->scratch.keys, 0, r->cap, POISON);
        fill(r->scratch.vals, 0, r->cap, POISON);
    }
    if (producer) rig_produce(r, n, bits);
    while (glGetError() != GL_NO_ERROR) {}
    sort_run_gated(r->s, r->io, n, bits, &(sort_gate){gates, 1}, NULL);
    GLenum gl_err = glGetError();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t moved = 0, scratch = 0, ranges_moved = 0;
    glGetNamedBufferSubData(r->io.keys, 0, 4ll * n, r->ok);
    glGetNamedBufferSubData(r->io.vals, 0, 4ll * n, r->ov);
    for (uint32_t i = 0; i < n; i++) moved += r->ok[i] != r->k[i] || r->ov[i] != r->v[i];
    if (r->scratch.keys) {
        glGetNamedBufferSubData(r->scratch.keys, 0, 4ll * r->cap, r->ok);
        glGetNamedBufferSubData(r->scratch.vals, 0, 4ll * r->cap, r->ov);
        scratch = count_not(r->ok, 0, r->cap, POISON) + count_not(r->ov, 0, r->cap, POISON);
    }
    if (ranges) {
        glGetNamedBufferSubData(starts, 0, 4ll * (int64_t)ranges, after);
        for (uint64_t k = 0; k < ranges; k++) ranges_moved += before[k] != after[k];
    }
    printf("  [%s] n=%u bits=%u%s, gate shut: %u pairs moved, %u scratch words written, %u key ranges changed\n", r->name, n,
           bits, producer ? " (producer)" : "", moved, scratch, ranges_moved);
    CHECK(gl_err == GL_NO_ERROR, "%s n=%u bits=%u: GL error 0x%04x from a gated sort_run", r->name, n, bits, gl_err);
    CHECK(moved == 0 && scratch == 0 && ranges_moved == 0,
          "%s n=%u bits=%u: a run with its gate shut moved %u pairs, wrote %u scratch words and changed %u key ranges", r->name,
          n, bits, moved, scratch, ranges_moved);
    free(before);
    free(after);
}

/* The gate at each size: shut runs, producer-counted (where the sorter takes a count) and plain,
 * one and two in a row, each after a sort of as many bits and before sorts that must be right (what
 * the sorter keeps between runs stays in step), and an open gate, which sorts. Kind: CPU reference
 * (qsort) for the sorts, an invariant for the shut runs. */
static void rig_gate_cases(rig *r, const uint32_t *sizes, size_t count) {
    char err[ERR_LEN];
    static const uint32_t words[2] = {0, 1}; /* open, shut */
    GLuint gates = gpu_buffer_make(sizeof words, words, "test.gates", err);
    CHECK(gates != 0, "%s: %s", r->name, err);
    const sort_gate open = {gates, 0};
    bool producer = sort_producer_buffer(r->s) != 0;
    case_of(r, 1000, 20, IN_RANDOM); /* three passes: a radix result in the scratch pair, which is then known */
    for (size_t i = 0; gates && i < count; i++) {
        uint32_t n = sizes[i];
        case_of(r, n, 15, IN_AND2);
        rig_shut_case(r, n, 15, producer, gates);
        r->producer = producer;
        case_of(r, n, 15, IN_RANDOM);
        r->producer = false;
        rig_shut_case(r, n, 15, false, gates);
        rig_shut_case(r, n, 15, producer, gates);
        case_of(r, n, 16, IN_FEW);
        r->gate = &open;
        case_of(r, n, 14, IN_AND2);
        r->producer = producer;
        case_of(r, n, 12, IN_RANDOM);
        r->gate = NULL;
        r->producer = false;
    }
    gpu_buffer_destroy(&gates);
    rig_producer_destroy();
}

#endif
