/* The radix sort's onesweep path (radix_histogram.comp, radix_onesweep.comp: one histogram
 * dispatch, then one scatter per pass with a chained scan and decoupled look-back) against a qsort
 * by (key, index) (tests/test_sort_rig.h, test_sort_ref.h): sizes 0 .. 300,000 and 16,777,217, odd sizes around the
 * tile edges of both tile sizes, every input kind (low-entropy keys included) at every digit
 * width, the 9-bit digits where they save a pass (9, 17-18, 25-27 bits; the rig checks each run's
 * width and passes) and a sorter made for 17-bit keys fed by a producer, stability, one sorter
 * reused (the alternating histogram, look-back and ticket buffers), nothing written past n, the producer count from a producer shader, the gate (a run whose gate
 * word is shut writes neither pair, and the sorts after it are right), and bad tuning variables.
 *
 * The look-back: by default with fallback (a bounded wait, then the group counts the unpublished
 * tile itself), which needs no forward progress between groups, so it runs on llvmpipe with its
 * default threads, where groups run side by side and look-backs wait for real; the silent runs
 * (sort_radix_desc.test_agg_only = 2) make every look-back fall back. The waiting look-back
 * (sort_radix_desc.lookback = SORT_LOOKBACK_WAIT) runs in a child process (this program with --wait) on one
 * llvmpipe thread: llvmpipe cuts every shader off after 65,535 loop iterations in all, so an
 * unbounded wait there would end early with a wrong count; on one thread groups run in ticket
 * order and never wait. Where the GPU has subgroups both ranking variants run; on llvmpipe the
 * subgroup variant runs on emulated subgroups. Needs GL 4.5 (skips without). */
#include "test_sort_rig.h"
#include "sort/sort_layout.h"

/* The look-back every rig takes (main_wait: SORT_LOOKBACK_WAIT). */
static sort_radix_lookback os_lookback;

/* A onesweep rig with tuning t (NULL: none) and small_max, small_kpt, emulate over it (0: t's). */
static bool os_rig_tuned(rig *r, const char *name, uint32_t cap, bool no_subgroup, const sort_radix_desc *t, uint32_t small_max,
                         uint32_t small_kpt, uint32_t emulate, const gpu_caps *caps) {
    sort_radix_desc d = t ? *t : (sort_radix_desc){0};
    if (small_max) d.os_small_max = small_max;
    if (small_kpt) d.os_small_kpt = small_kpt;
    if (emulate) d.emulate_subgroup = emulate;
    if (!d.lookback) d.lookback = os_lookback;
    return rig_make_desc(r, "onesweep", name, cap, (sort_desc){.no_subgroup = no_subgroup, .radix = &d}, caps);
}

static bool os_rig(rig *r, const char *name, uint32_t cap, bool no_subgroup, uint32_t small_max, uint32_t small_kpt,
                   uint32_t emulate, const gpu_caps *caps) {
    return os_rig_tuned(r, name, cap, no_subgroup, NULL, small_max, small_kpt, emulate, caps);
}

/* Default tiles (small up to 131,072 pairs, large past), one sorter for every size. */
static void test_default(const char *name, bool no_subgroup, uint32_t emulate, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!os_rig(&r, name, 300000, no_subgroup, 0, 0, emulate, caps)) return;
    static const uint32_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 27648};
    if (emulate) {
        static const uint32_t few[] = {0, 1, 257, 2049, 27648};
        for (size_t i = 0; i < ARRAY_LEN(few); i++) case_of(&r, few[i], 16, IN_RANDOM);
        case_of(&r, 5000, 32, IN_AND4);
        case_of(&r, 5000, 12, IN_FEW);
    } else {
        for (size_t i = 0; i < ARRAY_LEN(sizes); i++) case_of(&r, sizes[i], 16, IN_RANDOM);
        sweep(&r, 1000);
        sweep(&r, 27648);
        case_of(&r, 131072, 24, IN_RANDOM); /* the last small-tile size */
        case_of(&r, 131073, 24, IN_AND2);   /* the first large-tile size */
    }
    case_of(&r, 300000, 32, IN_RANDOM);
    case_of(&r, 300000, 17, IN_FEW);
    case_of(&r, 5, 32, IN_RANDOM);
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* Around tile edges: the large tiles (4,096) at small n, and tiles of 3 x 256 = 768 keys. */
static void test_tiles(const char *name, bool no_subgroup, uint32_t small_max, uint32_t small_kpt, uint32_t tile,
                       const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!os_rig(&r, name, 4 * tile + 7, no_subgroup, small_max, small_kpt, 0, caps)) return;
    uint32_t t = tile;
    uint32_t sizes[] = {1, 2, 3, 255, 256, 257, 1000, t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, 3 * t + 5, 4 * t + 7};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        case_of(&r, sizes[i], 32, IN_RANDOM);
        case_of(&r, sizes[i], 9, IN_FEW);
        case_of(&r, sizes[i], 24, IN_AND4);
    }
    sweep(&r, 2 * t + 1);
    case_of(&r, 0, 32, IN_RANDOM);
    case_of(&r, 3 * t + 5, 24, IN_EQUAL);
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* The producer count: a producer shader makes the histograms, sort_run skips its dispatch.
 * Producer-counted and plain sorts alternate on one sorter (the histogram buffers alternate too). */
