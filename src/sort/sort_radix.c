/* sort_radix: the GPU LSD radix sort behind the sort interface (sort.h), as sort_algo_radix.
 *
 * Stable, keys and values in separate buffers, any n from 0 to the sorter's capacity, sorting by
 * the low `bits` of each key only: ceil(bits / 8) passes of one 8-bit digit each. The passes
 * ping-pong between the caller's pair and the sorter's scratch pair; sort_run returns the pair
 * that holds the result (the caller's for an even number of passes, the scratch for an odd one).
 *
 * Three ways through, chosen per call by n (thresholds below, easy to retune):
 *   one-group  n <= RADIX_ONEGROUP_MAX (off by default, see below): ONE dispatch of one work group of RADIX_OG_WG
 *              invocations that runs every pass itself (shaders/sort/radix_onegroup.comp):
 *              nothing but the GPU's own latency between passes.
 *   tiles      larger n: per pass, reduce-then-scan over tiles of RADIX_TILE keys, 3 dispatches:
 *              count (per-tile digit counts, radix_count.comp), scan (one group per digit column
 *              of the tile x digit table, radix_scan.comp), scatter (rank in the tile, sort the
 *              tile in shared memory, write runs of equal digits to consecutive addresses,
 *              radix_scatter.comp). No work group ever waits on another (GL promises no forward
 *              progress between groups): no decoupled look-back.
 *   fused      medium n (at most RADIX_FUSED_TILES tiles): the tiles path in P + 1 dispatches:
 *              count for the first pass, then one scatter per pass. The scatter of pass k also
 *              counts, with global atomics, the next pass's digit of every key at the tile it
 *              lands in; the last work group of each dispatch to finish (a ticket counter, no
 *              waiting) scans that table (radix_fused.glsl), so no scan dispatches.
 *
 * Each kernel is built in one of two variants:
 *   subgroup  GL_KHR_shader_subgroup (ballot, arithmetic, shuffle) where caps->subgroup is true
 *             and the subgroup size is 32..128: ranking by one ballot per digit bit, scans with
 *             subgroupInclusiveAdd.
 *   shared    elsewhere, or with desc->no_subgroup: the same algorithm with "subgroups" of
 *             RADIX_EMU_SG invocations emulated in shared memory with barrier().
 *
 * Knobs read by make, for tuning without a rebuild and for the tests:
 *   FLUID_RADIX_ONEGROUP_MAX=N      replaces RADIX_ONEGROUP_MAX; 0 sends every n down the tiles path
 *                                   (the tests use it to reach tile edges at small n).
 *   FLUID_RADIX_FUSED_TILES=T       replaces RADIX_FUSED_TILES (0 .. RADIX_FUSED_MAX_TILES); 0 turns
 *                                   the fused path off.
 *   FLUID_RADIX_EMULATE_SUBGROUP=S  builds the subgroup variant with the KHR operations emulated in
 *                                   shared memory for subgroups of S (32, 64, 128) invocations, so
 *                                   a driver without GL_KHR_shader_subgroup (llvmpipe) runs and
 *                                   tests the subgroup path's own code. Slow; for tests only.
 *
 * It does NOT sort signed or float keys (map them to ordered uints first), sort descending, or
 * keep the scratch contents meaningful after a call.
 */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sort/sort.h"
#include "sort/sort_layout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest n sorted by the one-group kernel (at most RADIX_OG_WG * RADIX_OG_KPT): 0, off by
 * default. Measured on the H100 (docs/BENCHMARKS.md): one group on one SM sorts 27,648 16-bit
 * pairs in 156 us, the tiles path in 43 us; the kernel stays for GPUs with a costlier dispatch
 * (FLUID_RADIX_ONEGROUP_MAX=32768 turns it on). */
#define RADIX_ONEGROUP_MAX 0
/* The most tiles (of RADIX_TILE keys) sorted by the fused path; past it, reduce-then-scan.
 * Measured on the H100 (before the ranking lost its barriers): the fused path wins while its last
 * group's scan of tiles x 256 counts is short (27,648 16-bit pairs, 7 tiles: 57 us against 62 us)
 * and loses past that (1,048,576 32-bit pairs, 256 tiles: 661 us against 193 us; 65,536 pairs,
 * 16 tiles: even). */
