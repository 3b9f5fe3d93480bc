/* compare: every sort of the registry on the same keys, live (issue 23, item 5).
 *
 * When on, the cell keys of each frame's FIRST step (the (cell key, particle index) pairs the hash
 * made, before the driving sort) are copied aside, and the driving sort's result too. After the
 * frame (sim_run_compare) every path of sort_algos[] that runs here sorts that copy into scratch buffers the
 * compare owns (one sorter per path, made when the mode turns on, destroyed when it turns off);
 * each result is checked equal, keys and values, to the driving sort's result by a compare kernel
 * that counts differing pairs with an atomic, read back 1-3 frames late through a fence (never a
 * stall); each sort is timed by the compare's own profiler (GPU timer pairs; on llvmpipe the CPU
 * clock around glFinish, labelled "cpu"). The whole of it is its own stage, "compare", timed per
 * frame: the driving stages' times stay true, and the fluid is still driven by the chosen sort only
 * (the copies read the search's buffers, nothing is written back).
 *
 *   sim_set_compare(s, &(sim_compare_desc){0}, err);   // on (NULL: off)
 *   each frame: sim_frame(s, ...); sim_run_compare(s);  // the compare outside the frame's timing
 *   sim_compare_report r; sim_compare_get(sim_get_compare(s), &r);  // the table
 *
 * Rows: one per distinct path (sort_path): where radix takes onesweep (auto), radix and onesweep
 * run the same dispatches and are run once, the row "radix" with same = "onesweep". The driving
 * sort's path is a row too (sorted again from the same copy, so every row is timed alike; marked
 * drives). Skipped, with the reason: cpu (it reads back and stalls the GPU every frame; the tests
 * check against a CPU sort of their own), and any that cannot be made here (sort_make's error).
 * A disagreement is a warning line (log_warn "COMPARE") naming the algorithm, the step and the
 * count of differing pairs, counted in the row; never an abort.
 */
#ifndef FLUID_SIM_COMPARE_H
#define FLUID_SIM_COMPARE_H
#include "gpu/prof.h"
#include "sort/sort.h"
#include <stdbool.h>
#include <stdint.h>

#define SIM_COMPARE_MAX 8 /* rows and skipped entries at most */

typedef struct sim_compare_desc {
    int window;               /* frames in the rolling median and p95 (0: 120) */
    const char *test_corrupt; /* tests: after this algorithm's sort, one pair of its result is spoiled */
    /* Filled by sim_set_compare: */
    uint32_t capacity, bits;
    const sort_algo *drive;
} sim_compare_desc;

typedef struct sim_compare_row {
    char name[32];                   /* the algorithm run */
    char same[64];                   /* algorithms on the same path here, run once ("onesweep"), or "" */
    char path[256];                  /* sort_describe's line */
    bool drives;                     /* the driving sort's path */
    bool timed;                      /* false: no time yet (NAN below) */
    double median_us, p95_us, ratio; /* ratio: median over the fastest row's median */
    uint64_t mismatches;             /* differing pairs, summed over the frames checked */
    uint64_t bad_frames;             /* frames it disagreed in */
    uint64_t last_bad_step;          /* the step of the last disagreement */
    uint32_t last_bad_count;         /* its differing pairs */
} sim_compare_row;

typedef struct sim_compare_skip {
    char name[32];
    char why[200];
} sim_compare_skip;

typedef struct sim_compare_report {
    int rows, skipped;
    sim_compare_row row[SIM_COMPARE_MAX];
    sim_compare_skip skip[SIM_COMPARE_MAX];
    const char *clock;                    /* the profiler's clock: "gpu", "cpu" or "none" */
    bool timed;                           /* the compare stage has a time */
    double stage_median_us, stage_p95_us; /* the compare stage a frame */
    uint64_t frames_captured, frames_checked;
    char warning[200]; /* the last disagreement's line, or "" */
} sim_compare_report;

typedef struct sim_compare sim_compare;

sim_compare *sim_compare_make(const sim_compare_desc *desc, const gpu_caps *caps, char *err);
void sim_compare_destroy(sim_compare *c);
/* The frame's first step: the search calls take_input after its hash and take_output after its
 * sort (both no-ops unless arm was called since the last sim_compare_frame). */
void sim_compare_arm(sim_compare *c, uint64_t step);
void sim_compare_take_input(sim_compare *c, sort_pairs in, uint32_t n);
void sim_compare_take_output(sim_compare *c, sort_pairs out, uint32_t n);
/* The end of a frame: the sorts, the checks, the timing; results of earlier frames collected. */
void sim_compare_frame(sim_compare *c);
void sim_compare_sync(sim_compare *c); /* waits for every check issued (tests, the end of a run) */
void sim_compare_get(const sim_compare *c, sim_compare_report *out);
const sim_compare_desc *sim_compare_get_desc(const sim_compare *c);
/* Tests: the copied input and a row's last result (valid until the next frame's compare). */
sort_pairs sim_compare_input(const sim_compare *c);
sort_pairs sim_compare_result(const sim_compare *c, int row);
sort_pairs sim_compare_driving(const sim_compare *c);
/* The table (bench --sim --compare, --compare's end): a heading and a row per path, then the skipped. */
void sim_compare_print(const sim_compare_report *r, void (*line)(void *user, const char *text), void *user);

#endif
