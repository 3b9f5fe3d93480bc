// dfsph solve: a whole solve in one dispatch (the persistent path; src/sim/dfsph/dfsph.c chooses
// it on drivers that make forward progress between work groups). The grid holds only as many
// groups as the GPU keeps resident at once; each group walks the virtual groups of the indirect
// path's dispatches (gl_WorkGroupID.x, + gl_NumWorkGroups.x, ...), so every thread index, every
// group's partial error and the order they are added in are the indirect path's. The passes:
//   warm-start update | predict | decide | (update | predict | decide) ...
// (the divergence solve starts at the first decide, from the errors density.comp left in the
// partials: solve_loop.glsl) with a grid-wide barrier at each `|`; every group reads the reduced
// error after the barrier and makes the same decision, so they stop together: converged, or at
// the cap.
//   DFSPH_TAIL 1: the tail of the indirect path (dfsph_passes.c): the solve's iterations after the
//   pairs the CPU recorded, from the update the last of them decided; a dispatch that returns at
//   once where they finished it.
//   DFSPH_DENSITY 1: the pressure solve; 0: the divergence solve. The virtual groups are
//   ceil(n lanes / SIM_WG), as the indirect path dispatches. v, pos and the values k are coherent here
//   (read through L2, not L1: the cost that makes this path slower at 109,744, docs/BENCHMARKS.md).
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
uint g_gid; // the thread's index in the indirect path's dispatch (SIM_GID)
#define SIM_GID g_gid
#define DFSPH_Q_POS coherent
#define DFSPH_Q_VEL coherent
#define DFSPH_Q_KAPPA coherent
#define DFSPH_RED_BATCH 1 // every group reduces the same parts: one at a time (dfsph_common.glsl)
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/dfsph/solve_passes.glsl"

#define GRID_COUNT C.bar_count
#define GRID_GEN C.bar_gen
#define GRID_STALLED C.stalled
#include "grid_barrier.glsl"
#include "sim/dfsph/probe.glsl"
#if DFSPH_DENSITY && DFSPH_COARSE
#include "sim/dfsph/coarse.glsl"
#endif

uint virtual_groups() { return (P.n * uint(SIM_LANES) + uint(SIM_WG) - 1u) / uint(SIM_WG); }
#include "sim/dfsph/solve_loop.glsl"

void main() {
    if (dfsph_probe()) return; // prime's residency probe (probe.glsl)
    if (C.idle != 0u) return; // an empty slot after the frame's time (every group alike)
    dfsph_solve_run();
    grid_loop_check(); // llvmpipe: the limiter on its loops cut nothing short (grid_barrier.glsl)
}
