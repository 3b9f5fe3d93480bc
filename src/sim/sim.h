/* sim: an SPH fluid in a box, every stage in GL compute, the neighbour search done by sorting
 * (cell, particle) pairs with the sort library, the pressure by one of the solvers.
 *
 * One step, as stages: the shared neighbour search (hash -> sort -> ranges -> reorder, search.h),
 * then the solver's own (solver.h): wcsph  density -> forces -> integrate;
 *                                   dfsph  density+alpha -> divergence solve -> non-pressure + CFL
 *                                          -> pressure solve -> integrate.
 *
 *   sim *s = sim_make(&(sim_desc){ .scene = "dambreak", .particles = 27648, .sort = sort_algo_find("radix"),
 *                                  .solver = "dfsph" }, caps, err);
 *   each frame:  sim_frame(s, 1.0 / 60, 0, prof);  // 1/60 s of fluid in as many steps as it needs;
 *                                                  // stages timed on its first step (prof may be NULL)
 *   one step:    sim_step(s, NULL);                // the solver's own step size
 *   draw:        sim_positions(s), sim_velocities(s), sim_densities(s), sim_cell_keys(s)
 *   sim_destroy(s);
 *
 * A dfsph step chooses its dt on the GPU, so the CPU learns the steps' sizes, iterations and errors
 * a few frames late (sim_records, sim_summary); sim_sync waits for all of them.
 *
 * Errors: sim_make returns NULL with err for an unknown scene or solver, a particle count
 * past what the GPU holds, or a shader that fails to build.
 */
#ifndef FLUID_SIM_H
#define FLUID_SIM_H
#include "gpu/gpu.h"
#include "gpu/prof.h"
#include "sim/step_record.h" /* sim_step_record */
#include "sim/diffuse.h"     /* sim_diffuse_desc: spray, foam and bubbles */
#include "sort/sort.h"       /* sort_algo: the typed sort a simulation takes */
#include <stdbool.h>
#include <stdint.h>

struct sim_solver;

/* A solver's own desc (dfsph_desc for sim_solver_dfsph: src/sim/dfsph/dfsph.h), kept for that
 * solver whether the simulation starts with it or switches to it later. */
typedef struct sim_solver_desc {
    const struct sim_solver *solver; /* NULL ends a list */
    const void *desc;                /* that solver's desc (NULL: its defaults) */
} sim_solver_desc;

typedef struct sim_desc {
    const char *scene;     /* a name of sim_scenes[] (scene.h); NULL: the first */
    uint32_t particles;    /* 0: the scene's default */
    const sort_algo *sort; /* one of sort_algos[] (sort.h), resolved from its name by the caller (once, at the
                                   * edge: app/session.c); NULL: the first */
    const char *solver;    /* a name of sim_solvers[] (solver.h); NULL: the first */
    uint32_t lanes;        /* threads a particle in the neighbour passes: 1, 2, 4, 8, 16; 0: FLUID_SIM_LANES, else picked */
    uint32_t cells_per_h;  /* grid cells per h: 1 (cells h wide) or 2 (h/2); 0: FLUID_SIM_CELL, else the solver's
                            * pick by count (sim_cells_per_h) */
    int fast;              /* the neighbour passes' kernels with precomputed reciprocals: 1 on, -1 off; 0: FLUID_SIM_FAST,
                            * else the solver's default (sim_solver.fast_kernels) */
    const sim_solver_desc *solver_descs; /* NULL, or solvers' own descs ended by {NULL}; a solver not listed: defaults */
    uint32_t records; /* step records kept for sim_records, 0: SIM_RECORDS (the one ring from the GPU to the stats; past
                       * it the oldest unread are dropped and counted: sim_summary.records_dropped) */
    sim_diffuse_desc diffuse; /* spray, foam and bubbles (diffuse.h), once a frame; zero: none */
} sim_desc;

typedef struct sim sim;

