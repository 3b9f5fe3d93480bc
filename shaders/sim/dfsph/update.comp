// dfsph update: the other half of a solver iteration: every particle's velocity takes the
// pressure impulse of the values k = kappa / rho that predict computed,
//   v_i -= dt (sum_j m (k_i + k_j) grad W_ij + 2 k_i rho0 grad Phi_i)
// (symmetric, so the pair impulses conserve momentum; the walls' ghosts mirror the particle, its
// value on both sides, as wcsph's walls mirror its pressure; grad Phi kept by the density pass).
// The totals of the step are summed for the next step's warm start, carried with the particle
// through the reorder: the divergence solve's impulse k dt in vel.w, the pressure solve's k in
// pos.w.
//   DFSPH_WARM 1: the warm start: the first update of a solve, from the loaded values; the sums
//                 start again. In the pressure solve it also predicts the velocity, v += dt a.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) buffer Vel { vec4 vel[]; };
layout(std430, binding = B_NBR) readonly buffer Nbr { DFSPH_NBR_T nbr[]; };
layout(std430, binding = B_WALL) readonly buffer Wall { vec4 wallg[]; };
layout(std430, binding = B_NBR_COUNT) readonly buffer NbrCount { uint nbr_count[]; };
layout(std430, binding = B_KAPPA) readonly buffer Kappa { float kappa[]; };
layout(std430, binding = B_ACCEL) readonly buffer Accel { vec4 accel[]; };
#include "sim/lanes.glsl"

void main() {
    uint i = SIM_PARTICLE;
#if DFSPH_WARM
    if (gl_GlobalInvocationID.x == 0u) C.iter = 0u;
#endif
    bool live = i < P.n;
    vec3 xi = live ? pos[i].xyz : vec3(0.0);
    float ki = live ? kappa[i] : 0.0;
    vec3 dv = vec3(0.0);
    DFSPH_LIST_BEGIN(j, g)
        dv += (ki + kappa[j]) * g;
    DFSPH_LIST_END
    dv = sim_lanes_sum(vec4(dv, 0.0)).xyz;
    if (!live || SIM_LANE != 0u) return;
    dv += 2.0 * ki * P.rho0 * wallg[i].yzw; // the wall as a mirrored ghost of the same pressure
    float dt = C.dt;
    vec4 v = vel[i];
#if DFSPH_DENSITY
#if DFSPH_WARM
    v.xyz += dt * accel[i].xyz;
    pos[i].w = ki;
#else
    pos[i].w += ki; // only this thread writes pos[i].w; the others read pos[i].xyz
#endif
#else
#if DFSPH_WARM
    v.w = ki * dt;
#else
    v.w += ki * dt;
#endif
#endif
    v.xyz -= dt * dv;
    vel[i] = v;
}
