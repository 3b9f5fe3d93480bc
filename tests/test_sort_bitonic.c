/* The bitonic sort (sort_bitonic.c) on real GL (llvmpipe headless), against the tests' own CPU
 * references (qsort, tests/test_sort_ref.h; not the library's CPU sort): by (key, value) for every
 * case, and exactly the stable order where the values are distinct and in ascending input order
 * (the fluid's case).
 * Sizes: 0 .. 3, around powers of two, around the block size B, 27,648 (the fluid's default) and
 * 200,000 (several global merge passes, one merge split over two passes); keys all equal, sorted,
 * reversed, all 0xFFFFFFFF (the padding key), few distinct, random at several widths. Buffers are
 * poisoned before every run, one sorter is reused for all sizes, and smaller blocks (forced by
 * lowering the shared-memory limit the sorter is told about) run the same shaders with more
 * global passes. The gate (sort.h): a run whose gate word is shut leaves the caller's pair and the
 * sorter's own as they were, and the sorts around it and with the gate open are right (failed as
 * it should with the block kernel's gate left out). Requires GL 4.5 compute (skips otherwise). */
#include "check.h"
#include "test_sort_ref.h"
#include "sort/sort.h"
#include <stdbool.h>
#include <string.h>

#define POISON_KEY 0u /* a key that would sort first if a tail element leaked in */
#define POISON_VAL 0xBAD0BAD0u
#define STALE 0xDEADBEEFu
#define TAIL 64u

typedef struct trace_log {
    int begins, ends, depth, bad;
    char first[64];
} trace_log;

static void trace_begin(void *u, const char *name) {
    trace_log *t = u;
    if (t->depth != 0 || strncmp(name, "bitonic.", 8) != 0) t->bad++;
    if (t->begins == 0) snprintf(t->first, sizeof t->first, "%s", name);
    t->begins++;
    t->depth++;
}

static void trace_end(void *u) {
    trace_log *t = u;
    if (t->depth != 1) t->bad++;
    t->ends++;
    t->depth--;
}

/* The sorter under test and its input buffers (capacity + TAIL pairs). */
typedef struct rig {
    sorter *s;
    uint32_t capacity;
    GLuint in_keys, in_vals;
    sort_pairs last; /* the previous result, poisoned before the next run */
    const sort_gate *gate; /* run_case's gate (sort_run_gated; NULL: sort_run) */
    uint32_t *tail_k, *tail_v;
} rig;

static rig rig_make(uint32_t capacity, const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    rig r = {0};
    r.capacity = capacity;
    r.s = sort_make("bitonic", &(sort_desc){.capacity = capacity}, caps, err);
    CHECK(r.s != NULL, "sort_make(bitonic, %u): %s", capacity, err);
    r.in_keys = gpu_buffer_make(4ull * (capacity + TAIL), NULL, "test.in_keys", err);
    r.in_vals = gpu_buffer_make(4ull * (capacity + TAIL), NULL, "test.in_vals", err);
    r.tail_k = malloc(4ull * (capacity + TAIL));
    r.tail_v = malloc(4ull * (capacity + TAIL));
    return r;
}

static void rig_destroy(rig *r) {
    sort_destroy(r->s);
    gpu_buffer_destroy(&r->in_keys);
    gpu_buffer_destroy(&r->in_vals);
    free(r->tail_k);
    free(r->tail_v);
}

static void poison(GLuint buf, uint32_t word) { glClearNamedBufferData(buf, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &word); }

static bool pair_less_eq(uint32_t ka, uint32_t va, uint32_t kb, uint32_t vb) { return ka < kb || (ka == kb && va <= vb); }

/* Sorts keys/vals (n pairs) on the GPU with r's sorter and compares with the CPU reference.
 * stable: the values are distinct and ascending, so the result must equal the stable order.
 * aliased: the input is uploaded into the previous result's buffers and sorted from there. */
