#version 450
// Radix sort, small n: ONE work group of RADIX_OG_WG invocations runs every pass itself, so the
// whole sort is one dispatch. Pass p reads pair A (p even) or B (p odd) and writes the other one;
// A is the caller's pair, B the sorter's scratch. Needs n <= RADIX_OG_WG * RADIX_OG_KPT.
//
// A pass: each stream (subgroup) takes a contiguous run of `rounds * SG` keys and ranks them one
// round at a time (stable), counting digits per stream; the counts are turned into each stream's
// start for each digit, and every key is written to
//   start of its digit + keys of that digit in earlier streams + its rank in its stream.
// Keys past n get digit 255 and rank after all real keys; they are never written.
// Loader defines: WG = RADIX_OG_WG, KPT = RADIX_OG_KPT, USE_SUBGROUP, SG_SIZE or EMU_SG.
#include "sort/radix_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = WG) in;

layout(std430, binding = RADIX_BIND_KEYS_IN) coherent buffer KeysA { uint keys_a[]; };
layout(std430, binding = RADIX_BIND_VALS_IN) coherent buffer ValsA { uint vals_a[]; };
layout(std430, binding = RADIX_BIND_KEYS_OUT) coherent buffer KeysB { uint keys_b[]; };
layout(std430, binding = RADIX_BIND_VALS_OUT) coherent buffer ValsB { uint vals_b[]; };

layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_BITS) uniform uint u_bits;

shared uint s_dstart[RADIX];

uint load_key(bool from_b, uint i) { return from_b ? keys_b[i] : keys_a[i]; }
uint load_val(bool from_b, uint i) { return from_b ? vals_b[i] : vals_a[i]; }

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint lid = gl_LocalInvocationIndex, n = u_n;
    uint passes = (u_bits + uint(RADIX_BITS) - 1u) / uint(RADIX_BITS);
    uint rounds = (n + uint(WG) - 1u) / uint(WG); // <= KPT
    uint sg = rx_sg_id();
    uint first = sg * rounds * uint(SG) + rx_lane(); // this lane's key in round 0
    uint ranked[KPT]; // per round: rank in the stream << 8 | digit

    for (uint pass = 0u; pass < passes; pass++) {
        bool from_b = (pass & 1u) != 0u;
        uint shift = pass * uint(RADIX_BITS);
        uint mask = (1u << min(uint(RADIX_BITS), u_bits - shift)) - 1u;

        rx_clear_whist();
        // Digits first (independent loads), then the ranking rounds.
        for (uint k = 0u; k < uint(KPT); k++) {
            uint i = first + k * uint(SG);
            ranked[k] = (k < rounds && i < n) ? (load_key(from_b, i) >> shift) & mask : 255u;
        }
        barrier(); // s_whist cleared (and the previous pass's s_dstart reads done)
        for (uint k = 0u; k < uint(KPT); k++) {
            if (k < rounds) { // uniform
                uint d = ranked[k];
                ranked[k] = (rx_rank_round(d, sg) << 8) | d;
            }
        }
        barrier();
        uint count = rx_streams_to_offsets(), total;
        uint start = rx_wg_exclusive_scan(count, total); // begins and ends with barriers
        if (lid < uint(RADIX)) s_dstart[lid] = start;
        barrier();
        for (uint k = 0u; k < uint(KPT); k++) {
            uint i = first + k * uint(SG);
            if (k < rounds && i < n) {
                uint d = ranked[k] & 255u;
                uint pos = s_dstart[d] + s_whist[sg * uint(RADIX) + d] + (ranked[k] >> 8);
                uint key = load_key(from_b, i), val = load_val(from_b, i);
                if (from_b) {
                    keys_a[pos] = key;
                    vals_a[pos] = val;
                } else {
                    keys_b[pos] = key;
                    vals_b[pos] = val;
                }
            }
        }
        memoryBarrierBuffer(); // this pass's writes are seen by the next pass's reads
        barrier();
    }
}