#define RADIX_FUSED_TILES 16
/* Emulated subgroup sizes of the shared path (tile kernels, one-group kernel): the shared memory
 * for per-stream digit counters is (WG / EMU_SG) KiB, which must fit llvmpipe's 32 KiB. */
#define RADIX_EMU_SG 32
#define RADIX_OG_EMU_SG 64

_Static_assert(RADIX_FUSED_TILES <= RADIX_FUSED_MAX_TILES, "the fused tables are sized for RADIX_FUSED_MAX_TILES");
_Static_assert(RADIX_ONEGROUP_MAX <= RADIX_OG_WG * RADIX_OG_KPT, "the one-group kernel holds RADIX_OG_KPT keys per invocation");

enum { _RADIX_ONEGROUP, _RADIX_COUNT, _RADIX_SCAN, _RADIX_SCATTER, _RADIX_PROGRAMS };
static const char *const _radix_files[_RADIX_PROGRAMS] = {"sort/radix_onegroup.comp", "sort/radix_count.comp",
                                                          "sort/radix_scan.comp", "sort/radix_scatter.comp"};
static const char *const _radix_names[_RADIX_PROGRAMS] = {"radix.onegroup", "radix.count", "radix.scan",
                                                          "radix.scatter"};

typedef struct _sort_radix {
    bool subgroup, emulate; /* emulate: the subgroup code on emulated subgroups (tests) */
    int subgroup_size;
    uint32_t capacity, max_tiles, onegroup_max, fused_tiles;
    int max_groups_x;
    GLuint prog[_RADIX_PROGRAMS];
    GLuint keys2, vals2;   /* the scratch pair */
    GLuint tables[2], totals[2]; /* tile x digit counts (digit-major), per-digit totals: this pass, next */
    GLuint counter;              /* fused path: work groups done */
} _sort_radix;

static uint32_t _radix_passes(uint32_t bits) { return (bits + RADIX_BITS - 1) / RADIX_BITS; }
static uint32_t _radix_tiles(uint32_t n) { return (n + RADIX_TILE - 1) / RADIX_TILE; }
static bool _radix_is_onegroup(const _sort_radix *r, uint32_t n) { return n <= r->onegroup_max; }
static bool _radix_is_fused(const _sort_radix *r, uint32_t n) { return _radix_tiles(n) <= r->fused_tiles; }
static uint32_t _radix_mask(uint32_t bits, uint32_t pass) {
    uint32_t left = bits - pass * RADIX_BITS;
    return left >= RADIX_BITS ? (1u << RADIX_BITS) - 1u : (1u << left) - 1u;
}

static uint32_t _radix_dispatches(const _sort_radix *r, uint32_t n, uint32_t bits) {
    if (n == 0) return 0;
    if (_radix_is_onegroup(r, n)) return 1;
    return _radix_is_fused(r, n) ? _radix_passes(bits) + 1 : 3 * _radix_passes(bits);
}

static void _radix_destroy(void *p) {
    _sort_radix *r = p;
    if (!r) return;
    for (int i = 0; i < _RADIX_PROGRAMS; i++) shader_destroy(&r->prog[i]);
    gpu_buffer_destroy(&r->keys2);
    gpu_buffer_destroy(&r->vals2);
    for (int i = 0; i < 2; i++) {
        gpu_buffer_destroy(&r->tables[i]);
        gpu_buffer_destroy(&r->totals[i]);
    }
    gpu_buffer_destroy(&r->counter);
    free(r);
}

static GLuint _radix_program(const _sort_radix *r, int which, const char *label, char *err) {
    bool og = which == _RADIX_ONEGROUP;
    char defines[256], sg[64];
    if (r->subgroup)
        snprintf(sg, sizeof sg, "#define USE_SUBGROUP 1\n#define SG_EMULATE %d\n#define SG_SIZE %d\n", r->emulate,
                 r->subgroup_size);
    else
        snprintf(sg, sizeof sg, "#define USE_SUBGROUP 0\n#define EMU_SG %d\n", og ? RADIX_OG_EMU_SG : RADIX_EMU_SG);
    snprintf(defines, sizeof defines, "#define WG %d\n#define KPT %d\n%s", og ? RADIX_OG_WG : RADIX_WG,
             og ? RADIX_OG_KPT : RADIX_KPT, sg);
    GLuint p = shader_make_compute(_radix_files[which], defines, err);
    if (p) {
        char name[128];
        snprintf(name, sizeof name, "%s.%s.%s", label, _radix_names[which] + 6, r->subgroup ? "subgroup" : "shared");
        glObjectLabel(GL_PROGRAM, p, -1, name);
    }
    return p;
}