/* The run so far, from every record read. */
/* Since sim_make (or a reset): steps, time, dt_last, dropped, limited, records_dropped. Since the
 * solver now running started (a switch starts them anew, so nothing shown mixes two solvers):
 * solver_steps and the rest. */
typedef struct sim_summary {
    uint64_t steps;
    uint64_t solver_steps;
    double time;                         /* simulated seconds */
    double it_mean[SIM_RECORD_COUNTERS]; /* the solver's iteration counts a step, by sim_counter_name */
    double err_density_mean, err_density_max;
    double cfl_max; /* the largest |v| dt / dx of any step */
    double dt_last;
    uint64_t capped;
    uint64_t dropped;
    uint64_t limited;
    uint64_t frames_short;    /* frames whose step slots ran out before their time (carried over) */
    uint64_t records_dropped; /* records sim_records never returned: the ring was full (none are dropped silently) */
    /* The solver's stages measured inside its one-dispatch step (sim_step_record.phase_cycles):
     * shader-clock cycles a step, the mean of the recent steps that measured them (each new one
     * weighs 1/64, the first 64 alike); phase_steps: how many did (0: none, the HUD shows the
     * sampled per-stage step alone). */
    double phase_cycles[SIM_RECORD_PHASES];
    uint64_t phase_steps;
    uint64_t phase_last; /* `steps` when the last step that measured them ended */
} sim_summary;

/* Dispatches recorded for the steps (the count the program keeps, sim_dispatch_count in
 * particles.h: the same on every driver; an indirect dispatch counts even where the GPU finds it
 * empty). `pairs`: of the last step's, the solver's iteration pairs of two dispatches each (dfsph:
 * the (update, predict) pairs recorded for its two solves; wcsph: none), so a step whose solves
 * record exactly a and b iterations takes last - 2 pairs + 2 (a + b) dispatches. */
typedef struct sim_dispatches {
    uint32_t last, pairs;  /* the last step's dispatches and its iteration pairs */
    uint64_t total, steps; /* over every step issued since sim_make */
} sim_dispatches;
void sim_get_dispatches(const sim *s, sim_dispatches *out);
/* sim_frame_begin's calls since sim_make (sim_step's and sim_frame's included): the numbering of
 * sim_step_record.frame. */
uint32_t sim_frames_begun(const sim *s);
/* One frame's counts (sim_frame_tally). */
typedef struct sim_frame_counts {
    uint32_t steps;    /* its steps, as the records that name it count them (sim_step_record.frame) */
    uint32_t slots;    /* the step slots it issued (sim_frame_step's calls; DFSPH's past its time run empty) */
    double iterations; /* the solver's iterations in those steps, every counter's */
    bool timed;        /* a frame of fluid time (sim_frame_begin's seconds > 0): not one step, not a catch-up */
} sim_frame_counts;
/* Frame `frame`'s counts (frame: sim_frames_begun's count at its sim_frame_begin). Returns 1 when
 * its records are all in (its solver said so, a record of a later frame came, or sim_sync ran
 * since: DFSPH's come two or three frames late, WCSPH's one), 0 while some may still come (the
 * steps so far), -1 where the frame is not kept (more than 64 frames ago, or not begun). The HUD's
 * steps a frame and the trace's counters (app/session). */
int sim_frame_tally(const sim *s, uint32_t frame, sim_frame_counts *out);

sim *sim_make(const sim_desc *desc, const gpu_caps *caps, char *err);
/* The width in bits of the cell keys sim_make's search would sort for SCENE at about PARTICLES
 * with SOLVER (its default grid, FLUID_SIM_CELL included), on the CPU: so that a command can refuse a
 * sort that cannot take them (sort_algo_max_bits) before any GPU work. */
bool sim_key_bits_for(const char *scene, uint64_t particles, const struct sim_solver *solver, uint32_t *bits, char *err);
void sim_destroy(sim *s);

