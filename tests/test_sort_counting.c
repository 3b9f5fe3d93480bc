/* The counting sort (sort_counting.c) against an independent CPU reference (a qsort by
 * (key & mask, value, key), tests/test_sort_rig.h), and exactly the stable CPU sort's output where
 * values are distinct and ascending (the fluid's case): sizes 0 .. 300,000 and odd sizes around
 * its group edges, every input kind (low-entropy keys included) at widths 1 .. 22 bits, one sorter
 * reused (the counts must come back to zero), nothing written past n, the key ranges
 * (sort_key_starts) against counts made on the CPU, the producer count from a producer shader,
 * the gate (rig_gate_cases: a shut run leaves the pairs and key ranges, and clears a producer's
 * counts; failed as it should with the shut scatter leaving the producer's counts, 16 checks),
 * and the refusal of keys too wide for its count array.
 *
 * Long runs of one key cost their length per pair (counting_order.comp), and llvmpipe cuts every
 * shader off after 65,535 loop iterations, so runs stay below that here: all-equal and few-distinct
 * keys up to 27,648 pairs. Needs GL 4.5 (skips without it). */
#include "test_sort_rig.h"
#include "sort/sort_layout.h"

/* Reads the key starts after the last sort and checks them against the CPU reference keys. */
static void check_starts(rig *r, uint32_t n, uint32_t bits) {
    uint32_t keys = 1u << bits, mask = keys - 1u;
    uint32_t *got = malloc(4ull * (keys + 1)), *want = calloc(keys + 1, 4);
    glGetNamedBufferSubData(sort_key_starts(r->s), 0, 4ll * (keys + 1), got);
    for (uint32_t i = 0; i < n; i++) want[(r->k[i] & mask) + 1]++;
    for (uint32_t k = 0; k < keys; k++) want[k + 1] += want[k];
    uint32_t bad = 0, first = keys + 1;
    for (uint32_t k = 0; k <= keys; k++)
        if (got[k] != want[k] && bad++ == 0) first = k;
    CHECK(bad == 0, "%s n=%u bits=%u: %u key starts wrong; first starts[%u] = %u, want %u", r->name, n, bits, bad, first,
          first <= keys ? got[first] : 0, first <= keys ? want[first] : 0);
    free(got);
    free(want);
}

static void case_starts(rig *r, uint32_t n, uint32_t bits, input in) {
    case_of(r, n, bits, in);
    check_starts(r, n, bits);
}

/* Every input kind and width at one size (all-equal runs only where n allows). */
static void sweep_counting(rig *r, uint32_t n) {
    static const uint32_t widths[] = {1, 5, 8, 9, 12, 15, 16, 17, 20, 22};
    for (size_t i = 0; i < ARRAY_LEN(widths); i++)
        if (n <= 27648 || widths[i] >= 12) case_starts(r, n, widths[i], IN_RANDOM);
    if (n <= 27648) {
        case_starts(r, n, 16, IN_EQUAL);
        case_of(r, n, 22, IN_ALL_ONES);
        case_of(r, n, 12, IN_FEW);
    }
    case_of(r, n, 22, IN_SORTED);
    case_of(r, n, 22, IN_REVERSED);
    case_of(r, n, 12, IN_WIDE);
    case_starts(r, n, 16, IN_AND2);
    if (n <= 27648) case_of(r, n, 22, IN_AND4); /* key 0 takes a quarter of them */
}

/* Values ascending in input order: exactly the stable sort (what the fluid relies on). */
static void test_stable_identity(rig *r, uint32_t n, uint32_t bits) {
    uint32_t st = 99u + n, mask = (1u << bits) - 1u;
    for (uint32_t i = 0; i < n; i++) {
        r->k[i] = check_rand(&st) & mask;
        r->v[i] = i;
    }
    run_case(r, n, bits, "values ascending (stable identity)");
    uint32_t *sk = malloc(4ull * n + 4), *sv = malloc(4ull * n + 4);
    memcpy(sk, r->k, 4ull * n);
    memcpy(sv, r->v, 4ull * n);
    ref_sort_stable(sk, sv, n, 0xFFFFFFFFu);
    CHECK(memcmp(sk, r->rk, 4ull * n) == 0 && memcmp(sv, r->rv, 4ull * n) == 0,
          "n=%u: with ascending values the by-value reference differs from the stable sort", n);
    free(sk);
    free(sv);
}

