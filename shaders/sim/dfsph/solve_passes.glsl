// The two halves of a DFSPH solver iteration, as functions of the thread's index SIM_GID: the
// indirect path runs each as its own dispatch (update.comp, predict.comp), the persistent solve
// (solve.comp) runs both in one dispatch with a grid-wide barrier between them. The same code in
// both, so the two paths compute the same values in the same order.
//   DFSPH_DENSITY 1: the pressure (constant-density) solve; 0: the divergence solve.
//   DFSPH_Q_POS, DFSPH_Q_VEL, DFSPH_Q_KAPPA (with records): the buffers' qualifiers: `coherent` in the persistent
//   solve (other groups' writes are read after the grid barrier, in the same dispatch); readonly
//   or writeonly in the indirect passes (update.comp, predict.comp), where they let the driver
//   read through its non-coherent cache (without them the step was slower; docs/BENCHMARKS.md).
//   DFSPH_Q_NBR, DFSPH_Q_WALL, DFSPH_Q_NBR_COUNT, DFSPH_Q_DENS, DFSPH_Q_ACCEL: readonly but in
//   the fused step (step.comp), which writes them too. vstar (the viscosity's half-steps,
//   solve_fns.glsl) is read and written by each particle's own thread.
//   DFSPH_ONLY_PREDICT, DFSPH_ONLY_UPDATE: one of the two passes alone (for those qualifiers).
// The functions are in solve_fns.glsl (no include guard: step.comp includes it a second time,
// for the other solve, under other names).
#ifndef FLUID_SIM_DFSPH_SOLVE_PASSES_GLSL
#define FLUID_SIM_DFSPH_SOLVE_PASSES_GLSL
#ifndef DFSPH_Q_POS
#define DFSPH_Q_POS
#endif
#ifndef DFSPH_Q_VEL
#define DFSPH_Q_VEL
#endif
#ifndef DFSPH_Q_KAPPA
#define DFSPH_Q_KAPPA
#endif
#ifndef DFSPH_Q_NBR
#define DFSPH_Q_NBR readonly
#endif
#ifndef DFSPH_Q_WALL
#define DFSPH_Q_WALL readonly
#endif
#ifndef DFSPH_Q_NBR_COUNT
#define DFSPH_Q_NBR_COUNT readonly
#endif
#ifndef DFSPH_Q_DENS
#define DFSPH_Q_DENS readonly
#endif
#ifndef DFSPH_Q_ACCEL
#define DFSPH_Q_ACCEL readonly
#endif
layout(std430, binding = B_POS_IN) DFSPH_Q_POS buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) DFSPH_Q_VEL buffer Vel { vec4 vel[]; };
layout(std430, binding = B_NBR) DFSPH_Q_NBR buffer Nbr { DFSPH_NBR_T nbr[]; };
layout(std430, binding = B_WALL) DFSPH_Q_WALL buffer Wall { vec4 wallg[]; };
layout(std430, binding = B_NBR_COUNT) DFSPH_Q_NBR_COUNT buffer NbrCount { uint nbr_count[]; };
layout(std430, binding = B_DENS) DFSPH_Q_DENS buffer Dens { float dens[]; };
#if DFSPH_VISC_SPLIT || DFSPH_WARM_NP
// vstar: the warm start's impulse from the non-pressure pass (DFSPH_WARM_NP, nonpressure_pass.glsl),
// and the viscosity's second half-step (solve_fns.glsl)
layout(std430, binding = B_VEL_OUT) buffer VelStar { vec4 vstar[]; };
#endif
#if DFSPH_REC // the values k (DFSPH_K, dfsph_common.glsl; in pos.w where the lists hold indices)
layout(std430, binding = B_KAPPA) DFSPH_Q_KAPPA buffer Kappa { float kappa[]; };
#endif
layout(std430, binding = B_ACCEL) DFSPH_Q_ACCEL buffer Accel { vec4 accel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; }; // the coarse level's layers
#include "sim/lanes.glsl"
#include "sim/dfsph/visc_fns.glsl"
#include "sim/dfsph/solve_fns.glsl"
#endif
