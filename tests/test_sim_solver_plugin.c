/* A third solver is a folder plus one registry line: tests/solver_euler/ (explicit Euler under
 * gravity alone) is added to the registry by building src/sim/solvers.c again with one line more
 * (tests/solver_euler/solvers.c); nothing of src/sim changes. This program, the only one built
 * with it, runs it through the normal simulation: sim_make by name, frames, records, stage and
 * counter names, a switch from and back to DFSPH; and holds the particles against an independent
 * CPU reference (the same Euler steps in double precision: a particle in free fall, and one
 * resting on the floor).
 * Needs GL 4.5; skips (77) without it.
 */
#include "sim_ref.h"
#include "sim/solver.h"
#include <math.h>

#define STEPS 30

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    char err[ERR_LEN];
    const sim_solver *e = sim_solver_find("euler");
    CHECK(e != NULL, "the registry has no 'euler' (solvers: %s)", sim_solver_names());
    CHECK(strstr(sim_solver_names(), "dfsph, wcsph, euler") != NULL, "the solvers' list reads '%s'", sim_solver_names());
    sim *s = ref_sim("dambreak", 1000, "radix", "euler", caps);
    CHECK(!strcmp(sim_solver_name(s), "euler") && sim_counter_count(s) == 0 && sim_counter_name(s, 0) == NULL,
          "solver %s with %d counters", sim_solver_name(s), sim_counter_count(s));
    CHECK(sim_stage_count(s) == SIM_SEARCH_STAGES + 1 && !strcmp(sim_stage_name(s, SIM_SEARCH_STAGES), "integrate"),
          "%d stages, the solver's named '%s'", sim_stage_count(s), sim_stage_name(s, SIM_SEARCH_STAGES));
    /* Two particles: one high in the tank falling free, one on the floor (held there by the clamp). */
    const sim_params *p = sim_get_params(s);
    double floor_y = p->lo[1] + p->margin;
    float pos[8] = {0.5f * (p->lo[0] + p->hi[0]),  0.9f * p->hi[1], 0.5f * (p->lo[2] + p->hi[2]), 0,
                    0.25f * (p->lo[0] + p->hi[0]), (float)floor_y,  0.5f * (p->lo[2] + p->hi[2]), 0};
    CHECK(sim_set_particles(s, pos, NULL, 2, err), "%s", err);
    for (int k = 0; k < STEPS; k++) sim_frame(s, 1.0 / 600, 0, NULL); /* one step a frame */
    sim_sync(s);
    sim_step_record rec[64];
    int n = sim_records(s, rec, 64);
    CHECK(n == STEPS, "%d records of %d steps", n, STEPS);
    double t = 0;
    for (int k = 0; k < n; k++) t += rec[k].dt;
    CHECK(fabs(t - STEPS / 600.0) < 1e-6, "the records add up to %.9f s, not %.9f", t, STEPS / 600.0);
    float out[8], vel[8];
    sim_read_particles(s, out, vel, NULL);
    /* The reference: v += g dt, y += v dt, STEPS times, in double. */
    double g = p->gravity[1], dt = 1.0 / 600, v = 0, y = pos[1];
    for (int k = 0; k < STEPS; k++) {
        v += g * dt;
        y += v * dt;
    }
    CHECK(fabs(out[1] - y) < 1e-5 && fabs(vel[1] - v) < 1e-4, "the falling particle: y %.6f v %.6f, reference %.6f %.6f", out[1],
          vel[1], y, v);
    CHECK(out[0] == pos[0] && out[2] == pos[2], "the falling particle moved sideways: x %.6f z %.6f", out[0], out[2]);
    CHECK(fabs(out[5] - floor_y) < 1e-6 && vel[5] == 0, "the resting particle: y %.6f v %.6f, floor %.6f", out[5], vel[5],
          floor_y);
    /* Switching solvers keeps working: to dfsph and back. */
    CHECK(sim_set_solver(s, "dfsph", err) && sim_counter_count(s) == 2 && !strcmp(sim_counter_name(s, 1), "pressure"),
          "switch to dfsph: %s (%d counters)", err, sim_counter_count(s));
    sim_step(s, NULL);
    CHECK(sim_set_solver(s, "euler", err), "switch back: %s", err);
    sim_step(s, NULL);
    sim_sync(s);
    sim_summary sum;
    sim_get_summary(s, &sum);
    CHECK(sum.steps == STEPS + 2, "%llu steps in the summary, not %d", (unsigned long long)sum.steps, STEPS + 2);
    sim_destroy(s);
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
