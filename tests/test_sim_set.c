/* sim_set_particles right after sim_make, and again with fewer and more particles: the positions
 * and ids read back are exactly the ones given (in the search's order), for each sort and lane
 * count. On the H100 the first set after sim_make was lost with 1 lane and the radix or counting
 * sort (the scene's initial positions came back): a GPU wait before the uploads (sim.c) fixed it.
 * Cheap: no neighbour search on the CPU. Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"

static void check_set(sim *s, const char *what, const float *pos_in, uint32_t n) {
    char err[ERR_LEN];
    CHECK(sim_set_particles(s, pos_in, NULL, n, err), "%s: %s", what, err);
    const sim_particles *g = sim_get_particles(s);
    float *pos = ref_read(g->pos[g->cur], 16ull * n);
    uint32_t *ids = ref_read(g->id[g->cur], 4ull * n);
    uint8_t *seen = calloc(n + 1, 1);
    int bad_id = 0, bad_pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ids[i] >= n || seen[ids[i]]++) {
            bad_id++;
            continue;
        }
        bad_pos += memcmp(pos + 4 * i, pos_in + 4ull * ids[i], 12) != 0;
    }
    CHECK(g->n == n && bad_id == 0 && bad_pos == 0, "%s n=%u: %d ids not a permutation, %d positions not the ones set", what, n,
          bad_id, bad_pos);
    free(seen);
    free(ids);
    free(pos);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const char *sorts[] = {"radix", "counting", "cpu"};
    const uint32_t lanes[] = {1, 4};
    int cases = 0;
    for (size_t si = 0; si < ARRAY_LEN(sorts); si++)
        for (size_t li = 0; li < ARRAY_LEN(lanes); li++) {
            char err[ERR_LEN], what[64];
            sim *s = sim_make(
                &(sim_desc){.scene = "dambreak", .particles = 3000, .sort = ref_sort(sorts[si]), .lanes = lanes[li]}, caps, err);
            CHECK(s != NULL, "sim_make %s lanes %u: %s", sorts[si], lanes[li], err);
            if (!s) continue;
            const sim_params *p = sim_get_params(s);
            uint32_t cap = sim_particle_count(s), st = 7;
            float *pos = calloc(4ull * cap, sizeof(float));
            for (uint32_t i = 0; i < cap; i++)
                for (int a = 0; a < 4; a++)
                    pos[4 * i + a] = a == 3 ? 1.0f : p->lo[a] + (p->hi[a] - p->lo[a]) * (float)(check_rand(&st) % 1000000) / 1e6f;
            /* at once after sim_make (what failed), then fewer, more, the same, one */
            const uint32_t sizes[] = {cap, cap / 2 + 3, cap, cap, 1, cap - 1};
            for (size_t k = 0; k < ARRAY_LEN(sizes); k++) {
                snprintf(what, sizeof what, "%s, %u lane%s, set %zu", sorts[si], lanes[li], lanes[li] == 1 ? "" : "s", k);
                uint32_t from = (uint32_t)(k % 2),
                         n = sizes[k] < cap - from ? sizes[k] : cap - from; /* other positions each time */
                check_set(s, what, pos + 4ull * from, n);
                cases++;
            }
            free(pos);
            sim_destroy(s);
        }
    printf("%d sets checked\n", cases);
    /* Settings: a bad FLUID_* value (the variable is what is tested here, not a way to steer) or an
     * out-of-range desc field fails sim_make with one line naming it and its range. */
    const struct {
        const char *var, *value, *want;
    } bad[] = {{"FLUID_DFSPH_SLACK", "x", "FLUID_DFSPH_SLACK='x' is not a whole number from 0 to 9"},
               {"FLUID_DFSPH_HISTORY", "9", "FLUID_DFSPH_HISTORY='9' is not a whole number from 1 to 4"},
               {"FLUID_SIM_LANES", "3", "FLUID_SIM_LANES=3 is not one of 1, 2, 4, 8 or 16"},
               {"FLUID_DT_MAX", "fast", "FLUID_DT_MAX='fast'"}};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char err[ERR_LEN] = "";
        setenv(bad[i].var, bad[i].value, 1);
        sim *s = sim_make(&(sim_desc){.particles = 500}, caps, err);
        unsetenv(bad[i].var);
        CHECK(!s && strstr(err, bad[i].want) && !strchr(err, '\n'), "%s=%s: sim_make %s: '%s'", bad[i].var, bad[i].value,
              s ? "made it" : "failed", err);
        sim_destroy(s);
    }
    char err[ERR_LEN] = "";
    sim *s =
        sim_make(&(sim_desc){.particles = 500,
                             .solver_descs = (const sim_solver_desc[]){{&sim_solver_dfsph, &(dfsph_desc){.slack = 120}}, {0}}},
                 caps, err);
    CHECK(!s && strstr(err, "FLUID_DFSPH_SLACK") && strstr(err, "0..99"), "dfsph_desc.slack 120: '%s'", err);
    sim_destroy(s);
    const struct {
        sim_desc desc;
        const char *want;
    } bad_desc[] = {{{.particles = 500, .cells_per_h = 3}, "sim_desc.cells_per_h=3; choose 1 or 2"},
                    {{.particles = 500, .fast = 2}, "sim_desc.fast=2; choose 1 (on), -1 (off) or 0"}};
    for (size_t i = 0; i < ARRAY_LEN(bad_desc); i++) {
        err[0] = 0;
        s = sim_make(&bad_desc[i].desc, caps, err);
        CHECK(!s && strstr(err, bad_desc[i].want) && !strchr(err, '\n'), "bad desc %zu: sim_make %s: '%s'", i,
              s ? "made it" : "failed", err);
        sim_destroy(s);
    }
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
