/* The dam break against Koshizuka & Oka (1996) / Martin & Moyce (1952), for each solver: the front
 * position Z/L against T = t sqrt(2 g / L) must stay within 10% of the measured curve (linear
 * interpolation) for T from 0.5 to 2.5. An independent reference (measured physics). Reduced
 * resolution for CI: 2,000 particles (a 10 x 20 x 10 column, dx = L/10; the default is
 * 24 x 48 x 24): about 1,560 wcsph steps, about 100 dfsph steps. Z is the largest x of the fluid
 * (max particle centre + half the spacing), L the column width (0.146 m). Uses the "cpu" sort.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/solver.h"

static const double ref_t[] = {0, 0.381, 0.769, 1.153, 1.537, 1.935, 2.323, 2.719, 3.096};
static const double ref_z[] = {1.000, 1.111, 1.252, 1.505, 1.892, 2.241, 2.615, 3.003, 3.624};

static double ref_at(double t) {
    for (size_t i = 0; i + 1 < ARRAY_LEN(ref_t); i++)
        if (t <= ref_t[i + 1]) return ref_z[i] + (ref_z[i + 1] - ref_z[i]) * (t - ref_t[i]) / (ref_t[i + 1] - ref_t[i]);
    return ref_z[ARRAY_LEN(ref_z) - 1];
}

static void test_solver(const char *solver, const gpu_caps *caps) {
    sim *s = ref_sim("dambreak", 2000, "cpu", solver, caps);
    const sim_layout *lay = sim_get_layout(s);
    double L = lay->n[0][0] * lay->dx, scale = sqrt(2 * 9.81 / L);
    CHECK(fabs(L - SIM_SCENE_L) < 1e-9, "column width %.6f m, expected %.6f", L, SIM_SCENE_L);
    const double checks[] = {0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5};
    size_t next = 0;
    double prev_t = 0, prev_z = 1, worst = 0;
    sim_stats st;
    printf("dam break, %s, %u particles (dx = L/%d)\n    T    Z/L  K&O   diff\n", solver, sim_particle_count(s), lay->k);
    while (next < ARRAY_LEN(checks)) {
        sim_step(s, NULL);
        sim_read_stats(s, &st);
        CHECK(st.non_finite == 0 && st.outside == 0, "t=%.4f: %u not finite, %u outside", st.time, st.non_finite, st.outside);
        double T = st.time * scale, z = st.front_x / L;
        while (next < ARRAY_LEN(checks) && T >= checks[next]) {
            double tq = checks[next], zq = prev_z + (z - prev_z) * (tq - prev_t) / (T - prev_t), zr = ref_at(tq);
            double d = zq / zr - 1;
            printf("  %.2f  %.3f  %.3f  %+5.1f%%\n", tq, zq, zr, 100 * d);
            CHECK(fabs(d) < 0.10, "%s: at T = %.2f the front is at Z/L = %.3f, the experiment %.3f (%+.1f%%)", solver, tq, zq, zr,
                  100 * d);
            if (fabs(d) > worst) worst = fabs(d);
            next++;
        }
        prev_t = T;
        prev_z = z;
        if (st.time > 1.0) break; /* never loop forever */
    }
    CHECK(next == ARRAY_LEN(checks), "%s: the run ended before T = 2.5", solver);
    printf("%s: worst difference %.1f%%\n", solver, 100 * worst);
    sim_destroy(s);
}

int main(int argc, char **argv) {
    gpu_ctx *gpu = check_gpu();
    for (int i = 0; sim_solvers[i]; i++)
        if (argc < 2 || !strcmp(argv[1], sim_solvers[i]->name)) test_solver(sim_solvers[i]->name, gpu_get_caps(gpu));
    gpu_destroy(gpu);
    return check_done();
}
