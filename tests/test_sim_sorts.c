/* Radix, bitonic and counting give bit-identical simulations, for each solver: the same scene
 * stepped with each sort (and with the CPU reference sort) must hold exactly the same positions,
 * velocities and densities per particle after the same number of steps, and switching sorts
 * mid-run changes nothing. Counting also replaces the ranges stage with its own scanned counts and
 * takes its first count from the hash pass. (onesweep, where the driver allows it, is radix's other
 * path: test_sort_onesweep.) And at 85,750 particles, whose cell keys are 17 bits, the first count
 * where radix takes 9-bit digits (two passes, not three; the producer count at that width), radix
 * against the CPU sort for a few steps.
 * Arguments SOLVER SCENE run that pair alone (test_sim_sorts_fused: dfsph dambreak on the fused step).
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/solver.h"

#define STEPS 60

typedef struct state {
    float *pos, *vel, *dens;
} state;

static state run_n(const char *scene, uint32_t particles, int steps, const char *solver, const char *sort, const char *switch_to,
                   const gpu_caps *caps) {
    sim *s = ref_sim(scene, particles, sort, solver, caps);
    char err[ERR_LEN];
    for (int i = 0; i < steps; i++) {
        if (switch_to && i == steps / 2) CHECK(sim_set_sort(s, ref_sort(switch_to), err), "sim_set_sort(%s): %s", switch_to, err);
        sim_step(s, NULL);
    }
    uint32_t n = sim_particle_count(s);
    state st = {malloc(16ull * n), malloc(16ull * n), malloc(4ull * n)};
    sim_read_particles(s, st.pos, st.vel, st.dens);
    sim_destroy(s);
    return st;
}

static state run(const char *scene, const char *solver, const char *sort, const char *switch_to, const gpu_caps *caps) {
    return run_n(scene, 1500, STEPS, solver, sort, switch_to, caps);
}

static void same(const char *what, state a, state b, uint32_t n) {
    int diff =
        memcmp(a.pos, b.pos, 16ull * n) != 0 || memcmp(a.vel, b.vel, 16ull * n) != 0 || memcmp(a.dens, b.dens, 4ull * n) != 0;
    CHECK(!diff, "%s: states differ", what);
    printf("%s: %s\n", what, diff ? "DIFFERENT" : "bit-identical");
}

static void drop(state s) {
    free(s.pos);
    free(s.vel);
    free(s.dens);
}

int main(int argc, char **argv) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const char *scenes[] = {"dambreak", "drop"};
    for (int q = 0; sim_solvers[q]; q++)
        for (int k = 0; k < 2; k++) {
            const char *sv = sim_solvers[q]->name;
            if (argc > 2 && (strcmp(argv[1], sv) || strcmp(argv[2], scenes[k]))) continue;
            sim *probe = ref_sim(scenes[k], 1500, "cpu", sv, caps);
            uint32_t n = sim_particle_count(probe);
            sim_destroy(probe);
            state r = run(scenes[k], sv, "radix", NULL, caps), b = run(scenes[k], sv, "bitonic", NULL, caps);
            state c = run(scenes[k], sv, "cpu", NULL, caps), sw = run(scenes[k], sv, "radix", "bitonic", caps);
            state cs = run(scenes[k], sv, "counting", NULL, caps), sw2 = run(scenes[k], sv, "counting", "radix", caps);
            char what[128];
            snprintf(what, sizeof what, "%s %s: radix vs bitonic", sv, scenes[k]);
            same(what, r, b, n);
            snprintf(what, sizeof what, "%s %s: radix vs cpu", sv, scenes[k]);
            same(what, r, c, n);
            snprintf(what, sizeof what, "%s %s: radix vs radix->bitonic at step %d", sv, scenes[k], STEPS / 2);
            same(what, r, sw, n);
            snprintf(what, sizeof what, "%s %s: radix vs counting (its own cell table, fused count)", sv, scenes[k]);
            same(what, r, cs, n);
            snprintf(what, sizeof what, "%s %s: radix vs counting->radix at step %d", sv, scenes[k], STEPS / 2);
            same(what, r, sw2, n);
            drop(r);
            drop(b);
            drop(c);
            drop(sw);
            drop(cs);
            drop(sw2);
        }
    if (argc <= 2) { /* 17-bit cell keys: radix's 9-bit digits in the simulation */
        enum { WIDE_N = 85750, WIDE_STEPS = 3 };
        sim *probe = ref_sim("dambreak", WIDE_N, "radix", "dfsph", caps);
        char line[256];
        sim_sort_path(probe, line, sizeof line);
        uint32_t n = sim_particle_count(probe);
        sim_destroy(probe);
        CHECK(strstr(line, "/d9/") != NULL, "%u particles: the sort's path is '%s', not 9-bit digits", n, line);
        state r = run_n("dambreak", WIDE_N, WIDE_STEPS, "dfsph", "radix", NULL, caps);
        state c = run_n("dambreak", WIDE_N, WIDE_STEPS, "dfsph", "cpu", NULL, caps);
        char what[128];
        snprintf(what, sizeof what, "dfsph dambreak %u particles (%s): radix vs cpu after %d steps", n, line, WIDE_STEPS);
        same(what, r, c, n);
        drop(r);
        drop(c);
    }
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
