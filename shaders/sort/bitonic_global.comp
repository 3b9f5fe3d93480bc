#version 450
// Bitonic sort, the global kernel (bitonic.global): BITONIC_LEVELS consecutive strides of merge
// size k, all >= the block size, in one pass over memory. Each thread loads the 2^LEVELS pairs
// its strides touch (spaced by the smallest stride jbot), does the LEVELS compare-exchange levels
// in registers and writes them back.
// Defines (from sort_bitonic.c): BITONIC_LEVELS (1..4), BITONIC_GLOBAL_WG, and sort_layout.h's list.
#include "sort/bitonic_common.glsl"
#include "sort/sort_gate.glsl"
#pragma optionNV(unroll all) // NVIDIA: keep the register arrays in registers (others ignore it)

#define E (1u << BITONIC_LEVELS)
layout(local_size_x = BITONIC_GLOBAL_WG) in;

layout(std430, binding = BITONIC_BIND_KEYS) buffer Keys { uint keys[]; };
layout(std430, binding = BITONIC_BIND_VALS) buffer Vals { uint vals[]; };
layout(location = BITONIC_LOC_K) uniform uint k;         // merge size
layout(location = BITONIC_LOC_JBOT_LOG2) uniform uint jbot_log2; // log2 of the smallest stride of this pass
layout(location = BITONIC_LOC_THREADS) uniform uint threads;   // padded size / E

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint t = bitonic_group_index() * uint(BITONIC_GLOBAL_WG) + gl_LocalInvocationID.x;
    if (t >= threads) return;
    uint jb = 1u << jbot_log2;
    // t with BITONIC_LEVELS zero bits inserted at bit log2(jbot).
    uint base = ((t >> jbot_log2) << (jbot_log2 + uint(BITONIC_LEVELS))) | (t & (jb - 1u));
    bool asc = (base & k) == 0u; // k's bit is above every stride here: one direction per thread
    uint rk[E], rv[E];
    for (uint r = 0u; r < E; r++) {
        rk[r] = keys[base + r * jb];
        rv[r] = vals[base + r * jb];
    }
    for (int lev = BITONIC_LEVELS - 1; lev >= 0; lev--) {
        uint s = 1u << uint(lev);
        for (uint r = 0u; r < E; r++)
            if ((r & s) == 0u) bitonic_cx(rk[r], rv[r], rk[r | s], rv[r | s], asc);
    }
    for (uint r = 0u; r < E; r++) {
        keys[base + r * jb] = rk[r];
        vals[base + r * jb] = rv[r];
    }
}
