#version 450
// tests/test_layout.c: the sort library's shared binding points and uniform locations, declared
// from the real shared header, for GL reflection (each must equal its C twin in sort_layout.h).
#include "sort/sort_common.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = RADIX_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = RADIX_BIND_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = RADIX_BIND_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = RADIX_BIND_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };
layout(std430, binding = RADIX_BIND_TABLE) buffer Table { uint table[]; };
layout(std430, binding = RADIX_BIND_TOTALS) buffer Totals { uint totals[]; };
layout(std430, binding = RADIX_BIND_TABLE_NEXT) buffer TableNext { uint table_next[]; };
layout(std430, binding = RADIX_BIND_TOTALS_NEXT) buffer TotalsNext { uint totals_next[]; };
layout(std430, binding = RADIX_BIND_COUNTER) buffer Counter { uint counter; };
layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_SHIFT) uniform uint u_shift;
layout(location = RADIX_LOC_MASK) uniform uint u_mask;
layout(location = RADIX_LOC_TILES) uniform uint u_tiles;
layout(location = RADIX_LOC_BITS) uniform uint u_bits;
layout(location = RADIX_LOC_COUNT_AHEAD) uniform uint u_count_ahead;
layout(location = RADIX_LOC_NEXT_SHIFT) uniform uint u_next_shift;
layout(location = RADIX_LOC_NEXT_MASK) uniform uint u_next_mask;
void main() {
    uint s = u_n + u_shift + u_mask + u_tiles + u_bits + u_count_ahead + u_next_shift + u_next_mask;
    keys_out[0] = keys_in[0] + s + table[0] + totals[0] + table_next[0] + totals_next[0] + counter;
    vals_out[0] = vals_in[0];
}
