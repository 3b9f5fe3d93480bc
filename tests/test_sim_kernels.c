/* The SPH kernel and walls on the CPU (normalisation, derivative, ghost planes against a discrete
 * ghost lattice: independent references), the GPU's wcsph density, forces and integration against
 * the brute-force CPU reference in sim_ref.h (a transcription check: it shares the formulas), with
 * 1 and 4 lanes a particle; and an invariant that shares no formula with the shaders: away from the
 * walls, the pair forces of either solver conserve momentum, so one step changes the total
 * momentum by exactly n m g dt; dfsph's divergence solve's first predict (the density pass's)
 * against a brute-force CPU mean, and its pressure solve's warm-start impulse (the non-pressure
 * pass's) against a brute-force CPU sum. Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/solver.h"

static void test_kernel_cpu(void) {
    const double hs = 0.7;
    /* integral of W over 3D on a fine grid (midpoints) */
    int m = 100;
    double step = 4 * hs / m, sum = 0;
    for (int z = 0; z < m; z++)
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                double px = -2 * hs + (x + 0.5) * step, py = -2 * hs + (y + 0.5) * step, pz = -2 * hs + (z + 0.5) * step;
                sum += sim_kernel_w(sqrt(px * px + py * py + pz * pz), hs);
            }
    sum *= step * step * step;
    CHECK(fabs(sum - 1) < 2e-3, "kernel integrates to %.6f, not 1", sum);
    /* dW/dr against a central difference; W vanishes at and beyond 2 hs */
    double worst = 0;
    for (double r = 0.01 * hs; r < 2 * hs; r += 0.037 * hs) {
        double e = 1e-6 * hs, num = (sim_kernel_w(r + e, hs) - sim_kernel_w(r - e, hs)) / (2 * e);
        double err = fabs(num - sim_kernel_dw(r, hs)) / (sim_kernel_w(0, hs) / hs);
        if (err > worst) worst = err;
    }
    CHECK(worst < 1e-6, "dW/dr differs from the derivative of W by %.3g", worst);
    CHECK(sim_kernel_w(2 * hs, hs) == 0 && sim_kernel_w(3 * hs, hs) == 0 && sim_kernel_dw(2.5 * hs, hs) == 0,
          "the kernel does not vanish beyond its support");
    /* a plane's kernel sum P(z) against a 2D numeric integral over the plane */
    for (double z = 0; z < 2 * hs; z += 0.3 * hs) {
        double pl[2], num = 0, s2 = 4 * hs / 400;
        sim_kernel_plane(z, hs, pl);
        for (int y = 0; y < 400; y++)
            for (int x = 0; x < 400; x++) {
                double px = -2 * hs + (x + 0.5) * s2, py = -2 * hs + (y + 0.5) * s2;
                num += sim_kernel_w(sqrt(px * px + py * py + z * z), hs);
            }
        num *= s2 * s2;
        CHECK(fabs(num - pl[0]) < 1e-3 * sim_kernel_w(0, hs) * hs, "plane sum at z=%.2f: %.6f, numeric %.6f", z, pl[0], num);
        double e = 1e-6, pa[2], pb[2];
        sim_kernel_plane(z + e, hs, pa);
        sim_kernel_plane(z - e > 0 ? z - e : 0, hs, pb);
        double d = (pa[0] - pb[0]) / (z - e > 0 ? 2 * e : e + z);
        if (z > 0) CHECK(fabs(d - pl[1]) < 1e-4 * sim_kernel_w(0, hs), "dP/dz at z=%.2f: %.6f, numeric %.6f", z, pl[1], d);
    }
    /* the wall's share against a discrete ghost lattice behind the wall (spacing dx = hs, the
     * simulation's ratio), for particles of a lattice at distances (i + 1/2) dx and off-lattice */
    double dx = hs, lat = 0;
    for (int z = -3; z <= 3; z++)
        for (int y = -3; y <= 3; y++)
            for (int x = -3; x <= 3; x++) lat += sim_kernel_w(dx * sqrt((double)(x * x + y * y + z * z)), hs);
    double k = 1 / (lat * dx * dx); /* m / (rho0 dx^2) with m = rho0 / lat */
    for (double d = 0; d < 2.2 * dx; d += 0.25 * dx) {
        double ghost = 0, g[2];
        for (int z = 0; z < 4; z++)
            for (int y = -4; y <= 4; y++)
                for (int x = -4; x <= 4; x++) {
                    double gz = d + (z + 0.5) * dx;
                    ghost += sim_kernel_w(sqrt(gz * gz + dx * dx * (x * x + y * y)), hs);
                }
        ghost /= lat;
        sim_kernel_wall_g(d, hs, dx, k, g);
        CHECK(fabs(g[0] - ghost) < 2e-3, "wall share at d=%.2f dx: %.5f, ghost lattice %.5f", d / dx, g[0], ghost);
    }
}

