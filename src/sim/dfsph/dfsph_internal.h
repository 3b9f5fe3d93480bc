/* dfsph_internal: the DFSPH solver's insides, shared by its files (private to src/sim/dfsph/):
 *   dfsph.c             the solver's table, its desc, making, priming, the tests' hooks
 *   dfsph_passes.c      a step as its passes (density, the two solves, non-pressure, integrate)
 *   dfsph_persistent.c  the persistent solve and the fused step (one dispatch a solve / a step)
 *   dfsph_records.c     frames in flight, their fences and records (the GL side of dfsph_frame.h)
 *   dfsph_frame.c       the frame and slot policy, no GL
 *   dfsph_params.c      its parameters (its own uniform block)
 */
#ifndef FLUID_DFSPH_INTERNAL_H
#define FLUID_DFSPH_INTERNAL_H
#include "sim/dfsph/dfsph.h"
#include "sim/dfsph/dfsph_frame.h"
#include "sim/dfsph/dfsph_layout.h"
#include "sim/solver.h"

#define DFSPH_RECORDS 4096 /* step records on the GPU: the frames in flight's, read back into the sim's ring */
_Static_assert((DFSPH_MAX_STEPS * DFSPH_FRAMES) < DFSPH_RECORDS, "the frames in flight fit the record ring");

enum {
    P_DENSITY,
    P_DIV_UPDATE,
    P_DIV_PREDICT,
    P_NONPRESSURE,
    P_DENS_WARM,
    P_DENS_UPDATE,
    P_DENS_PREDICT,
    P_COARSE_SUMS, /* the pressure solve's coarse level (coarse.comp; made only where it runs) */
    P_COARSE_APPLY,
    P_INTEGRATE,
    P_COUNT,
    P_DIV_SOLVE = P_COUNT,
    P_DENS_SOLVE,
    P_DIV_TAIL, /* the indirect path's persistent tail (solve.comp's DFSPH_TAIL; made only where it runs) */
    P_DENS_TAIL,
    P_ALL
};

/* The coarse level's most layers, grid columns (x, z) and rows of cells (y, z) (coarse.glsl; twins of
 * dfsph_common.glsl's): in Ctl's partials after the groups' two regions, two floats a row, one a
 * column, one a layer and two more. */
#define DFSPH_COARSE_MAXY 256u
#define DFSPH_COARSE_MAXC 65536u
#define DFSPH_COARSE_MAXR 65536u
#define DFSPH_COARSE_FLOATS (2 * DFSPH_COARSE_MAXR + DFSPH_COARSE_MAXC + DFSPH_COARSE_MAXY + 2)
/* The coarse level runs after each of the pressure solve's first DFSPH_COARSE_LEVELS predicts, with the
 * momentum DFSPH_COARSE_BETA in its steps, up to DFSPH_COARSE_REPEAT_MAX particles; past it after the
 * first alone, the momentum 0.5 (dfsph.coarse_levels; docs/SPH.md, "The coarse level": 3 measured best
 * of 1, 2 and 3; the dam break at 109,744, on the indirect path, 9% slower with them). */
#define DFSPH_COARSE_LEVELS 3
#define DFSPH_COARSE_BETA "0.3"
#define DFSPH_COARSE_REPEAT_MAX 65536
#define DFSPH_U_PROBE 2 /* step.comp's and solve.comp's probe-mode uniform (probe.glsl) */

typedef struct dfsph_program {
    const char *file, *defines, *label;
} dfsph_program;
extern const dfsph_program dfsph_programs[P_ALL];

