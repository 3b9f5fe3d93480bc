#version 450
// Counting sort, the scatter: each pair goes to starts[c] + (a slot of its key's run, taken by
// counting counts[c] down with an atomic), c = key & mask. The order inside a run is whatever the
// atomics gave; counting_order.comp makes it deterministic. Afterwards every count is zero again.
// Loader defines: KPT and the COUNTING_* constants of src/sort/sort_layout.h.
#include "sort/counting_common.glsl"

layout(local_size_x = COUNTING_WG) in;

layout(std430, binding = COUNTING_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = COUNTING_BIND_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = COUNTING_BIND_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = COUNTING_BIND_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };
layout(std430, binding = COUNTING_BIND_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = COUNTING_BIND_STARTS) readonly buffer Starts { uint starts[]; };

layout(location = COUNTING_LOC_N) uniform uint u_n;
layout(location = COUNTING_LOC_MASK) uniform uint u_mask;

void main() {
    uint base = ct_group() * uint(COUNTING_WG * KPT), lid = gl_LocalInvocationIndex;
    for (uint k = 0u; k < uint(KPT); k++) {
        uint i = base + k * uint(COUNTING_WG) + lid;
        if (i < u_n) {
            uint key = keys_in[i], c = key & u_mask;
            uint pos = starts[c] + atomicAdd(counts[c], 0xFFFFFFFFu) - 1u;
            keys_out[pos] = key;
            vals_out[pos] = vals_in[i];
        }
    }
}
