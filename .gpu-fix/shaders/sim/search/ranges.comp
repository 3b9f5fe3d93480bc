// ranges: after the sort, the cell table: starts[c] = the first sorted index of cell c, for every
// cell and one past the last (starts[cells] = n), so cell c holds [starts[c], starts[c + 1]) and
// an empty cell starts where the next one does. One thread a sorted pair: where the key changes
// from a to b, the cells a+1 .. b start here. (The counting sort makes this table itself and the
// stage is skipped.)
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = B_RANGES) writeonly buffer Starts { uint starts[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i > P.n) return;
    uint before = i == 0u ? 0u : keys[i - 1u] + 1u; // the first cell not before this pair
    uint here = i == P.n ? P.dims.w : keys[i];      // this pair's cell (the end: past the last)
    for (uint c = before; c <= here && c <= P.dims.w; c++) starts[c] = i;
}
