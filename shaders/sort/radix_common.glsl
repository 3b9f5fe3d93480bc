// The radix sort's building blocks, shared by shaders/sort/radix_*.comp. Include it first (it
// declares the subgroup extensions, which must come before any other declaration).
//
// The including kernel's loader defines (src/sort/sort_radix.c):
//   WG            invocations per work group
//   USE_SUBGROUP  1: GL_KHR_shader_subgroup (ballot, arithmetic, shuffle), SG_SIZE = the driver's
//                    subgroup size (GL_SUBGROUP_SIZE_KHR; 32..128)
//                 0: no subgroup operations at all; "subgroups" of EMU_SG consecutive invocations
//                    are emulated with shared memory and barrier()
//
// Ranking: the keys of a work group are split into NUM_SG streams, one per (real or emulated)
// subgroup. A stream is consumed one round at a time, one key per lane, lanes in order, so that
// "earlier in the stream" is "earlier in the input" and the ranks are stable.
#ifndef FLUID_RADIX_COMMON_GLSL
#define FLUID_RADIX_COMMON_GLSL

#if USE_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#define SG SG_SIZE
#else
#define SG EMU_SG
#endif

#include "sort/sort_common.glsl"

#define NUM_SG (WG / SG)
#if WG % SG != 0 || WG < RADIX
#error "WG must be a multiple of the subgroup size and hold one invocation per digit"
#endif

// Stream counters: s_whist[sg * RADIX + digit] = keys of that digit seen so far in stream sg.
shared uint s_whist[NUM_SG * RADIX];
#if USE_SUBGROUP
shared uint s_sgsum[NUM_SG];
#else
shared uint s_emu[WG]; // emulated ballots: the digits of one round
shared uint s_tmp[WG]; // emulated shuffles and the work-group scan
#endif

uint rx_sg_id(void) {
#if USE_SUBGROUP
    return gl_SubgroupID;
#else
    return gl_LocalInvocationIndex / uint(SG);
#endif
}

uint rx_lane(void) {
#if USE_SUBGROUP
    return gl_SubgroupInvocationID;
#else
    return gl_LocalInvocationIndex % uint(SG);
#endif
}

void rx_clear_whist(void) {
    for (uint i = gl_LocalInvocationIndex; i < uint(NUM_SG * RADIX); i += uint(WG)) s_whist[i] = 0u;
}

// One round of stable ranking. Every invocation of the work group calls it in uniform control
// flow (the emulated path uses barrier()), with its key's digit d (0..255; keys past the end use
// 255 so they rank after every real key). Returns how many keys of digit d came before this one
// in stream sg (earlier rounds, then lower lanes of this round), and counts this round's keys
// into s_whist[sg][*].
uint rx_rank_round(uint d, uint sg) {
#if USE_SUBGROUP
    // Peers: the lanes whose digit equals ours, found with one ballot per digit bit.
    uvec4 peers = subgroupBallot(true);
    for (uint b = 0u; b < uint(RADIX_BITS); b++) {
        bool bit = ((d >> b) & 1u) != 0u;
        uvec4 vote = subgroupBallot(bit);
        peers &= bit ? vote : ~vote;
    }
    uint below = subgroupBallotExclusiveBitCount(peers);
    uint count = subgroupBallotBitCount(peers);
    uint leader = subgroupBallotFindMSB(peers);
    // The highest peer adds the round's count for this digit; only one lane per digit touches the
    // counter in a round, so the old value is what came before, and it is handed to every peer.
    uint old = 0u;
    if (gl_SubgroupInvocationID == leader) old = atomicAdd(s_whist[sg * uint(RADIX) + d], count);
    old = subgroupShuffle(old, leader);
    subgroupMemoryBarrierShared();
    subgroupBarrier(); // the next round's leader reads this round's counter
    return old + below;
#else
    uint lid = gl_LocalInvocationIndex;
    s_emu[lid] = d;
    barrier();
    uint first = lid - lid % uint(SG), below = 0u, count = 0u, leader = lid;
    for (uint j = first; j < first + uint(SG); j++) {
        if (s_emu[j] == d) {
            count++;
            if (j < lid) below++;
            leader = j; // ends as the highest peer
        }
    }
    if (lid == leader) {
        uint old = s_whist[sg * uint(RADIX) + d];
        s_whist[sg * uint(RADIX) + d] = old + count;
        s_tmp[lid] = old;
    }
    barrier();
    // The next round writes s_emu only after this barrier, and s_tmp only after its first one.
    return s_tmp[leader] + below;
#endif
}

// Exclusive prefix sum of v over the work group in invocation order; *total gets the sum of all.
// Every invocation calls it in uniform control flow.
uint rx_wg_exclusive_scan(uint v, out uint total) {
#if USE_SUBGROUP
    uint incl = subgroupInclusiveAdd(v);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_sgsum[gl_SubgroupID] = incl;
    barrier();
    uint before = 0u, all = 0u;
    for (uint j = 0u; j < uint(NUM_SG); j++) {
        uint s = s_sgsum[j];
        if (j < gl_SubgroupID) before += s;
        all += s;
    }
    barrier(); // s_sgsum may be written again by the next scan
    total = all;
    return before + incl - v;
#else
    uint lid = gl_LocalInvocationIndex;
    s_tmp[lid] = v;
    barrier();
    for (uint off = 1u; off < uint(WG); off <<= 1) {
        uint add = lid >= off ? s_tmp[lid - off] : 0u;
        barrier();
        s_tmp[lid] += add;
        barrier();
    }
    uint incl = s_tmp[lid];
    total = s_tmp[WG - 1];
    barrier();
    return incl - v;
#endif
}

// After the ranking rounds: turns s_whist[sg][d] into the number of keys of digit d in the
// streams before sg (in place) and returns, to invocation d < RADIX, the count of digit d in the
// whole work group (0 to the others). Uniform control flow; ends without a barrier.
uint rx_streams_to_offsets(void) {
    uint lid = gl_LocalInvocationIndex, sum = 0u;
    if (lid < uint(RADIX)) {
        for (uint w = 0u; w < uint(NUM_SG); w++) {
            uint c = s_whist[w * uint(RADIX) + lid];
            s_whist[w * uint(RADIX) + lid] = sum;
            sum += c;
        }
    }
    return sum;
}

#endif
