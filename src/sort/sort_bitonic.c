/* sort_bitonic: the bitonic sort behind the sort_algo interface (sort_algo_bitonic).
 *
 * Orders (key, value) pairs by key, then value, so for distinct values given in ascending order
 * (value = particle index, as in the fluid) the result is exactly that of a stable sort by key.
 * n is padded to the next power of two with the pair (0xFFFFFFFF, 0xFFFFFFFF), which never
 * displaces a real pair from the first n places (it is >= every pair, and equal only to an
 * identical one).
 *
 * Dispatches, with B = BITONIC_BLOCK pairs per work group in shared memory and P the padded size:
 *   bitonic.block_sort   1      reads the caller's n pairs (+ padding) into the sorter's own
 *                               buffers, sorting each block of B completely (merges 2 .. B)
 *   for each merge size k = 2B .. P:
 *     bitonic.global     1+     every stride k/2 .. B in registers, up to BITONIC_GLOBAL_MAX_LEVELS
 *                               strides per pass (one pass for k <= 2^4 B, i.e. P <= 64K pairs)
 *     bitonic.block_merge 1     strides B/2 .. 1 in shared memory
 * so 1 + 2 log2(P/B) dispatches up to P = 16B (27,648 pairs: P = 32,768, 7 dispatches).
 * Inside a work group every thread holds 8 pairs in registers and does 3 strides per barrier.
 *
 * The result is in the sorter's own buffers (returned by run; valid until the next run); the
 * caller's buffers are only read, and may be the sorter's own buffers from an earlier run.
 * It does NOT look at `bits` (whole keys are compared) and does not keep the input order of
 * pairs that are equal in both key and value (they are indistinguishable).
 */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sort/sort.h"
#include "sort/sort_layout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Passed to the shaders as defines (bitonic_block.comp, bitonic_global.comp): defined only here. */
#define BITONIC_BLOCK_MAX 4096u     /* pairs per shared-memory block: 8 bytes each, 32 KiB */
#define BITONIC_PER_THREAD 8u       /* pairs a block-kernel thread holds (the shader checks it is 8) */
#define BITONIC_GLOBAL_MAX_LEVELS 4 /* strides per global pass: 16 pairs in registers per thread */
#define BITONIC_GLOBAL_WG 256u
#define BITONIC_MAX_GROUPS_X 32768u /* a power of two <= 65,535: larger dispatches are split over y */

typedef struct _bitonic {
    GLuint block_sort, block_merge;
    GLuint global[BITONIC_GLOBAL_MAX_LEVELS + 1]; /* [levels], levels 1.. */
    GLuint keys, vals;                            /* the sorter's own buffers, `slots` pairs */
    uint32_t block;                               /* B */
    uint64_t slots;
    uint32_t gate; /* SORT_LOC_GATE's value in the runs (sort.h, "Gate") */
} _bitonic;

/* One dispatch of the plan. */
typedef enum _bitonic_kind { _BITONIC_BLOCK_SORT, _BITONIC_GLOBAL, _BITONIC_BLOCK_MERGE } _bitonic_kind;
typedef struct _bitonic_pass {
    _bitonic_kind kind;
    uint32_t k;         /* merge size (block sort: the largest merge size done) */
    uint32_t jbot_log2; /* global: smallest stride */
    uint32_t levels;    /* global: strides in this pass */
} _bitonic_pass;

/* Enough for P = 2^31 with B = 8: 1 + 28 * (1 + 7). */
#define _BITONIC_MAX_PASSES 256