static void run_case(rig *r, const char *what, const uint32_t *keys, const uint32_t *vals, uint32_t n, bool stable, bool aliased,
                     trace_log *tl) {
    if (!r->s) return;
    sort_pairs in = {r->in_keys, r->in_vals};
    if (aliased && r->last.keys && r->last.keys != r->in_keys) {
        in = r->last;
    } else {
        aliased = false;
        /* The tail past n is poison the sorter must not read; it must also be left alone. The
         * input and its tail go up in one upload each (a clear then an upload into the same
         * buffer was seen to lose the upload on NVIDIA 580). */
        uint32_t total = r->capacity + TAIL;
        for (uint32_t i = 0; i < total; i++) {
            r->tail_k[i] = i < n ? keys[i] : POISON_KEY;
            r->tail_v[i] = i < n ? vals[i] : POISON_VAL;
        }
        glNamedBufferSubData(r->in_keys, 0, 4ll * total, r->tail_k);
        glNamedBufferSubData(r->in_vals, 0, 4ll * total, r->tail_v);
        if (r->last.keys && r->last.keys != r->in_keys) {
            poison(r->last.keys, STALE);
            poison(r->last.vals, STALE);
        }
    }
    if (aliased && n) {
        glNamedBufferSubData(in.keys, 0, 4ll * n, keys);
        glNamedBufferSubData(in.vals, 0, 4ll * n, vals);
    }
    sort_trace trace = {trace_begin, trace_end, tl};
    sort_pairs out = sort_run_gated(r->s, in, n, 32, r->gate, tl ? &trace : NULL);
    r->last = out;

    uint32_t *gk = malloc(4ull * n + 4), *gv = malloc(4ull * n + 4);
    uint32_t *ek = malloc(4ull * n + 4), *ev = malloc(4ull * n + 4);
    if (n) {
        glGetNamedBufferSubData(out.keys, 0, 4ll * n, gk);
        glGetNamedBufferSubData(out.vals, 0, 4ll * n, gv);
        memcpy(ek, keys, 4ull * n);
        memcpy(ev, vals, 4ull * n);
    }
    if (stable) ref_sort_stable(ek, ev, n, 0xFFFFFFFFu);
    else ref_sort_key_value(ek, ev, n);
    uint32_t first_bad = n, bad = 0, unordered = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (gk[i] != ek[i] || gv[i] != ev[i]) {
            if (first_bad == n) first_bad = i;
            bad++;
        }
        if (i && !pair_less_eq(gk[i - 1], gv[i - 1], gk[i], gv[i])) unordered++;
    }
    CHECK(bad == 0, "%s, n=%u%s: %u pairs differ from the CPU %s sort, first at %u: got (%#x, %#x) expected (%#x, %#x)", what, n,
          aliased ? " (in place)" : "", bad, stable ? "stable" : "(key, value)", first_bad, first_bad < n ? gk[first_bad] : 0,
          first_bad < n ? gv[first_bad] : 0, first_bad < n ? ek[first_bad] : 0, first_bad < n ? ev[first_bad] : 0);
    CHECK(unordered == 0, "%s, n=%u: %u adjacent pairs out of (key, value) order", what, n, unordered);

    /* The caller's buffers past n are untouched (and the input itself, when not returned). */
    if (!aliased && out.keys != r->in_keys) {
        uint32_t total = r->capacity + TAIL, changed = 0;
        glGetNamedBufferSubData(r->in_keys, 0, 4ll * total, r->tail_k);
        glGetNamedBufferSubData(r->in_vals, 0, 4ll * total, r->tail_v);
        for (uint32_t i = 0; i < total; i++) {
            bool in_n = i < n;
            changed += r->tail_k[i] != (in_n ? keys[i] : POISON_KEY) || r->tail_v[i] != (in_n ? vals[i] : POISON_VAL);
        }
        CHECK(changed == 0, "%s, n=%u: %u words of the caller's input buffers changed", what, n, changed);
    }
    free(gk);
    free(gv);
    free(ek);
    free(ev);
}

typedef enum pattern {
    PAT_RANDOM, /* random keys of `bits` bits */
    PAT_EQUAL,  /* every key the same */
    PAT_SORTED,
    PAT_REVERSED,
    PAT_MAX, /* every key 0xFFFFFFFF, the padding key */
    PAT_FEW, /* 3 distinct keys */
    PAT_COUNT
} pattern;
static const char *const pattern_names[PAT_COUNT] = {"random", "equal", "sorted", "reversed", "all-0xFFFFFFFF", "few"};

typedef enum values {
    VAL_ASCENDING, /* 0 .. n-1: the fluid's case, checked against the stable sort */
    VAL_SHUFFLED,  /* a permutation of 0 .. n-1 */
    VAL_RANDOM,    /* random 32-bit values, duplicates and 0xFFFFFFFF included */
} values;

