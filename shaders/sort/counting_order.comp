#version 450
// Counting sort, the order: the scatter left each key's run in the order its atomics happened to
// run; here each pair finds its place in its run by counting the pairs of the run that order
// before it by (value, whole key), ties (identical pairs) by position, and is written there. So
// the sort orders by (key & mask, value, key): deterministic, and for distinct values given in
// ascending order exactly the stable order. Costs the run's length per pair: meant for dense
// keys, whose runs are short (cells of a fluid).
// Loader defines: the COUNTING_* constants of src/sort/sort_layout.h.
#include "sort/counting_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = COUNTING_WG) in;

layout(std430, binding = COUNTING_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = COUNTING_BIND_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = COUNTING_BIND_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = COUNTING_BIND_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };
layout(std430, binding = COUNTING_BIND_STARTS) readonly buffer Starts { uint starts[]; };

layout(location = COUNTING_LOC_N) uniform uint u_n;
layout(location = COUNTING_LOC_MASK) uniform uint u_mask;

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint p = ct_group() * uint(COUNTING_WG) + gl_LocalInvocationIndex;
    if (p >= u_n) return;
    uint key = keys_in[p], val = vals_in[p], c = key & u_mask;
    uint first = starts[c], end = starts[c + 1u], rank = 0u;
    for (uint q = first; q < end; q++) {
        uint v = vals_in[q], k = keys_in[q];
        rank += uint(v < val || (v == val && (k < key || (k == key && q < p))));
    }
    keys_out[first + rank] = key;
    vals_out[first + rank] = val;
}