/* Bytes of shared memory of the one-group kernel (onegroup) or of the scatter kernel (the largest
 * tile kernel); must match the shared declarations of radix_common.glsl and the kernels. */
static int _radix_shared_bytes(const _sort_radix *r, bool onegroup) {
    int wg = onegroup ? RADIX_OG_WG : RADIX_WG;
    int sg = r->subgroup ? r->subgroup_size : onegroup ? RADIX_OG_EMU_SG : RADIX_EMU_SG;
    int words = wg / sg * RADIX;                                /* s_whist */
    words += r->subgroup ? wg / sg + (r->emulate ? wg + 4 * wg / sg : 0) : 2 * wg; /* s_sgsum, s_sgemu, s_sgballot | s_emu, s_tmp */
    words += onegroup ? RADIX : RADIX_TILE + 2 * RADIX;           /* s_dstart | s_x, s_dstart, s_dest */
    return 4 * words;
}

static void *_radix_make(const sort_desc *desc, const gpu_caps *caps, char *err) {
    _sort_radix *r = calloc(1, sizeof *r);
    if (!r) {
        fail(err, "out of host memory for the radix sorter");
        return NULL;
    }
    r->subgroup = caps->subgroup && !desc->no_subgroup && caps->subgroup_size >= 32 && caps->subgroup_size <= 128;
    r->subgroup_size = r->subgroup ? caps->subgroup_size : 0;
    r->capacity = desc->capacity;
    r->max_tiles = _radix_tiles(desc->capacity);
    r->max_groups_x = caps->max_groups_x > 0 ? caps->max_groups_x : 65535;
    r->onegroup_max = RADIX_ONEGROUP_MAX;
    uint64_t v;
    const char *env = getenv("FLUID_RADIX_ONEGROUP_MAX");
    if (env && *env) {
        if (!parse_u64(env, 0, RADIX_OG_WG * RADIX_OG_KPT, &v)) {
            fail(err, "FLUID_RADIX_ONEGROUP_MAX='%s' is not a number of pairs from 0 to %d; fix or unset it", env,
                 RADIX_OG_WG * RADIX_OG_KPT);
            _radix_destroy(r);
            return NULL;
        }
        r->onegroup_max = (uint32_t)v;
    }
    r->fused_tiles = RADIX_FUSED_TILES;
    env = getenv("FLUID_RADIX_FUSED_TILES");
    if (env && *env) {
        if (!parse_u64(env, 0, RADIX_FUSED_MAX_TILES, &v)) {
            fail(err, "FLUID_RADIX_FUSED_TILES='%s' is not a number of tiles from 0 to %d; fix or unset it", env,
                 RADIX_FUSED_MAX_TILES);
            _radix_destroy(r);
            return NULL;
        }
        r->fused_tiles = (uint32_t)v;
    }
    env = getenv("FLUID_RADIX_EMULATE_SUBGROUP");
    if (env && *env) {
        if (!parse_u64(env, 32, 128, &v) || (v & (v - 1))) {
            fail(err, "FLUID_RADIX_EMULATE_SUBGROUP='%s' is not a subgroup size of 32, 64 or 128; fix or unset it", env);
            _radix_destroy(r);
            return NULL;
        }
        r->subgroup = r->emulate = true;
        r->subgroup_size = (int)v;
    }
    const char *label = desc->label ? desc->label : "radix";

    /* Shared memory the kernels declare, against the GPU's limit (the driver would refuse to link):
     * without room for the one-group kernel, every n takes the tiles path. */
    if (_radix_shared_bytes(r, true) > caps->max_shared_bytes || caps->max_invocations < RADIX_OG_WG)
        r->onegroup_max = 0;
    if (_radix_shared_bytes(r, false) > caps->max_shared_bytes) {
        fail(err, "the radix sort needs %d bytes of shared memory per work group but this GPU has %d; use --sort bitonic",
             _radix_shared_bytes(r, false), caps->max_shared_bytes);
        _radix_destroy(r);
        return NULL;
    }

    for (int i = 0; i < _RADIX_PROGRAMS; i++) {
        if (i == _RADIX_ONEGROUP && r->onegroup_max == 0) continue;
        r->prog[i] = _radix_program(r, i, label, err);
        if (!r->prog[i]) {
            _radix_destroy(r);
            return NULL;
        }
    }
    char name[128];
    uint64_t pair_bytes = 4ull * (desc->capacity ? desc->capacity : 1);
    uint64_t table_bytes = 4ull * RADIX * (r->max_tiles ? r->max_tiles : 1);
    if (table_bytes > (uint64_t)caps->max_ssbo_bytes) {
        fail(err, "%u pairs need a %llu MiB radix table, more than this GPU's storage-buffer limit; use fewer",
             desc->capacity, (unsigned long long)(table_bytes >> 20));
        _radix_destroy(r);
        return NULL;
    }
    uint32_t fused_tiles = r->max_tiles < r->fused_tiles ? r->max_tiles : r->fused_tiles;
    struct { GLuint *buf; uint64_t size; const char *what; } bufs[] = {
        {&r->keys2, pair_bytes, "keys-scratch"}, {&r->vals2, pair_bytes, "vals-scratch"},
        {&r->tables[0], table_bytes, "tile-counts"}, {&r->tables[1], 4ull * RADIX * fused_tiles, "tile-counts-next"},
        {&r->totals[0], 4 * RADIX, "digit-totals"},  {&r->totals[1], 4 * RADIX, "digit-totals-next"},
        {&r->counter, 4, "groups-done"}};
    for (size_t i = 0; i < ARRAY_LEN(bufs); i++) {
        snprintf(name, sizeof name, "%s.%s", label, bufs[i].what);
        *bufs[i].buf = gpu_buffer_make(bufs[i].size, NULL, name, err);
        if (!*bufs[i].buf) {
            _radix_destroy(r);
            return NULL;
        }
    }
    return r;
}

