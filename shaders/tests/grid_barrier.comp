#version 450
// Test shader for grid_barrier.glsl: ROUNDS rounds; in round r every group adds 1 to count[r],
// crosses the barrier, and records what it saw of count[r] (all groups should have arrived).
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent buffer Bar { volatile uint bar_count; uint bar_gen; volatile uint bar_stalled; uint pad; uint counts[]; };
layout(std430, binding = 1) buffer Seen { uint seen[]; };
#define GRID_COUNT bar_count
#define GRID_GEN bar_gen
#define GRID_STALLED bar_stalled
#define GRID_SPIN_MAX (1u << 24)
#include "grid_barrier.glsl"
layout(location = 0) uniform uint rounds;
void main() {
    for (uint r = 0u; r < rounds; r++) {
        if (gl_LocalInvocationID.x == 0u) atomicAdd(counts[r], 1u);
        if (!grid_barrier()) return;
        if (gl_LocalInvocationID.x == 0u) seen[r * gl_NumWorkGroups.x + gl_WorkGroupID.x] = atomicAdd(counts[r], 0u);
    }
}
