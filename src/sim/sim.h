/* sim: a weakly compressible SPH fluid in a box, every stage in GL compute, the neighbour search
 * done by sorting (cell, particle) pairs with the sort library.
 *
 * One step, as stages (each its own module in src/sim/ and shader in shaders/sim/):
 *   hash -> sort -> ranges -> reorder -> density -> forces -> integrate
 *
 *   sim *s = sim_make(&(sim_desc){ .scene = "dambreak", .particles = 27648, .sort = "radix" }, caps, err);
 *   each frame: for (k..) sim_step(s, prof);   // prof may be NULL; stage i is timed as SIM_STAGE i
 *   draw:       sim_positions(s), sim_velocities(s), sim_densities(s), sim_cell_keys(s)
 *   sim_destroy(s);
 *
 * Errors: sim_make returns NULL with err for an unknown scene, a particle count of 0 or past what
 * the GPU holds, or a shader that fails to build.
 */
#ifndef FLUID_SIM_H
#define FLUID_SIM_H
#include "gpu/gpu.h"
#include "gpu/prof.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum sim_stage {
    SIM_STAGE_HASH,
    SIM_STAGE_SORT,
    SIM_STAGE_RANGES,
    SIM_STAGE_REORDER,
    SIM_STAGE_DENSITY,
    SIM_STAGE_FORCES,
    SIM_STAGE_INTEGRATE,
    SIM_STAGE_COUNT
} sim_stage;
extern const char *const sim_stage_names[SIM_STAGE_COUNT]; /* "hash", "sort", ... */

typedef struct sim_desc {
    const char *scene;   /* "dambreak" (default), "drop", "double-dambreak" */
    uint32_t particles;  /* 0: the scene's default */
    const char *sort;    /* "radix" (default), "bitonic" */
} sim_desc;

typedef struct sim sim;

sim *sim_make(const sim_desc *desc, const gpu_caps *caps, char *err);
void sim_destroy(sim *s);
void sim_step(sim *s, gpu_prof *prof);
void sim_reset(sim *s);                                    /* back to the scene's initial state */
bool sim_set_sort(sim *s, const char *algo, char *err);    /* between steps; the fluid is kept */
const char *sim_sort_name(const sim *s);
const char *sim_scene_name(const sim *s);
uint32_t sim_particle_count(const sim *s);
double sim_time(const sim *s);                             /* simulated seconds */
float sim_dt(const sim *s);                                /* seconds per step */
void sim_domain(const sim *s, float lo[3], float hi[3]);   /* the tank, metres */
float sim_particle_radius(const sim *s);                   /* half the initial spacing, metres */
uint32_t sim_cell_count(const sim *s);                     /* grid cells (keys are < this) */

/* Buffers in the current particle order (they change every step: read them after sim_step). */
GLuint sim_positions(const sim *s);   /* vec4 per particle: xyz metres, w unused */
GLuint sim_velocities(const sim *s);  /* vec4 per particle: xyz m/s */
GLuint sim_densities(const sim *s);   /* float per particle: kg/m^3 */
GLuint sim_cell_keys(const sim *s);   /* uint per particle: its grid cell */

/* Mouse interaction: push (strength > 0) or pull (< 0) particles within radius of a point. Applies
 * to the next step only. */
void sim_poke(sim *s, const float point[3], float radius, float strength);

extern const char *const sim_scene_names[]; /* NULL-terminated */

#endif
