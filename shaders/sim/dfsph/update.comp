// dfsph update: the other half of a solver iteration: every particle's velocity takes the
// pressure impulse of the values k = kappa / rho that predict computed,
//   v_i -= dt (sum_j m (k_i + k_j) grad W_ij + k_i rho0 grad Phi_i)
// (symmetric, so the pair impulses conserve momentum; the walls push with the particle's own
// value). The totals of the step are summed for the next step's warm start, carried with the
// particle through the reorder: the divergence solve's impulse k dt in vel.w, the pressure solve's
// k in pos.w.
//   DFSPH_WARM 1: the warm start: the first update of a solve, from the loaded values; the sums
//                 start again. In the pressure solve it also predicts the velocity, v += dt a.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) buffer Vel { vec4 vel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = B_KAPPA) readonly buffer Kappa { float kappa[]; };
layout(std430, binding = B_ACCEL) readonly buffer Accel { vec4 accel[]; };
#include "sim/neighbours.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
#if DFSPH_WARM
    if (i == 0u) C.iter = 0u;
#endif
    if (i >= P.n) return;
    vec3 xi = pos[i].xyz;
    float ki = kappa[i], h2 = P.h * P.h;
    vec3 dv = vec3(0.0);
    SIM_NEIGHBOURS_BEGIN(xi, j)
        vec3 d = xi - pos[j].xyz;
        float r2 = dot(d, d);
        if (r2 >= h2 || r2 == 0.0) continue;
        float r = sqrt(r2);
        dv += (ki + kappa[j]) * (P.mass * sim_dw(r, P.hs) / r) * d;
    SIM_NEIGHBOURS_END
    dv += ki * P.rho0 * dfsph_wall(xi).yzw;
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
