/* dfsph_layout: the DFSPH buffers that C and GLSL both read, in their own header so that
 * tests/test_layout.c can hold them against the shaders through GL reflection.
 *
 *   dfsph_gpu_params  twin of the std140 block DfsphParams in shaders/sim/dfsph/dfsph_common.glsl:
 *                 the solver's own parameters, at the solver's uniform binding (SIM_UBO_SOLVER)
 *   DFSPH_B_*     its buffers' binding points, in the range the solver owns (SIM_B_SOLVER ..,
 *                 sim_params.h), given to its shaders as B_* #defines (DFSPH_SHADER_CONSTANTS)
 *   dfsph_ctl     twin of the std430 block Ctl in shaders/sim/dfsph/dfsph_common.glsl
 *   dfsph_record  twin of struct Record in shaders/sim/dfsph/integrate_pass.glsl (std430, stride 64)
 *   dfsph_nbr_rec twin of struct NbrRec in shaders/sim/dfsph/dfsph_common.glsl: one entry of a
 *                 neighbour list when the lists hold records (DFSPH_REC 1; dfsph.c sizes them 16)
 *
 * A member added on one side only, or two swapped, fails test_layout: add it to both structs and
 * as one MEMBER(...) line of the matching table in tests/test_layout.c.
 */
#ifndef FLUID_DFSPH_LAYOUT_H
#define FLUID_DFSPH_LAYOUT_H
#include "sim/sim_params.h"
#include <stddef.h>
#include <stdint.h>

/* The fused step's phases its records measure: density, divergence, nonpressure, pressure,
 * integrate (its stages, dfsph.c; the 5 of Ctl.clk and Record's clk_* in its shaders). */
#define DFSPH_PHASES 5

/* DFSPH's buffers, in the solver's binding range; twins: B_* in its shaders. */
#define DFSPH_B_KAPPA (SIM_B_SOLVER + 1)     /* with records, the values k of the solve under way
                                              * (else in pos.w: dfsph_common.glsl's DFSPH_K) */
#define DFSPH_B_CTL (SIM_B_SOLVER + 2)       /* the GPU-side control block (indirect args, dt, reductions) */
#define DFSPH_B_RECORDS (SIM_B_SOLVER + 3)   /* one record per step, read back a few frames late */
#define DFSPH_B_NBR (SIM_B_SOLVER + 4)       /* each lane's neighbour list of the step ({m grad W_ij, j} records) */
#define DFSPH_B_NBR_COUNT (SIM_B_SOLVER + 5) /* the length of each lane's list */
#define DFSPH_B_WALL (SIM_B_SOLVER + 6)      /* per particle, the step's: the factor 1 / (the solver's stiffness
                                              * denominator) and the walls' kernel gradient */
_Static_assert(DFSPH_B_WALL < SIM_B_SOLVER + SIM_B_SOLVER_COUNT, "DFSPH's buffers fit the solver's binding range");
/* clang-format off */
#define DFSPH_SHADER_CONSTANTS(X)                                                                  \
    X(B_KAPPA, DFSPH_B_KAPPA) X(B_CTL, DFSPH_B_CTL)                                                \
    X(B_RECORDS, DFSPH_B_RECORDS) X(B_NBR, DFSPH_B_NBR) X(B_NBR_COUNT, DFSPH_B_NBR_COUNT)          \
    X(B_WALL, DFSPH_B_WALL)
/* clang-format on */
/* "#define B_KAPPA 15\n..." for every line of DFSPH_SHADER_CONSTANTS (dfsph_params.c). */
void dfsph_shader_defines(char *out, size_t len);

/* DFSPH's own uniform block (std140: nine 4-byte scalars and padding). */
typedef struct dfsph_gpu_params {
    float dt_max;               /* the largest step, seconds */
    float dt_min;               /* the smallest step, seconds */
    float cfl;                  /* dt = cfl * dx / v_max (0.4 in SPlisHSPlasH's units of the diameter) */
    float eta_density;          /* mean density error allowed, relative (0.0005: 0.05%) */
    float eta_divergence;       /* mean density change over one step from the divergence, relative */
    uint32_t min_it_density;    /* at least this many pressure iterations */
    uint32_t min_it_divergence; /* at least this many divergence iterations */
    uint32_t min_neighbours;    /* fewer: the divergence solve leaves the particle alone (free surface) */
    float dt_visc;              /* the explicit viscosity's bound: a longer step takes it in two half-steps */
    float dt_press;             /* sqrt(K dx^3): the depth bound, dt <= dt_press / (sqrt(g) H) (0: none) */
    uint32_t tail_groups;       /* the indirect path's persistent tail's grid at most (0: no tail; dfsph_tail_grid) */
    uint32_t debt_share;        /* a frame's budget: its own time and 1 / debt_share of what earlier frames owed (Ctl.t_frame) */
} dfsph_gpu_params;
_Static_assert(sizeof(dfsph_gpu_params) == 48, "DfsphParams is three vec4s");

