/* The viscosity against an analytic viscous case (issue 24): the decay of a cellular flow.
 *
 * The pool scene (4,096 particles, the fluid an L x L x L box, L = 16 dx) with gravity off and
 * free-slip walls (sim_set_forces) is given the velocity of one Stokes eigenmode of that box,
 *   psi = A sin(pi X / L) sin(pi Y / L)   (X, Y from the fluid's lower corner),
 *   u = dpsi/dY,  v = -dpsi/dX,  w = 0,
 * divergence-free, with no flow through the walls, the floor and the (flat) free surface, and no
 * shear stress on them. Stokes flow keeps its shape and decays as exp(-nu k^2 t), k^2 = 2 pi^2 / L^2.
 * The measured decay: the mode's amplitude (least squares of the particles' velocities onto the
 * mode at their positions), a line fitted to its logarithm over 0.25 s.
 * The model's viscosity: Monaghan's artificial viscosity with nu = alpha c0 hs / 10 (Monaghan 2005)
 * acts only between approaching pairs. In a shear flow, (v_i - v_j) . (x_i - x_j) has one sign on
 * two opposite quadrants of directions and the other on the rest, and the second-order term that
 * makes the viscous force is even over those quadrants, so the switch halves it: nu_eff = nu / 2.
 * The reference is then the analytic rate nu k^2 / 2 (tolerance 20%: a lattice 16 spacings on a
 * side samples the kernel's second moment coarsely, and the walls and the surface cut it).
 * Three runs:
 *   explicit:    dt = 0.5 x the explicit viscosity's bound (one step, as always below the bound);
 *   half-steps:  dt = 1.9 x the bound (solve_fns.glsl: two half-steps, each within it, the second
 *                summed in the pressure solve's first predict); the rate within 20% of the
 *                analytic, and within 5% of the explicit run's;
 *   fused:       the half-steps on the persistent path's fused step (one group: any driver),
 *                bit-identical to the indirect path's (the same values in the same order).
 * Measured on llvmpipe: analytic 0.715 /s; explicit 0.608 (-15.0%); half-steps 0.624 (+2.6% of the
 * explicit; -0.4% with the form of sessions 12-16, its own pass from v + (dt/2) a, same machine); fused
 * bit-identical. Made to fail on purpose: with the second half-step's viscosity left out (session
 * 12: its neighbour term; session 17: the first update's add) the half-steps decayed at 0.360 and
 * 0.358 /s, and both checks failed.
 * Uses the "cpu" sort. Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/scene.h"

#define STEPS_TIME 0.25
#define PI 3.14159265358979323846

typedef struct visc_run {
    double rate; /* measured decay rate, 1/s */
    double dt;   /* the step taken */
    float *vel;  /* the velocities at the end (for the bit-identity check) */
    uint32_t n;
} visc_run;

/* The mode's velocity at (x, y): A = 1. */
static void mode(double X, double Y, double L, double out[2]) {
    out[0] = PI / L * sin(PI * X / L) * cos(PI * Y / L);
    out[1] = -PI / L * cos(PI * X / L) * sin(PI * Y / L);
}

static double amplitude(const float *pos, const float *vel, uint32_t n, const double lo[2], double L) {
    double uv = 0, uu = 0;
    for (uint32_t i = 0; i < n; i++) {
        double m[2];
        mode(pos[4 * i] - lo[0], pos[4 * i + 1] - lo[1], L, m);
        uv += m[0] * vel[4 * i] + m[1] * vel[4 * i + 1];
        uu += m[0] * m[0] + m[1] * m[1];
    }
    return uv / uu;
}