static uint64_t _bitonic_pow2_at_least(uint64_t n) {
    uint64_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

static uint32_t _bitonic_log2(uint64_t p) {
    uint32_t l = 0;
    while ((1ull << l) < p) l++;
    return l;
}

/* The padded size for n pairs: 0 when there is nothing to sort (n < 2). */
static uint64_t _bitonic_padded(uint32_t n) { return n < 2 ? 0 : _bitonic_pow2_at_least(n); }

/* The dispatches that sort n pairs; returns how many. */
static int _bitonic_plan(const _bitonic *b, uint32_t n, _bitonic_pass *out) {
    uint64_t p = _bitonic_padded(n);
    if (!p) return 0;
    int count = 0;
    out[count++] = (_bitonic_pass){_BITONIC_BLOCK_SORT, (uint32_t)(p < b->block ? p : b->block), 0, 0};
    uint32_t blog = _bitonic_log2(b->block);
    for (uint64_t k = 2ull * b->block; k <= p; k <<= 1) {
        /* Strides k/2 .. B: log2(k/B) levels, split evenly into passes of at most MAX_LEVELS. */
        uint32_t levels = _bitonic_log2(k) - blog;
        uint32_t passes = (levels + BITONIC_GLOBAL_MAX_LEVELS - 1) / BITONIC_GLOBAL_MAX_LEVELS;
        uint32_t top_log2 = _bitonic_log2(k) - 1;
        for (uint32_t i = 0; i < passes; i++) {
            uint32_t l = levels / passes + (i < levels % passes ? 1 : 0);
            out[count++] = (_bitonic_pass){_BITONIC_GLOBAL, (uint32_t)k, top_log2 + 1 - l, l};
            top_log2 -= l;
        }
        out[count++] = (_bitonic_pass){_BITONIC_BLOCK_MERGE, (uint32_t)k, 0, 0};
    }
    return count;
}

static void _bitonic_destroy(void *p) {
    _bitonic *b = p;
    if (!b) return;
    shader_destroy(&b->block_sort);
    shader_destroy(&b->block_merge);
    for (int l = 0; l <= BITONIC_GLOBAL_MAX_LEVELS; l++) shader_destroy(&b->global[l]);
    gpu_buffer_destroy(&b->keys);
    gpu_buffer_destroy(&b->vals);
    free(b);
}

static GLuint _bitonic_program(const char *file, const char *defines, const char *label, const char *what, char *err) {
    GLuint prog = shader_make_compute(file, defines, err);
    if (!prog) return 0;
    char name[128];
    snprintf(name, sizeof name, "%s.%s", label, what);
    glObjectLabel(GL_PROGRAM, prog, -1, name);
    return prog;
}

static void *_bitonic_make(const sort_desc *desc, const gpu_caps *caps, char *err) {
    _bitonic *b = calloc(1, sizeof *b);
    if (!b) {
        fail(err, "out of host memory");
        return NULL;
    }
    /* The largest block the work-group limits allow (GL 4.5 guarantees 32 KiB and 1,024). */
    b->block = BITONIC_BLOCK_MAX;
    while (b->block > 16 &&
           ((int64_t)b->block * 8 > caps->max_shared_bytes || b->block / BITONIC_PER_THREAD > (uint32_t)caps->max_invocations))
        b->block >>= 1;
    uint64_t p = _bitonic_pow2_at_least(desc->capacity ? desc->capacity : 1);
    b->slots = p < b->block ? b->block : p;
    if (4 * b->slots > (uint64_t)caps->max_ssbo_bytes || b->slots > (1ull << 31)) {
        fail(err,
             "bitonic sort of %u pairs pads to %llu, needing %llu MiB per buffer, more than this GPU's %lld MiB "
             "storage-buffer limit; use fewer pairs or the radix sort",
             desc->capacity, (unsigned long long)b->slots, (unsigned long long)((4 * b->slots) >> 20),
             (long long)(caps->max_ssbo_bytes >> 20));
        free(b);
        return NULL;
    }

    char defines[sizeof SORT_LAYOUT_GLSL_TEXT + 256], name[128];
    const char *fmt = SORT_LAYOUT_GLSL_TEXT "#define BITONIC_BLOCK %u\n#define BITONIC_PER_THREAD %u\n#define BITONIC_FIRST %d\n";
    snprintf(defines, sizeof defines, fmt, b->block, BITONIC_PER_THREAD, 1);
    b->block_sort = _bitonic_program("sort/bitonic_block.comp", defines, desc->label, "block_sort", err);
    snprintf(defines, sizeof defines, fmt, b->block, BITONIC_PER_THREAD, 0);
    if (b->block_sort) b->block_merge = _bitonic_program("sort/bitonic_block.comp", defines, desc->label, "block_merge", err);
    bool ok = b->block_sort && b->block_merge;
    for (int l = 1; ok && l <= BITONIC_GLOBAL_MAX_LEVELS; l++) {
        snprintf(defines, sizeof defines, SORT_LAYOUT_GLSL_TEXT "#define BITONIC_LEVELS %d\n#define BITONIC_GLOBAL_WG %u\n", l,
                 BITONIC_GLOBAL_WG);
        snprintf(name, sizeof name, "global%d", l);
        b->global[l] = _bitonic_program("sort/bitonic_global.comp", defines, desc->label, name, err);
        ok = b->global[l] != 0;
    }
    if (ok) {
        snprintf(name, sizeof name, "%s.keys", desc->label);
        b->keys = gpu_buffer_make(4 * b->slots, NULL, name, err);
        snprintf(name, sizeof name, "%s.vals", desc->label);
        if (b->keys) b->vals = gpu_buffer_make(4 * b->slots, NULL, name, err);
        ok = b->keys && b->vals;
    }
    if (!ok) {
        _bitonic_destroy(b);
        return NULL;
    }
    return b;
}

/* A 2-D dispatch of `groups` work groups (a power of two), x at most BITONIC_MAX_GROUPS_X. */
static void _bitonic_dispatch(uint64_t groups) {
    uint64_t x = groups < BITONIC_MAX_GROUPS_X ? groups : BITONIC_MAX_GROUPS_X;
    glDispatchCompute((GLuint)x, (GLuint)(groups / x), 1);
}

static sort_pairs _bitonic_run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    _bitonic *b = p;
    _bitonic_pass plan[_BITONIC_MAX_PASSES];
    int count = _bitonic_plan(b, n, plan);
    if (count == 0) {
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        return io; /* 0 or 1 pair: already sorted */
    }
    uint64_t padded = _bitonic_padded(n);
    uint64_t blocks = padded < b->block ? 1 : padded / b->block;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BITONIC_BIND_IN_KEYS, io.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BITONIC_BIND_IN_VALS, io.vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BITONIC_BIND_KEYS, b->keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BITONIC_BIND_VALS, b->vals);
    for (int i = 0; i < count; i++) {
        const _bitonic_pass *s = &plan[i];
        switch (s->kind) {
        case _BITONIC_BLOCK_SORT:
            sort_trace_begin(trace, "bitonic.block_sort");
            glUseProgram(b->block_sort);
            glUniform1ui(SORT_LOC_GATE, b->gate);
            glUniform1ui(BITONIC_LOC_N, n);
            glUniform1ui(BITONIC_LOC_K, s->k);
            _bitonic_dispatch(blocks);
            break;
        case _BITONIC_GLOBAL: {
            sort_trace_begin(trace, "bitonic.global");
            uint64_t threads = padded >> s->levels;
            glUseProgram(b->global[s->levels]);
            glUniform1ui(SORT_LOC_GATE, b->gate);
            glUniform1ui(BITONIC_LOC_K, s->k);
            glUniform1ui(BITONIC_LOC_JBOT_LOG2, s->jbot_log2);
            glUniform1ui(BITONIC_LOC_THREADS, (GLuint)threads);
            _bitonic_dispatch(gpu_groups(threads, BITONIC_GLOBAL_WG));
            break;
        }
        case _BITONIC_BLOCK_MERGE:
            sort_trace_begin(trace, "bitonic.block_merge");
            glUseProgram(b->block_merge);
            glUniform1ui(SORT_LOC_GATE, b->gate);
            glUniform1ui(BITONIC_LOC_K, s->k);
            _bitonic_dispatch(blocks);
            break;
        }
        glMemoryBarrier(i + 1 < count ? GL_SHADER_STORAGE_BARRIER_BIT
                                      : GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        sort_trace_end(trace);
    }
    glUseProgram(0);
    return (sort_pairs){b->keys, b->vals};
}

