// dfsph density: rho_i = sum_j m W_ij + rho0 Phi_i (the walls as ghost fluid at rest density), and
// the factor 1 / (|sum_j m grad W_ij + rho0 grad Phi_i|^2 + sum_j |m grad W_ij|^2) that turns a
// density error into the pressure value that removes it (Bender & Koschier's alpha_i / rho_i).
// Also loads the divergence solve's warm start: half the last step's total, as k = kappa / rho.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = B_DENS) writeonly buffer Dens { float dens[]; };
layout(std430, binding = B_FACTOR) writeonly buffer Factor { float factor[]; };
layout(std430, binding = B_KAPPA) writeonly buffer Kappa { float kappa[]; };
#include "sim/neighbours.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= P.n) return;
    vec3 xi = pos[i].xyz;
    float h2 = P.h * P.h, sum_w = 0.0, sum_g2 = 0.0;
    vec3 sum_g = vec3(0.0);
    SIM_NEIGHBOURS_BEGIN(xi, j)
        vec3 d = xi - pos[j].xyz;
        float r2 = dot(d, d);
        if (r2 >= h2) continue;
        float r = sqrt(r2);
        sum_w += sim_w(r, P.hs);
        if (r2 == 0.0) continue;
        vec3 g = P.mass * sim_dw(r, P.hs) / r * d;
        sum_g += g;
        sum_g2 += dot(g, g);
    SIM_NEIGHBOURS_END
    vec4 wall = dfsph_wall(xi);
    sum_g += P.rho0 * wall.yzw;
    float s = dot(sum_g, sum_g) + sum_g2;
    dens[i] = P.mass * sum_w + P.rho0 * wall.x;
    factor[i] = s > 0.0 ? 1.0 / s : 0.0;
    // vel.w: the divergence solve's impulse k dt summed over the last step (reordered with it)
    kappa[i] = C.dt > 0.0 ? 0.5 * vel[i].w / C.dt : 0.0;
}
