// ranges: the [start, end) of every non-empty cell in the sorted order (hash cleared them all to
// empty). Thread i looks at sorted keys i-1, i, i+1: a key change starts or ends a cell.
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = B_RANGES) buffer Ranges { uint ranges[]; }; // (start, end) per cell

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= P.n) return;
    uint k = keys[i];
    if (i == 0u || keys[i - 1u] != k) ranges[2u * k] = i;
    if (i == P.n - 1u || keys[i + 1u] != k) ranges[2u * k + 1u] = i + 1u;
}
