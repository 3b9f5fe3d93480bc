/* sim_test: the test-only header of sim.c: hooks for the tests. Not for the app or the renderer: they use sim.h. */
#ifndef FLUID_SIM_TEST_H
#define FLUID_SIM_TEST_H
#include "sim/particles.h"
#include "sim/scene.h"
#include "sim/search.h"
#include "sim/sim.h"
#include "sim/sim_params.h"
#include "sim/solver.h"

/* Replaces the particles (n <= the capacity made for; velocities zero when vel4 is NULL); ids
 * become 0..n-1. */
bool sim_set_particles(sim *s, const float *pos4, const float *vel4, uint32_t n, char *err);
/* hash, sort and ranges only: afterwards the search's sorted pairs and ranges describe the current
 * particles (nothing moves, nothing is reordered). */
void sim_find_neighbours(sim *s);
const sim_particles *sim_get_particles(const sim *s);
const sim_search *sim_get_search(const sim *s);
const sim_params *sim_get_params(const sim *s);
/* Gravity (m/s^2) and the walls' friction (the no-slip walls' kinematic viscosity, m^2/s; 0: the
 * walls are free-slip) for the steps after. */
void sim_set_forces(sim *s, const float gravity[3], float wall_friction);
/* The solver's own parameters, as its uniform block holds them (dfsph: dfsph_gpu_params,
 * src/sim/dfsph/dfsph_layout.h), or NULL for a solver without. */
const void *sim_get_solver_params(const sim *s);
const sim_layout *sim_get_layout(const sim *s);
uint32_t sim_get_cells(const sim *s);
/* Per particle, by original index: the pressure the solver keeps, Pa; false if it keeps none. */
bool sim_read_pressure(sim *s, float *out);
/* Per particle, current order: the neighbours the solver's last density pass listed (its GPU walk),
 * UINT32_MAX where one of its lanes' lists is full (some may be dropped); returns one lane's list
 * capacity, 0 if the solver keeps no lists. */
uint32_t sim_read_neighbour_counts(sim *s, uint32_t *out);
/* The solver's pressure coarse level once on the state as primed (sim_make, sim_set_particles), from
 * `in` with dt and dt_cfl (solver_test.h's coarse; current order); false if the solver has none. */
bool sim_run_coarse(sim *s, float dt, float dt_cfl, const float *in, float *out, float *factor, float *pos4);
/* Hands r to the simulation as its solver's next finished step (the records' ring and the summary). */
void sim_take_record(sim *s, const sim_step_record *r);
/* The solver's acceleration buffer, current order (wcsph: the total; dfsph: non-pressure), or 0.
 * wcsph fills it in the steps after the first call only: call it before stepping. */
GLuint sim_get_accel(const sim *s);
/* Grid cells per h a simulation of this solver and count takes unless FLUID_SIM_CELL says (1 or 2). */
uint32_t sim_cells_per_h(const sim_solver *solver, uint64_t particles);
/* The diffuse particles' ping-pong buffers and slots, and their spawn potentials on the particles
 * as they are (sim_diffuse_buffers and sim_diffuse_potentials, diffuse.h). */
void sim_get_diffuse_buffers(const sim *s, GLuint out[2], uint32_t *slots);
bool sim_read_diffuse_potentials(sim *s, float dt, float *out4, char *err);
/* The diffuse particles' advection pass alone over dt, on the fluid as it is (sim_diffuse_advect). */
void sim_advect_diffuse(sim *s, float dt);
/* The cell of p, computed on the CPU exactly as sim_cell_of() in sim_common.glsl. */
void sim_cell_of(const sim_params *p, const float pos[3], int cell[3]);
/* A cell's key, computed on the CPU exactly as sim_cell_key() in sim_common.glsl. */
uint32_t sim_cell_key(const sim_params *p, const int cell[3]);
/* The cell of a key: sim_cell_key's inverse. */
void sim_key_cell(const sim_params *p, uint32_t key, int cell[3]);

#endif
