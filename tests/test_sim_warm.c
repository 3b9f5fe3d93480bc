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
#include "sim_same.h"
#include "gpu/gpu.h"

#define FRAMES 5

/* fused: DFSPH's fused step on one group (the H100's default path; llvmpipe's default is the
 * indirect path) */
static same_state run(const char *solver, bool fused, bool warm, const gpu_caps *caps) {
    sim *s = fused ? ref_sim_dfsph("dambreak", 1500, "radix", &(dfsph_desc){.persistent = 1, .fused = 1}, caps)
                   : ref_sim("dambreak", 1500, "radix", solver, caps);
    if (warm) sim_warm(s);
    return same_run(s, FRAMES);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const char *solvers[] = {"dfsph", "dfsph fused", "wcsph"};
    for (int k = 0; k < 3; k++) {
        bool fused = k == 1;
        same_state warm = run(solvers[k], fused, true, caps), cold = run(solvers[k], fused, false, caps);
        bool ok = same_compare(solvers[k], &warm, &cold, true);
        printf("%s: warmed and not, %d frames: %s (%llu steps, %llu dispatches)\n", solvers[k], FRAMES,
               ok ? "bit-identical" : "DIFFERENT", (unsigned long long)warm.sum.steps, (unsigned long long)warm.disp.total);
        same_free(&warm), same_free(&cold);
    }
    gpu_destroy(gpu);
    return check_done();
}
