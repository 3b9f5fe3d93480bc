/* A settled pool's cost in counts, not times (issue 24, "Rest"): the pool scene at 4,096 particles
 * with DFSPH, frames of 1/60 s, settled for 1 s, then counted over 1 s (60 frames; 0.5 s with
 * --short, as the suite's test_sim_rest_counts runs it for its checks) from the solver's records:
 *   - pressure iterations a step (the records' "pressure" counter): at most 5 (the "at
 *     the least" target for a fluid at rest);
 *   - steps a frame: at most 2, i.e. dt of at least 1/120 s where the fluid is still: no longer
 *     capped by dt_max (5 ms, SPlisHSPlasH's) nor the explicit viscosity bound 0.125 hs^2/nu
 *     (6.8 ms at this size; 2.78 ms at 27,648): 4 steps a frame at 4,096 on main;
 *   - divergence iterations a step: at most 0.5 (a CHECK: the solve stops at its first predict
 *     where the error is within its bound, since session 20);
 *   - invariants (CHECKs, exit 1): the fluid at rest (kinetic energy below 1e-3 of the
 *     potential, test_sim_rest's bound), at most 1 solve in 50 stopped at the iteration cap, the
 *     records add up to the 1 s.
 * The iterations' target is a CHECK (met since session 19); the steps' is not: not met, the
 * program exits 3 (see the end of main and tests/CMakeLists.txt). Issue 24 was resolved in session
 * 43 with its "at the least" rows met and this target still missed: the settled pool's step is
 * held by the depth bound (docs/SPH.md), 4 steps a frame here.
 * It also prints what the diagnosis needs (docs/SPH.md, "Why a settled pool iterates"): the
 * divergence and pressure iterations step by step over the last 12 steps, and the density error
 * (rho / rho0 - 1, the density the last step's density pass measured) by layer of height.
 * An independent reference: the targets (counts of the solver's own work), and the
 * pool's rest (energy). On main (24a6dd8): 38.5 to 38.8 pressure iterations a step, 4.00 steps a frame, 0 or 1
 * capped solve of 480 (the plain iterations, FLUID_DFSPH_MOMENTUM=0). With the pressure solve's momentum, the default since
 * session 12 (half the last value again while compressed, docs/SPH.md): 20.54, 4.00 steps, 0 capped. With its coarse
 * level too (session 15, docs/SPH.md): 6.63, 4.00 steps, 0 capped. The level after each of the first three
 * predicts, the momentum 0.3 where it runs (session 19): 4.05, 4.00 steps, 0 capped.
 * Uses the "cpu" sort. Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/scene.h"
#include "sim/solver.h"

#define FRAME (1.0 / 60)

static int counter(sim *s, const char *name) {
    for (int i = 0; i < sim_counter_count(s); i++)
        if (!strcmp(sim_counter_name(s, i), name)) return i;
    CHECK(false, "dfsph names no '%s' counter", name);
    return 0;
}

/* The density error by layer of height (each dx thick), mean and largest, of the particles as
 * they are now. */
static void density_by_height(sim *s) {
    const sim_params *p = sim_get_params(s);
    uint32_t n = sim_particle_count(s);
    float *pos = malloc(16ull * n), *rho = malloc(4ull * n);
    sim_read_particles(s, pos, NULL, rho);
    enum { LAYERS = 64 };
    double sum[LAYERS] = {0}, big[LAYERS] = {0}, comp = 0;
    int cnt[LAYERS] = {0}, top = 0;
    for (uint32_t k = 0; k < n; k++) {
        int l = (int)((pos[4 * k + 1] - p->lo[1]) / p->dx);
        l = l < 0 ? 0 : l >= LAYERS ? LAYERS - 1 : l;
        double e = rho[k] / p->rho0 - 1;
        sum[l] += e, cnt[l]++;
        if (e > big[l]) big[l] = e;
        if (l > top) top = l;
        comp += fmax(e, 0) / n;
    }
    printf("density error by height (layer of dx, from the floor): mean %%, largest %%, particles\n");
    for (int l = 0; l <= top; l++)
        if (cnt[l]) printf("  %2d: %+8.4f %8.4f %5d\n", l, 100 * sum[l] / cnt[l], 100 * big[l], cnt[l]);
    printf("mean compression (rho > rho0) over every particle: %.4f%%\n", 100 * comp);
    free(pos);
    free(rho);
}