/* Binds the pairs a (read) and b (written) to the kernels' binding points. */
static void _radix_bind(sort_pairs a, sort_pairs b) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_KEYS_IN, a.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_VALS_IN, a.vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_KEYS_OUT, b.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_VALS_OUT, b.vals);
}

/* One dispatch of `groups` groups (a 2-D grid past the per-dimension limit), bracketed for tracing
 * and followed by the barrier that makes its writes visible to the next one. */
static void _radix_dispatch(const _sort_radix *r, int which, uint32_t groups, const sort_trace *trace) {
    uint32_t gx = groups, gy = 1;
    if (groups > (uint32_t)r->max_groups_x) {
        gy = (groups + (uint32_t)r->max_groups_x - 1) / (uint32_t)r->max_groups_x;
        gx = (groups + gy - 1) / gy;
    }
    glUseProgram(r->prog[which]);
    sort_trace_begin(trace, _radix_names[which]);
    glDispatchCompute(gx, gy, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    sort_trace_end(trace);
}

static sort_pairs _radix_run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    _sort_radix *r = p;
    sort_pairs scratch = {r->keys2, r->vals2}, result = io;
    uint32_t passes = _radix_passes(bits);
    if (n > r->capacity) n = r->capacity;
    if (n == 0) {
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        return io;
    }
    if (_radix_is_onegroup(r, n)) {
        GLuint prog = r->prog[_RADIX_ONEGROUP];
        glProgramUniform1ui(prog, RADIX_LOC_N, n);
        glProgramUniform1ui(prog, RADIX_LOC_BITS, bits);
        _radix_bind(io, scratch);
        _radix_dispatch(r, _RADIX_ONEGROUP, 1, trace);
        result = passes % 2 ? scratch : io;
    } else {
        uint32_t tiles = _radix_tiles(n);
        bool fused = _radix_is_fused(r, n);
        sort_pairs src = io, dst = scratch;
        GLuint count = r->prog[_RADIX_COUNT], scan = r->prog[_RADIX_SCAN], scatter = r->prog[_RADIX_SCATTER];
        glProgramUniform1ui(count, RADIX_LOC_N, n);
        glProgramUniform1ui(count, RADIX_LOC_TILES, tiles);
        glProgramUniform1ui(count, RADIX_LOC_FUSED, fused);
        glProgramUniform1ui(scan, RADIX_LOC_TILES, tiles);
        glProgramUniform1ui(scatter, RADIX_LOC_N, n);
        glProgramUniform1ui(scatter, RADIX_LOC_TILES, tiles);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_COUNTER, r->counter);
        for (uint32_t pass = 0; pass < passes; pass++) {
            /* Fused: pass k reads table/totals k % 2 and counts into the other pair. */
            uint32_t cur = fused ? pass % 2 : 0;
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TABLE, r->tables[cur]);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TOTALS, r->totals[cur]);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TABLE_NEXT, r->tables[1 - cur]);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TOTALS_NEXT, r->totals[1 - cur]);
            _radix_bind(src, dst);
            if (!fused || pass == 0) {
                glProgramUniform1ui(count, RADIX_LOC_SHIFT, pass * RADIX_BITS);
                glProgramUniform1ui(count, RADIX_LOC_MASK, _radix_mask(bits, pass));
                _radix_dispatch(r, _RADIX_COUNT, tiles, trace);
            }
            if (!fused) _radix_dispatch(r, _RADIX_SCAN, RADIX, trace);
            bool next = pass + 1 < passes;
            glProgramUniform1ui(scatter, RADIX_LOC_SHIFT, pass * RADIX_BITS);
            glProgramUniform1ui(scatter, RADIX_LOC_MASK, _radix_mask(bits, pass));
            glProgramUniform1ui(scatter, RADIX_LOC_FUSED, fused ? (next ? 1 : 2) : 0);
            glProgramUniform1ui(scatter, RADIX_LOC_NEXT_SHIFT, next ? (pass + 1) * RADIX_BITS : 0);
            glProgramUniform1ui(scatter, RADIX_LOC_NEXT_MASK, next ? _radix_mask(bits, pass + 1) : 0);
            _radix_dispatch(r, _RADIX_SCATTER, tiles, trace);
            sort_pairs t = src;
            src = dst;
            dst = t;
        }
        result = src;
    }
    glUseProgram(0);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return result;
}

