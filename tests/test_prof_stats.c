/* The profiler's statistics (gpu/prof.h: prof_stats, prof_untimed, prof_reset) on a headless
 * context; the expected numbers are worked by hand in the comments, not by the code's method:
 *   - a window of 20 frames over 25 pushed: mean, median (even count) and p95 (nearest rank) of
 *     the last 20 only;
 *   - frames in which a stage was not timed are left out of its statistics; a stage never timed
 *     reads false and NAN, never 0;
 *   - a real frame (the CPU clock on llvmpipe, GPU timestamps elsewhere): a begin/end pair is
 *     timed, the same pair marked prof_untimed is not, a stage never begun is not;
 *   - prof_reset starts anew: nothing until the next frame, then that frame alone. */
#include "check.h"
#include "gpu/prof_test.h"
#include <math.h>

static const char *names[] = {"a", "b", "c", "d"};

int main(void) {
    gpu_ctx *gpu = check_gpu();
    gpu_prof *p =
        prof_make(&(prof_desc){.names = names, .stages = 4, .window = 20, .cpu_fallback = true, .sync = true}, gpu_get_caps(gpu));
    if (prof_get_mode(p) == PROF_NONE) {
        printf("SKIP: no clock to time with\n");
        return 77;
    }
    double mean, median, p95;
    /* Stage a: 5 early frames (100 each, outside the window), then 20 frames of
     * 3 1 4 1 5 9 2 6 5 3 5 8 9 7 9 3 2 3 8 4: sorted 1 1 2 2 3 3 3 3 4 4 5 5 5 6 7 8 8 9 9 9,
     * sum 97: mean 4.85; median (10th + 11th) / 2 = (4 + 5) / 2 = 4.5; p95: rank ceil(0.95 * 20) = 19,
     * the 19th smallest = 9.
     * Stage b: timed only in the window's frames 3, 8 and 15 (values 30, 10, 20): mean 20,
     * median 20, p95 rank ceil(2.85) = 3: 30. Its value in the other frames (999) must not count.
     * Stage c: never timed. */
    const double seq[20] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4};
    for (int f = 0; f < 5; f++) prof_test_push(p, (double[4]){100, 100, 100, 0}, 0x3);
    for (int f = 0; f < 20; f++) {
        bool b = f == 3 || f == 8 || f == 15;
        double bv = f == 3 ? 30 : f == 8 ? 10 : f == 15 ? 20 : 999;
        prof_test_push(p, (double[4]){seq[f], bv, 0, 0}, 0x1 | (b ? 0x2 : 0));
    }
    CHECK(prof_stats(p, 0, &mean, &median, &p95), "stage a has no statistics");
    CHECK(fabs(mean - 4.85) < 1e-6 && median == 4.5 && p95 == 9, "stage a: mean %g median %g p95 %g, expected 4.85 4.5 9", mean,
          median, p95);
    CHECK(prof_stats(p, 1, &mean, &median, &p95), "stage b has no statistics");
    CHECK(mean == 20 && median == 20 && p95 == 30, "stage b: mean %g median %g p95 %g, expected 20 20 30", mean, median, p95);
    CHECK(!prof_stats(p, 2, &mean, &median, &p95) && isnan(mean) && isnan(median) && isnan(p95),
          "stage c (never timed): %g %g %g, expected NAN", mean, median, p95);
    /* An odd count: one more frame of a (the window drops the first 3): 1 4 1 5 9 2 6 5 3 5 8 9 7 9 3 2 3 8 4 10
     * with b untimed in it; a: sum 97 - 3 + 10 = 104, mean 5.2; sorted 1 1 2 2 3 3 3 4 4 5 5 5 6 7 8 8 9 9 9 10:
     * median (5 + 5) / 2 = 5; p95 the 19th = 9. */
    prof_test_push(p, (double[4]){10, 0, 0, 0}, 0x1);
    prof_stats(p, 0, &mean, &median, &p95);
    CHECK(fabs(mean - 5.2) < 1e-6 && median == 5 && p95 == 9, "stage a, a frame later: %g %g %g, expected 5.2 5 9", mean, median,
          p95);
    for (int f = 0; f < 14; f++) prof_test_push(p, (double[4]){0}, 0);
    /* The window (20) now holds the last 5 frames of the sequence (b timed in the first: 20), the
     * frame of a = 10, and 14 untimed ones: b one sample; a 3 2 3 8 4 10, sorted 2 3 3 4 8 10: mean
     * 30 / 6 = 5, median (3 + 4) / 2 = 3.5, p95 rank ceil(5.7) = 6: 10. */
    CHECK(prof_stats(p, 1, &mean, &median, &p95) && mean == 20 && median == 20 && p95 == 20, "b with one sample: %g %g %g", mean,
          median, p95);
    CHECK(prof_stats(p, 0, &mean, &median, &p95) && mean == 5 && median == 3.5 && p95 == 10,
          "a with six samples: %g %g %g, expected 5 3.5 10", mean, median, p95);

    /* Real frames: a is timed, b's pair is marked untimed, c is never begun, d is timed. */
    prof_reset(p);
    CHECK(!prof_stats(p, 0, &mean, &median, &p95) && !prof_timed(p, 0), "after prof_reset: statistics before any frame");
    for (int f = 0; f < 3; f++) {
        prof_begin(p, 0);
        prof_end(p, 0);
        prof_begin(p, 1);
        prof_untimed(p, 1);
        prof_end(p, 1);
        prof_begin(p, 3);
        glFinish();
        prof_end(p, 3);
        prof_frame(p);
    }
    for (int f = 0; f < 8; f++) prof_frame(p); /* GPU timestamps: the queries come back a few frames late */
    CHECK(prof_stats(p, 0, &mean, &median, &p95) && mean >= 0 && p95 >= median, "a real pair: %g %g %g", mean, median, p95);
    CHECK(!prof_stats(p, 1, &mean, &median, &p95) && isnan(mean), "the pair marked untimed has statistics: %g", mean);
    CHECK(!prof_stats(p, 2, &mean, &median, &p95) && isnan(mean), "the stage never begun has statistics: %g", mean);
    CHECK(prof_stats(p, 3, &mean, &median, &p95), "stage d was timed");
    int n = prof_history(p, 0, (float[40]){0}, 40);
    CHECK(n == 11, "prof_reset: %d frames in the history after 11 frames (the 40 before it dropped)", n);
    prof_destroy(p);
    gpu_destroy(gpu);
    return check_done();
}
