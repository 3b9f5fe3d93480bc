#version 450
// Radix sort, upsweep of one pass: the digit counts of each tile of RADIX_TILE keys, written
// digit-major into the table: table[digit * tiles + tile]. Keys past n are not counted.
// Count-ahead path (u_count_ahead 1, first pass only): also clears this tile's entries of the next pass's
// table, and the last group to finish scans the table (radix_count_ahead.glsl), so no scan dispatch.
// Loader defines: WG = RADIX_WG, KPT = RADIX_KPT, USE_SUBGROUP, SG_SIZE or EMU_SG.
#include "sort/radix_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = WG) in;

layout(std430, binding = RADIX_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = RADIX_BIND_TABLE) coherent buffer Table { uint table[]; };
layout(std430, binding = RADIX_BIND_TOTALS) coherent buffer Totals { uint totals[]; };
layout(std430, binding = RADIX_BIND_TABLE_NEXT) coherent buffer TableNext { uint table_next[]; };
layout(std430, binding = RADIX_BIND_COUNTER) coherent buffer Counter { uint counter; };

layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_SHIFT) uniform uint u_shift;
layout(location = RADIX_LOC_MASK) uniform uint u_mask;
layout(location = RADIX_LOC_TILES) uniform uint u_tiles;
layout(location = RADIX_LOC_COUNT_AHEAD) uniform uint u_count_ahead;

#define RX_SCAN_TABLE table
#define RX_SCAN_TOTALS totals
#include "sort/radix_count_ahead.glsl"

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    // Tiles past 65,535 are laid out as a 2-D grid of rows of gl_NumWorkGroups.x groups.
    uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (tile >= u_tiles) return; // the whole group leaves
    uint lid = gl_LocalInvocationIndex, base = tile * uint(KPT * WG);
    uint keys[KPT];
    for (uint k = 0u; k < uint(KPT); k++) {
        uint i = base + k * uint(WG) + lid;
        keys[k] = i < u_n ? keys_in[i] : 0u;
    }
    rx_clear_whist();
    barrier();
    // One histogram per stream, to spread the shared-memory atomics.
    uint hist = rx_sg_id() * uint(RADIX);
    for (uint k = 0u; k < uint(KPT); k++)
        if (base + k * uint(WG) + lid < u_n) atomicAdd(s_whist[hist + ((keys[k] >> u_shift) & u_mask)], 1u);
    barrier();
    if (lid < uint(RADIX)) {
        uint sum = 0u;
        for (uint w = 0u; w < uint(NUM_SG); w++) sum += s_whist[w * uint(RADIX) + lid];
        table[lid * u_tiles + tile] = sum;
        if (u_count_ahead != 0u) table_next[lid * u_tiles + tile] = 0u;
    }
    if (u_count_ahead != 0u) { // uniform
        if (rx_last_group()) rx_scan_table();
    }
}
