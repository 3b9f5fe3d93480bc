/* The large counts' rules keep a still pool still. Past 262,144 particles DFSPH runs without the
 * rest's work (dfsph_desc.rest: no momentum, no coarse level, dt_max the viscosity's bound once),
 * and until session 41 without the depth bound too: there the pool scene erupted on the H200 at
 * 432,000 and 986,078 (its first pressure solves stopped at their cap of 20 with the density error
 * growing to ten times its bound, then the steps fell to 20 us, the kinetic energy rose from 0.1 to
 * 82 J: docs/bench/2026-11-28-s41/). Those counts are too slow for llvmpipe, so this runs the same
 * rules at 10,648 particles (22 layers of 22), where llvmpipe showed the same eruption: the pool
 * scene, index lists as at those counts, 3 frames of 1/60 s; after each, the kinetic energy against the
 * potential energy above the floor, both from the particles read back (the mass cancels:
 * sum |v|^2 / 2 over g sum (y - floor)). The still pool's ratio stays under 0.5%: at most 0.05%
 * with the depth bound. Its first step is held to the depth bound (its limit the records' dt_cfl,
 * against the formula, ref_depth_bound). Kind: measured physics (a still pool stays still) and an
 * invariant (the bound holds). Made to fail on purpose: with the depth bound off past the rest's
 * count (session 40's rule) both checks failed: the ratio 1.99% at the second frame, the first
 * step's limit 4.90 ms (the viscosity's bound) against the depth bound's 3.13. Needs GL 4.5
 * (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"

#define FRAMES 3
#define FRAME (1.0 / 60)
#define RATIO_MAX 0.005
/* Kinetic over potential energy (above the floor) of s's particles now. */
static double energy_ratio(sim *s) {
    const sim_params *p = sim_get_params(s);
    uint32_t n = sim_particle_count(s);
    float *pos4 = malloc(16ull * n), *vel4 = malloc(16ull * n), lo[3], hi[3];
    sim_read_particles(s, pos4, vel4, NULL);
    sim_domain(s, lo, hi);
    double g = ref_gravity(p), ke = 0, height = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *v = vel4 + 4 * i;
        ke += 0.5 * ((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
        height += pos4[4 * i + 1] - lo[1];
    }
    free(pos4);
    free(vel4);
    return ke / (g * height);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const dfsph_desc large = {.rest = DFSPH_ZERO, .records = DFSPH_ZERO};
    sim *s = ref_sim_dfsph("pool", 10648, "radix", &large, caps);
    double depth0, bound0 = ref_depth_bound(s, &depth0), worst = 0;
    int worst_at = 0;
    sim_step_record r[64];
    float first_limit = 0;
    for (int f = 0; f < FRAMES; f++) {
        sim_frame(s, FRAME, 0, NULL);
        sim_sync(s);
        int n = sim_records(s, r, 64);
        if (f == 0 && n > 0) first_limit = r[0].dt_cfl;
        double ratio = energy_ratio(s);
        printf("frame %d: %d steps, kinetic / potential energy %.5f%%\n", f + 1, n, 100 * ratio);
        if (ratio > worst) worst = ratio, worst_at = f + 1;
    }
    printf("pool, %u particles, the large counts' rules: first step's limit %.4f ms (the depth bound %.4f ms); worst kinetic / "
           "potential energy %.4f%% (frame %d; at most %.2f%%)\n",
           sim_particle_count(s), 1e3 * first_limit, 1e3 * bound0, 100 * worst, worst_at, 100 * RATIO_MAX);
    CHECK(fabs(first_limit / bound0 - 1) < 1e-5, "the first step's limit %.6g s is not the depth bound %.6g s", first_limit,
          bound0);
    CHECK(worst < RATIO_MAX, "the still pool stirred: kinetic energy %.3f%% of the potential at frame %d (at most %.2f%%)",
          100 * worst, worst_at, 100 * RATIO_MAX);
    sim_destroy(s);
    gpu_destroy(gpu);
    return check_done();
}
