/* sim_internal: what the simulation's stage modules share, and hooks for the tests.
 * Not for the app or the renderer: they use sim.h.
 *
 * Each stage is one module and one shader (src/sim/<stage>.c, shaders/sim/<stage>.comp) with
 * sim_<stage>_make / _destroy / _run; _run issues one dispatch and the memory barrier after it.
 */
#ifndef FLUID_SIM_INTERNAL_H
#define FLUID_SIM_INTERNAL_H
#include "sim/scene.h"
#include "sim/sim.h"
#include "sim/sim_params.h"
#include "sort/sort.h"

/* The GL buffers of one simulation. */
typedef struct sim_gpu {
    GLuint params;                /* UBO: sim_params */
    GLuint pos[2], vel[2], id[2]; /* ping-pong; [cur] holds the current particle order */
    int cur;
    GLuint keys, vals;            /* hash output = sort input */
    sort_pairs sorted;            /* sort output (the buffers above or the sorter's own) */
    GLuint ranges;                /* uvec2 (start, end) per cell */
    GLuint dens, pterm, accel;    /* per particle, sorted order: rho, p / rho^2, acceleration */
    GLuint cell_keys;             /* per particle, sorted order: its cell (a copy of sorted.keys) */
    uint32_t n, capacity, cells, bits;
} sim_gpu;

/* The stage modules: each binds its buffers and dispatches its program (made by sim.c with
 * sim_program_make from shaders/sim/NAME.comp). */
void sim_hash_run(GLuint prog, const sim_gpu *g);
void sim_ranges_run(GLuint prog, const sim_gpu *g);
void sim_reorder_run(GLuint prog, sim_gpu *g); /* flips g->cur */
void sim_density_run(GLuint prog, const sim_gpu *g);
void sim_forces_run(GLuint prog, const sim_gpu *g);
void sim_integrate_run(GLuint prog, const sim_gpu *g);

/* One compute program per stage module: build, and one dispatch of `groups` plus a barrier. */
GLuint sim_program_make(const char *path, const char *label, char *err);
void sim_dispatch(GLuint program, uint32_t threads);

/* --- test hooks --- */
/* Replaces the particles (n <= the capacity made for; velocities zero when vel4 is NULL); ids
 * become 0..n-1. */
bool sim_set_particles(sim *s, const float *pos4, const float *vel4, uint32_t n, char *err);
/* hash, sort and ranges only: afterwards sorted keys/vals and ranges describe the current
 * particles (nothing moves, nothing is reordered). */
void sim_find_neighbours(sim *s);
const sim_gpu *sim_get_gpu(const sim *s);
const sim_params *sim_get_params(const sim *s);
const sim_layout *sim_get_layout(const sim *s);
/* The cell of p, computed on the CPU exactly as sim_cell_of() in sim_common.glsl. */
void sim_cell_of(const sim_params *p, const float pos[3], int cell[3]);

#endif
