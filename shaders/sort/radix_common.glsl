// The radix sort's building blocks, shared by shaders/sort/radix_*.comp. Include it first (it
// declares the subgroup extensions, which must come before any other declaration).
//
// The including kernel's loader defines (src/sort/sort_radix.c):
//   RADIX_*       every constant of src/sort/sort_layout.h (the one place they are defined)
//   WG            invocations per work group
//   RX_BITS, RX_RADIX  the kernel's digit width and digit count: RADIX_BITS and RADIX unless given
//                 (the onesweep scatter's wide variant: RADIX_WIDE_BITS, RADIX_WIDE); where RX_RADIX
//                 > WG each invocation takes RX_DPI consecutive digits, lid * RX_DPI + j
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

#ifndef SG_EMULATE
#define SG_EMULATE 0
#endif
#if USE_SUBGROUP && !SG_EMULATE
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif

// NVIDIA: unroll the loops over each invocation's KPT keys so the per-key arrays stay in
// registers (others ignore the pragma).
#pragma optionNV(unroll all)

#if USE_SUBGROUP
#define SG SG_SIZE
#else
#define SG EMU_SG
#endif

#ifndef RX_BITS
#define RX_BITS RADIX_BITS
#define RX_RADIX RADIX
#endif
#if RX_RADIX > WG
#define RX_DPI (RX_RADIX / WG)
#else
#define RX_DPI 1
#endif

#define NUM_SG (WG / SG)
#if WG % SG != 0 || WG * RX_DPI < RX_RADIX
#error "WG must be a multiple of the subgroup size and its invocations must cover the digits"
#endif

// Stream counters: s_whist[sg * RX_RADIX + digit] = keys of that digit seen so far in stream sg.
shared uint s_whist[NUM_SG * RX_RADIX];
#if USE_SUBGROUP
shared uint s_sgsum[NUM_SG];
#else
shared uint s_emu[WG]; // emulated ballots: the digits of one round
shared uint s_tmp[WG]; // emulated shuffles and the work-group scan
#endif

// The subgroup operations the USE_SUBGROUP code uses, under rx_ names: the KHR built-ins, or
// (SG_EMULATE 1, tests only) the same operations emulated with shared memory and barrier() for
// subgroups of SG_SIZE consecutive invocations, so that llvmpipe, which lacks the extension, runs
// exactly the subgroup path's code. The emulation needs uniform control flow at every call.
#if USE_SUBGROUP && !SG_EMULATE
#define rx_sg_size gl_SubgroupSize
#define rx_sg_index gl_SubgroupID
#define rx_sg_lane gl_SubgroupInvocationID
#define rx_ballot subgroupBallot
#define rx_ballot_exclusive_count subgroupBallotExclusiveBitCount
#define rx_ballot_count subgroupBallotBitCount
#define rx_ballot_msb subgroupBallotFindMSB
#define rx_shuffle subgroupShuffle
#define rx_inclusive_add subgroupInclusiveAdd
#elif USE_SUBGROUP
shared uint s_sgemu[WG];
#define rx_sg_size uint(SG)
#define rx_sg_index (gl_LocalInvocationIndex / uint(SG))
#define rx_sg_lane (gl_LocalInvocationIndex % uint(SG))
uint _rx_bits_below(uint lane, uint word) { // bits of the lanes below `lane` in ballot word `word`
    uint first = word * 32u;
    return lane <= first ? 0u : lane >= first + 32u ? 0xFFFFFFFFu : (1u << (lane - first)) - 1u;
}
uvec4 _rx_in_size(uvec4 v) {
    for (uint w = 0u; w < 4u; w++) v[w] &= _rx_bits_below(uint(SG), w);
    return v;
}
// Without loops: llvmpipe stops any one loop after 65,535 iterations in total per invocation
// (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS), which a ballot that reads every lane would reach.
shared uint s_sgballot[NUM_SG * 4];
uvec4 rx_ballot(bool b) {
    uint lane = rx_sg_lane, word = rx_sg_index * 4u;
    if (lane < 4u) s_sgballot[word + lane] = 0u;
    barrier();
    if (b) atomicOr(s_sgballot[word + lane / 32u], 1u << (lane % 32u));
    barrier();
    uvec4 m = uvec4(s_sgballot[word], s_sgballot[word + 1u], s_sgballot[word + 2u], s_sgballot[word + 3u]);
    barrier();
    return m;
}
uint rx_ballot_count(uvec4 v) {
    v = _rx_in_size(v);
    return uint(bitCount(v.x) + bitCount(v.y) + bitCount(v.z) + bitCount(v.w));
}
uint rx_ballot_exclusive_count(uvec4 v) {
    for (uint w = 0u; w < 4u; w++) v[w] &= _rx_bits_below(rx_sg_lane, w);
    return rx_ballot_count(v);
}
uint rx_ballot_msb(uvec4 v) {
    v = _rx_in_size(v);
    for (int w = 3; w >= 0; w--)
        if (v[w] != 0u) return uint(w) * 32u + uint(findMSB(v[w]));
    return 0xFFFFFFFFu;
}
uint rx_shuffle(uint v, uint lane) {
    s_sgemu[gl_LocalInvocationIndex] = v;
    barrier();
    uint r = s_sgemu[rx_sg_index * uint(SG) + lane];
    barrier();
    return r;
}
uint rx_inclusive_add(uint v) {
    s_sgemu[gl_LocalInvocationIndex] = v;
    barrier();
    uint sum = 0u;
    for (uint j = rx_sg_index * uint(SG); j <= gl_LocalInvocationIndex; j++) sum += s_sgemu[j];
    barrier();
    return sum;
}
#endif

