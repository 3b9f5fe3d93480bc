/* bench_run: times a group of sort algorithms on the same keys for `fluid bench` (cmd_bench.c).
 *
 * Every algorithm of the group gets its own sorter and buffers, then the repetitions interleave
 * the algorithms: rep 1 of each, then rep 2 of each, and so on (each rep starting one algorithm
 * further along), so that a slow spell of the machine falls on all of them rather than on the
 * reps of one. Each rep copies the keys fresh into the sorter's input outside the timed region;
 * the sort is timed with a GL_TIME_ELAPSED query where timer queries work, else with the CPU
 * clock around a finished GPU queue. After the reps each result is compared with the CPU sort.
 *
 *   bench_row rows[2] = {{.algo = "radix"}, {.algo = "bitonic"}};
 *   bench_run_group(rows, 2, &(bench_case){keys, vals, ref_keys, ref_vals, n, bits}, &opts, caps);
 *   rows[i].med, .min, .max, .ok, .path
 */
#ifndef FLUID_APP_BENCH_RUN_H
#define FLUID_APP_BENCH_RUN_H
#include "gpu/gpu.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_PATH_LEN 512     /* sort_describe's words for the path taken, whole */
#define BENCH_NOISY_SPREAD 0.2 /* a row whose (max - min) / median passes this is flagged */

typedef struct bench_case {
    const uint32_t *keys, *vals;         /* the input */
    const uint32_t *ref_keys, *ref_vals; /* the CPU's sorted result */
    uint32_t n, bits;
} bench_case;

typedef struct bench_run_opts {
    int reps, warmup;
    bool detail; /* per dispatch times (GPU timers only), printed to table */
    FILE *table;
} bench_run_opts;

typedef struct bench_row {
    const char *algo; /* in: a sort_algos[] name, or NAME-shared / radix-rts (cmd_bench.c) */
    uint32_t bits, n;
    double med, min, max, cpu_us;
    bool made, ok, gpu_clock;
    char path[BENCH_PATH_LEN];
} bench_row;

/* Times rows[0..count) at one (n, bits); a row whose sorter could not be made has made == false
 * (logged). Returns false when any row failed (not made, or a wrong result). */
bool bench_run_group(bench_row *rows, int count, const bench_case *c, const bench_run_opts *o, const gpu_caps *caps);
/* The min-max spread as a fraction of the median (0 for a row without a median). */
double bench_row_spread(const bench_row *r);

#endif
