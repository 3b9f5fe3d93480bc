#version 450
// Counting sort, the count: slots[i] = atomicAdd(counts[key & mask], 1) for every key, so each key
// keeps its slot in its key's run (the scatter places it at starts[key] + slot without another
// atomic). The counts start at zero (the previous sort's scatter cleared them).
// Loader defines: KPT (keys per invocation) and the COUNTING_* constants of src/sort/sort_layout.h.
#include "sort/counting_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = COUNTING_WG) in;

layout(std430, binding = COUNTING_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = COUNTING_BIND_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = COUNTING_BIND_SLOTS) writeonly buffer Slots { uint slots[]; };

layout(location = COUNTING_LOC_N) uniform uint u_n;
layout(location = COUNTING_LOC_MASK) uniform uint u_mask;

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint group = ct_group(), lid = gl_LocalInvocationIndex;
    uint base = group * uint(COUNTING_WG * KPT);
    uint keys[KPT];
    for (uint k = 0u; k < uint(KPT); k++) { // all loads first, then the atomics
        uint i = base + k * uint(COUNTING_WG) + lid;
        keys[k] = i < u_n ? keys_in[i] : 0u;
    }
    for (uint k = 0u; k < uint(KPT); k++) {
        uint i = base + k * uint(COUNTING_WG) + lid;
        if (i < u_n) slots[i] = atomicAdd(counts[keys[k] & u_mask], 1u);
    }
}
