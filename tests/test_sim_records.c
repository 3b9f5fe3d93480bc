/* One record path from the GPU to the stats: the simulation keeps its steps' records in one ring
 * of the capacity sim_desc.records states; a reader that falls behind loses the oldest, and every
 * one lost is counted (sim_summary.records_dropped), never dropped silently. Forced here with a
 * ring of 16 and 50 steps, for both solvers (DFSPH's records come back from the GPU a few frames
 * late, WCSPH's are made on the CPU): the reference is the count of steps itself (every step
 * leaves one record), and the newest 16 records end at the summary's time. Also the phases the
 * summary shows (sim_phase_count): while one of the last SIM_PHASES_RECENT steps measured them.
 * And DFSPH's records past the end of its GPU ring (check_wrap), where a frame's records come back
 * in two pieces: the reference is each frame's own time (an invariant: its steps' dt add up to it,
 * exactly, in whole ticks) and its --substeps count.
 * Needs GL 4.5; skips (77) without it.
 */
#include "sim_ref.h"
#include "sim/solver.h"
#include <math.h>
#include <string.h>

#define RING 16

/* The phases the summary shows (sim_phase_count, the HUD's and the trace's) stand while one of the
 * last SIM_PHASES_RECENT steps measured them: a step that measured its solver's stages, then
 * unmeasured steps (a path without them, as after the persistent path's stall fallback) until the
 * count drops to 0. Made to fail once: the count kept by phase_steps alone. */
static void check_phases(sim *s, const char *solver) {
    int stages = sim_stage_count(s) - SIM_SEARCH_STAGES;
    sim_step_record r = {.dt = 1e-4f, .dt_cfl = 1e-4f, .cfl = 0.1f};
    for (int k = 0; k < stages && k < SIM_RECORD_PHASES; k++) r.phase_cycles[k] = 1000u * (uint32_t)(k + 1);
    sim_take_record(s, &r);
    int after[3];
    after[0] = sim_phase_count(s);
    memset(r.phase_cycles, 0, sizeof r.phase_cycles);
    for (int k = 1; k < SIM_PHASES_RECENT; k++) sim_take_record(s, &r);
    after[1] = sim_phase_count(s);
    sim_take_record(s, &r);
    after[2] = sim_phase_count(s);
    CHECK(after[0] == stages && after[1] == stages && after[2] == 0,
          "%s: the phases counted %d after a measured step, %d after %d more, %d after %d (want %d, %d, 0)", solver, after[0],
          after[1], SIM_PHASES_RECENT - 1, after[2], SIM_PHASES_RECENT, stages, stages);
    while (sim_records(s, (sim_step_record[4]){0}, 4) > 0) {}
}

static void check_solver(const char *solver, const gpu_caps *caps) {
    char err[ERR_LEN];
    sim *s = sim_make(&(sim_desc){.particles = 500, .solver = solver, .records = RING}, caps, err);
    CHECK(s != NULL, "%s: %s", solver, err);
    if (!s) return;
    /* 10 frames of 5 equal steps: 50 steps, read only at the end. */
    for (int f = 0; f < 10; f++) sim_frame(s, 5e-4, 5, NULL);
    sim_sync(s);
    sim_summary sum;
    sim_get_summary(s, &sum);
    CHECK(sum.steps == 50 && sum.records_dropped == 50 - RING, "%s: %llu steps, %llu records dropped (want 50 and %d)", solver,
          (unsigned long long)sum.steps, (unsigned long long)sum.records_dropped, 50 - RING);
    sim_step_record rec[64];
    int n = sim_records(s, rec, 64);
    CHECK(n == RING, "%s: %d records kept, not %d", solver, n, RING);
    CHECK(n > 0 && fabs(rec[n - 1].time - sum.time) < 1e-9 && fabs(rec[0].time - (sum.time - (RING - 1) * 1e-4)) < 1e-7,
          "%s: the kept records run %.9f .. %.9f s, the run to %.9f s", solver, n ? rec[0].time : 0, n ? rec[n - 1].time : 0,
          sum.time);
    /* Read as it goes: nothing more is dropped. */
    for (int f = 0; f < 10; f++) {
        sim_frame(s, 5e-4, 5, NULL);
        while (sim_records(s, rec, 4) > 0) {}
    }
    sim_sync(s);
    while (sim_records(s, rec, 4) > 0) {}
    sim_get_summary(s, &sum);
    CHECK(sum.steps == 100 && sum.records_dropped == 50 - RING, "%s: reading as it goes, %llu steps, %llu dropped", solver,
          (unsigned long long)sum.steps, (unsigned long long)sum.records_dropped);
    check_phases(s, solver);
    sim_destroy(s);
}

/* 5 frames of 1000 steps (the most a frame holds) pass DFSPH's ring of 4096 records on the GPU, so
 * the frames around its end come back in two pieces (dfsph_frame_end's copies). Each frame takes a
 * time of its own, (1000 + 7 f) * 2^-16 s, so a record of another frame (a piece left out, or read
 * from the wrong place) breaks its frame's sum; the sums are exact, every dt a whole number of
 * ticks of 2^-28 s. Each frame ends at the record with no time left. Made to fail once: the
 * records copied in one piece past the ring's end (its frames' sums then wrong). */
static void check_wrap(const gpu_caps *caps) {
    char err[ERR_LEN];
    enum { FRAMES = 5, STEPS = 1000 }; /* 5,000 steps: the ring wraps in the last frame */
    sim *s = sim_make(&(sim_desc){.particles = 64, .solver = "dfsph", .records = 4 * STEPS}, caps, err);
    CHECK(s != NULL, "dfsph: %s", err);
    if (!s) return;
    sim_step_record rec[256];
    int closed = 0, count = 0, bad = 0;
    double sum = 0;
    for (int f = 0; f <= FRAMES; f++) {
        if (f < FRAMES) sim_frame(s, ldexp(1000 + 7 * f, -16), STEPS, NULL);
        else sim_sync(s);
        for (int n; (n = sim_records(s, rec, 256)) > 0;)
            for (int k = 0; k < n; k++) {
                sum += rec[k].dt;
                count++;
                if (rec[k].t_left > 0) continue;
                double want = ldexp(1000 + 7 * closed, -16);
                if ((sum != want || count != STEPS) && bad++ < 3)
                    CHECK(false, "dfsph: frame %d's %d records add up to %.12f s, not %.12f s in %d steps", closed, count, sum,
                          want, STEPS);
                closed++, count = 0, sum = 0;
            }
    }
    CHECK(closed == FRAMES && count == 0, "dfsph: %d frames' records came back whole (want %d), %d records after the last",
          closed, FRAMES, count);
    CHECK(bad == 0, "dfsph: %d of %d frames' records wrong past the ring's end", bad, FRAMES);
    sim_destroy(s);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    for (int i = 0; sim_solvers[i]; i++) check_solver(sim_solvers[i]->name, gpu_get_caps(gpu));
    check_wrap(gpu_get_caps(gpu));
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
