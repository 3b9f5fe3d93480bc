// dfsph viscosity: the step of the non-pressure accelerations, v* = v + dt a, in two half-steps where
// dt passes the explicit viscosity's bound (visc_pass.glsl says how). Runs after the non-pressure
// pass (which set dt), before the pressure solve, whose warm update starts from v*.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_NBR) readonly buffer Nbr { DFSPH_NBR_T nbr[]; };
layout(std430, binding = B_NBR_COUNT) readonly buffer NbrCount { uint nbr_count[]; };
layout(std430, binding = B_DENS) readonly buffer Dens { float dens[]; };
layout(std430, binding = B_ACCEL) readonly buffer Accel { vec4 accel[]; };
layout(std430, binding = B_VEL_OUT) writeonly buffer VelStar { vec4 vstar[]; };
#include "sim/lanes.glsl"
#include "sim/dfsph/visc_pass.glsl"

void main() {
    if (dfsph_visc_split()) dfsph_visc_step();
}
