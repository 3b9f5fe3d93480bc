/* sort_radix: the GPU LSD radix sort behind the sort interface (sort.h), as sort_algo_radix.
 *
 * Stable, keys and values in separate buffers, any n from 0 to the sorter's capacity, sorting by
 * the low `bits` of each key only: ceil(bits / 8) passes of one 8-bit digit each, or on the
 * onesweep path ceil(bits / 9) passes of 9-bit digits where that is a pass fewer (9, 17-18 and
 * 25-27 bits: the wide scatter, each invocation two digits; built where the sorter's key_bits can
 * need it, its capacity is at most RADIX_WIDE_MAX and its shared memory fits the GPU, `wide`). The
 * passes
 * ping-pong between the caller's pair and the sorter's scratch pair; sort_run returns the pair
 * that holds the result (the caller's for an even number of passes, the scratch for an odd one).
 *
 * Four ways through. Onesweep by default, on every driver, up to RADIX_OS_AUTO_MAX pairs (or where
 * forced, for every n); its look-back waits on earlier tiles where the driver is known to make
 * forward progress between work groups, and elsewhere waits a bounded time and then counts the
 * late tile itself (the look-back with fallback: radix_onesweep.comp):
 *   onesweep   1 + P dispatches: one histogram of every pass's digits (radix_histogram.comp, the
 *              keys read once), then one scatter per pass (radix_onesweep.comp) whose tiles take
 *              their ids from a ticket counter and find the count of each digit in the tiles
 *              before them by a chained scan with decoupled look-back. Tiles of WG x kpt keys:
 *              os_kpt_small up to os_small_max pairs, os_kpt past it. A producer can make the
 *              histogram itself (sort_producer_*): P dispatches. Nothing is cleared by a separate
 *              call: see the housekeeping in radix_onesweep.comp.
 * Reduce-then-scan where forced (sort_desc.radix_path, FLUID_RADIX_PATH) or past RADIX_OS_AUTO_MAX,
 * chosen per call by n (thresholds below, easy to retune):
 *   one-group  n <= RADIX_ONEGROUP_MAX (off by default, see below): ONE dispatch of one work group of RADIX_OG_WG
 *              invocations that runs every pass itself (shaders/sort/radix_onegroup.comp):
 *              nothing but the GPU's own latency between passes.
 *   tiles      larger n: per pass, reduce-then-scan over tiles of RADIX_TILE keys, 3 dispatches:
 *              count (per-tile digit counts, radix_count.comp), scan (one group per digit column
 *              of the tile x digit table, radix_scan.comp), scatter (rank in the tile, sort the
 *              tile in shared memory, write runs of equal digits to consecutive addresses,
 *              radix_scatter.comp). No work group ever waits on another (GL promises no forward
 *              progress between groups): no decoupled look-back.
 *   count-ahead medium n (at most RADIX_COUNT_AHEAD_TILES tiles): the tiles path in P + 1 dispatches:
 *              count for the first pass, then one scatter per pass. The scatter of pass k also
 *              counts, with global atomics, the next pass's digit of every key at the tile it
 *              lands in; the last work group of each dispatch to finish (a ticket counter, no
 *              waiting) scans that table (radix_count_ahead.glsl), so no scan dispatches.
 *
 * Each kernel is built in one of two variants:
 *   subgroup  GL_KHR_shader_subgroup (ballot, arithmetic, shuffle) where caps->subgroup is true
 *             and the subgroup size is 32..128: ranking by one ballot per digit bit, scans with
 *             subgroupInclusiveAdd.
 *   shared    elsewhere, or with desc->no_subgroup: the same algorithm with "subgroups" of
 *             RADIX_EMU_SG invocations emulated in shared memory with barrier().
 *
 * Tuning (sort_radix_desc in sort.h; sort_desc.radix, else sort_radix_tuning_set's): zero takes
 * the default in every field, filled by _radix_desc_defaults below, the one place a default lives.
 * sort_radix_desc_from_env fills it from the environment, once, at the program's edge (main.c):
 *   FLUID_RADIX_PATH=P              auto, onesweep or reduce-then-scan: replaces desc->radix_path.
 *   FLUID_ONESWEEP_KPT=K            keys per invocation of the onesweep tiles (1 .. 24, default
 *                                   RADIX_OS_KPT); FLUID_ONESWEEP_SMALL_KPT=K the same up to
 *                                   FLUID_ONESWEEP_SMALL_MAX=N pairs (defaults RADIX_OS_SMALL_*).
 *   FLUID_ONESWEEP_MAX=N            the most pairs radix sorts by onesweep (default
 *                                   RADIX_OS_AUTO_MAX; forced onesweep: all); reduce-then-scan past it.
 *   FLUID_ONESWEEP_WINDOW=W         look-back words read at a time (1 .. 32, default RADIX_OS_WINDOW).
 *   FLUID_ONESWEEP_TEST_AGG_ONLY=1  tests: only tile 0 publishes an inclusive count, so every
 *                                   look-back adds up the per-tile counts back to tile 0; =2: no
 *                                   tile but 0 publishes anything, so every look-back with fallback
 *                                   counts all its predecessors itself (a wait would never end).
 *   FLUID_ONESWEEP_LOOKBACK=L       fallback (a bounded wait, then the group counts the unpublished
 *                                   tile itself; needs no forward progress) or wait (waits without
 *                                   bound: forward-progress drivers only); default by driver.
 *   FLUID_ONESWEEP_SPIN=S           the fallback look-back's reads of an unpublished word before
 *                                   it falls back (1 .. 256, default RADIX_OS_SPIN).
 *   FLUID_RADIX_ONEGROUP_MAX=N      replaces RADIX_ONEGROUP_MAX; 0 sends every n down the tiles path.
 *   FLUID_RADIX_COUNT_AHEAD_TILES=T       replaces RADIX_COUNT_AHEAD_TILES (0 .. RADIX_COUNT_AHEAD_MAX_TILES); 0 turns
 *                                   the count-ahead path off.
 *   FLUID_RADIX_EMULATE_SUBGROUP=S  builds the subgroup variant with the KHR operations emulated in
 *                                   shared memory for subgroups of S (32, 64, 128) invocations, so
 *                                   a driver without GL_KHR_shader_subgroup (llvmpipe) runs and
 *                                   tests the subgroup path's own code. Slow; for tests only.
 * A bad value is a one-line error naming the variable and its range; the tests set the fields.
 *
 * It does NOT sort signed or float keys (map them to ordered uints first), sort descending, or
 * keep the scratch contents meaningful after a call.
 */
