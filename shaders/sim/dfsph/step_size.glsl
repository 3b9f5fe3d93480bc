// The step size (dfsph_step_size), decided once the speeds are reduced: by the non-pressure pass
// (nonpressure.comp's last group, the fused step's groups), or, with DFSPH_FOLD, by the density
// pass's last group where the divergence solve stops at its first predict (density.comp: the speeds
// are then the non-pressure pass's, which does not run). Needs dfsph_common.glsl.
#ifndef FLUID_SIM_DFSPH_STEP_SIZE_GLSL
#define FLUID_SIM_DFSPH_STEP_SIZE_GLSL

// The step size from the largest speed reduced over the particles (vmax): see nonpressure.comp. A step past the explicit viscosity's bound
// (in half-steps, solve_fns.glsl) only where the flow is slow, its CFL step at least dt_max: there
// it saves steps (a settled pool: 4 a frame for 6), elsewhere the half-steps cost more than they
// save (docs/SPH.md). The step is also held to the depth bound, sqrt(K dx^3 / g) / H =
// D.dt_press / (sqrt(g) H), H = C.depth the water's depth as the last step left it
// (integrate_pass.glsl): a deep still pool goes restless with longer steps (docs/SPH.md, "The
// depth bound"). Returns false where the frame has no time left (the rest of the slot runs empty:
// C.idle), true otherwise. Call from one thread (the indirect path: the last group's first;
// step.comp: every group's first, all writing the same values).
bool dfsph_step_size(float vmax) {
    float dt_cfl = clamp(D.cfl * P.dx / max(max(vmax, C.v_post), 1e-9), D.dt_min, D.dt_max);
    if (dt_cfl < D.dt_max) dt_cfl = min(dt_cfl, D.dt_visc); // not slow: within the viscosity's bound
    float dt_lim = dt_cfl;
    float depth = C.depth, g = length(P.gravity.xyz);
    if (D.dt_press > 0.0 && sqrt(g) * depth * dt_cfl > D.dt_press) dt_lim = max(D.dt_press / (sqrt(g) * depth), D.dt_min);
    C.dt_cfl = dt_cfl;
    C.dt_lim = dt_lim;
    // The frame's time left in whole ticks (the frame's first density pass added its share),
    // within its budget (C.t_frame: the rest stays owed).
    uint left = C.t_rem, rem = min(left, C.t_frame), cfl_t = max(uint(dt_lim / DFSPH_TICK), 1u), dt_t;
    if (C.mode == DFSPH_MODE_FREE) dt_t = cfl_t;
    else if (C.mode == DFSPH_MODE_FIXED) dt_t = rem / max(C.steps_left, 1u); // the last slot takes the rest
    else {
        // As few equal steps as the CFL limit allows (each >= about dt_cfl / 2, never a tiny
        // catch-up step), the last one exactly what is left.
        uint k = rem / cfl_t + (rem % cfl_t != 0u ? 1u : 0u);
        dt_t = k > 1u ? rem / k + (rem % k != 0u ? 1u : 0u) : rem;
    }
    C.t_rem = left;
    C.dt_ticks = dt_t;
    if (dt_t == 0u) { // nothing left (not reached: a frame always brings time): the rest of the slot runs empty
        C.idle = 1u;
        C.args_step = C.args_dens = C.args_div = C.args_tail = C.args_np = uvec4(0u, 1u, 1u, 0u);
        return false;
    }
    C.dt = C.mode == DFSPH_MODE_FREE ? dt_lim : float(dt_t) * DFSPH_TICK; // a free step: no frame to add up
    return true;
}
#endif