static uint32_t rng = 0x9E3779B9u;

static void fill(uint32_t *k, uint32_t *v, uint32_t n, pattern p, uint32_t bits, values vals) {
    uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    for (uint32_t i = 0; i < n; i++) {
        switch (p) {
        case PAT_RANDOM: k[i] = check_rand(&rng) & mask; break;
        case PAT_EQUAL: k[i] = 12345u; break;
        case PAT_SORTED: k[i] = i * 3u; break;
        case PAT_REVERSED: k[i] = (n - i) * 7u; break;
        case PAT_MAX: k[i] = 0xFFFFFFFFu; break;
        case PAT_FEW: k[i] = (uint32_t[]){0u, 77u, 0xFFFFFFFFu}[check_rand(&rng) % 3]; break;
        default: break;
        }
        v[i] = vals == VAL_RANDOM ? ((check_rand(&rng) & 7u) == 0 ? 0xFFFFFFFFu : check_rand(&rng) & 0xFFFFu) : i;
    }
    if (vals == VAL_SHUFFLED)
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = check_rand(&rng) % i, t = v[i - 1];
            v[i - 1] = v[j];
            v[j] = t;
        }
}

static void run_pattern(rig *r, uint32_t n, pattern p, uint32_t bits, values vals, bool aliased) {
    uint32_t *k = malloc(4ull * n + 4), *v = malloc(4ull * n + 4);
    fill(k, v, n, p, bits, vals);
    char what[96];
    snprintf(what, sizeof what, "%s keys (%u bits), %s values", pattern_names[p], bits,
             vals == VAL_ASCENDING  ? "ascending"
             : vals == VAL_SHUFFLED ? "shuffled"
                                    : "random");
    run_case(r, what, k, v, n, vals == VAL_ASCENDING, aliased, NULL);
    free(k);
    free(v);
}

/* Every pattern at one size. */
static void run_all_patterns(rig *r, uint32_t n) {
    for (int p = 0; p < PAT_COUNT; p++) {
        run_pattern(r, n, (pattern)p, 32, VAL_ASCENDING, false);
        run_pattern(r, n, (pattern)p, 32, VAL_SHUFFLED, false);
    }
    run_pattern(r, n, PAT_MAX, 32, VAL_RANDOM, false);
    run_pattern(r, n, PAT_FEW, 32, VAL_RANDOM, false);
    static const uint32_t widths[] = {1, 4, 8, 15, 16, 24, 31, 32};
    for (size_t w = 0; w < ARRAY_LEN(widths); w++) run_pattern(r, n, PAT_RANDOM, widths[w], VAL_ASCENDING, false);
    run_pattern(r, n, PAT_RANDOM, 12, VAL_RANDOM, false);
}

static uint32_t block_of(sorter *s, uint32_t n) {
    char d[256];
    sort_describe(s, n, 32, d, sizeof d);
    const char *p = strstr(d, "blocks of ");
    return p ? (uint32_t)strtoul(p + 10, NULL, 10) : 0;
}

/* The gate (sort.h, "Gate"): shut runs between sorts, and an open gate. Kind: an invariant (a shut
 * run writes neither the caller's pair nor the sorter's own), the CPU reference for the sorts. */
