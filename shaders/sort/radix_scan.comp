#version 450
// Radix sort, the scan of one pass: work group d turns column d of the table (the counts of digit
// d in tile 0, 1, ...) into its exclusive prefix sums, in place, and writes the column's sum to
// totals[d]. Dispatched as RADIX groups.
// Loader defines: WG = RADIX_WG, USE_SUBGROUP, SG_SIZE or EMU_SG.
#include "sort/radix_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = WG) in;

layout(std430, binding = RADIX_BIND_TABLE) buffer Table { uint table[]; };
layout(std430, binding = RADIX_BIND_TOTALS) writeonly buffer Totals { uint totals[]; };

layout(location = RADIX_LOC_TILES) uniform uint u_tiles;

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint lid = gl_LocalInvocationIndex, column = gl_WorkGroupID.x * u_tiles, carry = 0u;
    for (uint step = 0u; step < u_tiles; step += uint(WG * RADIX_SCAN_IPT)) { // uniform
        uint first = step + lid * uint(RADIX_SCAN_IPT), v[RADIX_SCAN_IPT], sum = 0u;
        for (uint j = 0u; j < uint(RADIX_SCAN_IPT); j++) {
            v[j] = first + j < u_tiles ? table[column + first + j] : 0u;
            sum += v[j];
        }
        uint all;
        uint run = carry + rx_wg_exclusive_scan(sum, all);
        for (uint j = 0u; j < uint(RADIX_SCAN_IPT); j++) {
            if (first + j < u_tiles) table[column + first + j] = run;
            run += v[j];
        }
        carry += all;
    }
    if (lid == 0u) totals[gl_WorkGroupID.x] = carry;
}