/* The GPU's control block: indirect arguments, the step size, the reductions. */
typedef struct dfsph_ctl {
    uint32_t args_div[4], args_dens[4];
    uint32_t args_step[4]; /* groups of a step's passes: 0 in the empty slots after the frame's time */
    uint32_t args_coarse[4], args_coarse_apply[4]; /* the pressure solve's coarse level's next passes (0: it does not follow) */
    uint32_t args_tail[4]; /* the indirect path's persistent tail after the solve under way's recorded pairs (0: it stopped) */
    uint32_t args_np[4];   /* the folded non-pressure pass: where the divergence solve iterated, else 0 (density.comp) */
    uint32_t t_rem;        /* the frame's time left, in ticks of DFSPH_TICK seconds */
    uint32_t steps_left;
    float dt, dt_cfl;
    uint32_t done, iter, it_div, it_dens;
    float err_div, err_dens;
    uint32_t capped, step, cap_div, cap_dens;
    float v_post;
    uint32_t dropped, limited;
    uint32_t bar_count, bar_gen, stalled; /* the persistent solve's grid barrier (solve.comp) */
    uint32_t mode;                        /* DFSPH_MODE_*: how a step's dt is chosen */
    uint32_t idle;                        /* 1 once the frame's time is used: the slots left run empty */
    uint32_t dt_ticks;                    /* this step's dt in ticks */
    uint32_t clk[DFSPH_PHASES];           /* the fused step's phases in shader-clock cycles (0: not measured) */
    float dt_lim; /* the limit the step was held to: dt_cfl (the speeds'), or the depth bound where smaller */
    float depth;  /* the water's depth the last step left: twice the particles' mean height above the floor */
    uint32_t still; /* 1 after a slot that moved nothing (dt 0): the next empty slot skips its density pass */
    uint32_t t_frame; /* the ticks this frame may still take: its own and a share of the debt (debt_share) */
    /* float partial[]: one per work group, in three regions of n_groups_max, then the coarse level's */
} dfsph_ctl;
_Static_assert(offsetof(dfsph_ctl, args_dens) == 16 && offsetof(dfsph_ctl, args_step) == 32 &&
                   offsetof(dfsph_ctl, args_coarse) == 48 && offsetof(dfsph_ctl, args_coarse_apply) == 64 &&
                   offsetof(dfsph_ctl, args_tail) == 80 && offsetof(dfsph_ctl, args_np) == 96 &&
                   offsetof(dfsph_ctl, t_rem) == 112,
               "Ctl's indirect arguments");
_Static_assert(offsetof(dfsph_ctl, done) == 128 && offsetof(dfsph_ctl, cap_div) == 160, "Ctl's scalars");
_Static_assert(sizeof(dfsph_ctl) == 240, "Ctl's partial[] starts at 240");

/* Time on the GPU is counted in ticks of 2^-28 s (3.7 ns), in a uint: a step's dt is a whole
 * number of ticks, so the frame's sum is exact (and, below 2^24 ticks = 62.5 ms, so is dt as a
 * float: the records' dt add up to exactly the time asked for). Twin of DFSPH_TICK in
 * dfsph_common.glsl. */
#define DFSPH_TICK (1.0 / 268435456.0)
/* How a frame's steps are sized (Ctl.mode; twins in dfsph_common.glsl). */
enum {
    DFSPH_MODE_CFL = 0,   /* as few equal steps as the CFL limit allows for the time left */
    DFSPH_MODE_FIXED = 1, /* the time left over the slots left (--substeps K: K equal steps) */
    DFSPH_MODE_FREE = 2,  /* one step of the CFL size, no frame (sim_step) */
};

/* One finished step, as integrate writes it into the ring. */
typedef struct dfsph_record {
    float dt, dt_cfl, cfl, err_div, err_dens; /* dt_cfl: the limit it was held to (Ctl.dt_lim) */
    uint32_t it_div, it_dens, capped, dropped, limited;
    uint32_t t_rem; /* ticks of the frame left after it (dt 0: an empty slot) */
    /* The fused step's phases (density, divergence, nonpressure, pressure, integrate) in cycles of
     * the shader clock of its group 0's multiprocessor, from barrier to barrier; 0: not measured
     * (another path, or no GL_ARB_shader_clock). */
    uint32_t clk[DFSPH_PHASES];
} dfsph_record;
_Static_assert(sizeof(dfsph_record) == 64, "Record is 16 scalars (std430: stride 64)");

/* A neighbour-list record: m grad W_ij and j, so the solve passes evaluate no kernel. */
typedef struct dfsph_nbr_rec {
    float grad[3];
    uint32_t idx;
} dfsph_nbr_rec;
_Static_assert(sizeof(dfsph_nbr_rec) == 16, "NbrRec is a vec3 and a uint (std430: stride 16)");

#endif