#include "core/env.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "gpu/shader.h"
#include "sort/sort.h"
#include "sort/sort_layout.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest n sorted by the one-group kernel (at most RADIX_OG_WG * RADIX_OG_KPT): 0, off by
 * default, since one group on one multiprocessor is slower than the tiles path on a GPU with cheap
 * dispatches (docs/BENCHMARKS.md); the kernel stays for GPUs with a costlier dispatch
 * (FLUID_RADIX_ONEGROUP_MAX=32768 turns it on). */
#define RADIX_ONEGROUP_MAX 0
/* The most tiles (of RADIX_TILE keys) sorted by the count-ahead path; past it, reduce-then-scan.
 * The count-ahead path wins while its last group's scan of tiles x 256 counts is short, and loses
 * once that scan dominates (about even at 16 tiles; docs/BENCHMARKS.md). */
#define RADIX_COUNT_AHEAD_TILES 16
/* Emulated subgroup sizes of the shared path (tile kernels, one-group kernel): the shared memory
 * for per-stream digit counters is (WG / EMU_SG) KiB, which must fit llvmpipe's 32 KiB. */
#define RADIX_EMU_SG 32
#define RADIX_OG_EMU_SG 64
#define RADIX_WIDE_EMU_SG 64 /* the wide scatter's 512 digits a stream: 16 KiB with 256 invocations */
/* The largest capacity that takes the wide digits where they save a pass: on the H100 the wide
 * scatter sorts 17-bit keys 13-18% faster than three 8-bit passes up to 393,216 pairs, as fast at
 * 1,048,576, and 39% slower at 16,777,216 (docs/BENCHMARKS.md, session 33). */
#define RADIX_WIDE_MAX 524288u

/* Onesweep tiles: RADIX_WG invocations x this many keys each; smaller tiles up to
 * RADIX_OS_SMALL_MAX pairs, where more tiles keep more of the GPU busy. More keys an invocation
 * than 12 spill the per-key arrays or cost occupancy; the choices and the sweep behind them are in
 * docs/BENCHMARKS.md. */
#define RADIX_OS_KPT 12
#define RADIX_OS_SMALL_KPT 4
#define RADIX_OS_SMALL_MAX 131072
#define RADIX_OS_MAX_KPT 24
/* Look-back words each digit's invocation reads at a time (the waiting look-back): one word, since
 * wider windows did not pay (docs/BENCHMARKS.md). */
#define RADIX_OS_WINDOW 1
#define RADIX_OS_MAX_WINDOW 32
/* Look-back with fallback: reads of an unpublished word before the group counts that tile's
 * digits itself (FLUID_ONESWEEP_SPIN). The range stops at 256: a spin of 1024 did not finish a
 * bench row (not understood; docs/BENCHMARKS.md). */
#define RADIX_OS_SPIN 64
#define RADIX_OS_MAX_SPIN 256
/* Keys per invocation of the onesweep histogram (RADIX_HIST_WG invocations a group): few up to
 * os_small_max pairs (more groups: less latency), many past it (fewer global atomics). */
#define RADIX_HIST_KPT_SMALL 8
#define RADIX_HIST_KPT 32
/* radix takes onesweep up to this many pairs and reduce-then-scan past it: past every size, since
 * onesweep is the faster of the two at every size benchmarked (docs/BENCHMARKS.md);
 * FLUID_ONESWEEP_MAX sets it. */
#define RADIX_OS_AUTO_MAX (1u << 30)

_Static_assert(RADIX_COUNT_AHEAD_TILES <= RADIX_COUNT_AHEAD_MAX_TILES,
               "the count-ahead tables are sized for RADIX_COUNT_AHEAD_MAX_TILES");
_Static_assert(RADIX_ONEGROUP_MAX <= RADIX_OG_WG * RADIX_OG_KPT, "the one-group kernel holds RADIX_OG_KPT keys per invocation");

enum {
    _RADIX_ONEGROUP,
    _RADIX_COUNT,
    _RADIX_SCAN,
    _RADIX_SCATTER,
    _RADIX_HISTOGRAM,
    _RADIX_HISTOGRAM_SMALL,
    _RADIX_ONESWEEP,
    _RADIX_ONESWEEP_SMALL,
    _RADIX_ONESWEEP_WIDE,
    _RADIX_ONESWEEP_SMALL_WIDE,
    _RADIX_PROGRAMS
};
static const char *const _radix_files[_RADIX_PROGRAMS] = {
    "sort/radix_onegroup.comp",  "sort/radix_count.comp",     "sort/radix_scan.comp",     "sort/radix_scatter.comp",
    "sort/radix_histogram.comp", "sort/radix_histogram.comp", "sort/radix_onesweep.comp", "sort/radix_onesweep.comp",
    "sort/radix_onesweep.comp",  "sort/radix_onesweep.comp"};
static const char *const _radix_names[_RADIX_PROGRAMS] = {
    "radix.onegroup", "radix.count",    "radix.scan",          "radix.scatter", "radix.histogram", "radix.histogram",
    "radix.onesweep", "radix.onesweep", "radix.onesweep-wide", "radix.onesweep-wide"};
static bool _radix_is_wide_prog(int which) { return which == _RADIX_ONESWEEP_WIDE || which == _RADIX_ONESWEEP_SMALL_WIDE; }
static bool _radix_is_small_prog(int which) {
    return which == _RADIX_ONESWEEP_SMALL || which == _RADIX_ONESWEEP_SMALL_WIDE || which == _RADIX_HISTOGRAM_SMALL;
}

