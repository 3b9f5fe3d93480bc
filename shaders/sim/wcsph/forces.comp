// forces: the acceleration of every particle: symmetric SPH pressure gradient, Monaghan's
// artificial viscosity, gravity, the walls (ghost planes mirroring the particle's own density and
// pressure, at rest for the no-slip viscosity) and the mouse poke.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = B_PTERM) readonly buffer PTerm { vec2 pterm[]; }; // (rho, p / rho^2)
layout(std430, binding = B_ACCEL) writeonly buffer Accel { vec4 accel[]; };
#include "sim/neighbours.glsl"

void main() {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    vec3 xi = live ? pos[i].xyz : vec3(0.0), vi = live ? vel[i].xyz : vec3(0.0);
    vec2 dpi = live ? pterm[i] : vec2(1.0, 0.0);
    float rhoi = dpi.x, pti = dpi.y;
    vec3 kk = sim_kernel_k(P.hs);
    float h2 = P.h * P.h, eps2 = 0.01 * P.hs * P.hs, visc_k = P.alpha * P.c0 * P.hs;
    vec3 a = vec3(0.0);
    float pi = pti * rhoi * rhoi;
    float w0 = sim_w(0.0, P.hs), sum_w = 0.0, sum_pw = 0.0; // Shepard mean of p (the particle itself added below)
    vec3 grad_p = vec3(0.0), moment = vec3(0.0); // sum V_j (p_j - p_i) grad W, diag sum V_j (x_j - x_i) (x) grad W
    // Those four sums serve the walls' terms only, which are zero unless the kernel reaches a ghost
    // plane: sim_wall_g's first plane, at max(d, 0) + dx/2 from the particle, within 2 hs (tested
    // here against 2.0001 hs, so that float rounding can only make a particle sum them for nothing;
    // one that skips them gets exactly the terms it got with them). With one lane a particle only:
    // on the H100 the skip took the forces from 363-365 to 342-345 µs a step at 986,078 and the
    // frame 1.6% at 432,000, but made 2 lanes 3% slower at 109,744 and 4 lanes 23% at 27,648
    // (docs/BENCHMARKS.md, s18).
    bool near_wall = true;
#if SIM_LANES == 1
    near_wall = false;
    for (int ax = 0; ax < 3; ax++)
        near_wall = near_wall || max(xi[ax] - P.lo[ax], 0.0) + 0.5 * P.dx < 2.0001 * P.hs ||
                    max(P.hi[ax] - xi[ax], 0.0) + 0.5 * P.dx < 2.0001 * P.hs;
#endif
    if (live) SIM_NEIGHBOURS_BEGIN(xi, j)
        vec3 d = xi - SIM_NBR_X.xyz;
        float r2 = dot(d, d);
        if (r2 >= h2 || j == i || r2 == 0.0) continue;
        vec2 dpj = pterm[j];
        float rhoj = dpj.x, ptj = dpj.y;
        vec2 wk = sim_pair(r2, P.hs, kk); // W, dW/dr / r
        float w = wk.x;
        vec3 gw = d * wk.y;
        float vr = dot(vi - vel[j].xyz, d);
        float visc = vr < 0.0 ? visc_k * -vr / ((r2 + eps2) * 0.5 * (rhoi + rhoj)) : 0.0;
        a -= (pti + ptj + visc) * gw;
        if (near_wall) {
            float pj = ptj * rhoj * rhoj, vj = P.mass / rhoj;
            sum_w += w;
            sum_pw += pj * w;
            grad_p += vj * (pj - pi) * gw;
            moment -= vj * d * gw;
        }
    SIM_NEIGHBOURS_END
    vec4 s1 = sim_lanes_sum(vec4(a, sum_w)), s2 = sim_lanes_sum(vec4(grad_p, sum_pw)), s3 = sim_lanes_sum(vec4(moment, 0.0));
    if (!live || SIM_LANE != 0u) return;
    a = s1.xyz, sum_w = w0 + s1.w, grad_p = s2.xyz, sum_pw = pi * w0 + s2.w, moment = s3.xyz;
    a *= P.mass;
    // Walls: ghost planes of the particle's density rho_i, whose pressure p_w is the fluid's around
    // it (Shepard mean, as Adami et al. 2012 extrapolate it to their wall particles):
    // -sum_ghosts m_g (p_i / rho_i^2 + p_w / rho_i^2) grad W = -(p_i + p_w) / rho_i grad Phi.
    // The ghosts' pressure also varies along the wall as the fluid's does (a linear
    // extrapolation of the fluid's pressure gradient): along axis a, walls normal to the other
    // axes hold a share Phi_b of the kernel's moment, which the fluid's own sum misses.
    float kw = P.mass / (P.rho0 * P.dx * P.dx);
    vec4 wf = sim_wall_fraction(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx, kw);
    float p_w = sum_pw / sum_w;
    a -= (pi + p_w) / rhoi * wf.yzw;
    vec3 keep = vec3(1.0); // per axis: prod over walls normal to it of (1 - Phi)
    for (int ax = 0; ax < 3; ax++)
        keep[ax] = (1.0 - sim_wall_g(xi[ax] - P.lo[ax], P.hs, P.dx, kw).x) * (1.0 - sim_wall_g(P.hi[ax] - xi[ax], P.hs, P.dx, kw).x);
    vec3 ghost_t = vec3(1.0 - keep.y * keep.z, 1.0 - keep.x * keep.z, 1.0 - keep.x * keep.y);
    a -= ghost_t * (grad_p / max(moment, vec3(0.3))) / rhoi;
    // No-slip walls: Morris's laminar viscosity against the ghost planes, which are at rest:
    // a = 2 nu sum_ghosts V_j (r . grad W) / r^2 v_i, summed over each plane = -4 pi nu k sum_j W(z_j) v_i.
    if (P.wall_friction > 0.0) {
        float ww = 0.0;
        for (int ax = 0; ax < 3; ax++)
            ww += sim_wall_w(xi[ax] - P.lo[ax], P.hs, P.dx) + sim_wall_w(P.hi[ax] - xi[ax], P.hs, P.dx);
        a -= 4.0 * SIM_PI * P.wall_friction * (P.mass / (P.rho0 * P.dx * P.dx)) * ww * vi;
    }
    a += P.gravity.xyz;
    if (P.poke.w > 0.0) {
        vec3 d = xi - P.poke.xyz;
        float r = length(d);
        if (r < P.poke.w && r > 0.0) a += P.poke_strength * (1.0 - r / P.poke.w) * (d / r);
    }
    accel[i] = vec4(a, 0.0);
}
