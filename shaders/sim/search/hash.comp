// hash: clears every cell's range to empty and gives each particle its (cell key, index) pair.
// One thread per cell and per particle: dispatch ceil(max(n, cells) / SIM_WG) groups.
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = B_KEYS) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = B_VALS) writeonly buffer Vals { uint vals[]; };
layout(std430, binding = B_RANGES) writeonly buffer Ranges { uvec2 ranges[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < P.dims.w) ranges[i] = uvec2(0u); // start == end: empty
    if (i < P.n) {
        keys[i] = sim_cell_key(sim_cell_of(pos_in[i].xyz));
        vals[i] = i;
    }
}