static void test_producer(const char *name, bool no_subgroup, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!os_rig(&r, name, 70000, no_subgroup, 0, 0, 0, caps)) return;
    CHECK(sort_producer_buffer(r.s) != 0, "%s: no producer buffer", name);
    static const uint32_t sizes[] = {1, 2, 255, 257, 2049, 27648, 70000};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        r.producer = true;
        case_of(&r, sizes[i], 15, IN_RANDOM);
        case_of(&r, sizes[i], 32, IN_AND2);
        r.producer = false;
        case_of(&r, sizes[i], 16, IN_RANDOM);
        r.producer = true;
        case_of(&r, sizes[i], 12, IN_WIDE);
        case_of(&r, sizes[i], 1, IN_RANDOM);
    }
    case_of(&r, 0, 16, IN_RANDOM); /* a producer count of nothing, then sorts must still be right */
    case_of(&r, 1000, 20, IN_REVERSED);
    r.producer = false;
    case_of(&r, 1000, 20, IN_FEW);
    rig_producer_destroy();
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* The wide scatter (9-bit digits, two a thread) where it saves a pass: 9, 17-18 and 25-27 bits. On
 * the subgroup path, emulated on llvmpipe, tiles of 4 keys a thread (the H100's shape up to 131,072
 * pairs: its real subgroups are 32 wide), so the scatter fits llvmpipe's 32 KiB of shared memory. */
