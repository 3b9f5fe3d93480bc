// dfsph grid probe: the persistent path's grid crossing GRID_PROBE_ROUNDS grid barriers, run once
// at prime on a scratch buffer (dfsph_persistent_probe) before any step: where the groups are not
// all resident the barrier stalls here, sets the stalled word, and the indirect path runs every
// step (a stall inside a real step would leave the fluid half-stepped).
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_CTL) coherent buffer Bar { volatile uint bar_count; uint bar_gen; volatile uint bar_stalled; };
#define GRID_COUNT bar_count
#define GRID_GEN bar_gen
#define GRID_STALLED bar_stalled
#include "grid_barrier.glsl"
void main() {
    for (uint r = 0u; r < GRID_PROBE_ROUNDS; r++)
        if (!grid_barrier()) return;
}
