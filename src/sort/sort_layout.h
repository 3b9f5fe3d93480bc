/* sort_layout: the constants the sort shaders and their C code share.
 * GLSL twin: shaders/sort/sort_common.glsl (every value here must match it). */
#ifndef FLUID_SORT_LAYOUT_H
#define FLUID_SORT_LAYOUT_H

#define RADIX_BITS 8
#define RADIX 256

#define RADIX_WG 256
#define RADIX_KPT 16
#define RADIX_TILE 4096
#define RADIX_SCAN_IPT 4
#define RADIX_OG_WG 1024
#define RADIX_OG_KPT 32

#define RADIX_BIND_KEYS_IN 0
#define RADIX_BIND_VALS_IN 1
#define RADIX_BIND_KEYS_OUT 2
#define RADIX_BIND_VALS_OUT 3
#define RADIX_BIND_TABLE 4
#define RADIX_BIND_TOTALS 5
#define RADIX_BIND_TABLE_NEXT 6
#define RADIX_BIND_TOTALS_NEXT 7
#define RADIX_BIND_COUNTER 8

#define RADIX_LOC_N 0
#define RADIX_LOC_SHIFT 1
#define RADIX_LOC_MASK 2
#define RADIX_LOC_TILES 3
#define RADIX_LOC_BITS 4
#define RADIX_LOC_FUSED 5
#define RADIX_LOC_NEXT_SHIFT 6
#define RADIX_LOC_NEXT_MASK 7

#define RADIX_FUSED_MAX_TILES 512

_Static_assert(RADIX == 1 << RADIX_BITS, "RADIX is 2^RADIX_BITS");
_Static_assert(RADIX_TILE == RADIX_WG * RADIX_KPT, "a tile is RADIX_WG invocations x RADIX_KPT keys");
_Static_assert(RADIX_WG >= RADIX && RADIX_OG_WG >= RADIX, "the kernels give each digit one invocation");
_Static_assert(RADIX_TILE <= 1 << 16 && RADIX_OG_KPT * 128 < 1 << 24, "ranks are packed with the digit in a uint");

#endif
