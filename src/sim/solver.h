/* solver: the SPH solvers behind one small interface, chosen by value like the sorts.
 *
 *   wcsph  weakly compressible SPH, Tait pressure, a fixed step bound by the speed of sound
 *          (src/sim/wcsph/, shaders/sim/wcsph/)
 *   dfsph  divergence-free SPH (Bender & Koschier 2015, 2017): a divergence solve and a constant-
 *          density solve per step, iterated on the GPU until converged, steps bound by the flow
 *          speed (CFL) (src/sim/dfsph/, shaders/sim/dfsph/)
 *
 * Every step the simulation runs the shared neighbour search (search.h), then the solver's
 * `step`, which reads and writes the particles (particles.h) in place. A solver names its own
 * stages; the profiler times them as first_stage + 0 .. stage_count - 1.
 *
 * A solver owns its own settings and parameters (SPlisHSPlasH's TimeStep per method): a desc of
 * its own (desc_size bytes, zero: defaults; desc_resolve reads its FLUID_* variables into it once,
 * at sim_make), its own uniform block at SIM_UBO_SOLVER and its buffers at SIM_B_SOLVER.. (the
 * shared sim_params holds only the physics every solver reads), and its records' meaning: the
 * iteration counts a record carries (sim_step_record.it[]) are named by its `counters`.
 *
 * Adding a solver: a folder src/sim/NAME/ (NAME.c defining `const sim_solver sim_solver_NAME`, its
 * shaders in shaders/sim/NAME/) and one line in src/sim/solvers.c; CONTRIBUTING.md lists the files.
 *
 * Time: a frame asks for `seconds` of simulated time (frame_begin returns the steps it will
 * take); a solver whose dt is chosen on the GPU reports every step through `poll` a few frames
 * later, never by a waiting read-back in the middle of a frame. It does NOT own the particles or
 * the search.
 */
#ifndef FLUID_SIM_SOLVER_H
#define FLUID_SIM_SOLVER_H
#include "gpu/prof.h"
#include "sim/particles.h"
#include "sim/search.h"
#include "sim/step_record.h"

#define SIM_SOLVER_MAX_STAGES 8

/* What a solver is made from. */
typedef struct sim_solver_make_desc {
    const sim_particles *p;
    const sim_params *params;       /* the shared physics (its block, bound at SIM_UBO_PARAMS) */
    double hs, nu;                  /* the smoothing length, m, and the fluid's kinematic viscosity, m^2/s, unrounded */
    const void *desc;               /* its own desc as desc_resolve left it (NULL for a solver without one) */
    const sim_record_sink *records; /* where its finished steps' records go (valid until destroy) */
    const gpu_caps *caps;
} sim_solver_make_desc;

typedef struct sim_solver {
    const char *name;
    const char *summary;
    const char *const *stages; /* its own stage names (after the search's) */
    int stage_count;
    /* Optional: where a timed step (step's prof) runs another path than the others, what they run
     * (DFSPH's fused step: a timed step takes the per-stage path, bit-identical); callers then time
     * steps sparingly. NULL: a timed step is like any other. */
    const char *(*stage_note)(void *impl);
    /* The scene's initial layout for this solver: g / c^2 of its equation of state (layers
     * compressed to hydrostatic balance), or 0 for an incompressible solver (a plain lattice). */
    /* The iteration counts its records carry (sim_step_record.it[0 .. counter_count - 1]), by name
     * ("divergence", "pressure"); none for a solver without iterations. */
    const char *const *counters;
    int counter_count;
    /* Its own desc: desc_size bytes (0: none). desc_resolve fills *out from *in (NULL: every field
     * zero, the defaults) and its FLUID_* variables for the fields left zero; false with err on a
     * bad value. Called once a simulation (sim_make), for every solver of the registry. */
    size_t desc_size;
    bool (*desc_resolve)(const void *in, void *out, char *err);
    double (*layout_g_over_c2)(const sim_params *params);
    /* Grid cells h/2 wide (FLUID_SIM_CELL=2) pay above this many particles with this solver (0:
     * never; measured, docs/BENCHMARKS.md). Chosen when the simulation is made: a later switch of
     * solver keeps the grid (either size serves either solver). */
    uint32_t half_cells_above;
    /* The cells in bricks of 4 x 2 x 2 (sim_cell_key, FLUID_SIM_BRICK) pay above this many
     * particles with this solver (0: never): a group's particles and their neighbours lie closer in
     * memory, which the list walks gain more from than the cell walks lose. */
    uint32_t bricks_above;
    /* The neighbour passes' kernels with precomputed reciprocals (SIM_FAST) by default; chosen, as
     * the grid, when the simulation is made (FLUID_SIM_FAST overrides). DFSPH keeps the plain ones:
     * with the fast kernels and its persistent solve the H100's still pool gained 0.135% energy in
     * 700 steps (test_sim_scenes' bound: 0.1%; either change alone passes) for 1-3% of a step. */
    bool fast_kernels;
    /* Threads that share a particle in the neighbour passes on a GPU (SIM_LANES; llvmpipe takes 1,
     * FLUID_SIM_LANES overrides): 4 up to lanes4_upto particles, 2 up to lanes2_upto, 1 above;
     * chosen, as the grid, when the simulation is made (measured on the H100, docs/BENCHMARKS.md). */
    uint32_t lanes4_upto, lanes2_upto;
    void *(*make)(const sim_solver_make_desc *desc, char *err);
    void (*destroy)(void *impl);
    /* New particles or a switch to this solver: the search has run (nothing reordered); make the
     * densities valid and forget any state of earlier steps. */
    void (*prime)(void *impl, sim_particles *p, const sim_search *q);
    /* The step slots of the next frame (at least 1) for `seconds` of simulated time; `substeps` > 0:
     * exactly that many equal steps; seconds 0: one step of the solver's own size. */
    int (*frame_begin)(void *impl, double seconds, int substeps);
    /* Optional: the gate of the search before the next step (sim_search_run; false: none). */
    bool (*search_gate)(void *impl, sort_gate *out);
    /* A step; its last pass may make the next search's hash (search.h), hence q not const. */
    void (*step)(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first_stage);
    void (*frame_end)(void *impl);
    /* Hands the records of finished steps to the sink it was made with (oldest first; a solver may
     * also hand them over as it learns them, in frame_begin/frame_end); `wait`: wait for every
     * step issued. It keeps no records of its own beyond the GPU's. */
    void (*poll)(void *impl, bool wait);
    /* Iteration pairs (two dispatches each, indirect, empty once the solve has converged) that each
     * step of the frame under way records; NULL for a solver without them. */
    uint32_t (*pairs)(void *impl);
    /* Seconds asked for that the steps have not simulated yet (waits for the GPU); NULL for a
     * solver whose frames always finish. A frame_begin with seconds < 0 then runs a catch-up frame
     * for -seconds owed, adding no new time (sim_catch_up). */
    double (*owed)(void *impl);
    const struct sim_solver_test_hooks *test; /* what only the tests call (solver_test.h) */
} sim_solver;

/* The registry (src/sim/solvers.c, one line a solver). */
extern const sim_solver *const sim_solvers[];        /* NULL-terminated; the first is the default */
const sim_solver *sim_solver_find(const char *name); /* NULL if unknown */
int sim_solver_index(const sim_solver *solver);      /* its place in sim_solvers[], -1 if not there */
const char *sim_solver_names(void);                  /* "dfsph, wcsph": every name, for messages */

#endif
