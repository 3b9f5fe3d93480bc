/* bench_ref: the reference run `fluid bench --reference FILE` compares against (cmd_bench.c).
 *
 * FILE is a CSV whose first line names its columns, among them bits, pairs and median_us (others
 * are ignored), one row per (bits, pairs): tools/cub-bench.cu writes one for CUB's
 * DeviceRadixSort::SortPairs, and a `fluid bench --csv` file serves too (the first row at a given
 * (bits, pairs) counts).
 *
 *   bench_ref ref;
 *   if (!bench_ref_load("cub.csv", &ref, err)) ...;   // err: one line naming the problem
 *   double us = bench_ref_at(&ref, 16, 27648);        // 0 where the file has no such row
 */
#ifndef FLUID_APP_BENCH_REF_H
#define FLUID_APP_BENCH_REF_H
#include <stdbool.h>
#include <stdint.h>

#define BENCH_REF_MAX 256

typedef struct bench_ref {
    uint32_t bits[BENCH_REF_MAX], pairs[BENCH_REF_MAX];
    double med[BENCH_REF_MAX];
    int count;
    char name[32]; /* its algorithm column (first row), or "ref" */
} bench_ref;

bool bench_ref_load(const char *path, bench_ref *ref, char *err);
double bench_ref_at(const bench_ref *ref, uint32_t bits, uint32_t n);

#endif
