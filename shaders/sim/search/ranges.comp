// ranges: after the sort, the cell table: starts[c] = the first sorted index of cell c, for every
// cell and one past the last (starts[cells] = n), so cell c holds [starts[c], starts[c + 1]) and
// an empty cell starts where the next one does. One thread a cell: a binary search for the first
// key not below c (log2 n reads; a thread a key filling the gaps serially is slow where most of
// the tank is empty, as a long run of empty cells falls to one thread). (The counting sort makes
// this table itself and the stage is skipped.)
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = B_RANGES) writeonly buffer Starts { uint starts[]; };

void main() {
    uint c = gl_GlobalInvocationID.x;
    if (c > P.dims.w) return;
    uint lo = 0u, hi = P.n; // the answer is in [lo, hi]
    while (lo < hi) {
        uint mid = (lo + hi) >> 1u;
        if (keys[mid] < c) lo = mid + 1u;
        else hi = mid;
    }
    starts[c] = lo;
}
