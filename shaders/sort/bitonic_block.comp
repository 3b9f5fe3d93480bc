#version 450
// Bitonic sort, the shared-memory kernel: one work group holds one block of BITONIC_BLOCK pairs.
//   BITONIC_FIRST 1 (bitonic.block_sort): reads the caller's n pairs (padding past n with
//     (UINT_MAX, UINT_MAX)), runs the merges of size 2 .. k_param (min(block, padded size)),
//     writes the block to the sorter's own buffers.
//   BITONIC_FIRST 0 (bitonic.block_merge): finishes the merge of size k_param (> block) whose
//     strides >= block bitonic_global.comp has done: strides block/2 .. 1, in place.
// Every step, a thread holds 8 pairs in registers: those at base + r*jl (r = 0..7), so it can do
// three strides (4jl, 2jl, jl) between two barriers instead of one.
// Defines (from sort_bitonic.c): BITONIC_BLOCK (power of two, >= 16), BITONIC_PER_THREAD (8),
// BITONIC_FIRST.
#include "sort/bitonic_common.glsl"
#include "sort/sort_gate.glsl"
#pragma optionNV(unroll all) // NVIDIA: keep the register arrays in registers (others ignore it)

#if BITONIC_PER_THREAD != 8
#error "bitonic_block.comp is written for 8 pairs per thread (level() below)"
#endif
#define THREADS (BITONIC_BLOCK / BITONIC_PER_THREAD)
layout(local_size_x = THREADS) in;

// The input may be the same buffers as the output: each group reads all of its block into shared
// memory before it writes any of it, and blocks do not overlap.
layout(std430, binding = BITONIC_BIND_IN_KEYS) readonly buffer InKeys { uint in_keys[]; };
layout(std430, binding = BITONIC_BIND_IN_VALS) readonly buffer InVals { uint in_vals[]; };
layout(std430, binding = BITONIC_BIND_KEYS) buffer Keys { uint keys[]; };
layout(std430, binding = BITONIC_BIND_VALS) buffer Vals { uint vals[]; };
layout(location = BITONIC_LOC_N) uniform uint n;       // BITONIC_FIRST: the caller's pair count
layout(location = BITONIC_LOC_K) uniform uint k_param; // see above

shared uint s_keys[BITONIC_BLOCK];
shared uint s_vals[BITONIC_BLOCK];

// Shared-memory address of block element i: an XOR swizzle inside each row of 32 words that makes
// every access pattern below (8 pairs at stride jl = 1 .. block/8, and the row-wise loads and
// stores) free of bank conflicts on 32-bank hardware (checked exhaustively for every jl of a
// 4096-pair block). A permutation of 0 .. block-1.
uint swz(uint i) { return i ^ ((((i >> 5u) * 9u) >> 1u) & 31u); }

uint rk[8] = uint[8](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u); // initialised only to quiet compilers
uint rv[8] = uint[8](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);

#define CX(a, b) bitonic_cx(rk[a], rv[a], rk[b], rv[b], ((off + base + uint(a) * jl) & k) == 0u)

// One compare-exchange level of merge size k between this thread's registers r and r + s.
void level(uint s, uint off, uint base, uint jl, uint k) {
    if (s == 4u) {
        CX(0, 4); CX(1, 5); CX(2, 6); CX(3, 7);
    } else if (s == 2u) {
        CX(0, 2); CX(1, 3); CX(4, 6); CX(5, 7);
    } else {
        CX(0, 1); CX(2, 3); CX(4, 5); CX(6, 7);
    }
}

// The first of the 8 block elements thread t holds when they are spaced by jl (a power of two):
// t with three zero bits inserted at bit log2(jl).
uint step_base(uint t, uint jl) { return ((t & ~(jl - 1u)) << 3u) | (t & (jl - 1u)); }

void regs_load(uint base, uint jl) {
    for (uint r = 0u; r < 8u; r++) {
        uint a = swz(base + r * jl);
        rk[r] = s_keys[a];
        rv[r] = s_vals[a];
    }
}

void regs_store(uint base, uint jl) {
    for (uint r = 0u; r < 8u; r++) {
        uint a = swz(base + r * jl);
        s_keys[a] = rk[r];
        s_vals[a] = rv[r];
    }
    memoryBarrierShared();
    barrier();
}

// The strides jtop .. 1 of merge size k, three per step.
void merge_down(uint off, uint t, uint k, uint jtop) {
    for (uint j = jtop; j > 0u;) {
        uint jl = max(j >> 2u, 1u); // this step: strides 4jl (if <= j), 2jl (if <= j), jl
        uint base = step_base(t, jl);
        regs_load(base, jl);
        if (4u * jl <= j) level(4u, off, base, jl, k);
        if (2u * jl <= j) level(2u, off, base, jl, k);
        level(1u, off, base, jl, k);
        regs_store(base, jl);
        j = jl >> 1u;
    }
}

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint t = gl_LocalInvocationID.x;
    uint off = bitonic_group_index() * uint(BITONIC_BLOCK);
    for (uint q = 0u; q < 8u; q++) {
        uint i = t + q * uint(THREADS);
#if BITONIC_FIRST
        bool real = off + i < n;
        s_keys[swz(i)] = real ? in_keys[off + i] : BITONIC_PAD;
        s_vals[swz(i)] = real ? in_vals[off + i] : BITONIC_PAD;
#else
        s_keys[swz(i)] = keys[off + i];
        s_vals[swz(i)] = vals[off + i];
#endif
    }
    memoryBarrierShared();
    barrier();

#if BITONIC_FIRST
    uint kmax = k_param;
    // Merge sizes 2, 4 and 8 need only the 8 consecutive pairs a thread holds: one step.
    {
        uint base = t * 8u, jl = 1u;
        regs_load(base, jl);
        level(1u, off, base, jl, 2u);
        if (kmax >= 4u) { level(2u, off, base, jl, 4u); level(1u, off, base, jl, 4u); }
        if (kmax >= 8u) { level(4u, off, base, jl, 8u); level(2u, off, base, jl, 8u); level(1u, off, base, jl, 8u); }
        regs_store(base, jl);
    }
    for (uint k = 16u; k <= kmax; k <<= 1u) merge_down(off, t, k, k >> 1u);
#else
    merge_down(off, t, k_param, uint(BITONIC_BLOCK) >> 1u);
#endif

    for (uint q = 0u; q < 8u; q++) {
        uint i = t + q * uint(THREADS);
        keys[off + i] = s_keys[swz(i)];
        vals[off + i] = s_vals[swz(i)];
    }
}
