/* The search in one dispatch (FLUID_SEARCH_PERSISTENT; src/sim/search.c, search_persistent.comp:
 * the radix sort's passes as its consumer, then ranges and reorder, behind grid barriers) leaves
 * the fluid as the search of a dispatch a stage does: each solver, the dam break at 3,000
 * particles (2,662: 3 tiles of 1,024 keys, 12 key bits, so 2 passes), 4 frames of 1/60 s, with the
 * search on 1 and on 2 groups against 0: the same positions, velocities and densities bit for
 * bit, the same step records and summary. DFSPH on llvmpipe's default path (the indirect one), on
 * its fused step (one group), and WCSPH. DFSPH runs with 3 spare slots a frame, so that a frame has
 * empty slots after an empty slot, whose searches run with the gate shut (the particles stay in
 * place): checked to have happened. Made to fail on purpose: the shut gate's copy scaling the
 * velocities by 0.999 (the DFSPH compares failed; WCSPH, whose slots are never empty, passed). And the dispatches:
 * a slot's search is 1 dispatch, not the sort's 2 and ranges+reorder's 1 (the hash is the solver's
 * last pass's, in both). Kind: independent of the arithmetic (the search of a dispatch a stage is
 * the reference; test_sim_neighbours checks the one-dispatch search's pairs and cell table against
 * a CPU search). Needs GL 4.5 (headless EGL, llvmpipe is fine; 2 groups need 2 llvmpipe threads). */
#include "sim_same.h"
#include "gpu/gpu.h"

#define FRAMES 4

static same_state run(const char *solver, bool fused, const char *groups, const gpu_caps *caps) {
    setenv("FLUID_SEARCH_PERSISTENT", groups, 1);
    /* DFSPH with 3 spare slots a frame: a frame's empty slots after its first search with the gate shut */
    sim *s = fused                     ? ref_sim_dfsph("dambreak", 3000, "radix", &(dfsph_desc){.persistent = 1, .fused = 1, .spare = 3}, caps)
             : !strcmp(solver, "dfsph") ? ref_sim_dfsph("dambreak", 3000, "radix", &(dfsph_desc){.spare = 3}, caps)
                                        : ref_sim("dambreak", 3000, "radix", solver, caps);
    unsetenv("FLUID_SEARCH_PERSISTENT");
    uint32_t want = (uint32_t)atoi(groups), got = sim_search_persistent_groups(sim_get_search(s));
    CHECK(got == want, "%s: the search in one dispatch runs on %u groups, not %u", solver, got, want);
    return same_run(s, FRAMES);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const char *solvers[] = {"dfsph", "dfsph fused", "wcsph"};
    for (int k = 0; k < 3; k++) {
        bool fused = k == 1, dfsph = k < 2;
        same_state ref = run(solvers[k], fused, "0", caps);
        if (dfsph) /* more empty slots than frames: some after an empty slot, whose search has its gate shut */
            CHECK(ref.disp.steps > ref.sum.steps + FRAMES, "%s: %llu slots for %llu steps in %d frames: the gate untested", solvers[k],
                  (unsigned long long)ref.disp.steps, (unsigned long long)ref.sum.steps, FRAMES);
        for (int g = 1; g <= 2; g++) {
            char what[64], groups[4];
            snprintf(what, sizeof what, "%s, the search on %d group%s", solvers[k], g, g > 1 ? "s" : "");
            snprintf(groups, sizeof groups, "%d", g);
            same_state one = run(solvers[k], fused, groups, caps);
            bool ok = same_compare(what, &one, &ref, false);
            /* a slot's search: 1 dispatch for the sort's 2 and ranges+reorder's 1 */
            uint64_t want = ref.disp.total - 2 * ref.disp.steps;
            CHECK(one.disp.steps == ref.disp.steps && one.disp.total == want,
                  "%s: %llu dispatches in %llu slots, not %llu (%llu with a dispatch a stage)", what,
                  (unsigned long long)one.disp.total, (unsigned long long)one.disp.steps, (unsigned long long)want,
                  (unsigned long long)ref.disp.total);
            printf("%s, %d frames: %s (%llu steps in %llu slots; %llu dispatches, %llu a dispatch a stage)\n", what, FRAMES,
                   ok ? "bit-identical" : "DIFFERENT", (unsigned long long)one.sum.steps, (unsigned long long)one.disp.steps,
                   (unsigned long long)one.disp.total, (unsigned long long)ref.disp.total);
            same_free(&one);
        }
        same_free(&ref);
    }
    gpu_destroy(gpu);
    return check_done();
}
