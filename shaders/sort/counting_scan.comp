#version 450
// Counting sort, the scan: starts[k] = counts[0] + ... + counts[k - 1] for k = 0 .. K, K = mask + 1
// (so starts[K] = n), in one dispatch of u_blocks groups, by a chained scan over blocks of
// COUNTING_SCAN_WG x COUNTING_SCAN_IPT counts. A group takes its block from a ticket (the block-id
// counter), sums the block's counts and posts AGG | sum in status[block] (block 0: PREFIX | sum),
// then invocation 0 looks back over the earlier blocks' words for the sum before its block, as
// radix_onesweep.comp's look-back with fallback does: a word still 0 after LB_SPIN reads makes the
// whole group sum that block's counts itself and post them by atomicCompSwap(0 -> AGG | sum), the
// value the block would post, so the scan ends whatever the other groups do (no forward progress
// assumed). Then it posts PREFIX | inclusive sum and writes its starts.
// The status words and the ticket start at zero: cleared by the previous sort's scatter, or new.
// Loader defines: LB_SPIN and the COUNTING_* constants of src/sort/sort_layout.h.
#include "sort/counting_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = COUNTING_SCAN_WG) in;

layout(std430, binding = COUNTING_BIND_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, binding = COUNTING_BIND_STARTS) writeonly buffer Starts { uint starts[]; };
layout(std430, binding = COUNTING_BIND_STATUS) coherent volatile buffer Status { uint status[]; };
layout(std430, binding = COUNTING_BIND_TICKET) coherent buffer Ticket { uint ticket; };

layout(location = COUNTING_LOC_MASK) uniform uint u_mask;
layout(location = COUNTING_LOC_BLOCKS) uniform uint u_blocks;

#define CT_AGG 0x40000000u
#define CT_PREFIX 0x80000000u
#define CT_VALUE 0x3FFFFFFFu
#define CT_BLOCK (COUNTING_SCAN_WG * COUNTING_SCAN_IPT)

shared uint s_block, s_stuck, s_more, s_before;
shared uint s_scan[COUNTING_SCAN_WG];

// Exclusive prefix sum of v over the group (invocation order); *total the sum of all. Uniform.
uint ct_group_scan(uint v, out uint total) {
    uint lid = gl_LocalInvocationIndex;
    s_scan[lid] = v;
    barrier();
    for (uint off = 1u; off < uint(COUNTING_SCAN_WG); off <<= 1) {
        uint add = lid >= off ? s_scan[lid - off] : 0u;
        barrier();
        s_scan[lid] += add;
        barrier();
    }
    uint incl = s_scan[lid];
    total = s_scan[COUNTING_SCAN_WG - 1];
    barrier();
    return incl - v;
}

// The sum of block b's counts, by the whole group. Uniform.
uint ct_block_sum(uint b) {
    uint keys = u_mask + 1u, from = b * uint(CT_BLOCK) + gl_LocalInvocationIndex * uint(COUNTING_SCAN_IPT), sum = 0u;
    for (uint j = 0u; j < uint(COUNTING_SCAN_IPT); j++) sum += from + j < keys ? counts[from + j] : 0u;
    uint total;
    ct_group_scan(sum, total);
    return total;
}

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint lid = gl_LocalInvocationIndex, keys = u_mask + 1u;
    if (lid == 0u) s_block = atomicAdd(ticket, 1u);
    barrier();
    uint block = s_block;
    uint first = block * uint(CT_BLOCK) + lid * uint(COUNTING_SCAN_IPT);
    uint c[COUNTING_SCAN_IPT], sum = 0u;
    for (uint j = 0u; j < uint(COUNTING_SCAN_IPT); j++) {
        c[j] = first + j < keys ? counts[first + j] : 0u;
        sum += c[j];
    }
    uint total, run = ct_group_scan(sum, total);
    if (lid == 0u) status[block] = (block == 0u ? CT_PREFIX : CT_AGG) | total;

    // Look-back with fallback (see the top). Invocation 0 reads; the group falls back together.
    uint before = 0u;
    int t = int(block) - 1;
    bool more = block > 0u;
    while (more) {
        if (lid == 0u) {
            uint w = 0u;
            for (uint spin = 0u; spin < uint(LB_SPIN); spin++) {
                w = status[uint(t)];
                if ((w & (CT_AGG | CT_PREFIX)) != 0u) break;
            }
            s_stuck = 0xFFFFFFFFu;
            s_more = 1u;
            if ((w & (CT_AGG | CT_PREFIX)) != 0u) {
                before += w & CT_VALUE;
                if ((w & CT_PREFIX) != 0u) s_more = 0u;
                t--;
            } else {
                s_stuck = uint(t);
            }
        }
        barrier();
        more = s_more != 0u;
        uint stuck = s_stuck;
        barrier(); // s_stuck and s_more are written again next step
        if (stuck != 0xFFFFFFFFu) { // uniform
            uint agg = ct_block_sum(stuck);
            if (lid == 0u) atomicCompSwap(status[stuck], 0u, (stuck == 0u ? CT_PREFIX : CT_AGG) | agg);
        }
    }
    if (lid == 0u) {
        if (block > 0u) status[block] = CT_PREFIX | (before + total);
        s_before = before;
    }
    barrier();
    run += s_before;
    for (uint j = 0u; j < uint(COUNTING_SCAN_IPT); j++) {
        if (first + j < keys) starts[first + j] = run;
        run += c[j];
    }
    if (block == u_blocks - 1u && lid == uint(COUNTING_SCAN_WG) - 1u) starts[keys] = s_before + total;
}
