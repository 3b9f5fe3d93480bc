/* sim_internal: the simulation object's insides, shared by sim.c (making and stepping it),
 * sim_records.c (the steps' records and the summary) and sim_read.c (what it shows: names,
 * buffers, read-backs, the tests' getters). Private to those: the app, the renderer and the tests
 * use sim.h (and the tests sim_test.h). */
#ifndef FLUID_SIM_INTERNAL_H
#define FLUID_SIM_INTERNAL_H
#include "sim/compare.h"
#include "sim/diffuse.h"
#include "sim/particles.h"
#include "sim/scene.h"
#include "sim/search.h"
#include "sim/sim.h"
#include "sim/sim_params.h"
#include "sim/solver.h"

#define SIM_G 9.81 /* m/s^2 */

#define SIM_SOLVERS_MAX 8 /* solvers a registry holds at most (their descs, kept by the sim) */
#define SIM_TALLY_FRAMES 64 /* the recent frames whose steps sim_frame_tally keeps */

/* A frame's counts: made at its sim_frame_begin, its slots counted as they are issued, its steps
 * and iterations from the records that name it (sim_records.c). */
typedef struct sim_tally {
    uint32_t frame;
    sim_frame_counts c;
} sim_tally;

struct sim {
    sim_layout layout;
    float *init_pos; /* the scene's initial positions (count vec4s) */
    sim_params params;
    bool params_dirty;
    sim_particles p;
    sim_search *q;
    sim_compare *cmp; /* the compare mode (compare.h), NULL: off */
    const sim_solver *solver;
    void *impl;
    double hs, nu;                      /* the smoothing length and the kinematic viscosity, unrounded (sim_solver_make_desc) */
    void *solver_desc[SIM_SOLVERS_MAX]; /* each registered solver's desc, resolved at sim_make (NULL: none) */
    const gpu_caps *caps;
    const char *stage_names[SIM_SEARCH_STAGES + SIM_SOLVER_MAX_STAGES];
    bool in_frame;
    uint32_t frames_begun;      /* sim_frame_begin's calls since sim_make (sim_frames_begun) */
    uint32_t solver_frame_base; /* frames_begun when the solver was made: its records' frame numbers start after it */
    int first_step;       /* the frame's first step is the profiled one */
    sim_step_record *rec; /* the one ring of records: read from the solver, not yet taken by sim_records */
    uint32_t rec_cap, rec_head, rec_count;
    sim_record_sink sink; /* the solver's way into it (sim_records.c) */
    sim_summary sum;
    sim_dispatches disp; /* dispatches of the steps issued */
    double it_sum[SIM_RECORD_COUNTERS], err_density_sum;
    sim_tally tally[SIM_TALLY_FRAMES]; /* frame f's at f % SIM_TALLY_FRAMES */
    uint32_t tally_newest;             /* the newest frame a record named: every frame before it is in */
    uint32_t tally_done;               /* the newest frame its solver said was all in (sim_record_sink.frame_done) */
    uint32_t synced_frames;            /* frames_begun at the last sim_sync: every record of theirs is in */
    sim_diffuse *diffuse; /* spray, foam and bubbles (diffuse.h), NULL: none */
    double frame_seconds; /* the frame's, for sim_diffuse_update at its end */
};

/* compare.c: after a sort switch, the compare mode made again for the new driving sort (or off, warned) */
void sim_compare_follow_sort(sim *s);

/* sim_records.c */
void sim_poll(sim *s, bool wait);                            /* takes the solver's finished records (wait: every step issued) */
void sim_records_solver_switched(sim *s);                    /* the summary's per-solver part anew (sim.h) */
void sim_records_clear(sim *s);                              /* forgets every record and the summary */
bool sim_records_make(sim *s, uint32_t capacity, char *err); /* the ring (0: SIM_RECORDS) and the sink */

#endif
