// dfsph non-pressure: the accelerations that are not pressure, as in wcsph: Monaghan's artificial
// viscosity between approaching particles, the no-slip walls (laminar viscosity against ghost
// planes at rest), gravity and the mouse. Then the step size: the largest speed the step could
// reach, |v + a dt| reduced over all particles (and no less than the largest speed the last step's
// pressure solve left, which the prediction alone misses where particles hit), and the last work
// group sets dt_cfl = clamp(cfl dx / v_max, dt_min, dt_max) and the step's dt, in whole ticks of
// the frame's time left (C.mode): the fewest equal steps under dt_cfl that finish it (the last
// step takes exactly what is left), or the time left over the slots left (--substeps), or dt_cfl
// alone (a step outside a frame). Also loads the pressure
// solve's warm start: half the last step's total k (pos.w); DFSPH_WARM_SPH 1: SPlisHSPlasH's form.
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
layout(std430, binding = B_ACCEL) writeonly buffer Accel { vec4 accel[]; };
layout(std430, binding = B_KAPPA) writeonly buffer Kappa { float kappa[]; };
layout(std430, binding = B_WALL) readonly buffer Wall { vec4 wallg[]; };
#include "sim/lanes.glsl"

void main() {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    float speed = 0.0;
    vec3 xi = live ? pos[i].xyz : vec3(0.0), vi = live ? vel[i].xyz : vec3(0.0);
    float rhoi = live ? dens[i] : 1.0, h2 = P.h * P.h, eps2 = 0.01 * P.hs * P.hs, visc_k = P.alpha * P.c0 * P.hs;
    vec3 a = vec3(0.0), kk = sim_kernel_k(P.hs);
    float drho = 0.0;
    DFSPH_LIST_BEGIN(j, g)
#if DFSPH_WARM_SPH
            drho += dot(vi - vel[j].xyz, g);
#endif
            vec3 d = xi - pos[j].xyz;
            float r2 = dot(d, d);
            float vr = dot(vi - vel[j].xyz, d);
            if (vr >= 0.0) continue;
            a -= visc_k * -vr / ((r2 + eps2) * 0.5 * (rhoi + dens[j])) * sim_pair(r2, P.hs, kk).y * d;
        DFSPH_LIST_END
    vec4 sums = sim_lanes_sum(vec4(a, drho));
    a = sums.xyz;
    if (live && SIM_LANE == 0u) {
        a *= P.mass;
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
#if DFSPH_WARM_SPH
        // SPlisHSPlasH's warm start (TimeStepDFSPH.cpp, USE_WARMSTART): half the last total, as
        // k dt^2 (independent of the step size; the warm update divides by this step's dt^2), at
        // most 0.00025 (never reached here), and 0 where the particle is not being compressed: its
        // predicted density rho + dt Drho/Dt, from the velocities before this step's accelerations
        // (the neighbours' are not known yet; mostly gravity, which cancels in v_i - v_j) and the
        // last step's dt, at most rho0.
        float adv = rhoi + C.dt * (sums.w + P.rho0 * dot(vi + C.dt * a, wallg[i].yzw));
        kappa[i] = adv > P.rho0 ? 0.5 * min(pos[i].w * (C.dt * C.dt), 0.00025) : 0.0;
#else
        kappa[i] = 0.5 * pos[i].w;
#endif
        speed = length(vi + a * C.dt);
    }
    if (dfsph_reduce_last(speed, true) && gl_LocalInvocationID.x == 0u) {
        float dt_cfl = clamp(P.cfl * P.dx / max(max(s_red[0], C.v_post), 1e-9), P.dt_min, P.dt_max);
        C.dt_cfl = dt_cfl;
        // The frame's time left in whole ticks (the frame's first density pass added its share).
        uint rem = C.t_rem, cfl_t = max(uint(dt_cfl / DFSPH_TICK), 1u), dt_t;
        if (C.mode == DFSPH_MODE_FREE) dt_t = cfl_t;
        else if (C.mode == DFSPH_MODE_FIXED) dt_t = rem / max(C.steps_left, 1u); // the last slot takes the rest
        else {
            // As few equal steps as the CFL limit allows (each >= about dt_cfl / 2, never a tiny
            // catch-up step), the last one exactly what is left.
            uint k = rem / cfl_t + (rem % cfl_t != 0u ? 1u : 0u);
            dt_t = k > 1u ? rem / k + (rem % k != 0u ? 1u : 0u) : rem;
        }
        C.t_rem = rem;
        C.dt_ticks = dt_t;
        if (dt_t == 0u) { // nothing left (not reached: a frame always brings time): the rest of the slot runs empty
            C.idle = 1u;
            C.args_step = C.args_dens = C.args_div = uvec4(0u, 1u, 1u, 0u);
        } else C.dt = C.mode == DFSPH_MODE_FREE ? dt_cfl : float(dt_t) * DFSPH_TICK; // a free step: no frame to add up
    }
}
