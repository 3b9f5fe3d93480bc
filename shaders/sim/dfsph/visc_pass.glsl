// The step of the non-pressure accelerations as a function of the thread's index SIM_GID, where a
// step may pass the explicit viscosity's bound (dt_max set above it: DFSPH_VISC_SPLIT 1; else the
// pressure solve's warm update adds dt a itself and none of this runs): visc.comp runs it as its
// own dispatch after the non-pressure pass has set the step's dt, the fused step (step.comp) per
// virtual group, both only in a step past the bound (dfsph_visc_split). It writes v* = the velocity
// the pressure solve starts from (vstar, read by the pressure solve's warm update in such a step;
// within the bound, dt <= D.dt_visc = 0.125 hs^2 / nu, the warm update takes v + dt a itself, one
// explicit step as ever):
//   dt above it (at most twice the bound, dfsph_params.c): two explicit half-steps of the same
//     accelerations, u = v + (dt/2) a(v), v* = u + (dt/2) a(u): the second evaluates them anew at
//     the neighbours' u (their v and a), so each half-step is within the bound (docs/SPH.md,
//     "The viscosity's half-steps").
// The choice is uniform (C.dt): the fused step runs a grid barrier after it only where it walked
// the neighbours. The includer declares pos (or DFSPH_POS_R), vel, dens, accel, vstar and the
// lists. Call from uniform control flow.
#ifndef DFSPH_POS_R
#define DFSPH_POS_R pos
#endif
#include "sim/dfsph/visc_fns.glsl"

void dfsph_visc_step() {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    float dt = C.dt;
    float h = 0.5 * dt, eps2 = 0.01 * P.hs * P.hs, visc_k = P.alpha * P.c0 * P.hs;
    vec3 xi = live ? DFSPH_POS_R[i].xyz : vec3(0.0), ui = live ? vel[i].xyz + h * accel[i].xyz : vec3(0.0);
    float rhoi = live ? dens[i] : 1.0;
    vec3 a = vec3(0.0), kk = sim_kernel_k(P.hs);
    DFSPH_LIST_BEGIN(j, g)
            vec3 d = xi - DFSPH_POS_R[j].xyz;
            float r2 = dot(d, d);
            float vr = dot(ui - (vel[j].xyz + h * accel[j].xyz), d);
            if (vr >= 0.0) continue;
            a -= dfsph_visc_coef(r2, vr, rhoi, dens[j], eps2, visc_k, kk) * d;
        DFSPH_LIST_END
    a = sim_lanes_sum(vec4(a, 0.0)).xyz;
    if (live && SIM_LANE == 0u) vstar[i] = vec4(ui + h * dfsph_accel_local(a, xi, ui), 0.0);
}
