/* solver_test: the test-only side of a solver (solver.h), out of the production interface. A
 * solver fills one sim_solver_test_hooks and points its sim_solver's `.test` at it; only the
 * tests' entry points (sim_read.c, declared in sim_test.h) call these. Not for the app or the
 * renderer: a hook may stall on a read-back.
 */
#ifndef FLUID_SIM_SOLVER_TEST_H
#define FLUID_SIM_SOLVER_TEST_H
#include "sim/solver.h"

typedef struct sim_solver_test_hooks {
    /* Per particle, current order: the pressure in Pa; returns false if the solver keeps none. */
    bool (*read_pressure)(void *impl, const sim_particles *p, float *out);
    /* The last non-pressure (dfsph) or total (wcsph) acceleration buffer, current order, or 0.
     * wcsph fills it only in the steps after the first call (its forces write 16 bytes a particle
     * a step for the tests alone otherwise). */
    GLuint (*accel)(void *impl);
    /* Per particle, current order: the neighbours (within h, not at r = 0) its last density pass
     * listed, its lanes' lists added up, UINT32_MAX where a lane's list is full (it may have dropped
     * some); returns the capacity of one lane's list, 0 if it keeps none. */
    uint32_t (*read_neighbour_counts)(void *impl, const sim_particles *p, uint32_t *out);
    /* Its own parameters as its uniform block holds them (dfsph: dfsph_gpu_params), or NULL. */
    const void *(*params)(void *impl);
    /* dfsph: its pressure solve's coarse level run once on the particles as the last search and
     * density pass left them (right after priming), from the values `in` (k per particle, current
     * order), with this dt and CFL limit: `out` the values it leaves, `factor` each particle's 1/S,
     * `pos4` the positions and carried totals it read. False where the solver has none. */
    bool (*coarse)(void *impl, sim_particles *p, const sim_search *q, float dt, float dt_cfl, const float *in, float *out,
                   float *factor, float *pos4);
} sim_solver_test_hooks;

#endif
