// dfsph update: one half of a solver iteration on the indirect path (the pass itself is
// dfsph_update in solve_passes.glsl).
//   DFSPH_WARM 1: the pressure solve's warm start: its first update, from the loaded values.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#define DFSPH_ONLY_UPDATE
#define DFSPH_Q_POS readonly // (the values k in pos.w are predict's; the totals go into vel.w)
#define DFSPH_Q_KAPPA readonly
#include "sim/dfsph/solve_passes.glsl"

void main() {
#if DFSPH_WARM
    if (gl_GlobalInvocationID.x == 0u) C.iter = 0u;
#endif
    dfsph_update(DFSPH_WARM != 0, C.iter == 1u); // the first update after the first predict: C.iter 1 (predict.comp; the pressure solve's only)
}
