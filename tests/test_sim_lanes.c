/* The lanes' sums by subgroup shuffles (shaders/sim/lanes.glsl, where the GPU has
 * GL_KHR_shader_subgroup) against the shared-memory sums (the same GPU told it has no subgroups):
 * an invariant, the two must give bit-identical simulations, since each lane adds the lanes'
 * values in lane order either way. Each solver with 2 and 4 lanes a particle, the dam break, 60
 * steps: positions, velocities and densities compared bit for bit.
 * Needs a GPU with subgroups (the H100; llvmpipe has none: skipped, exit 77). */
#include "sim_ref.h"
#include "sim/solver.h"

#define STEPS 60

static float *run(const char *solver, uint32_t lanes, const gpu_caps *caps, uint32_t *n) {
    char err[ERR_LEN];
    sim *s = sim_make(&(sim_desc){.scene = "dambreak", .particles = 1500, .sort = ref_sort("radix"), .solver = solver, .lanes = lanes},
                      caps, err);
    if (!s) {
        fprintf(stderr, "FAIL: sim_make %s with %u lanes: %s\n", solver, lanes, err);
        exit(1);
    }
    for (int i = 0; i < STEPS; i++) sim_step(s, NULL);
    *n = sim_particle_count(s);
    float *st = malloc(36ull * *n); /* pos, vel (16 bytes each) and density a particle */
    sim_read_particles(s, st, st + 4ull * *n, st + 8ull * *n);
    sim_destroy(s);
    return st;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    if (!caps->subgroup) {
        printf("SKIP: %s has no subgroups: only the shared-memory sums run here (the other tests cover them)\n", caps->renderer);
        gpu_destroy(gpu);
        return 77;
    }
    gpu_caps shared = *caps;
    shared.subgroup = false;
    shared.subgroup_size = 0;
    for (int q = 0; sim_solvers[q]; q++)
        for (uint32_t lanes = 2; lanes <= 4; lanes *= 2) {
            const char *sv = sim_solvers[q]->name;
            uint32_t n, m;
            float *a = run(sv, lanes, caps, &n), *b = run(sv, lanes, &shared, &m);
            bool same = n == m && memcmp(a, b, 36ull * n) == 0;
            CHECK(same, "%s, %u lanes: the shuffled sums' state differs from the shared-memory sums' after %d steps", sv, lanes,
                  STEPS);
            printf("%s, %u lanes a particle, %u particles: %s\n", sv, lanes, n, same ? "bit-identical" : "DIFFERENT");
            free(a);
            free(b);
        }
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
