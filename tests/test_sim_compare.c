/* The compare mode (src/sim/compare.h): every sort of the registry on the same keys, live.
 *  1. The fluid is driven by the chosen sort only: compare on and off give bit-identical particles.
 *  2. Every row's result (and the driving sort's, copied aside) equals a CPU sort of the copied keys
 *     written here (qsort by (key, value): the hash gives each particle's index as its value, in
 *     ascending order, so the stable sort by key is the sort by (key, value)), and no row reports a
 *     mismatch.
 *  3. A planted wrong result (desc.test_corrupt spoils one pair of one algorithm's result) is
 *     reported: that row, one pair a frame, the warning naming it; the others clean.
 *  4. The timing table has one row per distinct path (sort_path of each registry sort made here;
 *     cpu skipped), each timed, the fastest at ratio 1.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/compare.h"

#define FRAMES 6
#define COUNT 2000

static int _cmp_pair(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void print_line(void *user, const char *text) {
    (void)user;
    printf("%s\n", text);
}

static sim *run(const char *sort, const sim_compare_desc *cmp, float *pos, float *vel, const gpu_caps *caps) {
    sim *s = ref_sim("dambreak", COUNT, sort, "dfsph", caps);
    char err[ERR_LEN];
    if (cmp) CHECK(sim_set_compare(s, cmp, err), "sim_set_compare: %s", err);
    for (int f = 0; f < FRAMES; f++) {
        sim_frame(s, 1.0 / 60, 0, NULL);
        sim_run_compare(s);
    }
    sim_sync(s);
    if (pos) sim_read_particles(s, pos, vel, NULL);
    if (cmp) sim_compare_sync(sim_get_compare(s));
    return s;
}

/* The pairs of buffers (k, v) equal the reference ref (n pairs, interleaved). */
static uint32_t differing(sort_pairs p, const uint32_t *ref, uint32_t n) {
    uint32_t *k = malloc(4ull * n), *v = malloc(4ull * n), bad = 0;
    glGetNamedBufferSubData(p.keys, 0, 4ll * n, k);
    glGetNamedBufferSubData(p.vals, 0, 4ll * n, v);
    for (uint32_t i = 0; i < n; i++) bad += k[i] != ref[2 * i] || v[i] != ref[2 * i + 1];
    free(k);
    free(v);
    return bad;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    char err[ERR_LEN];

    /* 1. bit-identical with compare on and off */
    sim *probe = ref_sim("dambreak", COUNT, "radix", "dfsph", caps);
    uint32_t n = sim_particle_count(probe);
    sim_destroy(probe);
    float *pa = malloc(16ull * n), *va = malloc(16ull * n), *pb = malloc(16ull * n), *vb = malloc(16ull * n);
    sim_destroy(run("radix", NULL, pa, va, caps));
    sim *s = run("radix", &(sim_compare_desc){0}, pb, vb, caps);
    bool same = memcmp(pa, pb, 16ull * n) == 0 && memcmp(va, vb, 16ull * n) == 0;
    CHECK(same, "compare on changed the fluid after %d frames", FRAMES);
    printf("compare on vs off, %u particles, %d frames: %s\n", n, FRAMES, same ? "bit-identical" : "DIFFERENT");

    /* 2. every row against a CPU sort of the same keys */
    const sim_compare *c = sim_get_compare(s);
    sim_compare_report r;
    sim_compare_get(c, &r);
    CHECK(r.frames_checked == FRAMES, "%llu frames checked, %d run", (unsigned long long)r.frames_checked, FRAMES);
    sort_pairs in = sim_compare_input(c);
    uint32_t *ref = malloc(8ull * n), *k = malloc(4ull * n), *v = malloc(4ull * n);
    glGetNamedBufferSubData(in.keys, 0, 4ll * n, k);
    glGetNamedBufferSubData(in.vals, 0, 4ll * n, v);
    for (uint32_t i = 0; i < n; i++) ref[2 * i] = k[i], ref[2 * i + 1] = v[i];
    qsort(ref, n, 8, _cmp_pair);
    uint32_t dd = differing(sim_compare_driving(c), ref, n);
    CHECK(dd == 0, "the driving sort's result differs from the CPU sort in %u pairs", dd);
    for (int i = 0; i < r.rows; i++) {
        uint32_t d = differing(sim_compare_result(c, i), ref, n);
        CHECK(d == 0, "%s differs from the CPU sort in %u pairs", r.row[i].name, d);
        CHECK(r.row[i].mismatches == 0, "%s reported %llu mismatches", r.row[i].name, (unsigned long long)r.row[i].mismatches);
        printf("%-10s equals the CPU sort of %u pairs: %s\n", r.row[i].name, n, d ? "NO" : "yes");
    }
    CHECK(r.warning[0] == 0, "a warning with no disagreement: %s", r.warning);

    /* 4. one row per distinct path, cpu skipped, each timed */
    uint32_t bits = sim_compare_get_desc(c)->bits;
    char paths[16][128];
    int distinct = 0;
    for (int i = 0; i < sort_algo_count; i++) {
        if (sort_algos[i] == &sort_algo_cpu) continue;
        sorter *t = sort_make(sort_algos[i]->name, &(sort_desc){.capacity = n, .key_bits = bits}, caps, err);
        if (!t) continue;
        char p[128];
        sort_path(t, n, bits, p, sizeof p);
        sort_destroy(t);
        bool seen = false;
        for (int j = 0; j < distinct; j++) seen |= strcmp(paths[j], p) == 0;
        if (!seen) snprintf(paths[distinct++], sizeof paths[0], "%s", p);
    }
    CHECK(r.rows == distinct, "%d rows, %d distinct paths", r.rows, distinct);
    bool cpu_skipped = false, ratio_one = false;
    for (int i = 0; i < r.skipped; i++) cpu_skipped |= strcmp(r.skip[i].name, "cpu") == 0 && r.skip[i].why[0];
    CHECK(cpu_skipped, "cpu is not listed as skipped with a reason");
    for (int i = 0; i < r.rows; i++) {
        CHECK(r.row[i].timed && r.row[i].median_us > 0 && r.row[i].p95_us >= r.row[i].median_us, "%s: not timed (%g, %g)",
              r.row[i].name, r.row[i].median_us, r.row[i].p95_us);
        ratio_one |= r.row[i].ratio == 1.0;
    }
    CHECK(ratio_one, "no row at ratio 1 (the fastest)");
    CHECK(r.row[0].drives && strcmp(r.row[0].name, "radix") == 0, "the first row is %s, not the driving radix", r.row[0].name);
    /* Where radix takes onesweep (auto: every driver today), onesweep is that row's, run once. */
    sorter *rx = sort_make("radix", &(sort_desc){.capacity = n, .key_bits = bits}, caps, err);
    sorter *os = sort_make("onesweep", &(sort_desc){.capacity = n, .key_bits = bits}, caps, err);
    if (rx && os) {
        char a[128], b[128];
        sort_path(rx, n, bits, a, sizeof a);
        sort_path(os, n, bits, b, sizeof b);
        bool merged = strstr(r.row[0].same, "onesweep") != NULL;
        CHECK(merged == (strcmp(a, b) == 0), "onesweep %s radix's row, paths '%s' and '%s'", merged ? "in" : "not in", a, b);
    }
    sort_destroy(rx);
    sort_destroy(os);
    sim_compare_print(&r, print_line, NULL);
    sim_destroy(s);

    /* 3. a planted wrong result is reported, not a crash */
    s = run("radix", &(sim_compare_desc){.test_corrupt = "bitonic"}, NULL, NULL, caps);
    sim_compare_get(sim_get_compare(s), &r);
    for (int i = 0; i < r.rows; i++) {
        bool bad = strcmp(r.row[i].name, "bitonic") == 0;
        CHECK(r.row[i].mismatches == (bad ? (uint64_t)FRAMES : 0), "%s: %llu mismatches, %d expected", r.row[i].name,
              (unsigned long long)r.row[i].mismatches, bad ? FRAMES : 0);
        if (bad)
            CHECK(r.row[i].bad_frames == FRAMES && r.row[i].last_bad_count == 1, "bitonic: %llu frames, last %u pairs",
                  (unsigned long long)r.row[i].bad_frames, r.row[i].last_bad_count);
    }
    CHECK(strstr(r.warning, "bitonic disagrees") && strstr(r.warning, ": 1 pairs differ") && strstr(r.warning, "at step "),
          "the warning: '%s'", r.warning);
    printf("planted: %s\n", r.warning);
    sim_destroy(s);
    free(pa), free(va), free(pb), free(vb), free(ref), free(k), free(v);
    return check_done();
}