typedef struct _sort_radix {
    bool subgroup, emulate; /* emulate: the subgroup code on emulated subgroups (tests) */
    bool onesweep;          /* the onesweep path (else reduce-then-scan) */
    bool wide;              /* onesweep takes 9-bit digits where they save a pass (the wide scatter) */
    char path_why[96];      /* why that path: for describe */
    uint32_t os_kpt, os_kpt_small, os_small_max;
    uint32_t os_window; /* look-back words read at a time (waiting look-back) */
    bool os_fallback;   /* the look-back with fallback (no forward progress assumed) */
    uint32_t os_spin;   /* its reads of an unpublished word before it falls back */
    uint32_t os_max;    /* the largest n sorted by onesweep (when onesweep is on); reduce-then-scan past it */
    uint32_t hist_words; /* onesweep: the histograms' words, every pass of the widest key_bits */
    GLuint hist[2];     /* onesweep: every pass's digit counts, alternate sorts */
    GLuint status[2];   /* onesweep: look-back words, alternate scatters */
    GLuint tickets;     /* onesweep: tile-id counters, [parity] */
    uint32_t hist_parity, scatter_parity;
    uint64_t dirty_words[2]; /* words of status[i] from 0 that may be non-zero (rows of either width) */
    bool producer_ready;    /* the producer made hist[hist_parity] (sort_producer_ready) */
    int agg_only;           /* tests: FLUID_ONESWEEP_TEST_AGG_ONLY (1, or 2: silent), see radix_onesweep.comp */
    char producer_defines[sizeof SORT_LAYOUT_GLSL_TEXT + 96];
    int subgroup_size;
    uint32_t capacity, key_bits, max_tiles, onegroup_max, count_ahead_tiles;
    int max_groups_x;
    GLuint prog[_RADIX_PROGRAMS];
    GLuint keys2, vals2;         /* the scratch pair */
    GLuint tables[2], totals[2]; /* tile x digit counts (digit-major), per-digit totals: this pass, next */
    GLuint counter;              /* count-ahead path: work groups done */
} _sort_radix;

static uint32_t _radix_tiles(uint32_t n) { return (n + RADIX_TILE - 1) / RADIX_TILE; }
static bool _radix_is_onegroup(const _sort_radix *r, uint32_t n) { return n <= r->onegroup_max; }
static bool _radix_is_count_ahead(const _sort_radix *r, uint32_t n) { return _radix_tiles(n) <= r->count_ahead_tiles; }
static bool _radix_is_os(const _sort_radix *r, uint32_t n) { return r->onesweep && n <= r->os_max; }
/* The digit width of a sort of n pairs by `bits` (radix_passes.glsl's rx_digit_bits, with RX_WIDE =
 * r->wide, is its twin for the onesweep path, the only one that takes the wide digits). */
static uint32_t _radix_digit_bits(const _sort_radix *r, uint32_t n, uint32_t bits) {
    uint32_t w = RADIX_WIDE_BITS, b = RADIX_BITS;
    return r->wide && _radix_is_os(r, n) && (bits + w - 1) / w < (bits + b - 1) / b ? w : b;
}
static uint32_t _radix_passes(const _sort_radix *r, uint32_t n, uint32_t bits) {
    uint32_t w = _radix_digit_bits(r, n, bits);
    return (bits + w - 1) / w;
}
/* The onesweep histograms' words: every pass of each width up to r->key_bits, the most of them (a
 * producer's shared memory and its clearing are sized by it). */
static uint32_t _radix_hist_words(const _sort_radix *r) {
    uint32_t most = 0;
    for (uint32_t b = 1; b <= r->key_bits; b++) {
        uint32_t words = _radix_passes(r, 0, b) << _radix_digit_bits(r, 0, b);
        if (words > most) most = words;
    }
    return most;
}
static uint32_t _radix_mask(uint32_t width, uint32_t bits, uint32_t pass) {
    uint32_t left = bits - pass * width;
    return left >= width ? (1u << width) - 1u : (1u << left) - 1u;
}

static uint32_t _radix_os_kpt(const _sort_radix *r, uint32_t n) { return n <= r->os_small_max ? r->os_kpt_small : r->os_kpt; }
static uint32_t _radix_os_tiles(const _sort_radix *r, uint32_t n) {
    uint32_t tile = RADIX_WG * _radix_os_kpt(r, n);
    return (uint32_t)(((uint64_t)n + tile - 1) / tile);
}

/* Onesweep for every n this sorter takes: the condition for taking a producer count. */
static bool _radix_all_os(const _sort_radix *r) { return r->onesweep && r->capacity <= r->os_max; }

static uint32_t _radix_dispatches(const _sort_radix *r, uint32_t n, uint32_t bits) {
    if (n == 0) return 0;
    uint32_t passes = _radix_passes(r, n, bits);
    if (_radix_is_os(r, n)) return passes + 1;
    if (_radix_is_onegroup(r, n)) return 1;
    return _radix_is_count_ahead(r, n) ? passes + 1 : 3 * passes;
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
    for (int i = 0; i < 2; i++) {
        gpu_buffer_destroy(&r->hist[i]);
        gpu_buffer_destroy(&r->status[i]);
    }
    gpu_buffer_destroy(&r->tickets);
    free(r);
}

