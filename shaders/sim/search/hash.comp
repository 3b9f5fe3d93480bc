// hash: the first stage of a step: each particle's (cell key, particle index) pair for the sort.
// The key is the cell's place in the sorted order (sim_cell_key, grid.glsl: the rows x + X (y + Y z),
// or bricks), below the key count P.dims.w. Where the sorter takes a producer count (sort.h), this
// pass also makes it, so the sort skips that dispatch.
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sort/sort_producer_count.glsl"
layout(std430, binding = B_POS_IN) readonly buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = B_KEYS) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = B_VALS) writeonly buffer Vals { uint vals[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    sort_producer_begin();
    if (i < P.n) {
        uint key = sim_cell_key(sim_cell_of(pos_in[i].xyz));
        keys[i] = key;
        vals[i] = i;
        sort_producer_add(key, SIM_KEY_BITS);
    }
    sort_producer_end();
}
