/* dfsph: the DFSPH solver's own desc, what a caller may set (sim_desc.solver_descs):
 *
 *   sim_make(&(sim_desc){ .solver = "dfsph", .solver_descs = (const sim_solver_desc[]){
 *                {&sim_solver_dfsph, &(dfsph_desc){ .strict = true }}, {0} } }, caps, err);
 *
 * Zero means default. A field left zero takes its FLUID_* variable when set (read once, at
 * sim_make, through core/env.h's table; a bad value fails sim_make with a one-line error naming
 * the variable and its range), else its default. Where 0 is itself a value (no slack, the indirect
 * path, index lists), set DFSPH_ZERO. The solver itself: src/sim/dfsph/dfsph.c; its parameters:
 * dfsph_params.h.
 */
#ifndef FLUID_DFSPH_H
#define FLUID_DFSPH_H
#include "sim/solver.h"
#include <stdbool.h>

#define DFSPH_ZERO (-1) /* an int field's explicit 0 (0 itself means the default) */

typedef struct dfsph_desc {
    bool strict;    /* mean density error 0.01% (SPlisHSPlasH's default) instead of 0.05% (--strict) */
    float dt_max;   /* the largest step, s, 1e-6..0.1; 0: min(2 * 0.125 hs^2 / nu, 0.005) where the rest's rules hold
                     * (`rest`), min(0.125 hs^2 / nu, 0.005) elsewhere; above the viscosity's bound, the viscosity in
                     * half-steps, up to twice it (FLUID_DT_MAX); the depth bound may hold a step shorter, at every
                     * count (docs/SPH.md) */
    int slack;      /* empty (update, predict) pairs recorded past a solve's cap, 0..99; 0: 1 (FLUID_DFSPH_SLACK) */
    int spare;      /* spare step slots a frame issues past its CFL estimate while the flow moves, 0..8 (DFSPH_ZERO for
                     * 0); 0: 1 (FLUID_DFSPH_SPARE) */
    int history;    /* frames of iteration records the caps look at, 1..4; 0: 4 (FLUID_DFSPH_HISTORY) */
    int records;    /* neighbour lists of 16-byte records (1) or indices (DFSPH_ZERO); 0: records where they fit 40 MB
                     * (FLUID_DFSPH_RECORDS) */
    int persistent; /* groups of the persistent solve, 1..65535, DFSPH_ZERO: the indirect path; 0: 4 an SM on NVIDIA (where
                     * the lists hold indices, the indirect path's tail alone: `tail`) (FLUID_DFSPH_PERSISTENT) */
    int warm_sph;   /* 1: SPlisHSPlasH's pressure warm start; 0: off (FLUID_DFSPH_WARM_SPH) */
    int grid_form;  /* the persistent grid barrier: 1 one word (the default), DFSPH_ZERO the first form (FLUID_DFSPH_GRID_FORM) */
    int prefetch;   /* 1: the walks load the next list entry ahead; 2..8: that many entries at a time; DFSPH_ZERO: one
                     * at a time; 0: with index lists at one lane a particle 8 in the non-pressure pass and 1 in the
                     * rest, 1 at more lanes, none with records (FLUID_DFSPH_PREFETCH) */
    int momentum;   /* 1: the pressure solve's iterations take momentum (half the last value again while compressed:
                     * fewer iterations), DFSPH_ZERO: plain; 0: momentum up to 262,144 particles (FLUID_DFSPH_MOMENTUM;
                     * docs/SPH.md) */
    int fused;      /* where the persistent solve runs: 1 the whole step one dispatch (the default), DFSPH_ZERO each
                     * solve alone, 2 the fused step reading positions coherent (FLUID_DFSPH_FUSED) */
    int coarse;     /* 1: the pressure solve's coarse level (one correction of the pool's depth-long mode after its
                     * first predict: fewer iterations at rest), DFSPH_ZERO: none; 0: where momentum is on
                     * (FLUID_DFSPH_COARSE; docs/SPH.md) */
    int tail;       /* the indirect path's persistent tail: the (update, predict) pairs a solve records before a
                     * persistent dispatch runs its rest, 1..99 (DFSPH_ZERO: none; every iteration in the tail); 0: the
                     * pairs all but 1 in 8 recent solves needed, by default on NVIDIA where the lists hold indices up
                     * to 262,144 particles. Set, the tail runs wherever the persistent grid does (FLUID_DFSPH_TAIL) */
    int rest;       /* the rest's rules (the pressure iterations' momentum and the coarse level by default, steps past
                     * the viscosity's bound in half-steps, the persistent tail by default): 1 on, DFSPH_ZERO off; 0: up
                     * to 262,144 particles (tests: the large counts' rules at a small count) */
    int debt_share; /* a frame's budget on the GPU: its own time and 1/N of what earlier frames could not finish,
                     * 1..64; 0: 16 above 589,824 particles, else 1 (all at once) (FLUID_DFSPH_DEBT_SHARE) */
    int fold;       /* the non-pressure walk in the density pass's (docs/SPH.md, "The folded walk"): DFSPH_ZERO off; 0:
                     * where a particle has one lane, the lists hold indices and no fused step runs (tests: the
                     * pass's own walk there, to compare with the fused step) */
} dfsph_desc;

extern const sim_solver sim_solver_dfsph;

#endif
