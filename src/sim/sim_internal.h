/* sim_internal: the simulation object's insides, shared by sim.c (making and stepping it) and
 * sim_read.c (what it shows: names, buffers, read-backs, the tests' getters). Private to those two:
 * the app, the renderer and the tests use sim.h (and the tests sim_test.h). */
#ifndef FLUID_SIM_INTERNAL_H
#define FLUID_SIM_INTERNAL_H
#include "sim/particles.h"
#include "sim/scene.h"
#include "sim/search.h"
#include "sim/sim.h"
#include "sim/sim_params.h"
#include "sim/sim_test.h" /* the old name of the tests' hooks header: code written against it still builds */
#include "sim/solver.h"

#define SIM_G 9.81       /* m/s^2 */
#define SIM_RECORDS 8192 /* step records kept for sim_records */

struct sim {
    sim_layout layout;
    float *init_pos; /* the scene's initial positions (count vec4s) */
    sim_params params;
    bool params_dirty;
    sim_particles p;
    sim_search *q;
    const sim_solver *solver;
    void *impl;
    const gpu_caps *caps;
    const char *stage_names[SIM_SEARCH_STAGES + SIM_SOLVER_MAX_STAGES];
    bool in_frame;
    int first_step;                   /* the frame's first step is the profiled one */
    sim_step_record rec[SIM_RECORDS]; /* read, not yet taken by sim_records */
    int rec_head, rec_count;
    sim_summary sum;
    sim_dispatches disp; /* dispatches of the steps issued */
    double it_div_sum, it_density_sum, err_density_sum;
};

#endif