typedef struct dfsph {
    dfsph_desc desc; /* resolved: every field set (DFSPH_ZERO for 0) but the automatic ones */
    GLuint prog[P_ALL];
    uint32_t solve_groups; /* the persistent solve's grid (0: the indirect path) */
    uint32_t tail_groups;  /* the indirect path's persistent tail: its grid (0: none; dfsph_passes.c) */
    bool tail_auto;        /* the tail by default with index lists: up to DFSPH_MOMENTUM_MAX particles (dfsph_persistent.c) */
    bool fold;             /* the non-pressure walk rides in the density pass (DFSPH_FOLD, density_pass.glsl) */
    dfsph_path path;       /* the path chosen for the solves (dfsph_path_choose), before the programs are made */
    uint32_t fused;        /* the persistent path runs the whole step as one dispatch (step.comp): 1, 2 its
                            * first form (positions read coherent: fused 2, measuring); 0 not */
    bool step_failed;      /* step.comp did not build: said once, the solves alone run persistent */
    bool phase_clock;      /* step.comp measures its phases (GL_ARB_shader_clock; the records' clk) */
    bool llvmpipe;         /* the driver ends a shader's loops after 65,535 iterations in all (dfsph_persistent.c) */
    GLuint step_prog;      /* step.comp, built with the search's hash (0: none yet) */
    uint32_t step_serial;  /* the sorter it was built for */
    char grid_defines[96]; /* the grid barrier's defines */
    sim_hash_pass integrate_hash; /* integrate making the next step's hash (search.h) */
    char defines[1024];   /* the programs' common defines */
    int coarse;           /* the pressure solve's coarse level runs (coarse.glsl) */
    int coarse_levels;    /* after each of the solve's first coarse_levels predicts (0: none) */
    const sim_params *sp; /* the shared physics (the grid's dims) */
    GLuint kappa, accel, ctl, records, nbr, nbr_count, wall; /* buffers */
    GLuint params;                                           /* its uniform block (dfsph_gpu_params) */
    dfsph_gpu_params gp;
    float dt0;
    uint32_t n_groups_max;
    uint32_t groups_step; /* groups of a step's passes over the particles' lanes (Ctl.args_step) */
    uint32_t rec;         /* bytes a neighbour-list entry: 16 (records) or 4 (indices) */
    dfsph_policy pol;     /* the frame and slot policy (dfsph_frame.h) */
    /* Frames in flight: their fences and the steps they issued. */
    GLsync fence[DFSPH_FRAMES];
    uint32_t frame_steps[DFSPH_FRAMES];
    uint32_t frame_caps[DFSPH_FRAMES][2]; /* the caps each frame recorded (divergence, pressure) */
    uint32_t frame_mode[DFSPH_FRAMES];
    uint32_t frame_no[DFSPH_FRAMES]; /* each pending frame's number (frames_begun when it began): its records' frame */
    uint32_t frames_begun;           /* dfsph_frame_begin's calls, from 1 (sim_step_record.frame) */
    int frames_pending, frame_head;
    uint32_t issued, read;  /* steps issued, steps whose records were read */
    uint32_t frame_issued;  /* steps issued in the frame under way */
    dfsph_frame_plan plan;  /* the frame under way */
    uint32_t frame_vals[4]; /* ticks added to t_rem, the slots, the caps: for the frame's first density pass */
    uint32_t frame_set;     /* 1 + the frame's DFSPH_MODE_* until handed to a density pass, then 0 */
    bool in_frame;
    GLuint rb;                   /* each frame in flight's records and stalled word, copied at its end (DFSPH_RB_SLOT each) */
    const unsigned char *rb_map; /* rb, mapped for the CPU (gpu_readback_make) */
    const sim_record_sink *sink; /* where the steps' records go, as they are read (the sim's ring) */
    bool discard;                /* prime: the records read are not this state's */
} dfsph;

/* dfsph.c */
const char *dfsph_fold_define(const dfsph *d, int prog);

/* dfsph_passes.c */
void dfsph_bind(dfsph *d, const sim_particles *p, const sim_search *q);
void dfsph_ctl_reset(dfsph *d);
GLuint dfsph_integrate_hash(dfsph *d, const sim_search *q);
void dfsph_step(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first);
void dfsph_coarse_run(dfsph *d);
/* dfsph_persistent.c */
bool dfsph_persistent_choose(dfsph *d, const gpu_caps *caps, char *err);
uint32_t dfsph_grid(uint32_t most, uint32_t groups);
void dfsph_grid_dispatch(dfsph *d, GLuint prog, uint32_t most, uint32_t groups, GLbitfield barriers);
GLuint dfsph_step_program(dfsph *d, const sim_search *q);
void dfsph_step_fused(dfsph *d, sim_particles *p, sim_search *q, GLuint prog);
const char *dfsph_stage_note(void *impl);
void dfsph_persistent_probe(dfsph *d);
/* dfsph_records.c */
/* A frame's slot in the read-back buffer: the stalled word, then its records. */
#define DFSPH_RB_RECORDS 16
#define DFSPH_RB_SLOT (DFSPH_RB_RECORDS + DFSPH_MAX_STEPS * sizeof(dfsph_record))
_Static_assert(DFSPH_RB_SLOT % 16 == 0,
               "each frame's records lie 16-byte aligned in the mapping (dfsph_collect reads them in place)");
void dfsph_stall_check(dfsph *d);
void dfsph_collect(dfsph *d, int lag);
int dfsph_frame_begin(void *impl, double seconds, int substeps);
void dfsph_frame_end(void *impl);
void dfsph_poll(void *impl, bool wait);
double dfsph_owed(void *impl);

#endif
