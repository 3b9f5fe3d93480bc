/* step_record: what a solver reports of each finished step (solver.h's poll), and what sim.h hands
 * on (sim_records), with the frame's step bound both keep. Its own header so that the solver
 * interface need not include sim.h. */
#ifndef FLUID_SIM_STEP_RECORD_H
#define FLUID_SIM_STEP_RECORD_H
#include <stdbool.h>
#include <stdint.h>

#define SIM_RECORD_COUNTERS 4 /* iteration counts a record carries at most */
#define SIM_RECORD_PHASES 8   /* measured phases a record carries at most (its solver's stages) */
/* The most steps a frame takes (--substeps' range; a solver's slots a frame). */
#define SIM_MAX_SUBSTEPS 1000

/* One finished step. */
typedef struct sim_step_record {
    double time;                      /* simulated seconds at its end */
    float dt;                         /* its size, seconds */
    float dt_cfl;                     /* the limit it was held to: the CFL's, or the depth bound
                                       * (dfsph: docs/SPH.md); wcsph: its fixed dt */
    float cfl;                        /* max |v| dt / dx over the particles at its end (wcsph: NAN) */
    uint32_t it[SIM_RECORD_COUNTERS]; /* the solver's iteration counts, named by its `counters` (solver.h;
                                       * dfsph: divergence, pressure; wcsph: none); the rest 0 */
    float err_div;                    /* mean density change over one step the divergence left, relative */
    float err_density;                /* mean density error the pressure solve left, relative */
    uint32_t capped;                  /* solves that stopped at the iteration cap before converging */
    uint32_t dropped;                 /* neighbours left out of a full neighbour list (dfsph; should be 0) */
    uint32_t limited;                 /* particles whose speed was limited to the CFL bound (dfsph; rare) */
    float t_left;                     /* seconds of its frame still to simulate after it (dfsph; wcsph: 0) */
    bool short_frame; /* its frame's last step, the frame owing more than it started with: its slots ran out before its
                       * own time (t_left carries over; a frame paying part of a debt within its budget is not short) */
    /* The frame whose step slots ran it: sim_frame_begin's count since the sim was made, from 1
     * (sim_frames_begun); 0: not said (a step before any frame). A solver says its own count of
     * frames from 1; the sim adds the frames before the solver was made (wcsph's frames run their
     * own steps, none carried; since session 37 it names them too: sim_frame_tally). */
    uint32_t frame;
    /* Cycles of the GPU's shader clock each of the solver's stages (its `stages`, after the
     * search's) took inside one dispatch that runs them all, barrier to barrier (dfsph's fused
     * step, where the driver has GL_ARB_shader_clock); all 0: not measured. */
    uint32_t phase_cycles[SIM_RECORD_PHASES];
} sim_step_record;

/* Whether the step measured its phases (any phase_cycles above 0). */
static inline bool sim_record_phased(const sim_step_record *r) {
    for (int k = 0; k < SIM_RECORD_PHASES; k++)
        if (r->phase_cycles[k]) return true;
    return false;
}

/* Where a solver hands the records of its finished steps, oldest first: the simulation's one ring
 * (sim_records.c), of the capacity sim_desc.records states; past it the oldest unread records are
 * dropped and counted (sim_summary.records_dropped), never silently. */
typedef struct sim_record_sink {
    void (*push)(void *owner, const sim_step_record *r);
    /* The solver's frame `frame` (its own count, as sim_step_record.frame) has every record pushed
     * (sim_frame_tally's counts are then whole). */
    void (*frame_done)(void *owner, uint32_t frame);
    void *owner;
} sim_record_sink;

#endif
