/* DFSPH's depth bound (docs/SPH.md, "The depth bound"): a step is at most sqrt(K dx^3 / g) / H,
 * H the water's depth, measured on the GPU at the end of each step as twice the particles' mean
 * height above the floor; on the H100 deep still pools went restless past it (K = 7 holds them
 * still; docs/BENCHMARKS.md).
 *  - A still pool of 8 layers with dt_max set to 20 ms (so that the bound, 14 ms here, is what
 *    holds the step): after three frames, the fourth frame's records against the formula evaluated
 *    here, with K = 7 as docs/SPH.md states it and H = twice the mean height of the particles
 *    read back before it, within 1e-5 relative; the pool's H against its lattice's depth (8
 *    layers of dx) within 0.5% (8.03 layers here, settled); the frame
 *    takes ceil((1/60 s) / bound) equal steps. Kind: analytic (the formula and the scene's geometry).
 *  - The same pool with gravity off: no depth bound (g = 0), every step dt_max's: one step a frame
 *    (16.7 ms under 20). Kind: invariant.
 *  - The dam break's column from the start: its first step held to the bound of its particles as
 *    made (the depth measured when the solver is primed), within 1e-5, and its first frame planned
 *    for it: ceil((1/60 s) / bound) steps, no time carried over. Kind: analytic.
 *  - The dam break's column (16 layers of the pool's spacing) after three frames: its depth a
 *    little under its lattice's (85 to 100%: the column has begun to fall; 93.5% here), and its
 *    fourth frame's first limit the bound of its particles then, within 1e-5. Kind: analytic.
 * Made to fail on purpose, once: the depth taken as the mean height itself (without the 2): the
 * pool's first limit dt_max's 20 ms against the bound's 14.3, one step a frame instead of two, and
 * the column's limit 14.3 ms against 7.1; and (session 17) without the depth measured at prime: the
 * column's first step took dt_max's 20 ms against its bound's 7.1, one step in the first frame for 3.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"

#define FRAME (1.0 / 60)
/* One frame; its records into r (at most max), their count returned. */
static int frame_records(sim *s, sim_step_record *r, int max) {
    sim_frame(s, FRAME, 0, NULL);
    sim_sync(s);
    return sim_records(s, r, max);
}

/* A sim after three frames: the depth is measured at each step's end (and when the solver is
 * primed, for the first step), and a frame's slots follow the records of the frames before. */
static sim *after_three_frames(const char *scene, uint32_t particles, const dfsph_desc *dd, const gpu_caps *caps, bool gravity) {
    sim *s = ref_sim_dfsph(scene, particles, "radix", dd, caps);
    if (!gravity) sim_set_forces(s, (const float[3]){0, 0, 0}, sim_get_params(s)->wall_friction);
    sim_step_record r[16];
    for (int f = 0; f < 3; f++) frame_records(s, r, 16);
    return s;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const dfsph_desc dd = {.dt_max = 0.02f};
    sim_step_record r[16];

    sim *s = after_three_frames("pool", 512, &dd, caps, true);
    const sim_params *p = sim_get_params(s);
    double depth, want = ref_depth_bound(s, &depth), layers = depth / p->dx;
    int n = frame_records(s, r, 16), steps = (int)ceil(FRAME / want - 1e-9);
    printf("pool, %u particles, after three frames: depth %.5f m (%.4f layers of dx %.5f m), bound %.4f ms; the next step's limit "
           "%.4f ms, %d steps of %.4f ms\n",
           sim_particle_count(s), depth, layers, p->dx, 1e3 * want, 1e3 * r[0].dt_cfl, n, n ? 1e3 * r[0].dt : 0.0);
    CHECK(fabs(layers / 8 - 1) < 5e-3, "the pool's measured depth is %.4f layers, not its lattice's 8", layers);
    CHECK(n >= 1 && fabs(r[0].dt_cfl / want - 1) < 1e-5, "the first step's limit %.6g s is not the depth bound %.6g s", r[0].dt_cfl,
          want);
    CHECK(n == steps, "the frame took %d steps, not ceil(1/60 s / bound) = %d", n, steps);
    sim_destroy(s);

    s = after_three_frames("pool", 512, &dd, caps, false);
    n = frame_records(s, r, 16);
    printf("the same pool without gravity: %d step(s), the first's limit %.4f ms (dt_max %.1f ms)\n", n, 1e3 * r[0].dt_cfl,
           1e3 * dd.dt_max);
    CHECK(n == 1 && r[0].dt_cfl == dd.dt_max, "without gravity the depth bound held the step (%d steps, limit %.6g s)", n,
          r[0].dt_cfl);
    sim_destroy(s);

    /* The dam break's column: 2L high where the pool is L deep, the same spacing at the same
     * particles a unit of volume (512 particles fill L^3 in the pool, 1,024 the column's 2 L^3).
     * Its first frame from the start: the depth is measured when the solver is primed, so the
     * first step is held to the column's bound too, and the first frame's slots are planned for
     * it (no time carried over). */
    s = ref_sim_dfsph("dambreak", 1024, "radix", &dd, caps);
    double depth0, want0 = ref_depth_bound(s, &depth0);
    n = frame_records(s, r, 16);
    steps = (int)ceil(FRAME / want0 - 1e-9);
    printf("dam break, %u particles, from the start: depth %.5f m, bound %.4f ms; the first step's limit %.4f ms, %d steps, "
           "%.4f ms carried over\n", sim_particle_count(s), depth0, 1e3 * want0, n ? 1e3 * r[0].dt_cfl : 0.0, n,
           n ? 1e3 * r[n - 1].t_left : 0.0);
    CHECK(n >= 1 && fabs(r[0].dt_cfl / want0 - 1) < 1e-5, "the run's first step's limit %.6g s is not the column's depth bound %.6g s",
          n ? r[0].dt_cfl : 0.0, want0);
    CHECK(n == steps && !r[n - 1].short_frame, "the first frame took %d steps (want ceil(1/60 s / bound) = %d) and carried %.4g s over", n,
          steps, n ? r[n - 1].t_left : 0.0);
    sim_destroy(s);

    s = after_three_frames("dambreak", 1024, &dd, caps, true);
    double depth_col, want_col = ref_depth_bound(s, &depth_col);
    n = frame_records(s, r, 16);
    printf("dam break, %u particles, after three frames: depth %.5f m, bound %.4f ms (%.4f of the pool's); the next step's limit %.4f ms\n",
           sim_particle_count(s), depth_col, 1e3 * want_col, want_col / want, 1e3 * r[0].dt_cfl);
    double layers_col = depth_col / sim_get_params(s)->dx;
    CHECK(layers_col > 0.85 * 16 && layers_col <= 16, "the column's measured depth is %.4f layers, not a little under its lattice's 16",
          layers_col);
    CHECK(n >= 1 && fabs(r[0].dt_cfl / want_col - 1) < 1e-5, "the column's first limit %.6g s is not its depth bound %.6g s",
          r[0].dt_cfl, want_col);
    sim_destroy(s);
    gpu_destroy(gpu);
    return check_done();
}