static GLuint _radix_program(const _sort_radix *r, int which, const char *label, char *err) {
    bool og = which == _RADIX_ONEGROUP, wide = _radix_is_wide_prog(which), os = which >= _RADIX_ONESWEEP;
    uint32_t kpt = og ? RADIX_OG_KPT : os ? (_radix_is_small_prog(which) ? r->os_kpt_small : r->os_kpt) : RADIX_KPT;
    char defines[sizeof SORT_LAYOUT_GLSL_TEXT + 512], sg[96], digits[192];
    int used[3];
    if (r->subgroup)
        used[0] = snprintf(sg, sizeof sg, "#define USE_SUBGROUP 1\n#define SG_EMULATE %d\n#define SG_SIZE %d\n", r->emulate,
                           r->subgroup_size);
    else
        used[0] = snprintf(sg, sizeof sg, "#define USE_SUBGROUP 0\n#define EMU_SG %d\n",
                           og ? RADIX_OG_EMU_SG : wide ? RADIX_WIDE_EMU_SG : RADIX_EMU_SG);
    used[1] = snprintf(digits, sizeof digits, "#define RX_WIDE %d\n#define RX_HIST_WORDS %u\n%s", r->wide, r->hist_words,
                       wide ? "#define RX_BITS RADIX_WIDE_BITS\n#define RX_RADIX RADIX_WIDE\n" : "");
    uint32_t hkpt = which == _RADIX_HISTOGRAM_SMALL ? RADIX_HIST_KPT_SMALL : RADIX_HIST_KPT;
    used[2] = snprintf(defines, sizeof defines,
                       "%s#define WG %d\n#define KPT %u\n#define HKPT %u\n#define OS_AGG_ONLY %d\n#define LB_WINDOW %u\n"
                       "#define OS_FALLBACK %d\n#define LB_SPIN %u\n%s%s",
                       SORT_LAYOUT_GLSL_TEXT, og ? RADIX_OG_WG : RADIX_WG, kpt, hkpt, r->agg_only, r->os_window, r->os_fallback,
                       r->os_spin, sg, digits);
    if (used[0] >= (int)sizeof sg || used[1] >= (int)sizeof digits || used[2] >= (int)sizeof defines) {
        fail(err, "the radix sort's shader defines outgrew their buffers (sort_radix.c, _radix_program)");
        return 0;
    }
    GLuint p = shader_make_compute(_radix_files[which], defines, err);
    if (p) {
        char name[128];
        snprintf(name, sizeof name, "%s.%s.%s%s", label, _radix_names[which] + 6, r->subgroup ? "subgroup" : "shared",
                 _radix_is_small_prog(which) ? ".small" : "");
        glObjectLabel(GL_PROGRAM, p, -1, name);
    }
    return p;
}

/* Bytes of shared memory of the one-group kernel (onegroup) or of the scatter kernel (the largest
 * tile kernel; wide: the onesweep scatter of 9-bit digits); must match the shared declarations of
 * radix_common.glsl and the kernels. */
static int _radix_shared_bytes(const _sort_radix *r, bool onegroup, bool wide, uint32_t kpt) {
    int wg = onegroup ? RADIX_OG_WG : RADIX_WG, radix = wide ? RADIX_WIDE : RADIX;
    int sg = r->subgroup ? r->subgroup_size : onegroup ? RADIX_OG_EMU_SG : wide ? RADIX_WIDE_EMU_SG : RADIX_EMU_SG;
    int words = wg / sg * radix; /* s_whist */
    words +=
        r->subgroup ? wg / sg + (r->emulate ? wg + 4 * wg / sg : 0) : 2 * wg; /* s_sgsum, s_sgemu, s_sgballot | s_emu, s_tmp */
    words += onegroup ? RADIX : (int)kpt * RADIX_WG + 3 * radix + 3;          /* s_dstart | s_x, s_dstart, s_dest, s_fb, s_tile,
                                                                        s_stuck, s_active */
    return 4 * words;
}

/* The tuning's counts: their variables, fields and ranges (the environment's and a desc's). */
static const struct {
    env_var var;
    const char *field;
    size_t at;
    uint32_t lo, hi;
} _radix_counts[] = {
    {ENV_RADIX_COUNT_AHEAD_TILES, "count_ahead_tiles", offsetof(sort_radix_desc, count_ahead_tiles), 0,
     RADIX_COUNT_AHEAD_MAX_TILES},
    {ENV_RADIX_ONEGROUP_MAX, "onegroup_max", offsetof(sort_radix_desc, onegroup_max), 0, RADIX_OG_WG *RADIX_OG_KPT},
    {ENV_ONESWEEP_KPT, "os_kpt", offsetof(sort_radix_desc, os_kpt), 1, RADIX_OS_MAX_KPT},
    {ENV_ONESWEEP_SMALL_KPT, "os_small_kpt", offsetof(sort_radix_desc, os_small_kpt), 1, RADIX_OS_MAX_KPT},
    {ENV_ONESWEEP_SMALL_MAX, "os_small_max", offsetof(sort_radix_desc, os_small_max), 0, 1u << 30},
    {ENV_ONESWEEP_MAX, "os_max", offsetof(sort_radix_desc, os_max), 0, 1u << 30},
    {ENV_ONESWEEP_WINDOW, "os_window", offsetof(sort_radix_desc, os_window), 1, RADIX_OS_MAX_WINDOW},
    {ENV_ONESWEEP_SPIN, "os_spin", offsetof(sort_radix_desc, os_spin), 1, RADIX_OS_MAX_SPIN},
    {ENV_ONESWEEP_TEST_AGG_ONLY, "test_agg_only", offsetof(sort_radix_desc, test_agg_only), 1, 2},
};
static const char *const _radix_path_names[] = {"auto", "onesweep", "reduce-then-scan"}; /* sort_radix_path order */
static const char *const _radix_lookback_names[] = {"wait", "fallback"};                 /* from SORT_LOOKBACK_WAIT */
static const char *const _radix_emulate_names[] = {"32", "64", "128"};                   /* 32 << i */

static uint32_t *_radix_count_at(sort_radix_desc *d, int i) { return (uint32_t *)((char *)d + _radix_counts[i].at); }

bool sort_radix_desc_from_env(sort_radix_desc *d, char *err) {
    *d = (sort_radix_desc){0};
    for (int i = 0; i < (int)ARRAY_LEN(_radix_counts); i++) {
        uint32_t v = 0;
        env_var var = _radix_counts[i].var;
        if (!env_u32(var, _radix_counts[i].lo, _radix_counts[i].hi, &v, err)) return false;
        if (!env_str(var)) continue;
        *_radix_count_at(d, i) = v ? v : SORT_RADIX_NONE; /* a real 0, where 0 means the default */
    }
    int path = -1, lookback = -1, emulate = -1;
    if (!env_choice(ENV_RADIX_PATH, _radix_path_names, (int)ARRAY_LEN(_radix_path_names), &path, err)) return false;
    if (!env_choice(ENV_RADIX_EMULATE_SUBGROUP, _radix_emulate_names, (int)ARRAY_LEN(_radix_emulate_names), &emulate, err))
        return false;
    if (emulate >= 0) d->emulate_subgroup = 32u << emulate;
    if (!env_choice(ENV_ONESWEEP_LOOKBACK, _radix_lookback_names, (int)ARRAY_LEN(_radix_lookback_names), &lookback, err))
        return false;
    if (path >= 0) {
        d->force_path = true;
        d->path = (sort_radix_path)path;
    }
    if (lookback >= 0) d->lookback = (sort_radix_lookback)(SORT_LOOKBACK_WAIT + lookback);
    return true;
}

