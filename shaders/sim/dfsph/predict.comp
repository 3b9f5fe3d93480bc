// dfsph predict: the other half of a solver iteration on the indirect path (the pass itself is
// dfsph_predict in solve_passes.glsl). The mean error is reduced over the whole dispatch, and the
// last work group decides (dfsph_decide): it writes the groups of the next update and predict
// dispatches (0 once done), so no iteration ever waits for the CPU.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
// The neighbours' positions through a read-only alias (the driver's non-coherent cache): the pass
// writes only pos.w (each particle's own k, where the lists hold indices), which no walk of it reads.
#define DFSPH_NBR_POS pos_r
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer PosR { vec4 pos_r[]; };
#define DFSPH_ONLY_PREDICT
#define DFSPH_Q_VEL readonly
#if !DFSPH_MOMENTUM // (momentum reads the particle's own last value)
#define DFSPH_Q_KAPPA writeonly
#endif
#include "sim/dfsph/solve_passes.glsl"

void main() {
    float err = dfsph_predict(C.iter);
    if (dfsph_reduce_last(err, false) && gl_LocalInvocationID.x == 0u) {
        uint it = C.iter;
        bool more = dfsph_decide_next(DFSPH_DENSITY != 0, it, s_red[0] / float(P.n));
#if DFSPH_DENSITY && DFSPH_COARSE // the coarse level after this predict (coarse.comp): its passes' groups, 0 where it does not follow
        bool coarse = more && DFSPH_COARSE_AFTER(it) && DFSPH_COARSE_RUNS;
        C.args_coarse = uvec4(coarse ? DFSPH_COARSE_GROUPS : 0u, 1u, 1u, 0u);
        C.args_coarse_apply = uvec4(coarse ? gl_NumWorkGroups.x : 0u, 1u, 1u, 0u);
#endif
    }
}
