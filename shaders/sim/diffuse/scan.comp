#version 450
// Diffuse particles (src/sim/diffuse.c), pass 4, one work group: the exclusive prefix of the work
// groups' sums (the slots' first, then the fluid's), each thread a contiguous run of them. The
// survivors are the slots' groups' sum (never more than the capacity: they had slots), the new
// ones the rest; those past the capacity are dropped and counted. Writes the counts a frame and
// the indirect dispatch over the alive ones.
#include "sim/diffuse/diffuse_common.glsl"

layout(local_size_x = DIFFUSE_WG) in;

layout(std430, binding = DIFFUSE_B_STATE) buffer State { uint state[]; };

void main() {
    uint t = gl_LocalInvocationID.x;
    uint per = (u_groups + DIFFUSE_WG - 1u) / DIFFUSE_WG, g0 = min(t * per, u_groups), g1 = min(g0 + per, u_groups);
    uint sum = 0u;
    for (uint g = g0; g < g1; g++) sum += state[ST_GROUPS + g];
    uint total;
    uint run = diffuse_group_scan(sum, total);
    for (uint g = g0; g < g1; g++) {
        uint v = state[ST_GROUPS + g];
        state[ST_GROUPS + g] = run;
        run += v;
    }
    memoryBarrierBuffer();
    barrier();
    if (t != 0u) return;
    uint survivors = state[ST_GROUPS + u_slots / DIFFUSE_WG];  // the first fluid group's prefix
    if (u_slots / DIFFUSE_WG >= u_groups) survivors = total;
    uint alive = min(total, u_capacity), dropped = total - alive;
    state[ST_ARGS + 0u] = (alive + 63u) / 64u;
    state[ST_ARGS + 1u] = 1u;
    state[ST_ARGS + 2u] = 1u;
    state[ST_ALIVE] = alive;
    state[ST_SPAWNED] = alive - survivors;
    state[ST_DROPPED] = dropped;
    uint lo = state[ST_DROPPED_LO] + dropped;
    state[ST_DROPPED_HI] += lo < dropped ? 1u : 0u;
    state[ST_DROPPED_LO] = lo;
    state[ST_FRAMES] += 1u;
}
