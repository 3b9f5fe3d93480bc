// dfsph density: rho_i = sum_j m W_ij + rho0 Phi_i (the walls as ghost fluid at rest density), and
// the factor 1 / S_i that turns a density error into the pressure value that removes it (Bender &
// Koschier's alpha_i / rho_i, with the walls' share as update.comp applies it), kept in wallg.x.
// Also makes the divergence solve's first predict (its k, and its mean error, reduced over the
// dispatch: the last group decides whether the solve's (update, predict) pairs run), and writes
// each lane's neighbour list for the rest of the step (dfsph_common.glsl) and the walls' share's
// gradient per particle (wallg.yzw), which the solves' passes read instead of evaluating the
// walls again. DFSPH_FOLD 1 (dfsph.c): the non-pressure pass's walk rides in this one's list walk
// (density_pass.glsl).
// The pass itself is in density_pass.glsl (dfsph_density), which the fused step (step.comp) runs too.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/dfsph/k_out.glsl" // pos (only w: each particle's k, with index lists), pos_r, kappa
#define DFSPH_POS_R pos_r
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = B_DENS) writeonly buffer Dens { float dens[]; };
layout(std430, binding = B_NBR) buffer Nbr { DFSPH_NBR_T nbr[]; };
layout(std430, binding = B_WALL) writeonly buffer Wall { vec4 wallg[]; };
layout(std430, binding = B_NBR_COUNT) writeonly buffer NbrCount { uint nbr_count[]; };
#if DFSPH_FOLD // the non-pressure pass's walk (density_pass.glsl)
#if SIM_LANES != 1
#error DFSPH_FOLD needs one lane a particle
#endif
layout(std430, binding = B_DENS_PREV) readonly buffer DensPrev { float dens_prev[]; };
layout(std430, binding = B_ACCEL) writeonly buffer Accel { vec4 accel[]; };
layout(std430, binding = B_VEL_OUT) writeonly buffer VelStar { vec4 vstar[]; }; // unused until the next reorder
#include "sim/dfsph/visc_fns.glsl"
#include "sim/dfsph/step_size.glsl"
layout(location = 2) uniform uint u_prime;
#endif
#include "sim/dfsph/density_pass.glsl"

void main() {
    if (dfsph_density_skip()) return; // every group alike
    float err = dfsph_density(gl_NumWorkGroups.x);
#if DFSPH_FOLD
    // The errors' sum and the speeds' largest in one tree (the same sums as dfsph_reduce_last's):
    // the divergence solve's decision, and where it stops here, the step's size from the speeds at
    // the velocities that then stand (nonpressure.comp's decision); the non-pressure pass runs
    // (Ctl.args_np) only where the solve iterates, and sizes the step after it. An empty slot
    // decides nothing: there the solves' pairs and the non-pressure pass stay at 0 groups.
    // The solver's prime (u_prime 1, dfsph.c) sizes no step: its control block is the first step's.
    uint groups = gl_NumWorkGroups.x, g = gl_WorkGroupID.x;
    vec2 r = _dfsph_group_max_sum(vec2(dfsph_fold_speed, err));
    if (gl_LocalInvocationID.x == 0u) C.partial[g] = r.y, C.partial[groups + g] = r.x;
    if (dfsph_last_group()) {
        r = dfsph_reduce_partials_max_sum(uvec2(groups, 0u), groups);
        if (gl_LocalInvocationID.x == 0u) {
            bool more = C.idle == 0u && dfsph_decide_next(false, 0u, r.y / float(P.n));
            if (C.idle == 0u && !more && u_prime == 0u) dfsph_step_size(r.x);
            C.args_np = uvec4(more ? groups : 0u, 1u, 1u, 0u);
        }
    }
#else
    // The divergence solve's decision after its first predict (dfsph_decide_next), but in an empty
    // slot: there its pairs stay at 0 groups, as every solve leaves them.
    if (dfsph_reduce_last(err, false) && gl_LocalInvocationID.x == 0u && C.idle == 0u)
        dfsph_decide_next(false, 0u, s_red[0] / float(P.n));
#endif
}
