// dfsph step: the whole step after the neighbour search in one dispatch (the fused step; the
// persistent path, src/sim/dfsph/dfsph.c, FLUID_DFSPH_FUSED):
//   density (and the divergence solve's first predict) | divergence solve | nonpressure | step size,
//   viscosity (|), pressure solve | integrate (+ hash)
// with a grid-wide barrier at each `|` (and the solves' own inside; the divergence solve's first
// decision reads density's errors, so it needs none of its own unless it iterates). Each phase is
// the function its own pass runs (density_pass.glsl, solve_fns.glsl + solve_loop.glsl, nonpressure_pass.glsl,
// integrate_pass.glsl), walked over the indirect path's virtual groups as solve.comp does, so
// every thread index, every group's partial and the order they are added in are the indirect
// path's: the same values bit for bit. Reductions go through C.partial: the solves' errors in
// [0, groups), the speeds of nonpressure and integrate in [DFSPH_PARTIAL2, ...), integrate's
// heights in [DFSPH_PARTIAL3, ...), so a group may write one while a slower group still reads
// another. The step size: every group reduces the speeds alike and decides alike (each group's
// first thread writes the same values into Ctl).
// integrate's |v| dt / dx and heights: the last group to finish (an atomic count) reduces them and
// writes the step's record and the water's depth, as integrate.comp's last group does.
// The frame's slots (C.idle) as on the indirect path: C.idle is read after density (which may
// reset it in the frame's first slot); in an empty slot density runs (not after an empty slot:
// dfsph_density_skip), the solves and nonpressure do nothing and integrate runs with dt 0 (only the
// next step's hash).
// Its phases are measured (DFSPH_PHASE_CLOCK 1, where the driver has GL_ARB_shader_clock): group
// 0's first thread reads its multiprocessor's cycle counter as it leaves each phase's grid barrier
// (every group has then finished the phase) and writes the cycles since the last reading into
// C.clk: density, divergence solve, nonpressure with the step size, pressure solve (with the
// viscosity's second half-step where it runs, solve_fns.glsl), and integrate to group 0's own end (no barrier follows
// it; the groups' shares are equal). integrate's last group copies them into the step's record.
// Buffers that other groups' writes reach within the dispatch are coherent (pos, vel, dens,
// and the values k: DFSPH_K); the lists, the walls' share (with the factor), accel and vstar (the
// warm start's impulse, DFSPH_WARM_NP, and the viscosity's second half-step) are read only by the
// thread that wrote them.
#version 450
#ifndef DFSPH_PHASE_CLOCK
#define DFSPH_PHASE_CLOCK 0
#endif
#if DFSPH_PHASE_CLOCK
#extension GL_ARB_shader_clock : require
#endif
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
uint g_gid; // the thread's index in the indirect path's dispatch (SIM_GID)
#define SIM_GID g_gid
#define DFSPH_Q_POS coherent
#define DFSPH_Q_VEL coherent
#define DFSPH_Q_KAPPA coherent
#define DFSPH_K_WITH_X 0 // k_j from the coherent pos (dfsph_common.glsl)
#define DFSPH_Q_DENS coherent
#define DFSPH_Q_NBR
#define DFSPH_Q_WALL
#define DFSPH_Q_NBR_COUNT
#define DFSPH_Q_ACCEL
// DFSPH_STEP_ALIAS 1 (default): density, nonpressure and the index lists' walks (DFSPH_NBR_POS) read
// the positions through this non-coherent alias of the same buffer, as their own passes do:
// nothing in the dispatch writes the words they read before integrate (the phases write pos.w, the
// values k, which the walks read from the coherent pos: DFSPH_K_WITH_X 0), so the read-only cache
// holds no stale copy of them.
// 0: through the coherent blocks, as the first fused step did (FLUID_DFSPH_FUSED=2, measuring).
#ifndef DFSPH_STEP_ALIAS
#define DFSPH_STEP_ALIAS 1
#endif
#if DFSPH_STEP_ALIAS
layout(std430, binding = B_POS_IN) readonly buffer PosR { vec4 pos_r[]; }; // the 16th block: llvmpipe's most
#define DFSPH_POS_R pos_r
#define DFSPH_NBR_POS pos_r
#endif
#define DFSPH_RED_BATCH 1 // every group reduces the same parts: one at a time (dfsph_common.glsl)
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/search/hash_emit.glsl"

