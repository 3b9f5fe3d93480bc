/* bench_ref: the reference run `fluid bench --reference FILE` compares against (cmd_bench.c).
 *
 * FILE is a CSV whose first line names its columns, among them bits, pairs and median_us, and
 * usually algorithm (others are ignored): a `fluid bench --csv` file, or tools/cub-bench.cu's for
 * CUB's DeviceRadixSort::SortPairs.
 *
 * A row of ours is matched with the reference's row of the same (algorithm, bits, pairs): radix
 * with radix, counting with counting. One exception: a file of one algorithm that this run does
 * not time (CUB's "cub", or a file without an algorithm column) is an outside reference, and every
 * row of ours is compared with its row at the same (bits, pairs).
 *
 *   bench_ref ref;
 *   if (!bench_ref_load("cub.csv", &ref, err)) ...;        // err: one line naming the problem
 *   bench_ref_against(&ref, algos, count);                 // decides: outside or by algorithm
 *   int i = bench_ref_match(&ref, "radix", 16, 27648);     // -1 where the file has no such row
 *   ref.med[i], ref.algo[i]; then bench_ref_unused(&ref, i) over the rows nobody matched
 */
#ifndef FLUID_APP_BENCH_REF_H
#define FLUID_APP_BENCH_REF_H
#include <stdbool.h>
#include <stdint.h>

#define BENCH_REF_MAX 256

typedef struct bench_ref {
    uint32_t bits[BENCH_REF_MAX], pairs[BENCH_REF_MAX];
    double med[BENCH_REF_MAX];
    char algo[BENCH_REF_MAX][32]; /* its algorithm column, or "ref" */
    bool used[BENCH_REF_MAX];     /* matched by a row of ours */
    int count;
    bool outside; /* one algorithm, not one of ours: every row compares with it */
} bench_ref;

bool bench_ref_load(const char *path, bench_ref *ref, char *err);
/* Decides how rows match, from the algorithms this run times. */
void bench_ref_against(bench_ref *ref, const char *const *algos, int count);
/* The reference row for (algo, bits, n), marked used; -1 where there is none. */
int bench_ref_match(bench_ref *ref, const char *algo, uint32_t bits, uint32_t n);
/* The name the matching uses: "by algorithm", or "outside: cub". */
const char *bench_ref_mode(const bench_ref *ref);

#endif