static sort_radix_desc _radix_tuning; /* sort_radix_tuning_set's */

void sort_radix_tuning_set(const sort_radix_desc *d) { _radix_tuning = d ? *d : (sort_radix_desc){0}; }

/* sokol's _sg_def: 0 takes the default, SORT_RADIX_NONE a real 0. */
#define _radix_def(v, def) ((v) == 0 ? (uint32_t)(def) : (v) == SORT_RADIX_NONE ? 0u : (v))

/* The tuning with every default in place: the one place a default lives. path: the path in force
 * (its onesweep limit); progress: the driver makes forward progress between work groups (the
 * look-back). */
static sort_radix_desc _radix_desc_defaults(const sort_radix_desc *in, sort_radix_path path, bool progress) {
    sort_radix_desc d = *in;
    d.force_path = true;
    d.path = path;
    d.count_ahead_tiles = _radix_def(d.count_ahead_tiles, RADIX_COUNT_AHEAD_TILES);
    d.onegroup_max = _radix_def(d.onegroup_max, RADIX_ONEGROUP_MAX);
    d.emulate_subgroup = _radix_def(d.emulate_subgroup, 0);
    d.os_kpt = _radix_def(d.os_kpt, RADIX_OS_KPT);
    d.os_small_kpt = _radix_def(d.os_small_kpt, RADIX_OS_SMALL_KPT);
    d.os_small_max = _radix_def(d.os_small_max, RADIX_OS_SMALL_MAX);
    d.os_max = _radix_def(d.os_max, path == SORT_RADIX_AUTO ? RADIX_OS_AUTO_MAX : UINT32_MAX);
    d.os_window = _radix_def(d.os_window, RADIX_OS_WINDOW);
    d.os_spin = _radix_def(d.os_spin, RADIX_OS_SPIN);
    d.test_agg_only = _radix_def(d.test_agg_only, 0);
    if (d.lookback == SORT_LOOKBACK_AUTO) d.lookback = progress ? SORT_LOOKBACK_WAIT : SORT_LOOKBACK_FALLBACK;
    return d;
}

/* A desc's fields in their ranges (a desc set by code, not the environment: a programmer's error). */
static bool _radix_desc_check(const sort_radix_desc *d, char *err) {
    for (int i = 0; i < (int)ARRAY_LEN(_radix_counts); i++) {
        uint32_t v = *_radix_count_at((sort_radix_desc *)d, i);
        bool unlimited = _radix_counts[i].var == ENV_ONESWEEP_MAX && v == UINT32_MAX; /* forced path: every n */
        bool zero_ok = _radix_counts[i].var == ENV_ONESWEEP_TEST_AGG_ONLY;
        if (!unlimited && !(zero_ok && v == 0) && (v < _radix_counts[i].lo || v > _radix_counts[i].hi))
            return fail(err, "sort_radix_desc.%s = %u is not from %u to %u (%s)", _radix_counts[i].field, v, _radix_counts[i].lo,
                        _radix_counts[i].hi, env_table[_radix_counts[i].var].name);
    }
    uint32_t e = d->emulate_subgroup;
    if (e != 0 && e != 32 && e != 64 && e != 128)
        return fail(err, "sort_radix_desc.emulate_subgroup = %u is not 32, 64 or 128", d->emulate_subgroup);
    return true;
}

/* Mesa's llvmpipe runs compute groups on LP_NUM_THREADS threads. The variable is Mesa's, not ours
 * (not in core/env's table): read here only, never set. "1": groups one at a time, in order. */
static bool _radix_llvmpipe_one_thread(void) {
    const char *s = getenv("LP_NUM_THREADS");
    return s && strcmp(s, "1") == 0;
}

