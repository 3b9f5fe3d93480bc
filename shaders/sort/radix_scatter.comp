#version 450
// Radix sort, downsweep of one pass: each tile of RADIX_TILE keys ranks its keys by digit
// (stable), sorts them in shared memory, and writes keys and values to
//   (keys of smaller digits in all tiles) + (keys of this digit in earlier tiles) + rank,
// the first two from the scanned table and totals, so that each run of equal digits is written
// to consecutive addresses. Keys past n get digit 255, land at the tile's end, are not written.
//
// Layout in the tile: stream (subgroup) sg takes keys [sg * KPT * SG, (sg + 1) * KPT * SG),
// round k lane l is key sg * KPT * SG + k * SG + l, so loads are contiguous per round.
// Count-ahead path (u_count_ahead 1 or 2): the table and totals were scanned by the previous dispatch's last
// group; this tile's entries are cleared once read (the buffer counts the pass after next). With
// u_count_ahead 1 each key written also counts its next-pass digit into the next table, at the tile it
// lands in, with an atomic, and the last group to finish scans that table (radix_count_ahead.glsl).
// Loader defines: WG = RADIX_WG, KPT = RADIX_KPT, USE_SUBGROUP, SG_SIZE or EMU_SG.
#include "sort/radix_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = WG) in;

layout(std430, binding = RADIX_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = RADIX_BIND_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = RADIX_BIND_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = RADIX_BIND_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };
layout(std430, binding = RADIX_BIND_TABLE) coherent buffer Table { uint table[]; };
layout(std430, binding = RADIX_BIND_TOTALS) readonly buffer Totals { uint totals[]; };
layout(std430, binding = RADIX_BIND_TABLE_NEXT) coherent buffer TableNext { uint table_next[]; };
layout(std430, binding = RADIX_BIND_TOTALS_NEXT) coherent buffer TotalsNext { uint totals_next[]; };
layout(std430, binding = RADIX_BIND_COUNTER) coherent buffer Counter { uint counter; };

layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_SHIFT) uniform uint u_shift;
layout(location = RADIX_LOC_MASK) uniform uint u_mask;
layout(location = RADIX_LOC_TILES) uniform uint u_tiles;
layout(location = RADIX_LOC_COUNT_AHEAD) uniform uint u_count_ahead;
layout(location = RADIX_LOC_NEXT_SHIFT) uniform uint u_next_shift;
layout(location = RADIX_LOC_NEXT_MASK) uniform uint u_next_mask;

#define RX_SCAN_TABLE table_next
#define RX_SCAN_TOTALS totals_next
#include "sort/radix_count_ahead.glsl"

shared uint s_x[KPT * WG];     // the tile in sorted order: keys, then values
shared uint s_dstart[RADIX];   // first sorted position of each digit in the tile
shared uint s_dest[RADIX];     // global index of sorted position p of digit d: s_dest[d] + p

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (tile >= u_tiles) return; // the whole group leaves
    uint lid = gl_LocalInvocationIndex, n = u_n, base = tile * uint(KPT * WG);
    uint valid = min(uint(KPT * WG), n - base);
    uint sg = rx_sg_id();
    uint first = base + sg * uint(KPT * SG) + rx_lane();

    // This tile's column of the scanned table and the digit totals, loaded first so that their
    // latency hides behind the ranking.
    uint tile_before = lid < uint(RADIX) ? table[lid * u_tiles + tile] : 0u;
    uint digit_total = lid < uint(RADIX) ? totals[lid] : 0u;
    uint keys[KPT], vals[KPT], ranked[KPT];
    for (uint k = 0u; k < uint(KPT); k++) {
        uint i = first + k * uint(SG);
        keys[k] = i < n ? keys_in[i] : 0u;
        vals[k] = i < n ? vals_in[i] : 0u;
    }
    rx_clear_whist();
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) {
        uint d = first + k * uint(SG) < n ? (keys[k] >> u_shift) & u_mask : 255u;
        ranked[k] = (rx_rank_round(d, sg) << 8) | d;
    }
    barrier();

    // Where each digit starts in the tile, and in the output.
    uint count = rx_streams_to_offsets(), unused;
    uint start = rx_wg_exclusive_scan(count, unused);
    uint global_start = rx_wg_exclusive_scan(digit_total, unused);
    if (lid < uint(RADIX)) {
        s_dstart[lid] = start;
        s_dest[lid] = global_start + tile_before - start;
        if (u_count_ahead != 0u) table[lid * u_tiles + tile] = 0u;
    }
    barrier();

    // Sort the tile in shared memory, then write runs of equal digits to consecutive addresses.
    for (uint k = 0u; k < uint(KPT); k++) {
        uint d = ranked[k] & 255u;
        ranked[k] = s_dstart[d] + s_whist[sg * uint(RADIX) + d] + (ranked[k] >> 8); // sorted position
        s_x[ranked[k]] = keys[k];
    }
    barrier();
    uint dest[KPT];
    for (uint k = 0u; k < uint(KPT); k++) {
        uint p = k * uint(WG) + lid;
        dest[k] = 0u;
        if (p < valid) {
            uint key = s_x[p];
            dest[k] = s_dest[(key >> u_shift) & u_mask] + p;
            keys_out[dest[k]] = key;
            if (u_count_ahead == 1u)
                atomicAdd(table_next[((key >> u_next_shift) & u_next_mask) * u_tiles + dest[k] / uint(KPT * WG)], 1u);
        }
    }
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) s_x[ranked[k]] = vals[k];
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) {
        uint p = k * uint(WG) + lid;
        if (p < valid) vals_out[dest[k]] = s_x[p];
    }
    if (u_count_ahead == 1u) { // uniform
        if (rx_last_group()) rx_scan_table();
    }
}
