// Definitions shared by the sort shaders and their C code.
// C twin: src/sort/sort_layout.h (every value here must match it; it _Static_asserts what it can).
#ifndef FLUID_SORT_COMMON_GLSL
#define FLUID_SORT_COMMON_GLSL

// Radix sort: digits of 8 bits, so a pass sorts by one byte of the key.
#define RADIX_BITS 8
#define RADIX 256

// Work-group shapes of the radix kernels.
//   tile kernels (count, scatter): RADIX_WG invocations, RADIX_KPT keys each, a tile of RADIX_TILE keys
//   scan kernel:                   RADIX_WG invocations, RADIX_SCAN_IPT table entries each per step
//   one-group kernel:              RADIX_OG_WG invocations, up to RADIX_OG_KPT keys each
#define RADIX_WG 256
#define RADIX_KPT 16
#define RADIX_TILE 4096
#define RADIX_SCAN_IPT 4
#define RADIX_OG_WG 1024
#define RADIX_OG_KPT 32

// Buffer binding points of the radix kernels.
#define RADIX_BIND_KEYS_IN 0
#define RADIX_BIND_VALS_IN 1
#define RADIX_BIND_KEYS_OUT 2
#define RADIX_BIND_VALS_OUT 3
#define RADIX_BIND_TABLE 4   // tile x digit counts, digit-major: table[digit * tiles + tile]
#define RADIX_BIND_TOTALS 5  // per-digit totals of the current pass
#define RADIX_BIND_TABLE_NEXT 6   // fused path: the next pass's table, counted with atomics
#define RADIX_BIND_TOTALS_NEXT 7  // fused path: the next pass's totals
#define RADIX_BIND_COUNTER 8      // fused path: finished work groups (the last one scans)

// Uniform locations of the radix kernels.
#define RADIX_LOC_N 0      // number of pairs
#define RADIX_LOC_SHIFT 1  // bit position of this pass's digit
#define RADIX_LOC_MASK 2   // mask of this pass's digit (after the shift); narrower in a last, partial pass
#define RADIX_LOC_TILES 3  // number of tiles (rows of the table)
#define RADIX_LOC_BITS 4   // one-group kernel: the key bits to sort by (it runs every pass itself)
#define RADIX_LOC_FUSED 5  // 0: tiles path; 1: fused path, a next pass follows; 2: fused, last pass
#define RADIX_LOC_NEXT_SHIFT 6  // fused path: the next pass's digit
#define RADIX_LOC_NEXT_MASK 7

// Fused path: the last work group of a dispatch scans the table, which holds at most this many
// tiles (the C code chooses the fused path only below it).
#define RADIX_FUSED_MAX_TILES 512

#endif