#define DFSPH_DENSITY 0 // the divergence solve's functions
#define dfsph_update dfsph_update_div
#define dfsph_predict dfsph_predict_div
#define dfsph_decide dfsph_decide_div
#define dfsph_solve_run dfsph_solve_div
#include "sim/dfsph/solve_passes.glsl" // (also declares ranges)
// The density's cells' walk takes a run's candidates 4 at a time, their positions loaded first.
// On the H100 at 27,648 the density phase took 53.2 -> 46.9 µs a step and the dam break 3.82 ->
// 3.70 ms a frame (s24, when the walk loaded the velocities too, through the coherent block); with
// the positions alone (s32: the velocities are the list's walk's) 1 and 2 at a time still measured
// slower (3.62-3.63 and 3.53-3.54 ms against 3.47-3.48). density.comp (109,744 up) and wcsph's
// walks, whose loads hit the L1, measured slower with 4 and slower still with 8, so they take one
// at a time (docs/BENCHMARKS.md, s24).
#define SIM_NEIGHBOURS_BATCH 4
#include "sim/dfsph/density_pass.glsl"
#include "sim/dfsph/nonpressure_pass.glsl"
#include "sim/dfsph/integrate_pass.glsl"

#define GRID_COUNT C.bar_count
#define GRID_GEN C.bar_gen
#define GRID_STALLED C.stalled
#include "grid_barrier.glsl"
#include "sim/dfsph/probe.glsl"

// The cycles since the last reading into C.clk[k], by group 0's first thread (see the top).
uint g_clk;
void phase_clock(uint k) {
#if DFSPH_PHASE_CLOCK
    if (gl_WorkGroupID.x == 0u && gl_LocalInvocationID.x == 0u) {
        uint now = clock2x32ARB().x;
        if (k < 5u) C.clk[k] = now - g_clk;
        g_clk = now;
    }
#endif
}

uint virtual_groups() { return (P.n * uint(SIM_LANES) + uint(SIM_WG) - 1u) / uint(SIM_WG); }
#include "sim/dfsph/solve_loop.glsl"
#if DFSPH_COARSE
#include "sim/dfsph/coarse.glsl"
#endif
#undef dfsph_update
#undef dfsph_predict
#undef dfsph_decide
#undef dfsph_solve_run
#undef DFSPH_DENSITY
#define DFSPH_DENSITY 1 // the pressure solve's
#define dfsph_update dfsph_update_dens
#define dfsph_predict dfsph_predict_dens
#define dfsph_decide dfsph_decide_dens
#define dfsph_solve_run dfsph_solve_dens
#include "sim/dfsph/solve_fns.glsl"
#include "sim/dfsph/solve_loop.glsl"

void main() {
    if (dfsph_probe()) return; // prime's residency probe (probe.glsl)
    uint lid = gl_LocalInvocationID.x, groups = virtual_groups();
    uint igroups = (P.n + uint(SIM_WG) - 1u) / uint(SIM_WG); // integrate's: a thread a particle
    phase_clock(5u); // the start
    if (!dfsph_density_skip()) { // every group alike (an empty slot after an empty slot: density_pass.glsl)
        for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
            g_gid = vg * uint(SIM_WG) + lid;
            dfsph_group_partial(dfsph_density(groups), false, vg); // with the divergence solve's first predict: its errors
        }
        grid_barrier();
    }
    phase_clock(0u);
    if (lid == 0u) s_last = C.idle == 0u; // an empty slot: every group reads the same word
    barrier();
    bool run = s_last, moving = false;
    barrier();
    if (run) {
        dfsph_solve_div();
        phase_clock(1u);
        for (uint vg = gl_WorkGroupID.x; vg < groups; vg += gl_NumWorkGroups.x) {
            g_gid = vg * uint(SIM_WG) + lid;
            dfsph_group_partial(dfsph_nonpressure(), true, DFSPH_PARTIAL2 + vg);
        }
        grid_barrier();
        float vmax = dfsph_reduce_partials_at(DFSPH_PARTIAL2, groups, true);
        if (lid == 0u) {
            s_last = dfsph_step_size(vmax);
            memoryBarrierBuffer();
        }
        barrier();
        moving = s_last;
        barrier();
        phase_clock(2u);
        if (moving) dfsph_solve_dens();
        else grid_barrier(); // (not reached: no time left) the speeds' partials read before integrate's
        phase_clock(3u);
    }
    float dt = moving ? C.dt : 0.0;
    sim_hash_begin();
    for (uint vg = gl_WorkGroupID.x; vg < igroups; vg += gl_NumWorkGroups.x) {
        vec2 r = _dfsph_group_max_sum(dfsph_integrate(vg * uint(SIM_WG) + lid, dt)); // |v| dt / dx's largest, the heights' sum
        if (lid == 0u) C.partial[DFSPH_PARTIAL2 + vg] = r.x, C.partial[DFSPH_PARTIAL3 + vg] = r.y;
    }
    phase_clock(4u);
    if (dfsph_last_group()) {
        vec2 r = dfsph_reduce_partials_max_sum(uvec2(DFSPH_PARTIAL2, DFSPH_PARTIAL3), igroups);
        if (lid == 0u) dfsph_integrate_record(r.x, r.y, dt);
    }
    sim_hash_end();
    grid_loop_check(); // llvmpipe: the limiter on its loops cut nothing short (grid_barrier.glsl)
}
