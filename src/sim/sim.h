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

/* --- Added by the sim module (additive; the functions above are unchanged). --- */

GLuint sim_ids(const sim *s);          /* uint per particle, current order: its original index */
float sim_particle_mass(const sim *s); /* kg */
float sim_rest_density(const sim *s);  /* kg/m^3 */
float sim_support_radius(const sim *s);/* h: the kernel's support radius = grid cell size, metres */
float sim_sound_speed(const sim *s);   /* c0, m/s */
/* Steps that make about 1/60 s of simulated time (at least 1). */
int sim_steps_per_frame(const sim *s);
/* The most particles this GPU can simulate (buffer and dispatch limits). */
uint64_t sim_max_particles(const gpu_caps *caps);

/* The whole state read back, each array indexed by the particle's original index (its place in
 * the scene's initial layout), so two runs can be compared row by row. Any pointer may be NULL.
 * pos4/vel4: 4 floats per particle. Waits for the GPU. */
void sim_read_particles(sim *s, float *pos4, float *vel4, float *density);

/* Numbers that describe the fluid now (read back from the GPU; waits for it). */
typedef struct sim_stats {
    uint32_t particles;
    double time;             /* simulated seconds */
    double front_x;          /* largest x of the fluid, metres: max particle centre x + radius */
    double density_ratio;    /* mean density / rest density */
    double density_max_dev;  /* max |rho / rho0 - 1| */
    double kinetic_energy;   /* J */
    double potential_energy; /* J, m g (y - floor) */
    double mass;             /* kg, all particles */
    uint32_t non_finite;     /* particles with a NaN or infinite position, velocity or density */
    uint32_t outside;        /* particles whose centre is outside the tank */
} sim_stats;
void sim_read_stats(sim *s, sim_stats *out);

#endif