static visc_run run(double dt_factor, int persistent, const gpu_caps *caps) {
    dfsph_desc probe = {0};
    sim *s = ref_sim_dfsph("pool", 4096, "cpu", &probe, caps);
    const dfsph_gpu_params *gp = sim_get_solver_params(s);
    double dt_visc = gp->dt_visc;
    sim_destroy(s);
    dfsph_desc dd = {.dt_max = (float)(dt_factor * dt_visc), .persistent = persistent ? persistent : DFSPH_ZERO};
    s = ref_sim_dfsph("pool", 4096, "cpu", &dd, caps);
    const sim_params *p = sim_get_params(s);
    uint32_t n = sim_particle_count(s);
    float *pos = malloc(16ull * n), *vel = malloc(16ull * n);
    sim_read_particles(s, pos, NULL, NULL);
    double lo[2] = {1e30, 1e30}, hi[2] = {-1e30, -1e30};
    for (uint32_t i = 0; i < n; i++)
        for (int a = 0; a < 2; a++) lo[a] = fmin(lo[a], pos[4 * i + a]), hi[a] = fmax(hi[a], pos[4 * i + a]);
    /* the fluid's box: each particle stands for a cube dx on a side */
    double L = hi[0] - lo[0] + p->dx;
    lo[0] -= 0.5 * p->dx, lo[1] -= 0.5 * p->dx;
    CHECK(fabs((hi[1] - lo[1] + 0.5 * p->dx) - L) < 0.5 * p->dx, "the pool's fluid is %.4f m wide and %.4f deep: not a cube", L,
          hi[1] - lo[1] + 0.5 * p->dx);
    const double A = 0.02 * L / PI; /* largest speed 2 cm/s */
    for (uint32_t i = 0; i < n; i++) {
        double m[2];
        mode(pos[4 * i] - lo[0], pos[4 * i + 1] - lo[1], L, m);
        vel[4 * i] = (float)(A * m[0]), vel[4 * i + 1] = (float)(A * m[1]), vel[4 * i + 2] = 0, vel[4 * i + 3] = 0;
    }
    char err[ERR_LEN];
    CHECK(sim_set_particles(s, pos, vel, n, err), "%s", err);
    sim_set_forces(s, (const float[3]){0, 0, 0}, 0);
    double sx = 0, sy = 0, sxx = 0, sxy = 0, cnt = 0, t = 0;
    visc_run r = {.dt = dd.dt_max, .n = n};
    while (t < STEPS_TIME) {
        sim_step(s, NULL);
        t += dd.dt_max; /* the free step's dt_cfl, at its dt_max at these speeds (checked below) */
        sim_read_particles(s, pos, vel, NULL);
        double a = amplitude(pos, vel, n, lo, L) / A;
        CHECK(a > 0 && isfinite(a), "dt %.2f ms: the mode's amplitude %.4g at t = %.3f s", 1e3 * dd.dt_max, a, t);
        if (!(a > 0 && isfinite(a))) break;
        double y = log(a);
        sx += t, sy += y, sxx += t * t, sxy += t * y, cnt++;
    }
    r.rate = -(cnt * sxy - sx * sy) / (cnt * sxx - sx * sx);
    sim_summary sm;
    sim_get_summary(s, &sm);
    CHECK(sm.steps == 0 || fabs(sm.dt_last - dd.dt_max) < 1e-3 * dd.dt_max, "the steps took %.4g s, not dt_max %.4g s",
          sm.dt_last, dd.dt_max);
    r.vel = vel;
    free(pos);
    sim_destroy(s);
    return r;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    sim *s = ref_sim("pool", 4096, "cpu", "dfsph", caps);
    const sim_params *p = sim_get_params(s);
    double nu = p->alpha * p->c0 * p->hs / 10, L = 16 * p->dx, k2 = 2 * PI * PI / (L * L), analytic = 0.5 * nu * k2;
    sim_destroy(s);
    visc_run ex = run(0.5, 0, caps), hs = run(1.9, 0, caps), fu = run(1.9, 1, caps);
    printf("cellular flow, L = %.4f m, nu = %.3e m^2/s: analytic decay nu k^2 / 2 = %.3f /s\n", L, nu, analytic);
    printf("  explicit   dt %.2f ms: %.3f /s (%+.1f%%)\n", 1e3 * ex.dt, ex.rate, 100 * (ex.rate / analytic - 1));
    printf("  half-steps dt %.2f ms: %.3f /s (%+.1f%%; %+.1f%% of the explicit)\n", 1e3 * hs.dt, hs.rate,
           100 * (hs.rate / analytic - 1), 100 * (hs.rate / ex.rate - 1));
    CHECK(fabs(ex.rate / analytic - 1) < 0.2, "explicit: decay %.3f /s against the analytic %.3f", ex.rate, analytic);
    CHECK(fabs(hs.rate / analytic - 1) < 0.2, "half-steps: decay %.3f /s against the analytic %.3f", hs.rate, analytic);
    CHECK(fabs(hs.rate / ex.rate - 1) < 0.05, "half-steps: decay %.3f /s against the explicit run's %.3f", hs.rate, ex.rate);
    bool same = hs.n == fu.n && !memcmp(hs.vel, fu.vel, 16ull * hs.n);
    printf("  fused step: %s the indirect path's\n", same ? "bit-identical to" : "DIFFERENT from");
    CHECK(same, "the fused step's half-steps differ from the indirect path's");
    free(ex.vel), free(hs.vel), free(fu.vel);
    gpu_destroy(gpu);
    return check_done();
}
