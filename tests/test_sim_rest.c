/* Water at rest in a tank (the pool scene, 4,096 particles, 600 steps): particle count and mass
 * conserved, every particle in the tank, no NaN, the mean density within 1% of rest density, the
 * fluid stays at rest (tiny kinetic energy), and the pressure grows linearly with depth with slope
 * rho0 g (least-squares fit of each particle's pressure against its height, both averaged over
 * the last 200 steps to remove the acoustic noise of weakly compressible SPH; R^2 > 0.95, slope
 * within 10%). Uses the "cpu" sort. Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"

int main(void) {
    gpu_ctx *gpu = check_gpu();
    sim *s = ref_sim("pool", 4096, "cpu", gpu_get_caps(gpu));
    const sim_params *p = sim_get_params(s);
    uint32_t n = sim_particle_count(s);
    sim_stats st0, st;
    sim_read_stats(s, &st0);
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, cnt = 0, worst_ratio = 0, worst_ke = 0;
    double *mean_y = calloc(n, sizeof(double)), *mean_p = calloc(n, sizeof(double));
    int samples = 0;
    const int steps = 600;
    for (int i = 1; i <= steps; i++) {
        sim_step(s, NULL);
        if (i > steps - 200 && i % 5 == 0) { /* each particle's height and pressure, averaged in time */
            const sim_gpu *g = sim_get_gpu(s);
            float *pos = ref_read(g->pos[g->cur], 16ull * n), *rho = ref_read(g->dens, 4ull * n), *pt = ref_read(g->pterm, 4ull * n);
            uint32_t *ids = ref_read(g->id[g->cur], 4ull * n);
            for (uint32_t k = 0; k < n; k++) {
                mean_y[ids[k]] += pos[4 * k + 1];
                mean_p[ids[k]] += (double)pt[k] * rho[k] * rho[k];
            }
            samples++;
            free(pos);
            free(rho);
            free(pt);
            free(ids);
        }
        if (i % 20) continue;
        sim_read_stats(s, &st);
        CHECK(st.particles == n && st.non_finite == 0 && st.outside == 0, "step %d: %u particles, %u not finite, %u outside",
              i, st.particles, st.non_finite, st.outside);
        CHECK(fabs(st.mass - st0.mass) <= 1e-9 * st0.mass, "step %d: mass %.9g, was %.9g", i, st.mass, st0.mass);
        if (fabs(st.density_ratio - 1) > worst_ratio) worst_ratio = fabs(st.density_ratio - 1);
        if (st.kinetic_energy > worst_ke) worst_ke = st.kinetic_energy;
    }
    for (uint32_t k = 0; k < n; k++) {
        double y = mean_y[k] / samples, pr = mean_p[k] / samples;
        sx += y;
        sy += pr;
        sxx += y * y;
        sxy += y * pr;
        syy += pr * pr;
        cnt++;
    }
    free(mean_y);
    free(mean_p);
    double slope = (cnt * sxy - sx * sy) / (cnt * sxx - sx * sx), icept = (sy - slope * sx) / cnt;
    double r2 = pow(cnt * sxy - sx * sy, 2) / ((cnt * sxx - sx * sx) * (cnt * syy - sy * sy));
    double want = -p->rho0 * 9.81, surface = -icept / slope;
    /* gravitational potential energy of the column is ~ m g L / 2; at rest the kinetic energy is a
     * tiny fraction of it */
    double ke_bound = 1e-3 * st0.potential_energy;
    printf("pool, %u particles, %d steps (%.3f s): mean density off by at most %.3f%%, max kinetic energy %.3g J (bound %.3g)\n",
           n, steps, sim_time(s), 100 * worst_ratio, worst_ke, ke_bound);
    printf("pressure fit: dp/dy = %.1f Pa/m (rho0 g = %.1f), R^2 = %.4f, p = 0 at y = %.4f m (water top %.4f m)\n", slope,
           -want, r2, surface, sim_get_layout(s)->top);
    CHECK(worst_ratio < 0.01, "mean density off rest density by %.3f%%", 100 * worst_ratio);
    CHECK(worst_ke < ke_bound, "the water at rest moves: kinetic energy %.3g J", worst_ke);
    CHECK(fabs(slope / want - 1) < 0.1, "pressure slope %.1f Pa/m, expected %.1f", slope, want);
    CHECK(r2 > 0.95, "pressure is not linear in depth: R^2 %.4f", r2);
    CHECK(fabs(surface - sim_get_layout(s)->top) < 3 * p->dx, "zero pressure at y = %.4f, the surface is at %.4f", surface,
          sim_get_layout(s)->top);
    sim_destroy(s);
    gpu_destroy(gpu);
    return check_done();
}
