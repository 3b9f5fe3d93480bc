// The functions of solve_passes.glsl (the two halves of an iteration and the decision), for the
// solve DFSPH_DENSITY selects. No include guard: step.comp includes it once a solve, renaming the
// functions (dfsph_update, dfsph_predict, dfsph_decide) between the two.
// update: every particle's velocity takes the pressure impulse of the values k = kappa / rho that
// predict computed (in pos.w: DFSPH_K, DFSPH_KJ in dfsph_common.glsl),
//   v_i -= dt (sum_j m (k_i + k_j) grad W_ij + 2 k_i rho0 grad Phi_i)
// (symmetric, so the pair impulses conserve momentum; the walls' ghosts mirror the particle, its
// value on both sides, as wcsph's walls mirror its pressure; grad Phi kept by the density pass).
// The pressure solve's totals of the step are summed for the next step's warm start, carried with
// the particle through the reorder: its total in vel.w (the divergence solve has no warm start: its
// first predict rides in the density pass, density_pass.glsl). warm: the pressure solve's first
// update, from the loaded values (half the last total: DFSPH_WARM_NP 1, where the non-pressure pass
// summed its impulse in its own walk and left it in vstar, walks no list: dfsph_common.glsl); the
// sums start again; it also steps the velocity by the non-pressure accelerations, v + dt a: one
// explicit step where dt is within the viscosity's bound, else (DFSPH_VISC_SPLIT, a long step of
// slow flow) the viscosity in two half-steps, each within it (docs/SPH.md):
//   warm:             u = v + (dt/2) a(v), kept in vstar (after its impulse is read from it,
//                     DFSPH_WARM_NP); v' = u + (dt/2) a_ext (gravity and the
//                     mouse), less the warm start's pressure impulse as ever
//   first predict:    d = (dt/2) a_visc: the pairs' viscosity at v' (its walk, below), the walls'
//                     damping at u; into vstar
//   first update:     v + d (first: the update after the first predict)
// where a_visc is the part of a that depends on the velocity. The pairs see the velocities after
// the warm start's pressure impulse, where the pass that ran the half-step alone (sessions 12-16)
// took u: at rest that impulse is nearly uniform over a particle's neighbours. Each half-step is
// within the viscosity's bound. Call from uniform control flow.
#ifndef DFSPH_ONLY_PREDICT
void dfsph_update(bool warm, bool first) {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    vec3 xi = live ? pos[i].xyz : vec3(0.0);
#if DFSPH_DENSITY && DFSPH_FOLD // the warm start's k: half the last total (nonpressure_pass.glsl's, which here writes no k)
    float ki = !live ? 0.0 : warm ? 0.5 * vel[i].w : DFSPH_K(i);
#else
    float ki = live ? DFSPH_K(i) : 0.0;
#endif
    vec3 dv = vec3(0.0);
#if DFSPH_DENSITY && DFSPH_WARM_SPH
    if (warm) { // the warm start is stored as k dt^2 (nonpressure.comp): k for this step's dt
        float inv_dt2 = 1.0 / (C.dt * C.dt);
        ki *= inv_dt2;
        DFSPH_LIST_BEGIN(j, g)
            dv += (ki + DFSPH_KJ(j) * inv_dt2) * g;
        DFSPH_LIST_END
    } else {
        DFSPH_LIST_BEGIN(j, g)
            dv += (ki + DFSPH_KJ(j)) * g;
        DFSPH_LIST_END
    }
#else
#if DFSPH_DENSITY && DFSPH_WARM_NP
    if (!warm) // the warm start's impulse is the non-pressure pass's (below)
#endif
    {
        DFSPH_LIST_BEGIN(j, g)
            dv += (ki + DFSPH_KJ(j)) * g;
        DFSPH_LIST_END
    }
#endif
    dv = sim_lanes_sum(vec4(dv, 0.0)).xyz;
    if (!live || SIM_LANE != 0u) return;
#if DFSPH_DENSITY && DFSPH_WARM_NP
    if (warm) dv = vstar[i].xyz; // the non-pressure pass summed it, the walls' term too (nonpressure_pass.glsl)
    else
#endif
        dv += 2.0 * ki * P.rho0 * wallg[i].yzw; // the wall as a mirrored ghost of the same pressure
    float dt = C.dt;
    vec4 v = vel[i];
#if DFSPH_DENSITY
    if (warm) {
#if DFSPH_FOLD // accel holds the pairs' viscosity alone (density_pass.glsl): what the particle feels alone added here
        vec3 a = dfsph_accel_local(accel[i].xyz, xi, v.xyz);
#else
        vec3 a = accel[i].xyz;
#endif
#if DFSPH_VISC_SPLIT
        if (dfsph_visc_split()) { // past the viscosity's bound: its first half-step (see the top)
            float h = 0.5 * dt;
            v.xyz += h * a;
            vstar[i] = v; // u, for the second half-step's walls (the first predict)
            v.xyz += h * dfsph_accel_ext(vec3(0.0), xi);
        } else
#endif
        v.xyz += dt * a; // dt within the viscosity's bound: one explicit step
        v.w = ki; // the total starts from the warm start
    } else {
#if DFSPH_VISC_SPLIT
        if (first && dfsph_visc_split()) v.xyz += vstar[i].xyz; // the second half-step's viscosity (the first predict's)
#endif
        v.w += ki; // the total, in vel.w
    }
#endif
    v.xyz -= dt * dv;
    vel[i] = v;
}
#endif

