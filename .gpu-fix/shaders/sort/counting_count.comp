#version 450
// Counting sort, the count (and scan): counts[key & mask] += 1 for every key, with atomics; then
// the last group to finish (a ticket, no waiting) turns the counts into their exclusive prefix
// sums, starts[0 .. K] with K = mask + 1 and starts[K] = n. The counts stay: the scatter counts
// them back down to zero, ready for the next sort.
//   u_scan 0: count only; 1: count, and the last group scans; 2: scan only (one group; a
//   producer made the counts, sort_fused.glsl)
// Loader defines: KPT (keys per invocation) and the COUNTING_* constants of src/sort/sort_layout.h.
#include "sort/counting_common.glsl"

layout(local_size_x = COUNTING_SCAN_WG) in;

layout(std430, binding = COUNTING_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = COUNTING_BIND_COUNTS) coherent buffer Counts { uint counts[]; };
layout(std430, binding = COUNTING_BIND_STARTS) writeonly buffer Starts { uint starts[]; };
layout(std430, binding = COUNTING_BIND_TICKET) coherent buffer Ticket { uint ticket; };

layout(location = COUNTING_LOC_N) uniform uint u_n;
layout(location = COUNTING_LOC_MASK) uniform uint u_mask;
layout(location = COUNTING_LOC_SCAN) uniform uint u_scan;

shared uint s_ticket;
shared uint s_scan[COUNTING_SCAN_WG];

// The exclusive prefix sums of counts[0 .. K) into starts[0 .. K], by one group: invocation i sums
// its own contiguous chunk of ceil(K / COUNTING_SCAN_WG) counts, the group scans those sums once,
// and each invocation writes its chunk's prefix sums. Uniform control flow.
void ct_scan(void) {
    uint lid = gl_LocalInvocationIndex, keys = u_mask + 1u;
    uint chunk = (keys + uint(COUNTING_SCAN_WG) - 1u) / uint(COUNTING_SCAN_WG);
    uint first = min(lid * chunk, keys), last = min(first + chunk, keys), sum = 0u;
    for (uint i = first; i < last; i++) sum += counts[i];
    s_scan[lid] = sum;
    barrier();
    for (uint off = 1u; off < uint(COUNTING_SCAN_WG); off <<= 1) {
        uint add = lid >= off ? s_scan[lid - off] : 0u;
        barrier();
        s_scan[lid] += add;
        barrier();
    }
    uint run = s_scan[lid] - sum;
    for (uint i = first; i < last; i++) {
        uint c = counts[i];
        starts[i] = run;
        run += c;
    }
    if (lid == uint(COUNTING_SCAN_WG) - 1u) {
        starts[keys] = s_scan[lid];
        ticket = 0u;
    }
}

void main() {
    uint lid = gl_LocalInvocationIndex;
    if (u_scan != 2u) {
        uint base = ct_group() * uint(COUNTING_SCAN_WG * KPT);
        for (uint k = 0u; k < uint(KPT); k++) {
            uint i = base + k * uint(COUNTING_SCAN_WG) + lid;
            if (i < u_n) atomicAdd(counts[keys_in[i] & u_mask], 1u);
        }
        if (u_scan == 0u) return;
        memoryBarrierBuffer(); // this invocation's atomics, before the ticket
        barrier();
        if (lid == 0u) s_ticket = atomicAdd(ticket, 1u);
        barrier();
        if (s_ticket != gl_NumWorkGroups.x * gl_NumWorkGroups.y - 1u) return; // the whole group
        memoryBarrierBuffer();
    }
    ct_scan();
}