static void test_gate(rig *r) {
    if (!r->s) return;
    char err[ERR_LEN];
    static const uint32_t words[2] = {0, 1}; /* open, shut */
    GLuint gates = gpu_buffer_make(sizeof words, words, "test.gates", err);
    CHECK(gates != 0, "bitonic gate: %s", err);
    const sort_gate open = {gates, 0}, shut = {gates, 1};
    static const uint32_t sizes[] = {2, 257, 2049, 27648};
    for (size_t i = 0; gates && i < ARRAY_LEN(sizes); i++) {
        uint32_t n = sizes[i], total = r->capacity + TAIL;
        run_pattern(r, n, PAT_RANDOM, 15, VAL_ASCENDING, false);
        uint32_t *own = malloc(4ull * n), *own2 = malloc(4ull * n), *in = malloc(4ull * total);
        glGetNamedBufferSubData(r->last.keys, 0, 4ll * n, own);
        for (uint32_t k = 0; k < total; k++) r->tail_k[k] = k < n ? (k * 2654435761u) >> 17 : POISON_KEY;
        glNamedBufferSubData(r->in_keys, 0, 4ll * total, r->tail_k);
        while (glGetError() != GL_NO_ERROR) {}
        sort_run_gated(r->s, (sort_pairs){r->in_keys, r->in_vals}, n, 32, &shut, NULL);
        GLenum gl_err = glGetError();
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(r->in_keys, 0, 4ll * total, in);
        glGetNamedBufferSubData(r->last.keys, 0, 4ll * n, own2);
        uint32_t moved = 0, own_moved = 0;
        for (uint32_t k = 0; k < total; k++) moved += in[k] != r->tail_k[k];
        for (uint32_t k = 0; k < n; k++) own_moved += own[k] != own2[k];
        printf("bitonic n=%u, gate shut: %u input keys moved, %u of the sorter's own changed\n", n, moved, own_moved);
        CHECK(gl_err == GL_NO_ERROR && moved == 0 && own_moved == 0,
              "bitonic n=%u: a run with its gate shut (GL error 0x%04x) moved %u input keys and changed %u of its own", n, gl_err,
              moved, own_moved);
        free(own), free(own2), free(in);
        run_pattern(r, n, PAT_FEW, 32, VAL_ASCENDING, false);
        r->gate = &open;
        run_pattern(r, n, PAT_RANDOM, 24, VAL_SHUFFLED, false);
        r->gate = NULL;
    }
    gpu_buffer_destroy(&gates);
}

