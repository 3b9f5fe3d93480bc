/* Every scene at a small count: hundreds of steps with nothing lost, nothing outside the tank, no
 * NaN, no explosion (speeds stay far below the speed of sound), mass conserved; reset restores the
 * initial state exactly; switching the sort keeps the fluid; the poke pushes; bad descriptions
 * fail with a message; nothing leaks. Uses the "cpu" sort. Needs GL 4.5. */
#include "sim_ref.h"

static void test_scene(const char *scene, const gpu_caps *caps) {
    sim *s = ref_sim(scene, 1200, "cpu", caps);
    uint32_t n = sim_particle_count(s);
    sim_stats st0, st;
    sim_read_stats(s, &st0);
    float *p0 = malloc(16ull * n), *p1 = malloc(16ull * n);
    sim_read_particles(s, p0, NULL, NULL);
    int steps = 400;
    double vmax_seen = 0;
    for (int i = 1; i <= steps; i++) {
        sim_step(s, NULL);
        if (i % 100 == 0) {
            sim_read_stats(s, &st);
            CHECK(st.particles == n && st.non_finite == 0 && st.outside == 0,
                  "%s step %d: %u particles (of %u), %u not finite, %u outside", scene, i, st.particles, n, st.non_finite,
                  st.outside);
            CHECK(fabs(st.mass - st0.mass) <= 1e-9 * st0.mass, "%s: mass %.9g, was %.9g", scene, st.mass, st0.mass);
            float *v = malloc(16ull * n);
            sim_read_particles(s, NULL, v, NULL);
            for (uint32_t k = 0; k < n; k++) {
                double sp = sqrt(v[4 * k] * v[4 * k] + v[4 * k + 1] * v[4 * k + 1] + v[4 * k + 2] * v[4 * k + 2]);
                if (sp > vmax_seen) vmax_seen = sp;
            }
            free(v);
            /* energy can only be lost (no driving): KE + PE stays below its start */
            CHECK(st.kinetic_energy + st.potential_energy < 1.001 * (st0.kinetic_energy + st0.potential_energy),
                  "%s step %d: energy grew from %.6g to %.6g J", scene, i, st0.kinetic_energy + st0.potential_energy,
                  st.kinetic_energy + st.potential_energy);
        }
    }
    CHECK(vmax_seen < 0.3 * sim_sound_speed(s), "%s: a particle reached %.3g m/s (c0 %.3g)", scene, vmax_seen, sim_sound_speed(s));
    printf("%-16s %5u particles, %d steps (%.3f s): max speed %.3f m/s, density ratio %.4f, energy %.4f -> %.4f J\n", scene,
           n, steps, sim_time(s), vmax_seen, st.density_ratio, st0.kinetic_energy + st0.potential_energy,
           st.kinetic_energy + st.potential_energy);
    sim_reset(s);
    sim_read_particles(s, p1, NULL, NULL);
    CHECK(memcmp(p0, p1, 16ull * n) == 0 && sim_time(s) == 0, "%s: reset does not restore the initial state", scene);
    free(p0);
    free(p1);
    sim_destroy(s);
}

static void test_switch_and_poke(const gpu_caps *caps) {
    char err[ERR_LEN];
    sim *a = ref_sim("dambreak", 1000, "cpu", caps), *b = ref_sim("dambreak", 1000, "cpu", caps);
    uint32_t n = sim_particle_count(a);
    for (int i = 0; i < 30; i++) {
        sim_step(a, NULL);
        sim_step(b, NULL);
    }
    float *pa = malloc(16ull * n), *pb = malloc(16ull * n);
    CHECK(!sim_set_sort(b, "no-such-sort", err) && strstr(err, "no-such-sort"), "an unknown sort was accepted: %s", err);
    CHECK(sim_set_sort(b, "cpu", err), "sim_set_sort: %s", err);
    CHECK(strcmp(sim_sort_name(b), "cpu") == 0, "sort is %s", sim_sort_name(b));
    for (int i = 0; i < 30; i++) {
        sim_step(a, NULL);
        sim_step(b, NULL);
    }
    sim_read_particles(a, pa, NULL, NULL);
    sim_read_particles(b, pb, NULL, NULL);
    CHECK(memcmp(pa, pb, 16ull * n) == 0, "switching the sort changed the fluid");
    /* poke: particles near the point get pushed away from it, for one step only */
    float lo[3], hi[3];
    sim_domain(a, lo, hi);
    float point[3] = {0.07f, 0.1f, 0.073f}, *v0 = malloc(16ull * n), *v1 = malloc(16ull * n);
    sim_read_particles(a, pa, v0, NULL);
    sim_poke(a, point, 0.05f, 200.0f);
    sim_step(a, NULL);
    sim_read_particles(a, pb, v1, NULL);
    double push = 0;
    int near = 0;
    for (uint32_t i = 0; i < n; i++) {
        double d[3], r = 0, dv = 0;
        for (int c = 0; c < 3; c++) {
            d[c] = pa[4 * i + c] - point[c];
            r += d[c] * d[c];
        }
        r = sqrt(r);
        if (r < 0.03 && r > 1e-3) {
            for (int c = 0; c < 3; c++) dv += (v1[4 * i + c] - v0[4 * i + c]) * d[c] / r;
            push += dv;
            near++;
        }
    }
    CHECK(near > 0 && push / near > 0.5 * 200 * sim_dt(a) * 0.3, "poke: mean outward velocity change %.4g over %d particles",
          near ? push / near : 0, near);
    free(v0);
    free(v1);
    free(pa);
    free(pb);
    sim_destroy(a);
    sim_destroy(b);
}

static void test_errors(const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    CHECK(!sim_make(&(sim_desc){.scene = "lake"}, caps, err) && strstr(err, "lake") && strstr(err, "dambreak"),
          "unknown scene: %s", err);
    CHECK(!sim_make(&(sim_desc){.scene = "dambreak", .particles = 2000000000u, .sort = "cpu"}, caps, err) &&
              strstr(err, "more than this GPU"),
          "2e9 particles: %s", err);
    CHECK(!sim_make(&(sim_desc){.scene = "dambreak", .sort = "quick"}, caps, err) && strstr(err, "quick"), "unknown sort: %s", err);
    sim *s = ref_sim("dambreak", 1, "cpu", caps);
    CHECK(sim_particle_count(s) >= 1, "1 particle asked, %u made", sim_particle_count(s));
    sim_step(s, NULL);
    sim_destroy(s);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    for (int i = 0; sim_scene_names[i]; i++) test_scene(sim_scene_names[i], caps);
    test_switch_and_poke(caps);
    test_errors(caps);
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
