// forces: the acceleration of every particle: symmetric SPH pressure gradient, Monaghan's
// artificial viscosity, gravity, the walls (ghost planes mirroring the particle's own density and
// pressure, at rest for the no-slip viscosity) and the mouse poke; then the step itself, symplectic
// Euler (v += a dt, then x += v dt) and the hard walls: a centre that ends up closer than `margin`
// to a wall is put back at margin and its velocity into that wall is reversed and scaled by
// `restitution`. The neighbours read the positions and velocities this pass started from, so the
// new ones go to the other buffer of each pair (the one the search's reorder will write next), with
// the ids, and the solver makes that pair the current one. Also the next step's hash
// (hash_emit.glsl), so the search skips that dispatch. Until session 26 the step was a third pass
// of its own (integrate.comp), reading back the acceleration this pass stored.
#version 450
#include "sim/sim_common.glsl"
#ifndef WCSPH_LISTS
#define WCSPH_LISTS 0 // wcsph.c defines it with the lists' WCSPH_* (their cap, stride, bindings)
#endif
#include "sim/kernel.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/search/hash_emit.glsl"
layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; }; // w: p / rho^2 (density.comp)
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; }; // w: rho
layout(std430, binding = B_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = B_POS_OUT) writeonly buffer PosOut { vec4 pos_out[]; };
layout(std430, binding = B_VEL_OUT) writeonly buffer VelOut { vec4 vel_out[]; };
layout(std430, binding = B_ID_OUT) writeonly buffer IdOut { uint id_out[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = B_ACCEL) writeonly buffer Accel { vec4 accel[]; }; // the tests' (solver_test.h)
layout(location = 0) uniform uint u_accel; // 1: write accel (once a test has asked for it)
#if WCSPH_LISTS
// The neighbours density.comp listed, in its walk's order (slot-major: entry k of thread t at
// k * WCSPH_LIST_STRIDE + t), and their count; past WCSPH_LIST_CAP this pass walks the cells again.
layout(std430, binding = WCSPH_B_NBR) readonly buffer Nbr { uint nbr[]; };
layout(std430, binding = WCSPH_B_NBR_COUNT) readonly buffer NbrCount { uint nbr_count[]; };
#endif
#include "sim/neighbours.glsl"

// Particle i's step from xi and vi under the acceleration a, into the other buffers (and the tests' a).
void step_particle(uint i, vec3 xi, vec3 vi, vec3 a) {
    vec3 v = vi + a * P.dt;
    vec3 x = xi + v * P.dt;
    sim_hard_walls(x, v);
    if (u_accel != 0u) accel[i] = vec4(a, 0.0);
    pos_out[i] = vec4(x, 0.0); // w: the solver's; 0 leaves a dfsph switched to afterwards no warm start
    vel_out[i] = vec4(v, 0.0);
    id_out[i] = id_in[i];
    sim_hash_emit(i, x);
}

// This invocation's particle i and its sums over its neighbours (forces_pair adds to them).
vec3 xi, vi, kk;
float rhoi, pti, pi, eps2, visc_k;
bool near_wall;
vec3 a = vec3(0.0);
float sum_w = 0.0, sum_pw = 0.0;             // Shepard mean of p (the particle itself added in main)
vec3 grad_p = vec3(0.0), moment = vec3(0.0); // sum V_j (p_j - p_i) grad W, diag sum V_j (x_j - x_i) (x) grad W

// The pair (i, j) at d = x_i - x_j, r2 = |d|^2 (0 < r2 < h^2), j's p / rho^2 and velocity (w: rho).
void forces_pair(vec3 d, float r2, float ptj, vec4 vj) {
    float rhoj = vj.w;
    vec2 wk = sim_pair(r2, P.hs, kk); // W, dW/dr / r
    float w = wk.x;
    vec3 gw = d * wk.y;
    float vr = dot(vi - vj.xyz, d);
    float visc = vr < 0.0 ? visc_k * -vr / ((r2 + eps2) * 0.5 * (rhoi + rhoj)) : 0.0;
    a -= (pti + ptj + visc) * gw;
    if (near_wall) {
        float pj = ptj * rhoj * rhoj, vj_ = P.mass / rhoj;
        sum_w += w;
        sum_pw += pj * w;
        grad_p += vj_ * (pj - pi) * gw;
        moment -= vj_ * d * gw;
    }
}

void main() {
    sim_hash_begin();
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    vec4 xi4 = live ? pos[i] : vec4(0.0), vi4 = live ? vel[i] : vec4(0.0, 0.0, 0.0, 1.0);
    xi = xi4.xyz, vi = vi4.xyz;
    rhoi = vi4.w, pti = xi4.w;
    kk = sim_kernel_k(P.hs);
    float h2 = P.h * P.h;
    eps2 = 0.01 * P.hs * P.hs, visc_k = P.alpha * P.c0 * P.hs;
    pi = pti * rhoi * rhoi;
    float w0 = sim_w(0.0, P.hs);
    // Those four sums serve the walls' terms only, which are zero unless the kernel reaches a ghost
    // plane (sim_near_walls; one that skips them gets exactly the terms it got with them). With
    // one lane a particle only: on the H100 the skip took the forces from 363-365 to 342-345 µs a
    // step at 986,078 and the frame 1.6% at 432,000, but made 2 lanes 3% slower at 109,744 and 4
    // lanes 23% at 27,648 (docs/BENCHMARKS.md, s18).
    near_wall = SIM_LANES > 1 || sim_near_walls(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx);
#if WCSPH_LISTS
    uint t = SIM_GID, listed = live ? nbr_count[t] : 0u;
    if (listed <= uint(WCSPH_LIST_CAP)) {
        // WCSPH_LIST_BATCH entries at a time: their indices, then their positions and velocities,
        // with no branch between the loads (past the list's end its last entry again), then the
        // pairs in the list's order.
        for (uint b = 0u; b < listed; b += uint(WCSPH_LIST_BATCH)) {
            uint jb[WCSPH_LIST_BATCH];
            vec4 xb[WCSPH_LIST_BATCH], vb[WCSPH_LIST_BATCH];
            for (uint u = 0u; u < uint(WCSPH_LIST_BATCH); u++) jb[u] = nbr[min(b + u, listed - 1u) * uint(WCSPH_LIST_STRIDE) + t];
            for (uint u = 0u; u < uint(WCSPH_LIST_BATCH); u++) xb[u] = pos[jb[u]], vb[u] = vel[jb[u]];
            for (uint u = 0u; u < uint(WCSPH_LIST_BATCH) && b + u < listed; u++) {
                vec3 d = xi - xb[u].xyz;
                forces_pair(d, dot(d, d), xb[u].w, vb[u]);
            }
        }
    } else
#endif
    if (live) SIM_NEIGHBOURS_BEGIN(xi, j)
        vec4 xj = SIM_NBR_X;
        vec3 d = xi - xj.xyz;
        float r2 = dot(d, d);
        if (r2 >= h2 || j == i || r2 == 0.0) continue;
        forces_pair(d, r2, xj.w, vel[j]);
    SIM_NEIGHBOURS_END
    vec4 s1 = sim_lanes_sum(vec4(a, sum_w)), s2 = sim_lanes_sum(vec4(grad_p, sum_pw)), s3 = sim_lanes_sum(vec4(moment, 0.0));
    if (live && SIM_LANE == 0u) {
        a = s1.xyz, sum_w = w0 + s1.w, grad_p = s2.xyz, sum_pw = pi * w0 + s2.w, moment = s3.xyz;
        a *= P.mass;
        // Walls: ghost planes of the particle's density rho_i, whose pressure p_w is the fluid's around
        // it (Shepard mean, as Adami et al. 2012 extrapolate it to their wall particles):
        // -sum_ghosts m_g (p_i / rho_i^2 + p_w / rho_i^2) grad W = -(p_i + p_w) / rho_i grad Phi.
        // The ghosts' pressure also varies along the wall as the fluid's does (a linear
        // extrapolation of the fluid's pressure gradient): along axis a, walls normal to the other
        // axes hold a share Phi_b of the kernel's moment, which the fluid's own sum misses.
        // Both terms are +0 where the kernel reaches no ghost plane (sim_near_walls: the walls'
        // share's gradient and the ghosts' pressure gradient are then +0, and a - 0 = a), so a
        // particle away from the walls skips them: the same bits. (Tested again rather than kept
        // from before the walk: a value held across the walk costs this pass registers.)
        if (sim_near_walls(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx)) {
            float kw = P.mass / (P.rho0 * P.dx * P.dx);
            vec3 keep; // per axis: prod over walls normal to it of (1 - Phi)
            vec4 wf = sim_wall_fraction_keep(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx, kw, keep);
            float p_w = sum_pw / sum_w;
            a -= (pi + p_w) / rhoi * wf.yzw;
            vec3 ghost_t = vec3(1.0 - keep.y * keep.z, 1.0 - keep.x * keep.z, 1.0 - keep.x * keep.y);
            a -= ghost_t * (grad_p / max(moment, vec3(0.3))) / rhoi;
        }
        // No-slip walls: Morris's laminar viscosity against the ghost planes, which are at rest:
        // a = 2 nu sum_ghosts V_j (r . grad W) / r^2 v_i, summed over each plane = -4 pi nu k sum_j W(z_j) v_i.
        if (P.wall_friction > 0.0) {
            float ww = sim_walls_w(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx);
            a -= 4.0 * SIM_PI * P.wall_friction * (P.mass / (P.rho0 * P.dx * P.dx)) * ww * vi;
        }
        a += P.gravity.xyz;
        if (P.poke.w > 0.0) {
            vec3 d = xi - P.poke.xyz;
            float r = length(d);
            if (r < P.poke.w && r > 0.0) a += P.poke_strength * (1.0 - r / P.poke.w) * (d / r);
        }
        step_particle(i, xi, vi, a);
    }
    sim_hash_end();
}
