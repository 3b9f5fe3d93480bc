#version 450
// Counting sort, the scatter: each pair goes to starts[c] + its slot in its key's run, c = key &
// mask. The slot is the one the count dispatch kept (slots[i]), or, where a producer made the
// counts (u_producer 1, no slots), taken here by counting counts[c] down with an atomic. The order
// inside a run is whatever the atomics gave; counting_order.comp makes it deterministic.
// Housekeeping for the next sort: the counts end at zero (cleared here, or counted down), and the
// scan's u_blocks look-back words and its block-id counter are cleared. A shut gate
// (sort_gate.glsl) leaves the pairs and clears the counts (a producer's too).
// Loader defines: KPT and the COUNTING_* constants of src/sort/sort_layout.h.
#include "sort/counting_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = COUNTING_WG) in;

layout(std430, binding = COUNTING_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = COUNTING_BIND_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = COUNTING_BIND_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = COUNTING_BIND_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };
layout(std430, binding = COUNTING_BIND_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = COUNTING_BIND_STARTS) readonly buffer Starts { uint starts[]; };
layout(std430, binding = COUNTING_BIND_SLOTS) readonly buffer Slots { uint slots[]; };
layout(std430, binding = COUNTING_BIND_STATUS) writeonly buffer Status { uint status[]; };
layout(std430, binding = COUNTING_BIND_TICKET) writeonly buffer Ticket { uint ticket; };

layout(location = COUNTING_LOC_N) uniform uint u_n;
layout(location = COUNTING_LOC_MASK) uniform uint u_mask;
layout(location = COUNTING_LOC_PRODUCER) uniform uint u_producer;
layout(location = COUNTING_LOC_BLOCKS) uniform uint u_blocks;

void main() {
    uint group = ct_group(), lid = gl_LocalInvocationIndex;
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * uint(COUNTING_WG);
    uint base = group * uint(COUNTING_WG * KPT);
    bool shut = sort_gate_shut(); // the caller's gate (sort_gate.glsl): only the housekeeping
    for (uint k = 0u; k < uint(KPT) && !shut; k++) {
        uint i = base + k * uint(COUNTING_WG) + lid;
        if (i < u_n) {
            uint key = keys_in[i], c = key & u_mask;
            uint slot = u_producer != 0u ? atomicAdd(counts[c], 0xFFFFFFFFu) - 1u : slots[i];
            uint pos = starts[c] + slot;
            keys_out[pos] = key;
            vals_out[pos] = vals_in[i];
        }
    }
    if (u_producer == 0u || shut) // nothing here reads the counts: clear them for the next sort
        for (uint k = group * uint(COUNTING_WG) + lid; k <= u_mask; k += stride) counts[k] = 0u;
    for (uint b = group * uint(COUNTING_WG) + lid; b < u_blocks; b += stride) status[b] = 0u;
    if (group == 0u && lid == 0u) ticket = 0u;
}
