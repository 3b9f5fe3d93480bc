// dfsph coarse: the pressure solve's coarse level on the indirect path (coarse.glsl), after each
// of the first DFSPH_COARSE_LEVELS predicts, in two dispatches:
//   DFSPH_COARSE_PASS 1: a work group a row of cells, then a thread a grid column (Ctl.args_coarse:
//                        dfsph_coarse_groups() groups): the sums; the last group solves the column
//   DFSPH_COARSE_PASS 2: over the particles' lanes (Ctl.args_coarse_apply): each particle's share
// (predict.comp writes both, 0 where the level does not follow it; sim_run_coarse, the tests', the host)
// Each does nothing where the solve stopped at the predict before it (converged, or the cap), in an empty slot, or
// where the level does not run (DFSPH_COARSE_RUNS: then the predict kept its value unsigned).
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#define DFSPH_DENSITY 1
#define DFSPH_ONLY_UPDATE
#include "sim/dfsph/solve_passes.glsl"
#include "sim/dfsph/coarse.glsl"

void main() {
    if (C.args_dens.x == 0u || C.idle != 0u || !DFSPH_COARSE_RUNS || !DFSPH_COARSE_AFTER(C.iter - 1u)) return; // every group alike
#if DFSPH_COARSE_PASS == 1
    dfsph_coarse_sums(gl_WorkGroupID.x); // dispatched with dfsph_coarse_groups() groups
    dfsph_coarse_last();
#else
    dfsph_coarse_apply();
#endif
}
