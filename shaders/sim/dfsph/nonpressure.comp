// dfsph non-pressure: the accelerations that are not pressure, as in wcsph: Monaghan's artificial
// viscosity between approaching particles, the no-slip walls (laminar viscosity against ghost
// planes at rest), gravity and the mouse. Then the step size: the largest speed the step could
// reach, |v + a dt| reduced over all particles (and no less than the largest speed the last step's
// pressure solve left, which the prediction alone misses where particles hit), and the last work
// group sets dt_cfl = clamp(cfl dx / v_max, dt_min, dt_max) and the step's dt, in whole ticks of
// the frame's time left (C.mode): the fewest equal steps under dt_cfl that finish it (the last
// step takes exactly what is left), or the time left over the slots left (--substeps), or dt_cfl
// alone (a step outside a frame). Also loads the pressure
// solve's warm start: half the last step's total k (pos.w); DFSPH_WARM_SPH 1: SPlisHSPlasH's form;
// DFSPH_WARM_NP 1 (one lane a particle): also its impulse, summed in this walk, into vstar.
// DFSPH_FOLD 1 (dfsph.c): the walk was the density pass's, which left the viscosity's sum in accel
// and the impulse in vstar (density_pass.glsl); this pass walks no list and writes only the step
// size: the warm update adds what a particle feels alone and takes k from vel.w (solve_fns.glsl).
// It runs only where the divergence solve iterated (Ctl.args_np, dfsph_passes.c); where that
// solve stopped at its first predict, the velocities are the density pass's, which reduced these
// same speeds and sized the step itself (density.comp).
// The pass itself is in nonpressure_pass.glsl (dfsph_nonpressure, dfsph_step_size), which the fused step (step.comp) runs too.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#define DFSPH_NBR_POS pos_r
#define DFSPH_POS_R pos_r
#ifdef DFSPH_PREFETCH_NP // this pass's own (dfsph_common.glsl)
#undef DFSPH_PREFETCH
#define DFSPH_PREFETCH DFSPH_PREFETCH_NP
#endif
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/dfsph/k_out.glsl" // pos (only w: the warm start's k, with index lists), pos_r, kappa
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_NBR) readonly buffer Nbr { DFSPH_NBR_T nbr[]; };
layout(std430, binding = B_NBR_COUNT) readonly buffer NbrCount { uint nbr_count[]; };
layout(std430, binding = B_DENS) readonly buffer Dens { float dens[]; };
#if DFSPH_FOLD // the viscosity's sum the density pass left (nonpressure_pass.glsl)
layout(std430, binding = B_ACCEL) readonly buffer Accel { vec4 accel[]; };
#else
layout(std430, binding = B_ACCEL) writeonly buffer Accel { vec4 accel[]; };
#endif
layout(std430, binding = B_WALL) readonly buffer Wall { vec4 wallg[]; };
#if DFSPH_WARM_NP
layout(std430, binding = B_VEL_OUT) writeonly buffer VelStar { vec4 vstar[]; }; // the warm start's impulse (nonpressure_pass.glsl)
#endif
#include "sim/lanes.glsl"
#include "sim/dfsph/nonpressure_pass.glsl"

void main() {
    float speed = dfsph_nonpressure();
    if (dfsph_reduce_last(speed, true) && gl_LocalInvocationID.x == 0u) dfsph_step_size(s_red[0]);
}