// predict: from the velocities as they are now, the rate of change of each particle's density,
// Drho/Dt = sum_j m (v_i - v_j) . grad W_ij + rho0 v_i . grad Phi_i (the walls at rest), and from it
//   DFSPH_DENSITY 1 (pressure solve): rho* = rho + dt Drho/Dt, error (rho* - rho0)+ / rho0,
//                                     k = (rho* - rho0)+ factor / dt^2
//   DFSPH_DENSITY 0 (divergence solve): error (Drho/Dt)+ dt / rho0, k = (Drho/Dt)+ factor / dt,
//                                     0 for a particle with few neighbours (the free surface)
// (only compression: the fluid is never pulled together). Returns the thread's error (0 but on
// a particle's lane 0). Call from uniform control flow.
#ifndef DFSPH_ONLY_UPDATE
float dfsph_predict(uint it) {
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    float err = 0.0, drho = 0.0, neighbours = 0.0;
    vec3 xi = live ? pos[i].xyz : vec3(0.0), vi = live ? vel[i].xyz : vec3(0.0);
#if DFSPH_DENSITY && DFSPH_VISC_SPLIT
    // A step past the viscosity's bound: the first predict's walk also sums the viscosity at the
    // velocities now, for its second half-step (see dfsph_update).
    bool visc = it == 0u && dfsph_visc_split();
    vec3 a = vec3(0.0);
    if (visc) {
        float rhoi = live ? dens[i] : 1.0;
        DFSPH_LIST_BEGIN(j, g)
            vec3 vij = vi - vel[j].xyz;
            drho += dot(vij, g);
            neighbours += 1.0;
            a += dfsph_visc_pair(xi - DFSPH_NBR_POS[j].xyz, vij, rhoi, dens[j]);
        DFSPH_LIST_END
        a = sim_lanes_sum(vec4(a, 0.0)).xyz;
    } else
#endif
    {
        DFSPH_LIST_BEGIN(j, g)
            drho += dot(vi - vel[j].xyz, g);
            neighbours += 1.0;
        DFSPH_LIST_END
    }
    vec4 sums = sim_lanes_sum(vec4(drho, neighbours, 0.0, 0.0));
    if (live && SIM_LANE == 0u) {
#if DFSPH_DENSITY && DFSPH_VISC_SPLIT
        if (visc) vstar[i] = vec4(0.5 * C.dt * dfsph_accel_diss(a, xi, vstar[i].xyz), 0.0); // the walls at u (the warm update's)
#endif
        drho = sums.x + P.rho0 * dot(vi, wallg[i].yzw);
        float dt = C.dt, e;
#if DFSPH_DENSITY
        float signed_e = dens[i] + dt * drho - P.rho0;
        e = max(signed_e, 0.0);
        float k = e * wallg[i].x / (dt * dt);
#if DFSPH_MOMENTUM // docs/SPH.md, "Momentum": a share of the last value applied again, while compressed
        float beta = 0.5;
#if DFSPH_COARSE
        if (DFSPH_COARSE_RUNS) beta = DFSPH_COARSE_BETA; // (measured with the coarse level's three corrections)
#endif
        if (it > 0u && e > 0.0) k += beta * DFSPH_K(i);
#endif
#if DFSPH_COARSE // the first predicts' values signed: the coarse level sums them, then clamps them (coarse.glsl)
        if (DFSPH_COARSE_AFTER(it) && DFSPH_COARSE_RUNS) k = signed_e * wallg[i].x / (dt * dt);
#endif
        DFSPH_K(i) = k;
#else
        float k;
        e = dfsph_div_error(drho, sums.y, wallg[i].x, dt, k);
        DFSPH_K(i) = k;
#endif
        err = e / P.rho0;
    }
    return err;
}
#endif

// The solve's decision after iteration `it` (dfsph_common.glsl's, for this solve).
bool dfsph_decide(uint it, float mean, bool record) { return dfsph_decide_solve(DFSPH_DENSITY != 0, it, mean, record); }
