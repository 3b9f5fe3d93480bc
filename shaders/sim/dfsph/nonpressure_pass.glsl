// The dfsph non-pressure pass and the step-size decision as functions (see nonpressure.comp for
// the model): nonpressure.comp runs the pass as its own dispatch and its last group decides;
// step.comp (the fused step) runs it per virtual group, reduces the speeds in the same order and
// every group decides alike. The includer declares the buffers. dfsph_nonpressure: call from
// uniform control flow, with SIM_GID the thread's index; returns the thread's speed (0 but on a
// particle's lane 0).

// DFSPH_POS_R: the array the positions are read from (pos; nonpressure.comp and the fused step
// read them through a non-coherent alias: nothing in the dispatch writes pos.xyz). The last step's
// total, for the warm start, is read from vel.w; the warm start's k goes into pos.w (DFSPH_K).
// DFSPH_WARM_NP 1 (dfsph_common.glsl): the warm start's pressure impulse rides in this pass's walk: each pair's
// (k_i + k_j) m grad W_ij with k = half the last total, which vel.w holds for every particle before
// the pass, so the same walk that loads v_j for the viscosity sums it, and lane 0 writes it (with
// the walls' ghost term) into vstar for the warm update (solve_fns.glsl), which then walks no list:
// the same values the warm update's own walk summed, in the same order (the fluid is the same bits).
// The includer then declares vstar (B_VEL_OUT: the velocities the reorder left behind, unused until
// the next reorder).
#ifndef DFSPH_POS_R
#define DFSPH_POS_R pos
#endif
#include "sim/dfsph/visc_fns.glsl"
float dfsph_nonpressure() {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    float speed = 0.0;
    vec3 xi = live ? DFSPH_POS_R[i].xyz : vec3(0.0), vi = live ? vel[i].xyz : vec3(0.0);
    float rhoi = live ? dens[i] : 1.0;
    vec3 a = vec3(0.0);
    float drho = 0.0;
#if !DFSPH_WARM_SPH && !DFSPH_FOLD
    float ki = live ? 0.5 * vel[i].w : 0.0; // the warm start's k_i: half the last total (DFSPH_K below)
#endif
#if DFSPH_FOLD // the walk was the density pass's (density_pass.glsl): its viscosity's sum, and the warm start's impulse in vstar
    a = live ? accel[i].xyz : vec3(0.0);
#else
#if DFSPH_WARM_NP
    vec3 warm = vec3(0.0); // its impulse over dt: sum_j (k_i + k_j) m grad W_ij
#endif
    DFSPH_LIST_BEGIN(j, g)
            vec4 vj = vel[j];
#if DFSPH_WARM_SPH
            drho += dot(vi - vj.xyz, g);
#elif DFSPH_WARM_NP
            warm += (ki + 0.5 * vj.w) * g;
#endif
#if DFSPH_WARM_NP && !DFSPH_REC
            a += dfsph_visc_pair(xi - DFSPH_POS_R[j].xyz, vi - vj.xyz, rhoi, dens[j], DFSPH_LIST_DW); // g's kernel: once a pair
#else
            a += dfsph_visc_pair(xi - DFSPH_POS_R[j].xyz, vi - vj.xyz, rhoi, dens[j]);
#endif
        DFSPH_LIST_END
    vec4 sums = sim_lanes_sum(vec4(a, drho));
    a = sums.xyz;
#if DFSPH_WARM_NP
    warm = sim_lanes_sum(vec4(warm, 0.0)).xyz;
#endif
#endif
    if (live && SIM_LANE == 0u) {
        a = dfsph_accel_local(a, xi, vi);
#if !DFSPH_FOLD // (folded: the speed alone; the warm update adds a particle's own part to the sum in accel, and takes k from vel.w)
        accel[i] = vec4(a, 0.0);
#if DFSPH_WARM_SPH
        // SPlisHSPlasH's warm start (TimeStepDFSPH.cpp, USE_WARMSTART): half the last total, as
        // k dt^2 (independent of the step size; the warm update divides by this step's dt^2), at
        // most 0.00025 (never reached here), and 0 where the particle is not being compressed: its
        // predicted density rho + dt Drho/Dt, from the velocities before this step's accelerations
        // (the neighbours' are not known yet; mostly gravity, which cancels in v_i - v_j) and the
        // last step's dt, at most rho0.
        float adv = rhoi + C.dt * (sums.w + P.rho0 * dot(vi + C.dt * a, wallg[i].yzw));
        DFSPH_K(i) = adv > P.rho0 ? 0.5 * min(vel[i].w * (C.dt * C.dt), 0.00025) : 0.0;
#else
        DFSPH_K(i) = ki;
#if DFSPH_WARM_NP && !DFSPH_FOLD
        vstar[i] = vec4(warm + 2.0 * ki * P.rho0 * wallg[i].yzw, 0.0); // the wall as a mirrored ghost of the same pressure
#endif
#endif
#endif
        speed = length(vi + a * C.dt);
    }
    return speed;
}

#include "sim/dfsph/step_size.glsl"
