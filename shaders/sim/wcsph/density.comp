// density: rho_i = sum_j m W(|x_i - x_j|) over the neighbours (self included), completed by the
// walls' mirror share (divided by 1 - Phi, Phi the kernel fraction outside the box); pressure from the Tait equation,
// clamped at 0 (no tension); stores rho, and for the forces p / rho^2 in pos.w and rho in vel.w,
// so that their walk gets both with the position and velocity it loads anyway (the neighbours here
// read the positions' xyz only; forces writes w = 0 into the next positions and velocities).
// Until session 26 the two went to a vec2 array of their own: a third gather a neighbour there.
#version 450
#include "sim/sim_common.glsl"
#ifndef WCSPH_LISTS
#define WCSPH_LISTS 0 // wcsph.c defines it with the lists' WCSPH_* (their cap, stride, bindings)
#endif
#include "sim/kernel.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_POS_IN) writeonly buffer PosW { vec4 pos_w[]; }; // the same buffer: its w
layout(std430, binding = B_VEL_IN) writeonly buffer VelW { vec4 vel_w[]; }; // its w
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = B_DENS) writeonly buffer Dens { float dens[]; };
#if WCSPH_LISTS
// The neighbours for the forces (forces.comp): each lane's, in its walk's order, the first
// WCSPH_LIST_CAP of them (slot-major: entry k of thread t at k * WCSPH_LIST_STRIDE + t), and how
// many there were (more than the cap: the forces walk the cells again).
layout(std430, binding = WCSPH_B_NBR) writeonly buffer Nbr { uint nbr[]; };
layout(std430, binding = WCSPH_B_NBR_COUNT) writeonly buffer NbrCount { uint nbr_count[]; };
#endif
#include "sim/neighbours.glsl"

void main() {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    vec3 xi = live ? pos[i].xyz : vec3(0.0);
    float h2 = P.h * P.h, sum = 0.0;
    vec3 kk = sim_kernel_k(P.hs);
    uint t = SIM_GID, listed = 0u;
    if (live) SIM_NEIGHBOURS_BEGIN(xi, j)
        vec3 d = xi - SIM_NBR_X.xyz;
        float r2 = dot(d, d);
        if (r2 >= h2) continue;
        sum += sim_pair(r2, P.hs, kk).x;
#if WCSPH_LISTS
        if (j != i && r2 != 0.0) { // the forces' pairs (forces.comp)
            if (listed < uint(WCSPH_LIST_CAP)) nbr[listed * uint(WCSPH_LIST_STRIDE) + t] = j;
            listed++;
        }
#endif
    SIM_NEIGHBOURS_END
#if WCSPH_LISTS
    if (t < uint(WCSPH_LIST_STRIDE)) nbr_count[t] = listed;
#endif
    sum = sim_lanes_sum(vec4(sum)).x;
    if (!live || SIM_LANE != 0u) return;
    // The walls mirror the particle: ghost planes of its own density fill the kernel's share Phi
    // beyond the walls, so rho = rho_fluid + rho Phi.
    float phi = sim_wall_fraction(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx, P.mass / (P.rho0 * P.dx * P.dx)).x;
    float rho = P.mass * sum / (1.0 - phi);
    float ratio = rho / P.rho0, r2 = ratio * ratio, r7 = r2 * r2 * r2 * ratio;
    float p = max(P.tait_b * (r7 - 1.0), 0.0);
    dens[i] = rho;
    pos_w[i].w = p / (rho * rho);
    vel_w[i].w = rho;
}
