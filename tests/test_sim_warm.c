/* sim_warm leaves no trace: a simulation warmed right after sim_make (two steps, then sim_reset: the
 * programs dispatched once before the first timed frame) against one made the same way and not
 * warmed, both then run the same frames of 1/60 s: the same positions, velocities and densities bit
 * for bit, the same step records (dt, iterations, errors), the same summary and the same dispatches
 * counted. Each solver, the dam break at 1,500 particles: DFSPH on llvmpipe's default path (the
 * indirect one) and on the fused step (one group), WCSPH. Kind: independent of the arithmetic (the
 * unwarmed run is the reference for the warmed one). Made to fail on purpose, each once: sim_warm
 * without its sim_reset (every compare failed: states, records and summaries), and without its
 * dispatch count cleared (the dispatches compares failed, nothing else).
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "gpu/gpu.h"

#define FRAMES 5
#define RECORDS 256
#define FRAME (1.0 / 60)

typedef struct state {
    float *pos, *vel, *dens;
    sim_step_record rec[RECORDS];
    int records;
    sim_summary sum;
    sim_dispatches disp;
    uint32_t n;
} state;

/* fused: DFSPH's fused step on one group (the H100's default path; llvmpipe's default is the
 * indirect path) */
static state run(const char *solver, bool fused, bool warm, const gpu_caps *caps) {
    sim *s = fused ? ref_sim_dfsph("dambreak", 1500, "radix", &(dfsph_desc){.persistent = 1, .fused = 1}, caps)
                   : ref_sim("dambreak", 1500, "radix", solver, caps);
    if (warm) sim_warm(s);
    state st = {0};
    for (int f = 0; f < FRAMES; f++) sim_frame(s, FRAME, 0, NULL);
    sim_sync(s);
    st.records = sim_records(s, st.rec, RECORDS);
    sim_get_summary(s, &st.sum);
    sim_get_dispatches(s, &st.disp);
    st.n = sim_particle_count(s);
    st.pos = malloc(16ull * st.n);
    st.vel = malloc(16ull * st.n);
    st.dens = malloc(4ull * st.n);
    sim_read_particles(s, st.pos, st.vel, st.dens);
    sim_destroy(s);
    return st;
}

static bool same(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; } /* bit for bit: WCSPH's errors are NAN */

static void compare(const char *solver, const state *a, const state *b) {
    CHECK(a->n == b->n, "%s: %u and %u particles", solver, a->n, b->n);
    CHECK(a->records == b->records && a->records > 0, "%s: %d and %d records", solver, a->records, b->records);
    int rec_diff = 0;
    for (int k = 0; k < a->records && k < b->records; k++)
        rec_diff += !same(a->rec[k].dt, b->rec[k].dt) || memcmp(a->rec[k].it, b->rec[k].it, sizeof a->rec[k].it) != 0 ||
                    !same(a->rec[k].err_density, b->rec[k].err_density) || !same(a->rec[k].err_div, b->rec[k].err_div);
    CHECK(rec_diff == 0, "%s: %d steps with another dt, iterations or errors", solver, rec_diff);
    CHECK(a->sum.steps == b->sum.steps && a->sum.time == b->sum.time && a->sum.frames_short == b->sum.frames_short,
          "%s: summaries differ: %llu and %llu steps, %.9g and %.9g s, %llu and %llu short frames", solver,
          (unsigned long long)a->sum.steps, (unsigned long long)b->sum.steps, a->sum.time, b->sum.time,
          (unsigned long long)a->sum.frames_short, (unsigned long long)b->sum.frames_short);
    CHECK(a->disp.total == b->disp.total && a->disp.steps == b->disp.steps,
          "%s: dispatches counted: %llu in %llu slots warmed, %llu in %llu not", solver, (unsigned long long)a->disp.total,
          (unsigned long long)a->disp.steps, (unsigned long long)b->disp.total, (unsigned long long)b->disp.steps);
    int diff = a->n != b->n || memcmp(a->pos, b->pos, 16ull * a->n) != 0 || memcmp(a->vel, b->vel, 16ull * a->n) != 0 ||
               memcmp(a->dens, b->dens, 4ull * a->n) != 0;
    CHECK(!diff, "%s: the states differ after %d frames", solver, FRAMES);
    printf("%s: warmed and not, %d frames: %s (%llu steps, %llu dispatches)\n", solver, FRAMES,
           diff || rec_diff ? "DIFFERENT" : "bit-identical", (unsigned long long)a->sum.steps, (unsigned long long)a->disp.total);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const char *solvers[] = {"dfsph", "dfsph fused", "wcsph"};
    for (int k = 0; k < 3; k++) {
        bool fused = k == 1;
        state warm = run(solvers[k], fused, true, caps), cold = run(solvers[k], fused, false, caps);
        compare(solvers[k], &warm, &cold);
        free(warm.pos), free(warm.vel), free(warm.dens), free(cold.pos), free(cold.vel), free(cold.dens);
    }
    gpu_destroy(gpu);
    return check_done();
}