static void *_radix_make(const sort_desc *desc, const gpu_caps *caps, char *err) {
    _sort_radix *r = calloc(1, sizeof *r);
    if (!r) {
        fail(err, "out of host memory for the radix sorter");
        return NULL;
    }
    /* The path: onesweep needs forward progress between work groups (see the top of sort.h). The
     * look-back: waiting on drivers known to make forward progress (the faster of the two there,
     * docs/BENCHMARKS.md), with fallback elsewhere (it ends on any driver). */
    const sort_radix_desc *in = desc->radix ? desc->radix : &_radix_tuning;
    sort_radix_path path = in->force_path ? in->path : desc->radix_path;
    bool progress = gpu_forward_progress();
    sort_radix_desc t = _radix_desc_defaults(in, path, progress);
    if (!_radix_desc_check(&t, err)) {
        _radix_destroy(r);
        return NULL;
    }
    r->subgroup = caps->subgroup && !desc->no_subgroup && caps->subgroup_size >= 32 && caps->subgroup_size <= 128;
    r->subgroup_size = r->subgroup ? caps->subgroup_size : 0;
    r->capacity = desc->capacity;
    r->key_bits = desc->key_bits ? desc->key_bits : 32;
    r->max_tiles = _radix_tiles(desc->capacity);
    r->max_groups_x = caps->max_groups_x > 0 ? caps->max_groups_x : 65535;
    r->onegroup_max = t.onegroup_max;
    r->count_ahead_tiles = t.count_ahead_tiles;
    if (t.emulate_subgroup) {
        r->subgroup = r->emulate = true;
        r->subgroup_size = (int)t.emulate_subgroup;
    }
    const char *vendor = (const char *)glGetString(GL_VENDOR);
    if (!vendor) vendor = "?";
    r->os_fallback = t.lookback == SORT_LOOKBACK_FALLBACK;
    r->os_max = t.os_max;
    if (path == SORT_RADIX_AUTO) {
        r->onesweep = r->os_fallback || progress;
        if (r->os_fallback)
            snprintf(r->path_why, sizeof r->path_why, "look-back with fallback: driver '%.40s' %s the forward-progress list",
                     vendor, progress ? "on" : "not on");
        else snprintf(r->path_why, sizeof r->path_why, "waiting look-back: driver '%.40s' on the forward-progress list", vendor);
    } else {
        r->onesweep = path == SORT_RADIX_ONESWEEP;
        if (r->onesweep)
            snprintf(r->path_why, sizeof r->path_why, "forced, look-back %s", r->os_fallback ? "with fallback" : "waiting");
        else snprintf(r->path_why, sizeof r->path_why, "forced");
    }
    /* The waiting look-back on llvmpipe: its groups run on threads, but it stops every shader after
     * 65,535 loop iterations in all, so a long wait would end early with a wrong count; only on one
     * thread (groups in ticket order, no waits). */
    if (r->onesweep && !r->os_fallback && caps->llvmpipe && !_radix_llvmpipe_one_thread()) {
        fail(err, "onesweep's waiting look-back on llvmpipe needs LP_NUM_THREADS=1 (its loop limit would cut waits short "
                  "and give wrong results); unset FLUID_ONESWEEP_LOOKBACK, or set LP_NUM_THREADS=1");
        _radix_destroy(r);
        return NULL;
    }
    if (r->onesweep && desc->capacity >= (1u << 30)) { /* look-back words hold counts below 2^30 */
        r->onesweep = false;
        snprintf(r->path_why, sizeof r->path_why, "capacity of 2^30 pairs or more");
    }
    r->agg_only = (int)t.test_agg_only;
    if (r->agg_only == 2 && !r->os_fallback) {
        fail(err, "FLUID_ONESWEEP_TEST_AGG_ONLY=2 with the waiting look-back would never end; unset one of them");
        _radix_destroy(r);
        return NULL;
    }
    r->os_kpt = t.os_kpt;
    r->os_window = t.os_window;
    r->os_spin = t.os_spin;
    r->os_kpt_small = t.os_small_kpt;
    r->os_small_max = t.os_small_max;
    const char *label = desc->label ? desc->label : "radix";

    /* Shared memory the kernels declare, against the GPU's limit (the driver would refuse to link):
     * without room for the one-group kernel, every n takes the tiles path; without room for the
     * wide scatter, 8-bit digits throughout. */
    if (r->onesweep || _radix_shared_bytes(r, true, false, 0) > caps->max_shared_bytes || caps->max_invocations < RADIX_OG_WG)
        r->onegroup_max = 0;
    uint32_t kpt = RADIX_KPT;
    if (r->onesweep) kpt = r->os_kpt > r->os_kpt_small ? r->os_kpt : r->os_kpt_small;
    if (_radix_shared_bytes(r, false, false, kpt) > caps->max_shared_bytes) {
        fail(err, "the radix sort needs %d bytes of shared memory per work group but this GPU has %d; use the bitonic sort (fluid: --sort bitonic; fluid sort: --algo bitonic)",
             _radix_shared_bytes(r, false, false, kpt), caps->max_shared_bytes);
        _radix_destroy(r);
        return NULL;
    }
    /* The wide digits where some key width the sorter takes saves a pass with them (a key_bits of
     * 9 to 16 only at 9 bits, and a sort that narrow is one pass either way: 17 bits up). */
    r->wide = r->onesweep && r->key_bits > 2 * RADIX_BITS && desc->capacity <= RADIX_WIDE_MAX &&
              _radix_shared_bytes(r, false, true, kpt) <= caps->max_shared_bytes;
    r->hist_words = _radix_hist_words(r);
    snprintf(r->producer_defines, sizeof r->producer_defines,
             "%s#define SORT_PRODUCER_MODE %d\n#define RX_WIDE %d\n#define RX_HIST_WORDS %u\n", SORT_LAYOUT_GLSL_TEXT,
             _radix_all_os(r) ? SORT_PRODUCER_RADIX : 0, r->wide, r->hist_words);

    for (int i = 0; i < _RADIX_PROGRAMS; i++) {
        bool os_prog = i >= _RADIX_HISTOGRAM;
        bool large = !_radix_is_small_prog(i);
        if (os_prog && (!r->onesweep || (large && desc->capacity <= r->os_small_max))) continue;
        if (_radix_is_wide_prog(i) && !r->wide) continue;
        if (!os_prog && r->onesweep && desc->capacity <= r->os_max) continue; /* reduce-then-scan never taken */
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
        fail(err, "%u pairs need a %llu MiB radix table, more than this GPU's storage-buffer limit; use fewer", desc->capacity,
             (unsigned long long)(table_bytes >> 20));
        _radix_destroy(r);
        return NULL;
    }
    uint32_t count_ahead_tiles = r->max_tiles < r->count_ahead_tiles ? r->max_tiles : r->count_ahead_tiles;
    /* Onesweep: look-back rows for the most tiles any n up to the capacity takes. */
    uint32_t small_cap = desc->capacity < r->os_small_max ? desc->capacity : r->os_small_max;
    uint64_t os_rows = 1;
    if (r->onesweep) {
        uint32_t os_cap = desc->capacity < r->os_max ? desc->capacity : r->os_max;
        uint64_t a = _radix_os_tiles(r, os_cap), b = _radix_os_tiles(r, small_cap);
        os_rows = a > b ? a : b;
        if (os_rows < 1) os_rows = 1;
        if (_radix_all_os(r)) {
            table_bytes = 4; /* the reduce-then-scan tables are not used */
            count_ahead_tiles = 1;
        }
    }
    uint32_t status_words = r->wide ? RADIX_WIDE : RADIX;
    struct {
        GLuint *buf;
        uint64_t size;
        const char *what;
    } bufs[] = {{&r->keys2, pair_bytes, "keys-scratch"},
                {&r->vals2, pair_bytes, "vals-scratch"},
                {&r->tables[0], table_bytes, "tile-counts"},
                {&r->tables[1], 4ull * RADIX * count_ahead_tiles, "tile-counts-next"},
                {&r->totals[0], 4 * RADIX, "digit-totals"},
                {&r->totals[1], 4 * RADIX, "digit-totals-next"},
                {&r->counter, 4, "groups-done"},
                {&r->hist[0], r->onesweep ? 4 * r->hist_words : 4, "histograms-0"},
                {&r->hist[1], r->onesweep ? 4 * r->hist_words : 4, "histograms-1"},
                {&r->status[0], 4ull * status_words * os_rows, "lookback-0"},
                {&r->status[1], 4ull * status_words * os_rows, "lookback-1"},
                {&r->tickets, 8, "tile-tickets"}};
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

/* The onesweep path: a histogram dispatch (unless a producer made it), then a scatter per pass. */
static sort_pairs _radix_run_onesweep(_sort_radix *r, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    sort_pairs src = io, dst = {r->keys2, r->vals2};
    uint32_t width = _radix_digit_bits(r, n, bits), passes = _radix_passes(r, n, bits), tiles = _radix_os_tiles(r, n);
    bool wide = width == RADIX_WIDE_BITS;
    int which = n <= r->os_small_max ? (wide ? _RADIX_ONESWEEP_SMALL_WIDE : _RADIX_ONESWEEP_SMALL)
                                     : (wide ? _RADIX_ONESWEEP_WIDE : _RADIX_ONESWEEP);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_HIST, r->hist[r->hist_parity]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_HIST_NEXT, r->hist[1 - r->hist_parity]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TICKETS, r->tickets);
    if (!r->producer_ready) {
        bool small = n <= r->os_small_max;
        int h = small ? _RADIX_HISTOGRAM_SMALL : _RADIX_HISTOGRAM;
        glProgramUniform1ui(r->prog[h], RADIX_LOC_N, n);
        glProgramUniform1ui(r->prog[h], RADIX_LOC_BITS, bits);
        _radix_bind(src, dst);
        _radix_dispatch(r, h, gpu_groups(n, RADIX_HIST_WG * (small ? RADIX_HIST_KPT_SMALL : RADIX_HIST_KPT)), trace);
    }
    r->producer_ready = false;
    GLuint sp = r->prog[which];
    glProgramUniform1ui(sp, RADIX_LOC_N, n);
    glProgramUniform1ui(sp, RADIX_LOC_TILES, tiles);
    for (uint32_t pass = 0; pass < passes; pass++) {
        uint32_t par = r->scatter_parity;
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_STATUS, r->status[par]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_STATUS_NEXT, r->status[1 - par]);
        glProgramUniform1ui(sp, RADIX_LOC_SHIFT, pass * width);
        glProgramUniform1ui(sp, RADIX_LOC_MASK, _radix_mask(width, bits, pass));
        glProgramUniform1ui(sp, RADIX_LOC_PASS, pass);
        glProgramUniform1ui(sp, RADIX_LOC_PARITY, par);
        /* The other buffer's rows to clear, in this scatter's row width: the last scatter there may
         * have had the other width. */
        uint32_t stride = 1u << width;
        glProgramUniform1ui(sp, RADIX_LOC_CLEAR_ROWS, (uint32_t)((r->dirty_words[1 - par] + stride - 1) / stride));
        _radix_bind(src, dst);
        _radix_dispatch(r, which, tiles, trace);
        r->dirty_words[1 - par] = 0;
        if (r->dirty_words[par] < (uint64_t)tiles * stride) r->dirty_words[par] = (uint64_t)tiles * stride;
        r->scatter_parity = 1 - par;
        sort_pairs t = src;
        src = dst;
        dst = t;
    }
    r->hist_parity = 1 - r->hist_parity;
    return src;
}