static void test_default(const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!rig_make_desc(&r, "counting", "counting", 300000, (sort_desc){.key_bits = 22}, caps)) return;
    static const uint32_t sizes[] = {0, 1, 2, 3, 255, 256, 257, 1000, 2047, 2048, 2049, 4095, 4096, 4097, 27648};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) case_starts(&r, sizes[i], 16, IN_RANDOM);
    sweep_counting(&r, 1000);
    sweep_counting(&r, 27648);
    sweep_counting(&r, 300000); /* runs of at most ~300000 / 2^12 */
    test_stable_identity(&r, 27648, 15);
    test_stable_identity(&r, 300000, 18);
    case_starts(&r, 5, 3, IN_RANDOM);
    rig_destroy(&r);
    printf("counting: %.1f s\n", now_seconds() - t0);
}

static void test_producer(const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!rig_make_desc(&r, "counting", "counting-producer", 70000, (sort_desc){.key_bits = 20}, caps)) return;
    CHECK(sort_producer_buffer(r.s) != 0, "counting: no producer buffer");
    static const uint32_t sizes[] = {1, 2, 255, 257, 2049, 27648, 70000};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        r.producer = true;
        case_starts(&r, sizes[i], 15, IN_RANDOM);
        case_of(&r, sizes[i], 20, IN_AND2);
        r.producer = false;
        case_starts(&r, sizes[i], 16, IN_RANDOM);
        r.producer = true;
        case_of(&r, sizes[i], 12, IN_WIDE);
        case_of(&r, sizes[i], 1, IN_RANDOM);
    }
    case_starts(&r, 0, 16, IN_RANDOM);
    r.producer = false;
    case_starts(&r, 1000, 20, IN_FEW);
    rig_producer_destroy();
    rig_destroy(&r);
    printf("counting-producer: %.1f s\n", now_seconds() - t0);
}

static void test_errors(const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    int live = gpu_live_objects();
    uint32_t widths[] = {SORT_COUNTING_MAX_BITS + 1, 32};
    for (size_t i = 0; i < ARRAY_LEN(widths); i++) {
        sorter *s = sort_make("counting", &(sort_desc){.capacity = 100, .key_bits = widths[i]}, caps, err);
        CHECK(s == NULL && strstr(err, "at most 22 bits") && strstr(err, "use radix"),
              "counting with %u-bit keys: sorter %p, err '%s'", widths[i], (void *)s, err);
        sort_destroy(s);
        printf("  %u-bit keys: %s\n", widths[i], err);
    }
    CHECK(gpu_live_objects() == live, "failed sort_make left %d GL objects", gpu_live_objects() - live);
    /* The others have no key ranges, and radix on reduce-then-scan takes no producer count. */
    sorter *b = sort_make("bitonic", &(sort_desc){.capacity = 100}, caps, err);
    CHECK(b && sort_key_starts(b) == 0 && sort_producer_buffer(b) == 0, "bitonic: key starts or producer buffer");
    CHECK(b && strstr(sort_producer_defines(b), "SORT_PRODUCER_MODE 0"), "bitonic: producer defines '%s'",
          b ? sort_producer_defines(b) : "");
    sort_destroy(b);
}

/* The gate (test_sort_rig.h, rig_gate_cases): shut runs with and without the producer's count leave
 * the pairs and the key ranges as they were, and the sorts after them are right. */
static void test_gate(const gpu_caps *caps) {
    double t0 = now_seconds();
    rig r;
    if (!rig_make_desc(&r, "counting", "counting-gate", 70000, (sort_desc){.key_bits = 20}, caps)) return;
    static const uint32_t sizes[] = {1, 257, 2049, 27648, 70000};
    rig_gate_cases(&r, sizes, ARRAY_LEN(sizes));
    rig_destroy(&r);
    printf("counting-gate: %.1f s\n", now_seconds() - t0);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    double t0 = now_seconds();
    trace_prefix = "counting.";
    test_errors(caps);
    test_default(caps);
    test_producer(caps);
    test_gate(caps);
    CHECK(gpu_live_objects() == 0, "%d GL objects left", gpu_live_objects());
    printf("counting tests took %.1f s\n", now_seconds() - t0);
    gpu_destroy(gpu);
    return check_done();
}