uint rx_sg_id(void) {
#if USE_SUBGROUP
    return rx_sg_index;
#else
    return gl_LocalInvocationIndex / uint(SG);
#endif
}

uint rx_lane(void) {
#if USE_SUBGROUP
    return rx_sg_lane;
#else
    return gl_LocalInvocationIndex % uint(SG);
#endif
}

void rx_clear_whist(void) {
    for (uint i = gl_LocalInvocationIndex; i < uint(NUM_SG * RX_RADIX); i += uint(WG)) s_whist[i] = 0u;
}

// One round of stable ranking. Every invocation of the work group calls it in uniform control
// flow (the emulated path uses barrier()), with its key's digit d (0 .. RX_RADIX - 1; keys past
// the end use RX_RADIX - 1 so they rank after every real key). Returns how many keys of digit d
// came before this one in stream sg (earlier rounds, then lower lanes of this round), and counts
// this round's keys into s_whist[sg][*].
uint rx_rank_round(uint d, uint sg) {
#if USE_SUBGROUP
    // Peers: the lanes whose digit equals ours, found with one ballot per digit bit. (NVIDIA's
    // subgroupPartitionNV finds them in one call; on the H100 it made no difference.)
    uvec4 peers = rx_ballot(true);
    for (uint b = 0u; b < uint(RX_BITS); b++) {
        bool bit = ((d >> b) & 1u) != 0u;
        uvec4 vote = rx_ballot(bit);
        peers &= bit ? vote : ~vote;
    }
    uint below = rx_ballot_exclusive_count(peers);
    uint count = rx_ballot_count(peers);
    uint leader = rx_ballot_msb(peers);
    // The highest peer adds the round's count for this digit; only one lane per digit touches the
    // counter in a round, so the old value is what came before, and it is handed to every peer.
    // No barrier before the next round: every lane waits at this shuffle for the leaders' atomics
    // to return, so the next round's atomics come after them. (A subgroupBarrier() here is a full
    // memory barrier on NVIDIA, MEMBAR.GL, which would be most of the scatter's time.)
    uint old = 0u;
    if (rx_sg_lane == leader) old = atomicAdd(s_whist[sg * uint(RX_RADIX) + d], count);
    return rx_shuffle(old, leader) + below;
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
        uint old = s_whist[sg * uint(RX_RADIX) + d];
        s_whist[sg * uint(RX_RADIX) + d] = old + count;
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
    uint incl = rx_inclusive_add(v);
    if (rx_sg_lane == rx_sg_size - 1u) s_sgsum[rx_sg_index] = incl;
    barrier();
    uint before = 0u, all = 0u;
    for (uint j = 0u; j < uint(NUM_SG); j++) {
        uint s = s_sgsum[j];
        if (j < rx_sg_index) before += s;
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
// streams before sg (in place) and returns the count of digit d in the whole work group.
uint rx_digit_offsets(uint d) {
    uint sum = 0u;
    for (uint w = 0u; w < uint(NUM_SG); w++) {
        uint c = s_whist[w * uint(RX_RADIX) + d];
        s_whist[w * uint(RX_RADIX) + d] = sum;
        sum += c;
    }
    return sum;
}

// rx_digit_offsets for every digit, one an invocation (RX_DPI 1): returns to invocation d <
// RX_RADIX the count of digit d (0 to the others). Uniform control flow; ends without a barrier.
uint rx_streams_to_offsets(void) {
    uint lid = gl_LocalInvocationIndex;
    return lid < uint(RX_RADIX) ? rx_digit_offsets(lid) : 0u;
}

// Exclusive prefix sums over the digits in digit order of v[j], the value of this invocation's
// digit lid * RX_DPI + j (0 past the last digit). Uniform control flow.
void rx_digits_exclusive_scan(inout uint v[RX_DPI]) {
    uint sum = 0u, unused;
    for (uint j = 0u; j < uint(RX_DPI); j++) sum += v[j];
    uint run = rx_wg_exclusive_scan(sum, unused);
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        uint x = v[j];
        v[j] = run;
        run += x;
    }
}

#endif