static sort_pairs _radix_run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    _sort_radix *r = p;
    sort_pairs scratch = {r->keys2, r->vals2}, result = io;
    if (bits > r->key_bits) { /* a programmer error (sort.h): the histograms hold key_bits' passes */
        log_error("SORT", "radix sorter made for keys of %u bits was given %u; sorting by the low %u", r->key_bits, bits,
                  r->key_bits);
        bits = r->key_bits;
    }
    if (n > r->capacity) n = r->capacity;
    uint32_t passes = _radix_passes(r, n, bits);
    if (n == 0) {
        if (r->producer_ready) { /* counted nothing, but leave the buffer as the next sort expects it */
            glClearNamedBufferData(r->hist[r->hist_parity], GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
            r->producer_ready = false;
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        return io;
    }
    if (_radix_is_os(r, n)) {
        result = _radix_run_onesweep(r, io, n, bits, trace);
    } else if (_radix_is_onegroup(r, n)) {
        GLuint prog = r->prog[_RADIX_ONEGROUP];
        glProgramUniform1ui(prog, RADIX_LOC_N, n);
        glProgramUniform1ui(prog, RADIX_LOC_BITS, bits);
        _radix_bind(io, scratch);
        _radix_dispatch(r, _RADIX_ONEGROUP, 1, trace);
        result = passes % 2 ? scratch : io;
    } else {
        uint32_t tiles = _radix_tiles(n);
        bool ahead = _radix_is_count_ahead(r, n);
        sort_pairs src = io, dst = scratch;
        GLuint count = r->prog[_RADIX_COUNT], scan = r->prog[_RADIX_SCAN], scatter = r->prog[_RADIX_SCATTER];
        glProgramUniform1ui(count, RADIX_LOC_N, n);
        glProgramUniform1ui(count, RADIX_LOC_TILES, tiles);
        glProgramUniform1ui(count, RADIX_LOC_COUNT_AHEAD, ahead);
        glProgramUniform1ui(scan, RADIX_LOC_TILES, tiles);
        glProgramUniform1ui(scatter, RADIX_LOC_N, n);
        glProgramUniform1ui(scatter, RADIX_LOC_TILES, tiles);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_COUNTER, r->counter);
        for (uint32_t pass = 0; pass < passes; pass++) {
            /* Count-ahead: pass k reads table/totals k % 2 and counts into the other pair. */
            uint32_t cur = ahead ? pass % 2 : 0;
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TABLE, r->tables[cur]);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TOTALS, r->totals[cur]);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TABLE_NEXT, r->tables[1 - cur]);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RADIX_BIND_TOTALS_NEXT, r->totals[1 - cur]);
            _radix_bind(src, dst);
            if (!ahead || pass == 0) {
                glProgramUniform1ui(count, RADIX_LOC_SHIFT, pass * RADIX_BITS);
                glProgramUniform1ui(count, RADIX_LOC_MASK, _radix_mask(RADIX_BITS, bits, pass));
                _radix_dispatch(r, _RADIX_COUNT, tiles, trace);
            }
            if (!ahead) _radix_dispatch(r, _RADIX_SCAN, RADIX, trace);
            bool next = pass + 1 < passes;
            glProgramUniform1ui(scatter, RADIX_LOC_SHIFT, pass * RADIX_BITS);
            glProgramUniform1ui(scatter, RADIX_LOC_MASK, _radix_mask(RADIX_BITS, bits, pass));
            glProgramUniform1ui(scatter, RADIX_LOC_COUNT_AHEAD, ahead ? (next ? 1 : 2) : 0);
            glProgramUniform1ui(scatter, RADIX_LOC_NEXT_SHIFT, next ? (pass + 1) * RADIX_BITS : 0);
            glProgramUniform1ui(scatter, RADIX_LOC_NEXT_MASK, next ? _radix_mask(RADIX_BITS, bits, pass + 1) : 0);
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
    uint32_t passes = _radix_passes(r, n, bits), d = _radix_dispatches(r, n, bits), width = _radix_digit_bits(r, n, bits);
    char path[64];
    if (r->subgroup) snprintf(path, sizeof path, "%ssubgroup path (size %d)", r->emulate ? "emulated " : "", r->subgroup_size);
    else
        snprintf(path, sizeof path, "shared path (emulated subgroups of %d)",
                 _radix_is_onegroup(r, n) && !_radix_is_os(r, n) ? RADIX_OG_EMU_SG
                 : width == RADIX_WIDE_BITS                        ? RADIX_WIDE_EMU_SG
                                                                   : RADIX_EMU_SG);
    const char *plural = passes == 1 ? "" : "es";
    char why[128];
    if (r->onesweep && n > r->os_max) snprintf(why, sizeof why, "past onesweep's %u pairs", r->os_max);
    else snprintf(why, sizeof why, "%s", r->path_why);
    if (_radix_is_os(r, n)) {
        uint32_t kpt = _radix_os_kpt(r, n);
        snprintf(out, len,
                 "radix: %u pass%s of %d-bit digits, onesweep (%s), tiles of %u keys (%d x %u) x %u, %s, %u dispatch%s "
                 "(histogram, then a scatter with look-back per pass)",
                 passes, plural, width, r->path_why, RADIX_WG * kpt, RADIX_WG, kpt, _radix_os_tiles(r, n), path, d,
                 d == 1 ? "" : "es");
        return;
    }
    if (_radix_is_onegroup(r, n))
        snprintf(out, len, "radix: %u pass%s of %d-bit digits, one-group (1 group of %d x up to %d keys), %s, %u dispatch%s",
                 passes, plural, RADIX_BITS, RADIX_OG_WG, RADIX_OG_KPT, path, d, d == 1 ? "" : "es");
    else
        snprintf(out, len, "radix: %u pass%s of %d-bit digits, %s (%s), tiles of %d keys (%d x %d) x %u, %s, %u dispatches (%s)",
                 passes, plural, RADIX_BITS, _radix_is_count_ahead(r, n) ? "count-ahead" : "reduce-then-scan", why, RADIX_TILE,
                 RADIX_WG, RADIX_KPT, _radix_tiles(n), path, d,
                 _radix_is_count_ahead(r, n) ? "count, then a scatter per pass" : "count, scan, scatter per pass");
}