/* `seconds` of simulated time in as many steps as the solver needs (substeps > 0: exactly that
 * many equal steps, 1 to SIM_MAX_SUBSTEPS (step_record.h), whatever the solver's own step bound); the stages of
 * the first step are timed (prof may be NULL). Returns the step slots issued: dfsph issues spare
 * slots that run empty once the frame's time is used (they leave no record), and a frame whose
 * slots run out before its time does carries the rest to the next (its last record says
 * short_frame; sim_catch_up finishes it); dfsph's frames pay such a debt at 1/16 a frame above
 * 589,824 particles (dfsph.c). The frames' records add up to their seconds within 1e-6 relative
 * after sim_catch_up (sim_summary.time). */
int sim_frame(sim *s, double seconds, int substeps, gpu_prof *prof);
/* The same in pieces, for callers that look between steps: begin returns the steps. */
int sim_frame_begin(sim *s, double seconds, int substeps);
void sim_frame_step(sim *s, gpu_prof *prof);
void sim_frame_end(sim *s);
/* One step of the solver's own size (dfsph: the CFL step, at most its dt_max). */
void sim_step(sim *s, gpu_prof *prof);
void sim_sync(sim *s); /* waits for the GPU: every step's record is read */
/* The end of a run: simulates what earlier frames could not finish (waits for the GPU), so the
 * records add up to the seconds asked for. Returns the slots issued (0: nothing was owed). */
int sim_catch_up(sim *s, gpu_prof *prof);
/* Records read since the last call (oldest first), at most max; never waits. They wait in one ring
 * of sim_desc.records (SIM_RECORDS by default): read them at least that often, or the oldest are
 * dropped, counted in sim_summary.records_dropped. */
#define SIM_RECORDS 8192
int sim_records(sim *s, sim_step_record *out, int max);
void sim_get_summary(const sim *s, sim_summary *out);

void sim_reset(sim *s);                                      /* back to the scene's initial state */
/* Right after sim_make: two steps (one as most steps run, one sampled: DFSPH's fused step and its
 * per-stage passes), then sim_reset, so every program a step dispatches has been dispatched once
 * before the first timed frame (a driver may build a program's machine code at its first dispatch:
 * llvmpipe does) and the run starts from the scene's initial state as if none had run. */
void sim_warm(sim *s);
bool sim_set_sort(sim *s, const sort_algo *algo, char *err); /* between steps; the fluid is kept */
bool sim_set_solver(sim *s, const char *name, char *err);    /* between steps; the fluid is kept */
const char *sim_sort_name(const sim *s);
const sort_algo *sim_sort(const sim *s);
const char *sim_solver_name(const sim *s);
const char *sim_scene_name(const sim *s);
uint32_t sim_particle_count(const sim *s);
double sim_time(const sim *s);                           /* simulated seconds of the records read */
float sim_dt(const sim *s);                              /* wcsph: its step; dfsph: the last read */
void sim_domain(const sim *s, float lo[3], float hi[3]); /* the tank, metres */
float sim_particle_radius(const sim *s);                 /* half the initial spacing, metres */
float sim_sound_speed(const sim *s);                     /* wcsph's c0 (dfsph: its viscosity's), m/s */
/* The iteration counts the solver's records carry (sim_step_record.it[], sim_summary.it_mean[]):
 * dfsph "divergence", "pressure"; wcsph none. */
int sim_counter_count(const sim *s);
const char *sim_counter_name(const sim *s, int i);
/* Stages timed by the profiler: the search's, then the solver's. */
int sim_stage_count(const sim *s);
/* The steps after which the summary's phases no longer stand for what runs (the path that measured
 * them stopped: the persistent path's stall fallback); a sampled step (per stage) comes once in
 * 4 frames, so a fused path measures far more often. */
#define SIM_PHASES_RECENT 64
/* The solver's stages its records measure as phases of one dispatch (sim_step_record.phase_cycles,
 * its stages after the search's, in order): their count where one of the last SIM_PHASES_RECENT
 * steps measured them, else 0. */