static void test_wide(const char *name, bool no_subgroup, uint32_t emulate, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    sort_radix_desc t = {.os_kpt = 4, .os_small_kpt = 4};
    if (!os_rig_tuned(&r, name, 40000, no_subgroup, &t, 0, 0, emulate, caps)) return;
    static const uint32_t bits[] = {17, 9, 18, 25, 27};
    static const uint32_t sizes[] = {1, 1023, 1025, 27648, 40000};
    for (size_t b = 0; b < ARRAY_LEN(bits); b++) {
        char line[256];
        sort_describe(r.s, 1000, bits[b], line, sizeof line);
        CHECK(strstr(line, "of 9-bit digits") != NULL, "%s: %u bits do not take the wide digits: '%s'", name, bits[b], line);
        for (size_t i = 0; i < ARRAY_LEN(sizes); i++) case_of(&r, sizes[i], bits[b], i % 2 ? IN_FEW : IN_RANDOM);
    }
    case_of(&r, 40000, 16, IN_RANDOM); /* and back to 8 on the same sorter */
    case_of(&r, 40000, 17, IN_AND4);
    rig_destroy(&r);
    /* The fluid's case: a sorter made for 17-bit keys (its histograms hold two passes of 9 bits
     * only), fed by a producer count at 17 bits and narrower. */
    char kname[96];
    snprintf(kname, sizeof kname, "%s/key-bits-17", name);
    sort_radix_desc kt = t;
    kt.emulate_subgroup = emulate;
    kt.lookback = os_lookback;
    if (!rig_make_desc(&r, "onesweep", kname, 40000, (sort_desc){.key_bits = 17, .no_subgroup = no_subgroup, .radix = &kt}, caps))
        return;
    for (int producer = 1; producer >= 0; producer--) {
        r.producer = producer;
        case_of(&r, 40000, 17, IN_RANDOM);
        case_of(&r, 27648, 17, IN_FEW);
        case_of(&r, 2049, 16, IN_RANDOM);
        case_of(&r, 40000, 9, IN_AND2);
    }
    rig_producer_destroy();
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* The gate (test_sort_rig.h, rig_gate_cases). */
static void test_gate(const char *name, bool no_subgroup, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!os_rig(&r, name, 70000, no_subgroup, 0, 0, 0, caps)) return;
    static const uint32_t sizes[] = {1, 257, 2049, 27648, 70000};
    rig_gate_cases(&r, sizes, ARRAY_LEN(sizes));
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* Look-back over per-tile counts only (sort_radix_desc.test_agg_only = 1): every tile adds the AGG
 * words of all tiles before it back to tile 0, the path a look-back takes when its predecessors
 * have not finished theirs (which one llvmpipe thread never shows). */
static void test_agg_only(const char *name, bool no_subgroup, uint32_t window, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    sort_radix_desc t = {.test_agg_only = 1, .os_window = window};
    if (!os_rig_tuned(&r, name, 3 * 768 * 40 + 11, no_subgroup, &t, 1000000, 3, 0, caps)) return;
    case_of(&r, 3 * 768 * 40 + 11, 32, IN_RANDOM); /* 121 tiles of 768 */
    case_of(&r, 3 * 768 * 40 + 11, 16, IN_AND2);
    case_of(&r, 5000, 12, IN_FEW);
    case_of(&r, 769, 8, IN_RANDOM);
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* 16,777,217 pairs: 4 passes on a GPU, 1 on llvmpipe (time). */
static void test_big(const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    uint32_t n = (1u << 24) + 1;
    if (!os_rig(&r, "big", n, false, 0, 0, 0, caps)) return;
    case_of(&r, n, caps->timer_queries ? 32 : 8, IN_RANDOM);
    if (caps->timer_queries) case_of(&r, n, 32, IN_AND2);
    rig_destroy(&r);
    printf("big: %.1f s\n", now_seconds() - t0);
}

static void test_errors(const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    int live = gpu_live_objects();
    /* A tuning out of range (the environment's are checked by test_sort_env). */
    static const sort_radix_desc bad[] = {{.os_kpt = 99},   {.os_window = 33},    {.os_max = (1u << 30) + 1},
                                          {.os_spin = 257}, {.os_small_kpt = 25}, {.test_agg_only = 3}};
    static const char *const field[] = {"os_kpt", "os_window", "os_max", "os_spin", "os_small_kpt", "test_agg_only"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        sorter *s = sort_make("onesweep", &(sort_desc){.capacity = 100, .radix = &bad[i]}, caps, err);
        CHECK(s == NULL && strstr(err, field[i]) != NULL, "a bad sort_radix_desc.%s: err '%s'", field[i], err);
        sort_destroy(s);
        printf("  bad tuning: %s\n", err);
    }
    CHECK(gpu_live_objects() == live, "failed sort_make left %d GL objects", gpu_live_objects() - live);
}

/* Every look-back falls back (test_agg_only = 2: no tile but tile 0 posts anything),
 * so each group counts all its predecessors' digits itself: the sort must still be right and end,
 * though no group ever sees another's progress. spin: sort_radix_desc.os_spin. */
static void test_silent(const char *name, bool no_subgroup, uint32_t spin, const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    /* the fallback: the default where the driver makes progress is to wait */
    sort_radix_desc t = {.test_agg_only = 2, .os_spin = spin, .lookback = SORT_LOOKBACK_FALLBACK};
    if (!os_rig_tuned(&r, name, 3 * 768 * 20 + 11, no_subgroup, &t, 1000000, 3, 0, caps)) return;
    case_of(&r, 3 * 768 * 20 + 11, 32, IN_RANDOM); /* 61 tiles of 768 */
    case_of(&r, 3 * 768 * 20 + 11, 16, IN_AND2);
    /* 9-bit digits on 31 tiles, then 8 on 61: the 9-bit scatter's rows are twice as wide, so the
     * 8-bit one must clear 62 of its rows where the other dirtied 31 (a silent run takes any word
     * left non-zero as posted); then back to 9 */
    case_of(&r, 3 * 768 * 10 + 5, 17, IN_RANDOM);
    case_of(&r, 3 * 768 * 20 + 11, 16, IN_RANDOM);
    case_of(&r, 3 * 768 * 20 + 11, 18, IN_FEW);
    case_of(&r, 5000, 12, IN_FEW);
    case_of(&r, 769, 8, IN_RANDOM);
    rig_destroy(&r);
    printf("%s: %.1f s\n", name, now_seconds() - t0);
}

/* The waiting look-back (SORT_LOOKBACK_WAIT), in a child process: on llvmpipe it runs
 * on one thread only (see the top), and LP_NUM_THREADS is read when the context is made. */
static int main_wait(void) {
    setenv("LP_NUM_THREADS", "1", 1); /* Mesa's variable, read when the context is made */
    os_lookback = SORT_LOOKBACK_WAIT;
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    uint32_t small_tile = 4 * RADIX_WG * 3 + 7;
    bool no_sg = !caps->subgroup;
    test_default("onesweep-wait", no_sg, 0, caps);
    test_tiles("onesweep-wait-tiles-of-768", no_sg, small_tile, 3, RADIX_WG * 3, caps);
    static const uint32_t windows[] = {1, 7, 32}; /* 7: windows end mid-way */
    for (size_t w = 0; w < ARRAY_LEN(windows); w++) {
        char name[64];
        snprintf(name, sizeof name, "onesweep-wait-agg-only-window-%u", windows[w]);
        test_agg_only(name, no_sg, windows[w], caps);
    }
    CHECK(gpu_live_objects() == 0, "%d GL objects left", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--wait") == 0) return main_wait();
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    double t0 = now_seconds();
    if (caps->llvmpipe) {
        const char *lp = getenv("LP_NUM_THREADS");
        printf("note: llvmpipe, LP_NUM_THREADS %s: groups run on threads side by side, look-backs wait for real\n",
               lp ? lp : "unset (one a core)");
        /* The waiting look-back is refused there on several threads, saying why. */
        char err[ERR_LEN] = "";
        setenv("LP_NUM_THREADS", "2", 1); /* Mesa's variable (the sort reads it, the context has been made) */
        sorter *s = sort_make(
            "onesweep", &(sort_desc){.capacity = 100, .radix = &(sort_radix_desc){.lookback = SORT_LOOKBACK_WAIT}}, caps, err);
        if (lp) setenv("LP_NUM_THREADS", lp, 1);
        else unsetenv("LP_NUM_THREADS");
        CHECK(s == NULL && strstr(err, "LP_NUM_THREADS=1"), "waiting onesweep on llvmpipe, 2 threads: sorter %p, err '%s'",
              (void *)s, err);
        sort_destroy(s);
        printf("  waiting look-back, llvmpipe, 2 threads: %s\n", err);
    }
    test_errors(caps);
    uint32_t small_tile = 4 * RADIX_WG * 3 + 7;
    for (int sub = caps->subgroup ? 0 : 1; sub < 2; sub++) {
        bool no_sg = sub == 1;
        const char *v = no_sg ? "shared" : "subgroup";
        char name[64];
        snprintf(name, sizeof name, "onesweep/%s", v);
        test_default(name, no_sg, 0, caps);
        snprintf(name, sizeof name, "onesweep-large-tiles/%s", v);
        test_tiles(name, no_sg, SORT_RADIX_NONE, 0, RADIX_WG * 12, caps);
        snprintf(name, sizeof name, "onesweep-tiles-of-768/%s", v);
        test_tiles(name, no_sg, small_tile, 3, RADIX_WG * 3, caps);
        snprintf(name, sizeof name, "onesweep-producer/%s", v);
        test_producer(name, no_sg, caps);
        snprintf(name, sizeof name, "onesweep-gate/%s", v);
        test_gate(name, no_sg, caps);
        snprintf(name, sizeof name, "onesweep-agg-only/%s", v);
        test_agg_only(name, no_sg, 1, caps);
        static const uint32_t spins[] = {1, 64};
        for (size_t i = 0; i < ARRAY_LEN(spins); i++) {
            snprintf(name, sizeof name, "onesweep-silent-spin-%u/%s", spins[i], v);
            test_silent(name, no_sg, spins[i], caps);
        }
    }
    if (!caps->subgroup) test_default("onesweep/emulated-32", false, 32, caps);
    test_wide(caps->subgroup ? "onesweep-wide/subgroup" : "onesweep-wide/emulated-32", false, caps->subgroup ? 0 : 32, caps);
    test_wide("onesweep-wide/shared", true, 0, caps);
    if (!caps->llvmpipe) { /* where the default look-back waits: the fallback at every size too */
        os_lookback = SORT_LOOKBACK_FALLBACK;
        test_default(caps->subgroup ? "onesweep-fallback/subgroup" : "onesweep-fallback/shared", !caps->subgroup, 0, caps);
        os_lookback = SORT_LOOKBACK_AUTO;
    }
    test_big(caps);
    CHECK(gpu_live_objects() == 0, "%d GL objects left", gpu_live_objects());
    gpu_destroy(gpu);
    /* The waiting look-back, in a child (its own GL context and LP_NUM_THREADS). */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --wait", argv[0]);
    fflush(stdout);
    int rc = system(cmd);
    CHECK(rc == 0, "the waiting look-back's run (%s) failed: status %d", cmd, rc);
    printf("onesweep tests took %.1f s\n", now_seconds() - t0);
    return check_done();
}