int main(int argc, char **argv) {
    /* --short (the suite's test_sim_rest_counts, for its checks): counted over 0.5 s */
    const int count = argc > 1 && !strcmp(argv[1], "--short") ? 30 : 60;
    gpu_ctx *gpu = check_gpu();
    sim *s = ref_sim("pool", 4096, "cpu", "dfsph", gpu_get_caps(gpu));
    int ip = counter(s, "pressure"), id = counter(s, "divergence");
    sim_stats st0, st;
    sim_read_stats(s, &st0);
    sim_step_record r;
    for (int f = 0; f < 60; f++) { /* settle: 1 s */
        sim_frame(s, FRAME, 0, NULL);
        while (sim_records(s, &r, 1) == 1) {}
    }
    sim_sync(s);
    while (sim_records(s, &r, 1) == 1) {}
    uint64_t steps = 0, it_p = 0, it_d = 0, capped = 0, worst_p = 0;
    double t = 0, dt_min = 1, dt_max = 0;
    sim_step_record last[12];
    for (int f = 0; f < count; f++) {
        sim_frame(s, FRAME, 0, NULL);
        if (f == count - 1) sim_sync(s);
        while (sim_records(s, &r, 1) == 1) {
            last[steps % 12] = r;
            steps++, t += r.dt, it_p += r.it[ip], it_d += r.it[id], capped += r.capped;
            if (r.it[ip] > worst_p) worst_p = r.it[ip];
            if (r.dt < dt_min) dt_min = r.dt;
            if (r.dt > dt_max) dt_max = r.dt;
        }
    }
    sim_read_stats(s, &st);
    double p_step = (double)it_p / (double)steps, steps_frame = (double)steps / count;
    printf("settled pool, 4,096 particles, %.2g s after 1 s: %llu steps (%.2f a frame), dt %.3f to %.3f ms (dt_max %.3f ms), "
           "%.2f pressure iterations a step (worst %llu), %.2f divergence; %llu capped; kinetic energy %.3g J (potential %.3g)\n",
           count * FRAME, (unsigned long long)steps, steps_frame, 1e3 * dt_min, 1e3 * dt_max,
           1e3 * ((const dfsph_gpu_params *)sim_get_solver_params(s))->dt_max, p_step, (unsigned long long)worst_p,
           (double)it_d / (double)steps, (unsigned long long)capped, st.kinetic_energy, st0.potential_energy);
    printf("the last 12 steps (divergence, pressure iterations; err_div, err_density %%):\n");
    for (uint64_t k = steps - 12; k < steps; k++) {
        const sim_step_record *q = &last[k % 12];
        printf("  dt %.3f ms  it %2u %2u  err %.4f %.4f  cfl %.3f\n", 1e3 * q->dt, q->it[id], q->it[ip], 100 * q->err_div,
               100 * q->err_density, q->cfl);
    }
    density_by_height(s);
    CHECK(fabs(t - count * FRAME) < 1e-5, "the %d frames' records add up to %.6f s, not %.6f s", count, t, count * FRAME);
    CHECK(st.kinetic_energy < 1e-3 * st0.potential_energy, "the pool is not at rest: kinetic energy %.3g J", st.kinetic_energy);
    /* The iteration caps follow the records of frames before (docs/SPH.md): a solve that needs
     * more than lately stops at the cap once and is counted; at most 1 solve in 50 (main: 1 in 480). */
    CHECK(capped * 50 <= 2 * steps, "%llu of %llu solves stopped at the cap", (unsigned long long)capped,
          (unsigned long long)(2 * steps));
    /* The targets. The iterations' is met since session 19 (the coarse level after each of
     * the first three predicts: 4.05 here, 6.63 before) and is a check. The steps' is not: while it
     * fails, the test says so with its own exit status, 3 (its ctest entry, labelled open, fails;
     * test_sim_rest_counts runs the same program in the suite and passes on 0 or 3, so a failed
     * check, 1, fails the suite: tests/CMakeLists.txt). */
    CHECK(p_step <= 5, "a settled pool takes %.2f pressure iterations a step (at most 5)", p_step);
    /* The divergence solve stops at its first predict where the error is already within its bound
     * (no least iteration, session 20: docs/SPH.md): at rest that is nearly every step (0.00 here;
     * 1.00 with a least iteration of 1, which ran a correction pair in every step). */
    double d_step = (double)it_d / (double)steps;
    CHECK(d_step <= 0.5, "a settled pool takes %.2f divergence iterations a step (at most 0.5)", d_step);
    bool steps_ok = steps_frame <= 2;
    printf("%s: a settled pool takes %.2f pressure iterations a step (target: at most 5)\n", p_step <= 5 ? "ok" : "NOT MET",
           p_step);
    printf("%s: a settled pool takes %.2f steps a frame (dt %.3f ms; target: at most 2, a step of 1/120 s)\n",
           steps_ok ? "ok" : "NOT MET", steps_frame, 1e3 * dt_max);
    sim_destroy(s);
    gpu_destroy(gpu);
    int rc = check_done();
    if (rc == 0 && !steps_ok) {
        printf("the settled pool's steps target is not met (exit 3; the invariants held)\n");
        return 3;
    }
    return rc;
}