int sim_phase_count(const sim *s);
const char *sim_stage_name(const sim *s, int stage);
/* Where a timed step runs another path than the others (a fused step timed per stage), what the
 * others run; NULL where a timed step is like any other (solver.h's stage_note). */
const char *sim_stage_note(const sim *s);
/* The compare mode (sim/compare.h): each frame's first step's keys sorted by every sort of the
 * registry too, checked against the driving sort's result and timed; the fluid is unchanged.
 * desc NULL: off. False with err when a buffer or shader cannot be made (the mode stays as it was). */
struct sim_compare_desc;
struct sim_compare;
bool sim_set_compare(sim *s, const struct sim_compare_desc *desc, char *err);
struct sim_compare *sim_get_compare(const sim *s); /* NULL: off */
/* The compare mode's work for the frame just simulated: the other sorts, the checks, their times
 * (nothing when off). Call it after sim_frame (or sim_frame_end), outside the frame's own timing. */
void sim_run_compare(sim *s);
/* The driving sort's path (sort_path): equal strings, the same dispatches (Tab names it). */
void sim_sort_path(const sim *s, char *out, size_t len);
/* The most particles this GPU can simulate (buffer and dispatch limits). */
uint64_t sim_max_particles(const gpu_caps *caps);

/* Buffers in the current particle order (they change every step: read them after a step). */
GLuint sim_positions(const sim *s);  /* vec4 per particle: xyz metres */
GLuint sim_velocities(const sim *s); /* vec4 per particle: xyz m/s */
GLuint sim_densities(const sim *s);  /* float per particle: kg/m^3 */
GLuint sim_cell_keys(const sim *s);  /* uint per particle: its grid cell */
/* The cell table of the last search (search.h: starts per cell, the current order) and its grid,
 * for the renderer's neighbour walks (the surface's ellipsoids). */
typedef struct sim_grid {
    GLuint ranges;     /* uint per cell key + 1 */
    float lo[3], cell; /* the grid's corner and cell size, metres */
    uint32_t dims[3];
    uint32_t keys;     /* the cells' keys in all (the cells padded to whole bricks): ranges holds keys + 1 */
    uint32_t brick[4]; /* the cell order: log2 of the bricks' cells along x, y, z (grid.glsl); w 0 */
    float h;           /* the kernel's support, metres */
} sim_grid;
void sim_get_grid(const sim *s, sim_grid *g);
/* The diffuse particles (diffuse.h; all zero where sim_desc.diffuse.on was not set): the buffers
 * the renderer draws, and their counts (wait: the last frame's, waiting for the GPU; else the
 * newest the GPU has finished, known false before the first; false where there are none). Switched
 * off, they are neither simulated nor drawn, and start again from none. */
void sim_get_diffuse(const sim *s, sim_diffuse_view *out);
bool sim_read_diffuse(const sim *s, sim_diffuse_counts *out, bool wait);
void sim_set_diffuse_shown(sim *s, bool on);

/* Mouse interaction: push (strength > 0) or pull (< 0) particles within radius of a point. Applies
 * to the next frame or step. */
void sim_poke(sim *s, const float point[3], float radius, float strength);

/* The scenes and solvers are registries: sim_scenes[] (scene.h) and sim_solvers[] (solver.h). */

/* The whole state read back, each array indexed by the particle's original index (its place in
 * the scene's initial layout), so two runs can be compared row by row. Any pointer may be NULL.
 * pos4/vel4: 4 floats per particle. Waits for the GPU. False (nothing written) where the ids read
 * back are not a permutation of 0..n-1 (out of range or repeated: a particle lost). */
bool sim_read_particles(sim *s, float *pos4, float *vel4, float *density);
/* The same for an output: also every value finite; else false and a one-line error in `err`. */
bool sim_read_checked(sim *s, float *pos4, float *vel4, float *density, char *err);

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