/* The dispatch plan: the trace and describe() agree with the design (1 + 2 log2(P/B) up to 16 B). */
static void test_plan(rig *r) {
    if (!r->s) return;
    uint32_t B = block_of(r->s, 27648);
    CHECK(B == 4096, "block size %u on this GL (32 KiB shared, 1,024 invocations): expected 4096", B);
    char d[256];
    sort_describe(r->s, 27648, 15, d, sizeof d);
    printf("describe(27648): %s\n", d);
    CHECK(strstr(d, "padded to 32768") && strstr(d, "7 dispatches"), "describe(27648) is '%s'", d);
    sort_describe(r->s, 200000, 32, d, sizeof d);
    printf("describe(200000): %s\n", d);
    /* P = 262144 = 64 B: 6 merges; their global strides 1, 2, 3, 4, 5 (2 passes), 6 (2 passes). */
    CHECK(strstr(d, "padded to 262144") && strstr(d, "15 dispatches") && strstr(d, "8 global"), "describe(200000) is '%s'", d);
    sort_describe(r->s, 1, 32, d, sizeof d);
    CHECK(strstr(d, "0 dispatches") != NULL, "describe(1) is '%s'", d);

    static const uint32_t sizes[] = {27648, 3, 0, 4097};
    static const int expect[] = {7, 1, 0, 3};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        trace_log tl = {0};
        uint32_t n = sizes[i], *k = malloc(4ull * n + 4), *v = malloc(4ull * n + 4);
        fill(k, v, n, PAT_RANDOM, 16, VAL_ASCENDING);
        run_case(r, "traced", k, v, n, true, false, &tl);
        CHECK(tl.begins == expect[i] && tl.ends == expect[i] && tl.bad == 0,
              "n=%u: trace saw %d begins, %d ends, %d misnamed or nested (expected %d dispatches)", n, tl.begins, tl.ends, tl.bad,
              expect[i]);
        if (n > 1) CHECK(strcmp(tl.first, "bitonic.block_sort") == 0, "first dispatch traced as '%s'", tl.first);
        free(k);
        free(v);
    }
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    int live0 = gpu_live_objects();
    double t0 = now_seconds();

    /* One sorter for every size up to 200,000. */
    rig r = rig_make(200000, caps);
    test_plan(&r);
    test_gate(&r);
    uint32_t B = r.s ? block_of(r.s, 100000) : 4096;
    const uint32_t sizes[] = {0,  1,     2,     3,         4,         5,     7,     8,     9,     15,    16,    17,    31,
                              33, 255,   256,   257,       511,       512,   1000,  1023,  1024,  1025,  2047,  2049,  B - 1,
                              B,  B + 1, 2 * B, 2 * B + 1, 3 * B + 5, 16384, 27648, 32767, 32768, 32769, 65535, 65536, 70001};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        run_pattern(&r, sizes[i], PAT_RANDOM, 32, VAL_SHUFFLED, false);
        run_pattern(&r, sizes[i], PAT_FEW, 32, VAL_ASCENDING, false);
    }
    const uint32_t pattern_sizes[] = {2, 3, 257, 1000, B + 1, 2 * B + 1, 27648};
    for (size_t i = 0; i < ARRAY_LEN(pattern_sizes); i++) run_all_patterns(&r, pattern_sizes[i]);
    printf("small and medium sizes: %.1f s\n", now_seconds() - t0);

    /* Large: several global merge passes, the last merges split over two passes each. */
    run_pattern(&r, 200000, PAT_RANDOM, 24, VAL_ASCENDING, false);
    run_pattern(&r, 200000, PAT_REVERSED, 32, VAL_SHUFFLED, false);
    run_pattern(&r, 200000, PAT_MAX, 32, VAL_ASCENDING, false);
    /* In place: the input uploaded into the previous result's buffers (the sorter's own). */
    run_pattern(&r, 200000, PAT_RANDOM, 32, VAL_SHUFFLED, true);
    run_pattern(&r, 1000, PAT_RANDOM, 32, VAL_SHUFFLED, true);
    run_pattern(&r, 27648, PAT_FEW, 32, VAL_ASCENDING, true);
    /* Smaller again after large: nothing of the large run may leak into the result. */
    run_pattern(&r, 5000, PAT_RANDOM, 8, VAL_ASCENDING, false);
    printf("with 200,000: %.1f s\n", now_seconds() - t0);
    rig_destroy(&r);

    /* Tiny capacities. */
    rig r0 = rig_make(0, caps);
    run_pattern(&r0, 0, PAT_RANDOM, 32, VAL_ASCENDING, false);
    rig_destroy(&r0);
    rig r3 = rig_make(3, caps);
    run_pattern(&r3, 3, PAT_REVERSED, 32, VAL_ASCENDING, false);
    run_pattern(&r3, 2, PAT_MAX, 32, VAL_RANDOM, false);
    rig_destroy(&r3);

    /* Smaller blocks, as on a GPU with less shared memory: the same shaders, more global passes
     * (block 16: 1,000 pairs -> 1,024 = 64 blocks, merges split over 2 global passes). */
    static const int shared_limits[] = {16384, 1024, 128};
    static const uint32_t expect_block[] = {2048, 128, 16};
    for (size_t i = 0; i < ARRAY_LEN(shared_limits); i++) {
        gpu_caps small = *caps;
        small.max_shared_bytes = shared_limits[i];
        rig rs = rig_make(20000, &small);
        if (!rs.s) continue;
        uint32_t b = block_of(rs.s, 1000);
        CHECK(b == expect_block[i], "with %d bytes of shared memory the block is %u, expected %u", shared_limits[i], b,
              expect_block[i]);
        const uint32_t small_sizes[] = {2, b - 1, b, b + 1, 1000, 2 * b + 3, 20000};
        for (size_t j = 0; j < ARRAY_LEN(small_sizes); j++) {
            run_pattern(&rs, small_sizes[j], PAT_RANDOM, 32, VAL_SHUFFLED, false);
            run_pattern(&rs, small_sizes[j], PAT_FEW, 32, VAL_ASCENDING, false);
            run_pattern(&rs, small_sizes[j], PAT_REVERSED, 32, VAL_ASCENDING, false);
        }
        rig_destroy(&rs);
    }

    /* Capacity past the storage-buffer limit once padded: a clear error, nothing made. */
    {
        gpu_caps tight = *caps;
        tight.max_ssbo_bytes = 4 * 3000;
        char err[ERR_LEN] = "";
        sorter *s = sort_make("bitonic", &(sort_desc){.capacity = 3000}, &tight, err);
        CHECK(s == NULL && strstr(err, "pads to 4096") && strstr(err, "limit"), "capacity 3000 with a 12,000-byte limit: %s",
              s ? "made" : err);
        sort_destroy(s);
    }

    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "GL error 0x%04x", gl_err);
    CHECK(gpu_live_objects() == live0, "%d GL objects leaked", gpu_live_objects() - live0);
    printf("total: %.1f s\n", now_seconds() - t0);
    gpu_destroy(gpu);
    return check_done();
}