static void _radix_describe(void *p, uint32_t n, uint32_t bits, char *out, size_t len) {
    _sort_radix *r = p;
    if (bits < 1) bits = 1;
    if (bits > 32) bits = 32;
    if (n > r->capacity) n = r->capacity;
    uint32_t passes = _radix_passes(bits), d = _radix_dispatches(r, n, bits);
    char path[64];
    if (r->subgroup)
        snprintf(path, sizeof path, "%ssubgroup path (size %d)", r->emulate ? "emulated " : "", r->subgroup_size);
    else
        snprintf(path, sizeof path, "shared path (emulated subgroups of %d)", n <= r->onegroup_max ? RADIX_OG_EMU_SG : RADIX_EMU_SG);
    const char *plural = passes == 1 ? "" : "es";
    if (_radix_is_onegroup(r, n))
        snprintf(out, len, "radix: %u pass%s of %d-bit digits, one-group (1 group of %d x up to %d keys), %s, %u dispatch%s",
                 passes, plural, RADIX_BITS, RADIX_OG_WG, RADIX_OG_KPT, path, d, d == 1 ? "" : "es");
    else
        snprintf(out, len, "radix: %u pass%s of %d-bit digits, %s, tiles of %d keys (%d x %d) x %u, %s, %u dispatches (%s)",
                 passes, plural, RADIX_BITS, _radix_is_fused(r, n) ? "fused" : "reduce-then-scan", RADIX_TILE, RADIX_WG,
                 RADIX_KPT, _radix_tiles(n), path, d,
                 _radix_is_fused(r, n) ? "count, then a scatter per pass" : "count, scan, scatter per pass");
}

const sort_algo sort_algo_radix = {"radix", "LSD radix sort, 8-bit digits, reduce-then-scan (stable)", _radix_make,
                                   _radix_destroy, _radix_run, _radix_describe};
