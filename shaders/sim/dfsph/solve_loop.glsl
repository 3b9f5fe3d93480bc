// A whole solve as one function (the body of solve.comp; step.comp, the fused step, runs both
// solves with it): the pressure solve's warm-start update, then (predict | decide | update) behind
// grid barriers until converged or at the cap; errors through C.partial[0 ..], in the indirect
// path's order. The divergence solve starts at its first decision: the density pass made its first
// predict, and its errors are in C.partial (density_pass.glsl), behind the density's barrier.
// DFSPH_TAIL 1 (solve.comp only): the solve's rest after the indirect path's first pairs.
// No include guard: step.comp includes it once a solve under another name (dfsph_solve_run).
// Needs g_gid (SIM_GID), virtual_groups(), grid_barrier(), the solve's functions and (DFSPH_COARSE) coarse.glsl.
void dfsph_solve_run() {
    uint lid = gl_LocalInvocationID.x, groups = virtual_groups();
    uint it = 0u;
    bool ok = true, predicted = DFSPH_DENSITY == 0;
#if defined(DFSPH_TAIL) && DFSPH_TAIL
    // The rest of a solve the indirect path began (its pairs ran out before the solve stopped:
    // dfsph_passes.c): its last predict left the next pair's groups (0 once stopped) and C.iter,
    // the iteration that pair applies; the coarse level after that predict, where one followed,
    // ran. So: that update, then on as below.
    if ((DFSPH_DENSITY != 0 ? C.args_dens.x : C.args_div.x) == 0u) return;
    it = C.iter;
    for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
        g_gid = vg * uint(SIM_WG) + lid;
        dfsph_update(false, it == 1u);
    }
    ok = grid_barrier();
    predicted = false;
#elif DFSPH_DENSITY
    for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
        g_gid = vg * uint(SIM_WG) + lid;
        dfsph_update(true, false);
    }
    ok = grid_barrier();
#endif
    while (ok) {
        if (!predicted) {
            for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
                g_gid = vg * uint(SIM_WG) + lid;
                dfsph_group_partial(dfsph_predict(it), false, vg);
            }
            if (!grid_barrier()) break;
        }
        predicted = false;
        float mean = dfsph_reduce_partials(groups, false) / float(P.n);
        // Every thread reaches the same `more`; group 0's first thread records the outcome.
        bool more = dfsph_decide(it, mean, gl_WorkGroupID.x == 0u && lid == 0u);
        if (!more) break;
        it++;
#if DFSPH_DENSITY && DFSPH_COARSE
        if (DFSPH_COARSE_AFTER(it - 1u) && DFSPH_COARSE_RUNS) { // the coarse level after the first predicts (coarse.glsl)
            for (uint vg = gl_WorkGroupID.x; vg < dfsph_coarse_groups(); vg += gl_NumWorkGroups.x) dfsph_coarse_sums(vg);
            dfsph_coarse_last();
            if (!grid_barrier()) break;
            for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
                g_gid = vg * uint(SIM_WG) + lid;
                dfsph_coarse_apply();
            }
            if (!grid_barrier()) break;
        }
#endif
        for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
            g_gid = vg * uint(SIM_WG) + lid;
            dfsph_update(false, it == 1u);
        }
        ok = grid_barrier();
    }
    if (gl_WorkGroupID.x == 0u && lid == 0u) {
        C.iter = it;
        C.args_tail = uvec4(0u, 1u, 1u, 0u);
#if DFSPH_DENSITY
        C.args_dens = uvec4(0u, 1u, 1u, 0u);
#else
        C.args_div = uvec4(0u, 1u, 1u, 0u);
#endif
    }
}
