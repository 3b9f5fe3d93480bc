/* The GPU radix sort (sort_radix.c) against the CPU reference sort_cpu_stable: every path (one
 * group; tiles, forced at small n with FLUID_RADIX_ONEGROUP_MAX=0; subgroup and shared variants
 * where the GPU has subgroups), odd sizes around tile and path edges, adversarial keys, every
 * digit width, stability (keys AND values exactly as the stable reference), reuse of one sorter,
 * no writes past n, and clean failures. Needs GL 4.5 (skips without it). */
#include "check.h"
#include "core/log.h"
#include "sort/sort.h"
#include "sort/sort_layout.h"
#include <string.h>

#define POISON 0xDEADBEEFu

typedef struct trace_count {
    int begins, ends, depth, bad_names;
} trace_count;

static void trace_begin(void *user, const char *name) {
    trace_count *t = user;
    t->begins++;
    t->depth++;
    if (strncmp(name, "radix.", 6) != 0) t->bad_names++;
}
static void trace_end(void *user) {
    trace_count *t = user;
    t->ends++;
    t->depth--;
}

/* One sorter with its own input pair of `cap` elements, and the sorter's scratch pair once seen. */
typedef struct rig {
    const char *name;
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

/* Dispatch count as said by describe(). */
static int described_dispatches(const char *line) {
    const char *p = strstr(line, " dispatch");
    if (!p) return -1;
    while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
    return atoi(p);
}

/* Sorts r->k/r->v[0..n) by `bits` on the GPU and compares keys and values with the stable CPU
 * sort of the same pairs (masked to `bits` for ordering, so keys wider than bits are also right). */
static void run_case(rig *r, uint32_t n, uint32_t bits, const char *input) {
    char line[256];
    sort_describe(r->s, n, bits, line, sizeof line);
    printf("  [%s] n=%u bits=%u %s: %s\n", r->name, n, bits, input, line);
    fflush(stdout);

    /* Reference: stable by (key & mask), carrying the input index. */
    uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    for (uint32_t i = 0; i < n; i++) {
        r->rk[i] = r->k[i] & mask;
        r->rv[i] = i;
    }
    sort_cpu_stable(r->rk, r->rv, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t src = r->rv[i];
        r->rk[i] = r->k[src];
        r->rv[i] = r->v[src];
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
    sort_pairs out = sort_run(r->s, r->io, n, bits, &trace);
    CHECK(tc.begins == tc.ends && tc.depth == 0 && tc.bad_names == 0, "%s n=%u: trace begins %d ends %d bad names %d",
          r->name, n, tc.begins, tc.ends, tc.bad_names);
    CHECK(tc.begins == described_dispatches(line), "%s n=%u bits=%u: %d dispatches traced, describe says '%s'", r->name,
          n, bits, tc.begins, line);

    bool in_io = out.keys == r->io.keys && out.vals == r->io.vals;
    if (!in_io) {
        if (!r->scratch.keys) r->scratch = out;
        CHECK(out.keys == r->scratch.keys && out.vals == r->scratch.vals, "%s: result in a pair that is neither", r->name);
        if (out.keys != r->scratch.keys) return;
    }
    uint32_t passes = (bits + 7) / 8;
    if (n) CHECK(in_io == (passes % 2 == 0), "%s n=%u bits=%u: %u passes left the result in the %s pair", r->name, n,
                 bits, passes, in_io ? "caller's" : "scratch");

    glGetNamedBufferSubData(out.keys, 0, 4ll * r->cap, r->ok);
    glGetNamedBufferSubData(out.vals, 0, 4ll * r->cap, r->ov);
    uint32_t bad_k = 0, bad_v = 0, first = n;
    for (uint32_t i = 0; i < n; i++) {
        bool bk = r->ok[i] != r->rk[i], bv = r->ov[i] != r->rv[i];
        bad_k += bk;
        bad_v += bv;
        if ((bk || bv) && first == n) first = i;
    }
    CHECK(bad_k == 0 && bad_v == 0,
          "%s n=%u bits=%u %s: %u keys and %u values differ from the stable CPU sort; first at %u: got (%08x, %u) want (%08x, %u)",
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

/* onegroup_max, fused_tiles, emulate: FLUID_RADIX_ONEGROUP_MAX, _FUSED_TILES, _EMULATE_SUBGROUP for this
 * sorter (or NULL for the defaults) */
static void set_or_unset(const char *var, const char *value) {
    if (value)
        setenv(var, value, 1);
    else
        unsetenv(var);
}

static bool rig_make(rig *r, const char *name, uint32_t cap, bool no_subgroup, const char *onegroup_max,
                     const char *fused_tiles, const char *emulate, const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    memset(r, 0, sizeof *r);
    r->name = name;
    r->cap = cap;
    set_or_unset("FLUID_RADIX_ONEGROUP_MAX", onegroup_max);
    set_or_unset("FLUID_RADIX_FUSED_TILES", fused_tiles);
    set_or_unset("FLUID_RADIX_EMULATE_SUBGROUP", emulate);
    r->s = sort_make("radix", &(sort_desc){.capacity = cap, .no_subgroup = no_subgroup, .label = name}, caps, err);
    unsetenv("FLUID_RADIX_ONEGROUP_MAX");
    unsetenv("FLUID_RADIX_FUSED_TILES");
    unsetenv("FLUID_RADIX_EMULATE_SUBGROUP");
    CHECK(r->s != NULL, "sort_make(%s): %s", name, err);
    if (!r->s) return false;
    r->io.keys = gpu_buffer_make(4ull * cap, NULL, "test.keys", err);
    r->io.vals = gpu_buffer_make(4ull * cap, NULL, "test.vals", err);
    uint32_t **arrays[] = {&r->k, &r->v, &r->rk, &r->rv, &r->ok, &r->ov};
    for (size_t i = 0; i < ARRAY_LEN(arrays); i++) *arrays[i] = calloc(cap, 4);
    /* Meet the scratch pair: one pass leaves the result there. */
    r->k[0] = 7;
    r->v[0] = 1;
    run_case(r, 1, 8, "one pair");
    CHECK(r->scratch.keys != 0, "%s: a 1-pass sort did not return the scratch pair", name);
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

typedef enum input { IN_RANDOM, IN_EQUAL, IN_SORTED, IN_REVERSED, IN_ALL_ONES, IN_FEW, IN_WIDE } input;
static const char *const input_names[] = {"random", "all equal", "sorted", "reversed", "all 0xFFFFFFFF (masked)",
                                          "3 distinct", "random, bits above set"};

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
static void sweep(rig *r, uint32_t n) {
    static const uint32_t widths[] = {1, 5, 8, 9, 16, 17, 24, 31, 32};
    for (size_t i = 0; i < ARRAY_LEN(widths); i++) case_of(r, n, widths[i], IN_RANDOM);
    case_of(r, n, 16, IN_EQUAL);
    case_of(r, n, 32, IN_SORTED);
    case_of(r, n, 32, IN_REVERSED);
    case_of(r, n, 32, IN_ALL_ONES);
    case_of(r, n, 12, IN_FEW);
    case_of(r, n, 12, IN_WIDE);
}

/* The one-group path up to its limit, then the tiles path past it, on one sorter (reuse). */
static void test_default(const char *name, bool no_subgroup, const char *emulate, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    /* The one-group kernel is off by default (slower on the H100); it is turned on here so that
     * it stays tested: up to og pairs one group, then the default fused and tiles paths. */
    char og_max[16];
    snprintf(og_max, sizeof og_max, "%d", RADIX_OG_WG * RADIX_OG_KPT);
    if (!rig_make(&r, name, 300000, no_subgroup, og_max, NULL, emulate, caps)) return;
    static const uint32_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024, 1025, 27648};
    const uint32_t og = RADIX_OG_WG * RADIX_OG_KPT;
    if (emulate) { /* emulated subgroups are slow on llvmpipe: fewer cases, every pass count */
        static const uint32_t few[] = {0, 1, 33, 257, 1025};
        for (size_t i = 0; i < ARRAY_LEN(few); i++) case_of(&r, few[i], 16, IN_RANDOM);
        case_of(&r, 1000, 5, IN_RANDOM);
        case_of(&r, 1000, 32, IN_REVERSED);
        case_of(&r, 1000, 12, IN_FEW);
        case_of(&r, 27648, 17, IN_RANDOM);
        case_of(&r, 27648, 32, IN_SORTED);
        case_of(&r, og, 24, IN_FEW);
        case_of(&r, og + 1, 16, IN_RANDOM);
    } else {
        for (size_t i = 0; i < ARRAY_LEN(sizes); i++) case_of(&r, sizes[i], 16, IN_RANDOM);
        sweep(&r, 1000);
        sweep(&r, 27648);
        uint32_t edge[] = {og - 1, og, og + 1};
        for (size_t i = 0; i < ARRAY_LEN(edge); i++) {
            case_of(&r, edge[i], 16, IN_RANDOM);
            case_of(&r, edge[i], 32, IN_FEW);
        }
    }
    case_of(&r, 300000, 32, IN_RANDOM); /* tiles path, 4 passes */
    case_of(&r, 300000, 17, IN_FEW);    /* 3 passes, the last of 1 bit */
    case_of(&r, 5, 32, IN_RANDOM);      /* and small again */
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* The tiles paths at sizes around their tile edges: reduce-then-scan throughout (fused_tiles "0"),
 * or fused up to 3 tiles and reduce-then-scan past (fused_tiles "3"). */
static void test_tiles(const char *name, bool no_subgroup, const char *fused_tiles, const char *emulate,
                       const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!rig_make(&r, name, 4 * RADIX_TILE + 7, no_subgroup, "0", fused_tiles, emulate, caps)) return;
    const uint32_t t = RADIX_TILE;
    uint32_t sizes[] = {1, 2, 3, 255, 256, 257, 1000, t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, 3 * t + 5, 4 * t + 7};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        case_of(&r, sizes[i], 32, IN_RANDOM);
        case_of(&r, sizes[i], 9, IN_FEW);
    }
    sweep(&r, 2 * t + 1);
    case_of(&r, 0, 32, IN_RANDOM);
    case_of(&r, 3 * t + 5, 24, IN_EQUAL);
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

static void test_errors(const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    int live = gpu_live_objects();
    uint64_t too_many = (uint64_t)caps->max_ssbo_bytes / 4 + 1;
    if (too_many > 0xFFFFFFFFu) too_many = 0xFFFFFFFFu;
    sorter *s = sort_make("radix", &(sort_desc){.capacity = (uint32_t)too_many}, caps, err);
    CHECK(s == NULL && strstr(err, "pairs") != NULL, "capacity %llu past the %lld-byte buffer limit: sorter %p, err '%s'",
          (unsigned long long)too_many, (long long)caps->max_ssbo_bytes, (void *)s, err);
    printf("  capacity %llu: %s\n", (unsigned long long)too_many, err);
    setenv("FLUID_RADIX_ONEGROUP_MAX", "lots", 1);
    err[0] = 0;
    s = sort_make("radix", &(sort_desc){.capacity = 100}, caps, err);
    unsetenv("FLUID_RADIX_ONEGROUP_MAX");
    CHECK(s == NULL && strstr(err, "FLUID_RADIX_ONEGROUP_MAX") != NULL, "a bad FLUID_RADIX_ONEGROUP_MAX: err '%s'", err);
    printf("  bad tuning variable: %s\n", err);
    setenv("FLUID_RADIX_FUSED_TILES", "100000", 1);
    err[0] = 0;
    s = sort_make("radix", &(sort_desc){.capacity = 100}, caps, err);
    unsetenv("FLUID_RADIX_FUSED_TILES");
    CHECK(s == NULL && strstr(err, "FLUID_RADIX_FUSED_TILES") != NULL, "a bad FLUID_RADIX_FUSED_TILES: err '%s'", err);
    CHECK(gpu_live_objects() == live, "failed sort_make left %d GL objects", gpu_live_objects() - live);
}

/* sort_layout.h and shaders/sort/sort_common.glsl are twins: every #define in the GLSL file that
 * the C header also has must have the same value. */
static void test_twins(void) {
    static const struct { const char *name; long value; } c[] = {
        {"RADIX_BITS", RADIX_BITS}, {"RADIX", RADIX}, {"RADIX_WG", RADIX_WG}, {"RADIX_KPT", RADIX_KPT},
        {"RADIX_TILE", RADIX_TILE}, {"RADIX_SCAN_IPT", RADIX_SCAN_IPT}, {"RADIX_OG_WG", RADIX_OG_WG},
        {"RADIX_OG_KPT", RADIX_OG_KPT}, {"RADIX_BIND_KEYS_IN", RADIX_BIND_KEYS_IN},
        {"RADIX_BIND_VALS_IN", RADIX_BIND_VALS_IN}, {"RADIX_BIND_KEYS_OUT", RADIX_BIND_KEYS_OUT},
        {"RADIX_BIND_VALS_OUT", RADIX_BIND_VALS_OUT}, {"RADIX_BIND_TABLE", RADIX_BIND_TABLE},
        {"RADIX_BIND_TOTALS", RADIX_BIND_TOTALS}, {"RADIX_BIND_TABLE_NEXT", RADIX_BIND_TABLE_NEXT},
        {"RADIX_BIND_TOTALS_NEXT", RADIX_BIND_TOTALS_NEXT}, {"RADIX_BIND_COUNTER", RADIX_BIND_COUNTER},
        {"RADIX_LOC_FUSED", RADIX_LOC_FUSED}, {"RADIX_LOC_NEXT_SHIFT", RADIX_LOC_NEXT_SHIFT},
        {"RADIX_LOC_NEXT_MASK", RADIX_LOC_NEXT_MASK}, {"RADIX_FUSED_MAX_TILES", RADIX_FUSED_MAX_TILES},
        {"RADIX_LOC_N", RADIX_LOC_N}, {"RADIX_LOC_SHIFT", RADIX_LOC_SHIFT},
        {"RADIX_LOC_MASK", RADIX_LOC_MASK}, {"RADIX_LOC_TILES", RADIX_LOC_TILES}, {"RADIX_LOC_BITS", RADIX_LOC_BITS}};
    char err[ERR_LEN];
    char *text = file_read(data_path("shaders", "sort/sort_common.glsl"), NULL, err);
    CHECK(text != NULL, "%s", err);
    if (!text) return;
    int found = 0;
    for (size_t i = 0; i < ARRAY_LEN(c); i++) {
        char pat[64];
        snprintf(pat, sizeof pat, "#define %s ", c[i].name);
        const char *p = strstr(text, pat);
        CHECK(p != NULL, "sort_common.glsl lacks %s", c[i].name);
        if (!p) continue;
        long v = strtol(p + strlen(pat), NULL, 0);
        CHECK(v == c[i].value, "%s is %ld in sort_common.glsl but %ld in sort_layout.h", c[i].name, v, c[i].value);
        found++;
    }
    printf("  %d constants match between sort_layout.h and sort_common.glsl\n", found);
    free(text);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    double t0 = now_seconds();
    test_twins();
    test_errors(caps);
    /* Where the GPU has subgroups both variants run (each against the CPU); elsewhere both settings
     * take the shared path, so it runs once, and the no_subgroup sorter is checked to say so. */
    if (caps->subgroup) {
        test_default("default/subgroup", false, NULL, caps);
        test_tiles("tiles/subgroup", false, "0", NULL, caps);
        test_tiles("tiles-fused/subgroup", false, "3", NULL, caps);
    }
    test_default("default/shared", true, NULL, caps);
    test_tiles("tiles/shared", true, "0", NULL, caps);
    test_tiles("tiles-fused/shared", true, "3", NULL, caps);
    /* The subgroup path's code on emulated subgroups of each size it supports (the one-group
     * kernel needs more shared memory than llvmpipe has at size 32, so the "default" rig takes the
     * fused and tiles paths there). */
    /* Where the GPU has real subgroups that code ran above, and the emulation (a barrier per
     * ballot) takes minutes there: only without them. */
    static const char *const emulated[] = {"32", "64", "128"};
    for (size_t i = 0; i < (caps->subgroup ? 0 : ARRAY_LEN(emulated)); i++) {
        char name[64];
        snprintf(name, sizeof name, "default/emulated-%s", emulated[i]);
        if (i < 2) test_default(name, false, emulated[i], caps); /* 128: the tile kernels only (time) */
        snprintf(name, sizeof name, "tiles/emulated-%s", emulated[i]);
        test_tiles(name, false, "0", emulated[i], caps);
        snprintf(name, sizeof name, "tiles-fused/emulated-%s", emulated[i]);
        test_tiles(name, false, "3", emulated[i], caps);
    }
    if (!caps->subgroup) {
        char err[ERR_LEN] = "", line[256] = "";
        sorter *s = sort_make("radix", &(sort_desc){.capacity = 64}, caps, err);
        CHECK(s != NULL, "%s", err);
        if (s) {
            sort_describe(s, 64, 16, line, sizeof line);
            CHECK(strstr(line, "shared path") != NULL, "without subgroups the default path says '%s'", line);
            sort_destroy(s);
        }
    }
    CHECK(gpu_live_objects() == 0, "%d GL objects left", gpu_live_objects());
    printf("radix tests took %.1f s\n", now_seconds() - t0);
    gpu_destroy(gpu);
    return check_done();
}