/* The path alone, without the reason it was chosen (sort_path): radix and onesweep name the same
 * string where they run the same dispatches. */
static void _radix_path(void *p, uint32_t n, uint32_t bits, char *out, size_t len) {
    _sort_radix *r = p;
    if (n > r->capacity) n = r->capacity;
    const char *way = _radix_is_os(r, n)            ? (r->os_fallback ? "onesweep+fallback" : "onesweep+wait")
                      : _radix_is_onegroup(r, n)    ? "one-group"
                      : _radix_is_count_ahead(r, n) ? "count-ahead"
                                                    : "reduce-then-scan";
    snprintf(out, len, "radix/%s/kpt%u/d%u/sg%d%s/%u", way, _radix_is_os(r, n) ? _radix_os_kpt(r, n) : 0,
             _radix_digit_bits(r, n, bits), r->subgroup ? r->subgroup_size : 0, r->emulate ? "e" : "", _radix_dispatches(r, n, bits));
}

static GLuint _radix_producer_buffer(void *p) {
    _sort_radix *r = p;
    return _radix_all_os(r) ? r->hist[r->hist_parity] : 0;
}
static const char *_radix_producer_defines(void *p) { return ((_sort_radix *)p)->producer_defines; }
static void _radix_gate(void *p, const sort_gate *gate) {
    _sort_radix *r = p;
    for (int i = 0; i < _RADIX_PROGRAMS; i++)
        if (r->prog[i]) glProgramUniform1ui(r->prog[i], SORT_LOC_GATE, sort_gate_value(gate));
}
static void _radix_producer_ready(void *p) {
    _sort_radix *r = p;
    if (_radix_all_os(r)) r->producer_ready = true;
}

static void *_onesweep_make(const sort_desc *desc, const gpu_caps *caps, char *err) {
    sort_desc d = *desc;
    d.radix_path = SORT_RADIX_ONESWEEP;
    return _radix_make(&d, caps, err);
}

const sort_algo sort_algo_radix = {.name = "radix",
                                   .summary = "LSD radix sort, 8-bit digits (9 where that saves a pass), onesweep at every size by default (stable)",
                                   .make = _radix_make,
                                   .destroy = _radix_destroy,
                                   .run = _radix_run,
                                   .describe = _radix_describe,
                                   .path = _radix_path,
                                   .producer_buffer = _radix_producer_buffer,
                                   .producer_defines = _radix_producer_defines,
                                   .producer_ready = _radix_producer_ready,
                                   .gate = _radix_gate};

const sort_algo sort_algo_onesweep = {.name = "onesweep",
                                      .summary = "the radix sort on its onesweep path on any driver (stable)",
                                      .make = _onesweep_make,
                                      .destroy = _radix_destroy,
                                      .run = _radix_run,
                                      .describe = _radix_describe,
                                      .path = _radix_path,
                                      .producer_buffer = _radix_producer_buffer,
                                      .producer_defines = _radix_producer_defines,
                                      .producer_ready = _radix_producer_ready,
                                      .gate = _radix_gate};