static void _bitonic_describe(void *p, uint32_t n, uint32_t bits, char *out, size_t len) {
    _bitonic *b = p;
    _bitonic_pass plan[_BITONIC_MAX_PASSES];
    int count = _bitonic_plan(b, n, plan), global = 0, merge = 0;
    for (int i = 0; i < count; i++) {
        global += plan[i].kind == _BITONIC_GLOBAL;
        merge += plan[i].kind == _BITONIC_BLOCK_MERGE;
    }
    if (count == 0) snprintf(out, len, "bitonic: %u pair%s, nothing to sort, 0 dispatches", n, n == 1 ? "" : "s");
    else
        snprintf(out, len,
                 "bitonic: %u pairs padded to %llu, blocks of %u in shared memory, %d dispatch%s "
                 "(1 block sort, %d global, %d block merge)",
                 n, (unsigned long long)_bitonic_padded(n), b->block, count, count == 1 ? "" : "es", global, merge);
}

static void _bitonic_gate(void *p, const sort_gate *gate) { ((_bitonic *)p)->gate = sort_gate_value(gate); }

const sort_algo sort_algo_bitonic = {.name = "bitonic",
                                     .summary = "bitonic network by (key, value), shared-memory blocks",
                                     .make = _bitonic_make,
                                     .destroy = _bitonic_destroy,
                                     .run = _bitonic_run,
                                     .describe = _bitonic_describe,
                                     .gate = _bitonic_gate};
