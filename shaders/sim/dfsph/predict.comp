// dfsph predict: one half of a solver iteration. From the velocities as they are now, the rate of
// change of each particle's density, Drho/Dt = sum_j m (v_i - v_j) . grad W_ij + rho0 v_i . grad Phi_i
// (the walls at rest), and from it
//   DFSPH_DENSITY 1 (pressure solve): rho* = rho + dt Drho/Dt, error (rho* - rho0)+ / rho0,
//                                     k = (rho* - rho0)+ factor / dt^2
//   DFSPH_DENSITY 0 (divergence solve): error (Drho/Dt)+ dt / rho0, k = (Drho/Dt)+ factor / dt,
//                                     0 for a particle with few neighbours (the free surface)
// (only compression: the fluid is never pulled together). The mean error is reduced over the
// whole dispatch, and the last work group decides: converged (at least the minimum iterations and
// the mean error within eta), or capped, or one more iteration: it writes the groups of the next
// update and predict dispatches (0 once done), so no iteration ever waits for the CPU.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_NBR) readonly buffer Nbr { DFSPH_NBR_T nbr[]; };
layout(std430, binding = B_WALL) readonly buffer Wall { vec4 wallg[]; };
layout(std430, binding = B_NBR_COUNT) readonly buffer NbrCount { uint nbr_count[]; };
layout(std430, binding = B_DENS) readonly buffer Dens { float dens[]; };
layout(std430, binding = B_FACTOR) readonly buffer Factor { float factor[]; };
layout(std430, binding = B_KAPPA) writeonly buffer Kappa { float kappa[]; };
#include "sim/lanes.glsl"

void main() {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    float err = 0.0, drho = 0.0, neighbours = 0.0;
    vec3 xi = live ? pos[i].xyz : vec3(0.0), vi = live ? vel[i].xyz : vec3(0.0);
    DFSPH_LIST_BEGIN(j, g)
            drho += dot(vi - vel[j].xyz, g);
            neighbours += 1.0;
        DFSPH_LIST_END
    vec4 sums = sim_lanes_sum(vec4(drho, neighbours, 0.0, 0.0));
    if (live && SIM_LANE == 0u) {
        drho = sums.x + P.rho0 * dot(vi, wallg[i].yzw);
        float dt = C.dt, e;
#if DFSPH_DENSITY
        e = max(dens[i] + dt * drho - P.rho0, 0.0);
        kappa[i] = e * factor[i] / (dt * dt);
#else
        e = sums.y < float(P.min_neighbours) ? 0.0 : max(drho, 0.0) * dt;
        kappa[i] = e * factor[i] / (dt * dt);
#endif
        err = e / P.rho0;
    }
    if (dfsph_reduce_last(err, false) && gl_LocalInvocationID.x == 0u) {
        float mean = s_red[0] / float(P.n);
        uint it = C.iter;
#if DFSPH_DENSITY
        uint cap = C.cap_dens, min_it = P.min_it_density;
        float eta = P.eta_density;
#else
        uint cap = C.cap_div, min_it = P.min_it_divergence;
        float eta = P.eta_divergence;
#endif
        bool converged = it >= min_it && mean <= eta;
        bool more = !converged && it < cap;
        uvec4 args = uvec4(more ? gl_NumWorkGroups.x : 0u, 1u, 1u, 0u);
        if (more) {
            C.iter = it + 1u;
        } else {
            if (!converged) C.capped += 1u;
        }
#if DFSPH_DENSITY
        C.args_dens = args;
        if (!more) { C.it_dens = it; C.err_dens = mean; }
#else
        C.args_div = args;
        if (!more) { C.it_div = it; C.err_div = mean; }
#endif
    }
}
