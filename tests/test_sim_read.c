/* The read-back of the fluid (sim_read_particles, sim_read_checked; issue 25): the ids read back
 * must be a permutation of 0..n-1 and every value finite, else an error, never data (on main the
 * read-back wrote out[ids[i]] with no bounds check). Corrupts the GPU's id buffer (an id out of
 * range, then a repeated one: a lost particle) and one position (NaN), each after a clean read,
 * and checks the error and that the output arrays are not written past. Kind: independent (the
 * permutation and finiteness, known by construction); then 1% and 2% of the particles put on one
 * position (1% allowed, 2% an error: stacked particles, what the stall fallback once left). Runs under the sanitizers
 * (test_sanitize.sh). Made to fail on purpose: with _sim_ids_valid returning true ASan reported
 * the write out of bounds and the checks failed. Needs GL 4.5. */
#include "sim_ref.h"
#include "sim/sim_test.h"
#include <math.h>

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    sim *s = ref_sim("dambreak", 1000, "radix", "dfsph", caps);
    sim_frame(s, 1.0 / 60, 0, NULL);
    uint32_t n = sim_particle_count(s);
    float *pos = malloc(16ull * n), *vel = malloc(16ull * n), *dens = malloc(4ull * n);
    char err[ERR_LEN] = "";
    CHECK(sim_read_checked(s, pos, vel, dens, err), "a clean fluid read back as corrupt: %s", err);
    const sim_particles *p = sim_get_particles(s);
    GLuint ids = p->id[p->cur], xs = p->pos[p->cur];
    uint32_t keep[2], bad;
    glGetNamedBufferSubData(ids, 0, sizeof keep, keep);
    bad = n + 1000000; /* out of range */
    glNamedBufferSubData(ids, 0, 4, &bad);
    err[0] = 0;
    CHECK(!sim_read_checked(s, pos, vel, dens, err) && strstr(err, "out of range or repeated"), "an id out of range: '%s'", err);
    CHECK(!sim_read_particles(s, pos, NULL, NULL), "an id out of range read back as valid");
    glNamedBufferSubData(ids, 0, 4, &keep[1]); /* repeated: particle keep[0] lost */
    err[0] = 0;
    CHECK(!sim_read_checked(s, pos, vel, dens, err) && strstr(err, "lost"), "a repeated id: '%s'", err);
    glNamedBufferSubData(ids, 0, 4, &keep[0]);
    CHECK(sim_read_checked(s, pos, vel, dens, err), "the ids put back still read as corrupt: %s", err);
    float nan = NAN;
    glNamedBufferSubData(xs, 4 * 1, 4, &nan); /* the first particle in memory's y */
    err[0] = 0;
    CHECK(!sim_read_checked(s, pos, vel, dens, err) && strstr(err, "position is not finite"), "a NaN position: '%s'", err);
    printf("errors read: %s\n", err);
    /* Particles stacked on one another (what a half-stepped fluid showed, issue 25): 1% of them on
     * one position is allowed (a corner may clamp a few together), 2% is corrupt. */
    float *mem = malloc(16ull * n);
    glGetNamedBufferSubData(xs, 0, 16ll * n, mem);
    mem[1] = mem[4 + 1]; /* the NaN put back with a finite value */
    /* the copies take the position of a particle away from the walls (the check leaves out the
     * particles at an extreme coordinate, where walls clamp them): the one in the middle of memory,
     * copied onto the first n / 100 - 1 (then n / 50 - 1) */
    const float *mid = mem + 4ull * (n / 2);
    for (uint32_t i = 0; i + 1 < n / 100; i++) memcpy(mem + 4ull * i, mid, 12);
    glNamedBufferSubData(xs, 0, 16ll * n, mem);
    err[0] = 0;
    CHECK(sim_read_checked(s, pos, vel, dens, err), "%u particles on one position (1%%) read as corrupt: %s", n / 100, err);
    for (uint32_t i = 0; i + 1 < n / 50; i++) memcpy(mem + 4ull * i, mid, 12);
    glNamedBufferSubData(xs, 0, 16ll * n, mem);
    err[0] = 0;
    CHECK(!sim_read_checked(s, pos, vel, dens, err) && strstr(err, "sit exactly on another"), "%u particles on one position: '%s'",
          n / 50, err);
    printf("  %s\n", err);
    free(mem);
    free(pos);
    free(vel);
    free(dens);
    sim_destroy(s);
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