/* Jittered lattice blocks touching the walls and a corner, random velocities: one GPU step against
 * the CPU reference (density, forces, then the integrated positions), each block against its own
 * largest acceleration. `squeeze` < 1 packs the second block's lattice that much closer: its
 * particles then have more neighbours than the lists hold (wcsph.c: 56 a lane with 1 lane, 20 with
 * 4), so the forces walk the cells again there, while the first block's walk their lists. */
static void test_gpu_vs_cpu(const gpu_caps *caps, uint32_t lanes, double squeeze) {
    char err[ERR_LEN];
    sim *s =
        sim_make(&(sim_desc){.scene = "dambreak", .particles = 2000, .sort = ref_sort("cpu"), .solver = "wcsph", .lanes = lanes, .cells_per_h = ref_cells_per_h},
                 caps, err);
    CHECK(s, "sim_make: %s", err);
    if (!s) return;
    const sim_params *p = sim_get_params(s);
    uint32_t n = 0, state = 12345;
    float *pos = calloc(4 * 2000, sizeof(float)), *vel = calloc(4 * 2000, sizeof(float));
    double dx = p->dx;
    /* block A in the corner at the origin; block B against the far x wall, mid-height */
    for (int b = 0; b < 2; b++)
        for (int z = 0; z < 8; z++)
            for (int y = 0; y < 9; y++)
                for (int x = 0; x < 11; x++) {
                    double ox = b ? p->hi[0] - 11 * dx : 0, oy = b ? 0.05 : 0, sp = b ? squeeze * dx : dx;
                    float *q = pos + 4 * n, *v = vel + 4 * n;
                    q[0] = (float)(ox + (x + 0.5) * sp + 0.2 * sp * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                    q[1] = (float)(oy + (y + 0.5) * sp + 0.2 * sp * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                    q[2] = (float)((z + 0.5) * sp + 0.2 * sp * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                    for (int c = 0; c < 3; c++) {
                        if (q[c] < p->lo[c] + p->margin) q[c] = p->lo[c] + p->margin;
                        if (q[c] > p->hi[c] - p->margin) q[c] = p->hi[c] - p->margin;
                        v[c] = (float)(0.5 * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                    }
                    q[3] = 1;
                    n++;
                }
    CHECK(sim_set_particles(s, pos, vel, n, err), "%s", err);
    double *rho = malloc(8 * n), *press = malloc(8 * n), *acc = malloc(24 * n);
    ref_density(p, pos, n, rho, press);
    float *gdens = malloc(4 * n);
    sim_read_particles(s, NULL, NULL, gdens);
    double worst = 0;
    for (uint32_t i = 0; i < n; i++) {
        double e = fabs(gdens[i] - rho[i]) / rho[i];
        if (e > worst) worst = e;
    }
    CHECK(worst < 2e-5, "GPU density differs from the CPU reference by %.3g (relative)", worst);
    printf("density: %u particles, worst relative difference %.3g\n", n, worst);

    ref_forces(p, pos, vel, n, rho, press, acc);
    GLuint accel = sim_get_accel(s); /* before the step: wcsph writes it once asked (sim_test.h) */
    sim_step(s, NULL);
    const sim_particles *g = sim_get_particles(s);
    uint32_t *ids = ref_read(g->id[g->cur], 4ull * n);
    float *gacc = ref_read(accel, 16ull * n);
    float *npos = malloc(16ull * n), *nvel = malloc(16ull * n);
    sim_read_particles(s, npos, nvel, NULL);
    double amax[2] = {0}, aerr[2] = {0}, perr[2] = {0}; /* per block */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = ids[i], b = id >= n / 2;
        for (int c = 0; c < 3; c++) {
            double e = fabs(gacc[4 * i + c] - acc[3 * id + c]);
            if (e > aerr[b]) aerr[b] = e;
            if (fabs(acc[3 * id + c]) > amax[b]) amax[b] = fabs(acc[3 * id + c]);
        }
        for (int c = 0; c < 3; c++) {
            double v = vel[4 * id + c] + acc[3 * id + c] * p->dt, x = pos[4 * id + c] + v * p->dt;
            if (x < p->lo[c] + p->margin) x = p->lo[c] + p->margin;
            if (x > p->hi[c] - p->margin) x = p->hi[c] - p->margin;
            double e = fabs(npos[4 * id + c] - x);
            if (e > perr[b]) perr[b] = e;
        }
    }
    for (int b = 0; b < 2; b++) {
        CHECK(aerr[b] < 1e-4 * amax[b] + 1e-3,
              "block %d: GPU acceleration differs from the CPU reference by %.3g m/s^2 (largest %.3g)", b, aerr[b], amax[b]);
        CHECK(perr[b] < 1e-6 * dx * 100, "block %d: integrated positions differ by %.3g m", b, perr[b]);
        printf("forces, %u lanes, block %d (spacing %.2f dx): worst difference %.3g m/s^2 of %.3g; positions %.3g m\n", lanes, b,
               b ? squeeze : 1.0, aerr[b], amax[b], perr[b]);
    }
    free(ids);
    free(gacc);
    free(npos);
    free(nvel);
    free(rho);
    free(press);
    free(acc);
    free(gdens);
    free(pos);
    free(vel);
    sim_destroy(s);
}

/* The mean of e_i / rho0 over every particle, e_i = max(Drho_i/Dt, 0) dt (0 with fewer than
 * min_neighbours neighbours), Drho_i/Dt = sum_j m (v_i - v_j) . grad W_ij + rho0 v_i . grad Phi_i:
 * the divergence solve's first predict (docs/SPH.md), brute force over every pair. */
static double ref_divergence_mean(const sim_params *p, const float *pos, const float *vel, uint32_t n, double dt,
                                  uint32_t min_neighbours) {
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *xi = pos + 4 * i, *vi = vel + 4 * i;
        double drho = 0, g[3], x[3] = {xi[0], xi[1], xi[2]};
        uint32_t count = 0;
        for (uint32_t j = 0; j < n; j++) {
            double d[3] = {xi[0] - pos[4 * j], xi[1] - pos[4 * j + 1], xi[2] - pos[4 * j + 2]};
            double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (r >= p->h || r == 0) continue;
            double k = p->mass * sim_kernel_dw(r, p->hs) / r;
            for (int c = 0; c < 3; c++) drho += (vi[c] - vel[4 * j + c]) * k * d[c];
            count++;
        }
        ref_wall_phi(p, x, g);
        for (int c = 0; c < 3; c++) drho += p->rho0 * vi[c] * g[c];
        if (count >= min_neighbours && drho > 0) sum += drho * dt / p->rho0;
    }
    return sum / n;
}

/* One step of s from these particles (sim_set_particles: the solver primed, its first dt again);
 * returns its record. */
static sim_step_record step_from(sim *s, const float *pos, const float *vel, uint32_t n, const char *path) {
    char err[ERR_LEN];
    CHECK(sim_set_particles(s, pos, vel, n, err), "%s", err);
    sim_step(s, NULL);
    sim_sync(s);
    sim_step_record r = {0};
    CHECK(sim_records(s, &r, 1) == 1, "%s: no record of the step", path);
    return r;
}

/* dfsph's divergence solve starts from its first predict, which the density pass makes in its own
 * walk (density_pass.glsl) and reduces (the fused step into its partials, density.comp over the
 * dispatch, whose last group decides): one step of a pool given a velocity field (a squeeze toward
 * the middle, which the walls and the surface cut, and noise), its recorded divergence error
 * against the brute-force mean above (kind: independent reference; the step's dt the solver's
 * first, dt_max). Scaled to 0.4 of the solve's bound it must stop at that predict (0 iterations,
 * the error the mean), to 3 times it iterate. On the indirect path, the fused step and the
 * persistent solves alone (one group; where density.comp's last group and solve.comp both decide),
 * each checked to have run (the fused step alone measures its phases); the --half entry runs the
 * indirect path only: with Mesa's shader cache empty, as in CI, llvmpipe takes about 5 s to build
 * the persistent programs for each grid. Made to fail on purpose (llvmpipe, both paths): with vi - vj read as vj - vi (the error 0, and no
 * iteration at 3 times the bound), and without the walls' term (0.04796% against 0.04%).
 * Also the indirect path at 4 lanes over 4,913 particles: 154 groups, so that the last group's
 * loads of their parts run past its first batch (DFSPH_RED_BATCH, dfsph_common.glsl); made to fail
 * with the batches' later parts left out (0.03494% against 0.04%). */
static void test_divergence_predict(const gpu_caps *caps, int persistent, int fused, uint32_t count, uint32_t lanes) {
    const char *path = persistent != 1       ? (count > 1000 ? "indirect path, 4 lanes (over 128 groups)" : "indirect path")
                       : fused == DFSPH_ZERO ? "persistent solves alone"
                                             : "fused step";
    /* one sim for both rounds, each set to the same particles with the same field scaled
     * (sim_set_particles primes the solver: its first step's dt is dt_max again) */
    sim *s = ref_sim_lanes("pool", count, "radix", "dfsph", &(dfsph_desc){.persistent = persistent, .fused = fused}, lanes, caps);
    const sim_params *p = sim_get_params(s);
    const dfsph_gpu_params *dp = sim_get_solver_params(s);
    uint32_t n = sim_particle_count(s), state = 4242;
    float *pos = malloc(16ull * n), *vel = calloc(4ull * n, sizeof(float));
    sim_read_particles(s, pos, NULL, NULL);
    double mid[3], size[3], dt = dp->dt_max;
    for (int c = 0; c < 3; c++) mid[c] = 0.5 * (p->lo[c] + p->hi[c]), size[c] = p->hi[c] - p->lo[c];
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            vel[4 * i + c] = (float)(-(pos[4 * i + c] - mid[c]) / size[c] + 0.3 * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
    double unit = ref_divergence_mean(p, pos, vel, n, dt, dp->min_neighbours);
    float *v = malloc(16ull * n);
    for (int round = 0; round < 2; round++) {
        double scale = (round == 0 ? 0.4 : 3.0) * dp->eta_divergence / unit;
        for (uint32_t i = 0; i < 4 * n; i++) v[i] = (float)(vel[i] * scale);
        double want = ref_divergence_mean(p, pos, v, n, dt, dp->min_neighbours);
        sim_step_record r = step_from(s, pos, v, n, path);
        bool fused_ran = sim_record_phased(&r); /* the fused step measures its phases (the shader clock) */
        CHECK(fused_ran == (persistent == 1 && fused != DFSPH_ZERO), "%s: the step %s the fused step", path,
              fused_ran ? "ran" : "did not run");
        printf("divergence's first predict, %s, %u particles, dt %.4g s: the CPU's mean error %.7g%%, the step's %u iterations, "
               "error %.7g%% (bound %.3g%%)\n",
               path, n, dt, 100 * want, r.it[0], 100 * r.err_div, 100 * dp->eta_divergence);
        if (round == 0) {
            CHECK(r.it[0] == 0, "%s: the divergence solve took %u iterations where its first predict is within the bound", path,
                  r.it[0]);
            CHECK(fabs(r.err_div - want) <= 1e-3 * want, "%s: the first predict's mean error %.7g, the CPU's %.7g", path,
                  r.err_div, want);
        } else
            CHECK(r.it[0] >= 1, "%s: the divergence solve stopped at its first predict, whose error is 3 times its bound", path);
    }
    free(pos), free(vel), free(v);
    sim_destroy(s);
}

/* The pressure solve's warm start (solve_fns.glsl, nonpressure_pass.glsl): its impulse over dt,
 *   sum_j (k_i + k_j) m grad W_ij + 2 k_i rho0 grad Phi_i,   k = half the last step's total (vel.w),
 * which the non-pressure pass sums in its own walk and leaves in vstar (the other velocity buffer)
 * for the warm update, against a brute-force CPU sum over every pair (kind: independent reference).
 * One lane a particle, where the pass sums it (DFSPH_WARM_NP, dfsph_common.glsl; with more lanes the
 * warm update walks the lists itself, and the physics tests cover it). A pool given random totals and random velocities fast enough that the step stays within the
 * viscosity's bound (in a longer step the viscosity's half-step takes vstar over after the warm
 * update; checked). The indirect path with records and with index lists, and the fused step.
 * Made to fail on purpose (llvmpipe), each on all three paths: with k_j read as the particle's own
 * (k_i + k_i: 2.47 off where the largest is 6.03), and without the walls' term (6.82 off). */
static void test_warm_impulse(const gpu_caps *caps, int persistent, int fused, int records) {
    const char *path = persistent != 1 ? (records == 1 ? "indirect path, records" : "indirect path, index lists") : "fused step";
    sim *s = ref_sim_lanes("pool", 1000, "radix", "dfsph", &(dfsph_desc){.persistent = persistent, .fused = fused, .records = records},
                           1, caps);
    const sim_params *p = sim_get_params(s);
    const dfsph_gpu_params *dp = sim_get_solver_params(s);
    uint32_t n = sim_particle_count(s), state = 99;
    float *pos = malloc(16ull * n), *vel = malloc(16ull * n);
    sim_read_particles(s, pos, NULL, NULL);
    for (uint32_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) vel[4 * i + c] = (float)(3.0 * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
        vel[4 * i + 3] = (float)(2e-4 * (check_rand(&state) % 1000) / 1000.0); /* the last step's total */
    }
    sim_step_record r = step_from(s, pos, vel, n, path);
    CHECK(r.dt <= dp->dt_visc, "%s: the step (%.4g s) passed the viscosity's bound (%.4g s): vstar is the half-step's", path,
          r.dt, dp->dt_visc);
    const sim_particles *g = sim_get_particles(s);
    uint32_t *ids = ref_read(g->id[g->cur], 4ull * n);
    float *imp = ref_read(g->vel[1 - g->cur], 16ull * n);
    double worst = 0, largest = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *xi = pos + 4 * ids[i];
        double ki = 0.5 * vel[4 * ids[i] + 3], want[3] = {0}, x[3] = {xi[0], xi[1], xi[2]}, gw[3];
        for (uint32_t j = 0; j < n; j++) {
            double d[3] = {xi[0] - pos[4 * j], xi[1] - pos[4 * j + 1], xi[2] - pos[4 * j + 2]};
            double rr = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (rr >= p->h || rr == 0) continue;
            double k = (ki + 0.5 * vel[4 * j + 3]) * p->mass * sim_kernel_dw(rr, p->hs) / rr;
            for (int c = 0; c < 3; c++) want[c] += k * d[c];
        }
        ref_wall_phi(p, x, gw);
        for (int c = 0; c < 3; c++) {
            want[c] += 2 * ki * p->rho0 * gw[c];
            if (fabs(want[c]) > largest) largest = fabs(want[c]);
            if (fabs(imp[4 * i + c] - want[c]) > worst) worst = fabs(imp[4 * i + c] - want[c]);
        }
    }
    CHECK(largest > 0 && worst <= 1e-4 * largest, "%s: the warm start's impulse differs from the CPU's by %.3g (largest %.3g)", path,
          worst, largest);
    printf("warm start's impulse, %s, %u particles, dt %.4g s: worst difference %.3g of %.3g\n", path, n, r.dt, worst, largest);
    free(ids), free(imp), free(pos), free(vel);
    sim_destroy(s);
}

/* DFSPH's non-pressure acceleration, gravity and the walls' friction off, so the pairs' viscosity
 * alone: a_i = m sum_j Pi_ij, Monaghan's artificial viscosity between approaching pairs with the
 * pair's mean density (visc_fns.glsl), against a brute-force CPU sum over every pair (sim_ref.h's
 * ref_forces with no pressure; kind: independent reference, it shares the formula). Where the lists hold indices on the indirect path
 * the non-pressure walk rides in the density pass's (DFSPH_FOLD, density_pass.glsl), which takes the
 * densities the last step left, carried by the search's reorder (carry.glsl): after
 * sim_set_particles the solver's prime made them at the same positions, so they are the step's own,
 * read back (the records path takes the step's own). The velocities are random but slow, so that
 * the divergence solve stops at its first predict (checked), and the viscosity sees the velocities
 * set on either path. A pool of 1,000 particles; records and index lists.
 * Made to fail on purpose (llvmpipe), the folded walk only: with rho_j read as rho_i (4.81e-4 off,
 * the largest 7.48e-3), and with the reorder not carrying (dens_prev left at rho0: 1.03e-3 off). */
static void test_nonpressure_visc(const gpu_caps *caps, int records) {
    const char *path = records == 1 ? "records" : "index lists (folded)";
    sim *s = ref_sim_lanes("pool", 1000, "radix", "dfsph", &(dfsph_desc){.persistent = DFSPH_ZERO, .records = records}, 1, caps);
    sim_set_forces(s, (const float[3]){0, 0, 0}, 0);
    const sim_params *p = sim_get_params(s);
    uint32_t n = sim_particle_count(s), state = 31;
    float *pos = malloc(16ull * n), *vel = calloc(4ull * n, sizeof(float));
    sim_read_particles(s, pos, NULL, NULL);
    for (uint32_t i = 0; i < 4 * n; i++)
        if (i % 4 != 3) vel[i] = (float)(2e-4 * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
    GLuint accel = sim_get_accel(s);
    sim_step_record r = step_from(s, pos, vel, n, path);
    CHECK(r.it[0] == 0, "%s: the divergence solve took %u iterations: the viscosity saw other velocities", path, r.it[0]);
    const sim_particles *g = sim_get_particles(s);
    uint32_t *ids = ref_read(g->id[g->cur], 4ull * n);
    float *dens = ref_read(g->dens, 4ull * n), *acc = ref_read(accel, 16ull * n);
    if (records != 1) /* folded: accel holds the pairs' sum, before the mass (the warm update applies it) */
        for (uint32_t i = 0; i < 4 * n; i++) acc[i] *= (float)p->mass;
    /* The reference: sim_ref.h's brute-force accelerations with no pressure, gravity nor walls'
     * friction, which leaves the pairs' viscosity alone. */
    double *rho = calloc(n, sizeof(double)), *press = calloc(n, sizeof(double)), *want = malloc(sizeof(double) * 3 * n);
    double worst = 0, largest = 0;
    for (uint32_t i = 0; i < n; i++) rho[ids[i]] = dens[i];
    ref_forces(p, pos, vel, n, rho, press, want);
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            double w = want[3 * ids[i] + c];
            if (fabs(w) > largest) largest = fabs(w);
            if (fabs(acc[4 * i + c] - w) > worst) worst = fabs(acc[4 * i + c] - w);
        }
    CHECK(largest > 0 && worst <= 1e-4 * largest,
          "%s: the viscosity's acceleration differs from the CPU's by %.3g (largest %.3g)", path, worst, largest);
    printf("non-pressure viscosity, %s, %u particles: worst difference %.3g of %.3g m/s^2\n", path, n, worst, largest);
    free(ids), free(dens), free(acc), free(rho), free(press), free(want), free(pos), free(vel);
    sim_destroy(s);
}

/* The folded non-pressure pass (DFSPH_FOLD): the density pass also reduces the speeds and, where
 * the divergence solve stops at its first predict, sizes the step itself, so the non-pressure pass
 * does not run (Ctl.args_np); where that solve iterates the pass runs after it and sizes the step
 * from the velocities it left. The warm update adds what a particle feels alone (gravity, the
 * walls' friction) to the pairs' viscosity. One step of a pool of 1,000 from the same state with the
 * fold and without it (kind: the same arithmetic on another path; after sim_set_particles the
 * carried densities are the step's own): the same dt, held by the CFL limit (a corner particle flung
 * upward at 4 m/s: it compresses nothing, so the divergence solve still stops where the rest is
 * slow), and the same velocities after it within 1e-5 of the largest (llvmpipe: the same bits).
 * `iterate`: the rest given 0.3 m/s of noise, so that the divergence solve iterates (checked on
 * both): the dt within 1e-4 (the fold's viscosity takes the velocities before that solve, so the
 * fluids differ there: llvmpipe, a tick apart, the velocities 0.0253 of 3.85). Made to fail on purpose
 * (llvmpipe): the density pass sizing the step from half the largest speed (dt 2.93e-3 against
 * 1.47e-3), Ctl.args_np left at 0 (the iterating step took dt_max, 5e-3), the warm update without
 * what a particle feels alone (the velocities 0.136 apart), and the solver's prime sizing a step
 * (u_prime unset: the first step's speeds took the prime's dt, 1.33e-3 against 1.47e-3). */
static void test_fold_step(const gpu_caps *caps, int iterate) {
    sim_step_record r[2];
    float *out[2] = {NULL, NULL};
    uint32_t n = 0;
    double fast = 4.0, dt_max = 0;
    for (int fold = 0; fold < 2; fold++) {
        const char *path = fold ? "folded" : "not folded";
        sim *s =
            ref_sim_lanes("pool", 1000, "radix", "dfsph",
                          &(dfsph_desc){.persistent = DFSPH_ZERO, .records = DFSPH_ZERO, .fold = fold ? 0 : DFSPH_ZERO}, 1, caps);
        n = sim_particle_count(s);
        dt_max = ((const dfsph_gpu_params *)sim_get_solver_params(s))->dt_max;
        uint32_t state = 57, corner = 0;
        float *pos = malloc(16ull * n), *vel = calloc(4ull * n, sizeof(float));
        sim_read_particles(s, pos, NULL, NULL);
        for (uint32_t i = 0; i < n; i++) {
            if (pos[4 * i] + pos[4 * i + 1] + pos[4 * i + 2] > pos[4 * corner] + pos[4 * corner + 1] + pos[4 * corner + 2])
                corner = i;
            for (int c = 0; c < 3; c++)
                vel[4 * i + c] = (float)((iterate ? 0.3 : 2e-4) * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
        }
        vel[4 * corner] = vel[4 * corner + 2] = 0;
        vel[4 * corner + 1] = (float)fast;
        r[fold] = step_from(s, pos, vel, n, path);
        CHECK(iterate ? r[fold].it[0] > 0 : r[fold].it[0] == 0, "%s: the divergence solve took %u iterations", path,
              r[fold].it[0]);
        out[fold] = malloc(16ull * n);
        CHECK(sim_read_particles(s, NULL, out[fold], NULL), "%s: the particles do not read back", path);
        free(pos), free(vel);
        sim_destroy(s);
    }
    double worst = 0, largest = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            largest = fmax(largest, fabs(out[0][4 * i + c]));
            worst = fmax(worst, fabs(out[1][4 * i + c] - out[0][4 * i + c]));
        }
    const char *what = iterate ? "iterating" : "first predict";
    CHECK(r[0].dt_cfl < 0.9 * dt_max && fabs(r[1].dt - r[0].dt) <= (iterate ? 1e-4 : 0) * r[0].dt,
          "%s: the step's dt %.6g folded, %.6g not (the CFL limit %.6g, dt_max %.6g)", what, r[1].dt, r[0].dt, r[0].dt_cfl,
          dt_max);
    CHECK(iterate || worst <= 1e-5 * largest, "%s: the velocities after the step differ by %.3g (largest %.3g)", what, worst,
          largest);
    printf("folded non-pressure, %s (%u divergence iterations): dt %.8g s folded, %.8g not; velocities within %.3g of %.3g m/s\n",
           what, r[1].it[0], r[1].dt, r[0].dt, worst, largest);
    free(out[0]), free(out[1]);
}

/* A block in the middle of the tank, further than h from every wall, random velocities: one step
 * of each solver changes the total momentum by n m g dt and nothing else. */
static void test_momentum(const char *solver, const gpu_caps *caps) {
    sim *s = ref_sim("dambreak", 2000, "cpu", solver, caps);
    const sim_params *p = sim_get_params(s);
    uint32_t n = 0, state = 777;
    float *pos = calloc(4 * 2000, sizeof(float)), *vel = calloc(4 * 2000, sizeof(float));
    double dx = p->dx, lo[3] = {0.2, 0.1, p->hi[2] / 2 - 1.5 * dx};
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++, n++) {
                float *q = pos + 4 * n, *v = vel + 4 * n;
                q[0] = (float)(lo[0] + x * dx + 0.2 * dx * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                q[1] = (float)(lo[1] + y * dx + 0.2 * dx * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                q[2] = (float)(lo[2] + z * dx + 0.2 * dx * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
                for (int c = 0; c < 3; c++) v[c] = (float)(0.4 * ((check_rand(&state) % 1000) / 1000.0 - 0.5));
            }
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            double wall = fmin(pos[4 * i + c] - p->lo[c], p->hi[c] - pos[4 * i + c]);
            CHECK(wall > p->h + dx, "particle %u is %.4f m from a wall", i, wall);
        }
    char err[ERR_LEN];
    CHECK(sim_set_particles(s, pos, vel, n, err), "%s", err);
    double m0[3] = {0}, m1[3] = {0}, scale = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) m0[c] += p->mass * vel[4 * i + c], scale += p->mass * fabs(vel[4 * i + c]);
    sim_step(s, NULL);
    sim_sync(s);
    sim_read_particles(s, NULL, vel, NULL);
    double dv_max = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) m1[c] += p->mass * vel[4 * i + c];
    for (uint32_t i = 0; i < n; i++) dv_max = fmax(dv_max, fabs(vel[4 * i + 1]));
    double dt = sim_dt(s), want = n * p->mass * p->gravity[1] * dt;
    double gy = m1[1] - m0[1];
    printf(
        "%s momentum, %u particles, one step of %.3g s: change (%.3g, %.3g, %.3g) kg m/s, gravity alone %.3g; |m v| summed %.3g\n",
        solver, n, dt, m1[0] - m0[0], gy, m1[2] - m0[2], want, scale);
    CHECK(fabs(gy - want) < 1e-7 * scale + 1e-5 * fabs(want), "%s: the y momentum changed by %.6g, gravity gives %.6g", solver,
          gy, want);
    CHECK(fabs(m1[0] - m0[0]) < 1e-7 * scale && fabs(m1[2] - m0[2]) < 1e-7 * scale,
          "%s: the pair forces do not conserve momentum: (%.3g, %.3g)", solver, m1[0] - m0[0], m1[2] - m0[2]);
    CHECK(dv_max > 0, "%s: nothing moved", solver);
    free(pos);
    free(vel);
    sim_destroy(s);
}

int main(int argc, char **argv) {
    ref_args(argc, argv);
    gpu_ctx *gpu = check_gpu();
    test_kernel_cpu();
    test_gpu_vs_cpu(gpu_get_caps(gpu), 1, 1.0);
    test_gpu_vs_cpu(gpu_get_caps(gpu), 4, 1.0);
    test_gpu_vs_cpu(gpu_get_caps(gpu), 1, 0.7);
    test_gpu_vs_cpu(gpu_get_caps(gpu), 4, 0.7);
    for (int i = 0; sim_solvers[i]; i++) test_momentum(sim_solvers[i]->name, gpu_get_caps(gpu));
    test_divergence_predict(gpu_get_caps(gpu), DFSPH_ZERO, 0, 1000, ref_lanes);
    test_divergence_predict(gpu_get_caps(gpu), DFSPH_ZERO, 0, 4500, 4); /* the last group's batched loads (dfsph_common.glsl) */
    test_warm_impulse(gpu_get_caps(gpu), DFSPH_ZERO, 0, 1);
    test_warm_impulse(gpu_get_caps(gpu), DFSPH_ZERO, 0, DFSPH_ZERO);
    test_nonpressure_visc(gpu_get_caps(gpu), 1);
    test_nonpressure_visc(gpu_get_caps(gpu), DFSPH_ZERO);
    test_fold_step(gpu_get_caps(gpu), 0);
    test_fold_step(gpu_get_caps(gpu), 1);
    if (!ref_cells_per_h) { /* the persistent programs: about 5 s to build with Mesa's cache empty */
        test_divergence_predict(gpu_get_caps(gpu), 1, 0, 1000, ref_lanes);
        test_divergence_predict(gpu_get_caps(gpu), 1, DFSPH_ZERO, 1000, ref_lanes);
        test_warm_impulse(gpu_get_caps(gpu), 1, 0, 0);
    }
    gpu_destroy(gpu);
    return check_done();
}
