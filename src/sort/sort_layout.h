/* sort_layout: the constants the sort shaders and their C code share, defined HERE ONLY.
 *
 * Each constant is one X(name, value) line of SORT_LAYOUT. C sees them as enum constants; the
 * shaders get them as #define lines (SORT_LAYOUT_GLSL_TEXT, a string built from the same list at
 * compile time) that sort_radix.c, sort_counting.c and sort_bitonic.c pass to shader_make_compute. The shaders hold no
 * copy: a shader that used a name not listed here would fail to compile.
 *
 * The sort's shaders use no struct or uniform blocks (only arrays of uint in storage blocks and
 * plain uniforms at fixed locations), so there is no struct layout to twin.
 */
#ifndef FLUID_SORT_LAYOUT_H
#define FLUID_SORT_LAYOUT_H

/* clang-format off */
#define SORT_LAYOUT(X)                                                                            \
    /* Radix sort: digits of 8 bits, so a pass sorts by one byte of the key; the onesweep path     \
     * takes 9 where that saves a pass (9, 17-18 and 25-27 bits: sort_radix.c, radix_passes.glsl). */ \
    X(RADIX_BITS, 8)                                                                              \
    X(RADIX, 256)                                                                                 \
    X(RADIX_WIDE_BITS, 9)                                                                         \
    X(RADIX_WIDE, 512)                                                                            \
    /* Work-group shapes: tile kernels (count, scatter) RADIX_WG invocations x RADIX_KPT keys;    \
     * scan RADIX_WG x RADIX_SCAN_IPT entries a step; one-group kernel RADIX_OG_WG x RADIX_OG_KPT; \
     * onesweep histogram RADIX_HIST_WG x (a loader define, sort_radix.c) keys a group. */       \
    X(RADIX_WG, 256)                                                                              \
    X(RADIX_KPT, 16)                                                                              \
    X(RADIX_TILE, 4096)                                                                           \
    X(RADIX_SCAN_IPT, 4)                                                                          \
    X(RADIX_OG_WG, 1024)                                                                          \
    X(RADIX_OG_KPT, 32)                                                                           \
    X(RADIX_HIST_WG, 256)                                                                         \
    X(RADIX_MAX_PASSES, 4)                                                                        \
    /* Every sort kernel's gate (sort.h, "Gate"; shaders/sort/sort_gate.glsl): above the families'       \
     * own bindings and locations. */                                                             \
    X(SORT_BIND_GATE, 14)         /* the caller's gate words */                                   \
    X(SORT_LOC_GATE, 11)          /* 0, or 1 + the index of the gate word */                      \
    /* Buffer binding points of the radix kernels. */                                            \
    X(RADIX_BIND_KEYS_IN, 0)                                                                      \
    X(RADIX_BIND_VALS_IN, 1)                                                                      \
    X(RADIX_BIND_KEYS_OUT, 2)                                                                     \
    X(RADIX_BIND_VALS_OUT, 3)                                                                     \
    X(RADIX_BIND_TABLE, 4)        /* tile x digit counts, digit-major: table[digit * tiles + tile] */ \
    X(RADIX_BIND_TOTALS, 5)       /* per-digit totals of the current pass */                      \
    X(RADIX_BIND_TABLE_NEXT, 6)   /* count-ahead path: the next pass's table, counted with atomics */   \
    X(RADIX_BIND_TOTALS_NEXT, 7)  /* count-ahead path: the next pass's totals */                        \
    X(RADIX_BIND_COUNTER, 8)      /* count-ahead path: finished work groups (the last one scans) */     \
    X(RADIX_BIND_HIST, 9)         /* onesweep: digit counts of every pass, hist[pass * RADIX + d] */ \
    X(RADIX_BIND_HIST_NEXT, 10)   /* onesweep: the next sort's histograms, cleared by pass 0 */   \
    X(RADIX_BIND_STATUS, 11)      /* onesweep: look-back words of this scatter, [tile * RADIX + d] */ \
    X(RADIX_BIND_STATUS_NEXT, 12) /* onesweep: the next scatter's look-back words, cleared here */ \
    X(RADIX_BIND_TICKETS, 13)     /* onesweep: tile-id counters, [parity] */                      \
    /* Uniform locations of the radix kernels. */                                                 \
    X(RADIX_LOC_N, 0)             /* number of pairs */                                           \
    X(RADIX_LOC_SHIFT, 1)         /* bit position of this pass's digit */                         \
    X(RADIX_LOC_MASK, 2)          /* mask of this pass's digit (after the shift) */               \
    X(RADIX_LOC_TILES, 3)         /* number of tiles (rows of the table) */                       \
    X(RADIX_LOC_BITS, 4)          /* one-group and histogram kernels: the key bits to sort by */  \
    X(RADIX_LOC_COUNT_AHEAD, 5)         /* 0: tiles path; 1: count-ahead, a next pass follows; 2: count-ahead, last */ \
    X(RADIX_LOC_NEXT_SHIFT, 6)    /* count-ahead path: the next pass's digit */                         \
    X(RADIX_LOC_NEXT_MASK, 7)                                                                     \
    X(RADIX_LOC_PASS, 8)          /* onesweep: this pass (its row of the histograms) */           \
    X(RADIX_LOC_PARITY, 9)        /* onesweep: this scatter's ticket counter (the other is reset) */ \
    X(RADIX_LOC_CLEAR_ROWS, 10)   /* onesweep: tile rows of the next look-back buffer to clear */ \
    /* Count-ahead path: the last work group of a dispatch scans the table, which holds at most this    \
     * many tiles (the C code chooses the count-ahead path only below it). */                          \
    X(RADIX_COUNT_AHEAD_MAX_TILES, 512)                                                                 \
    /* Counting sort. */                                                                          \
    X(COUNTING_WG, 256)           /* count, scatter and order kernels */                          \
    X(COUNTING_SCAN_WG, 256)      /* scan kernel: blocks of COUNTING_SCAN_WG x COUNTING_SCAN_IPT counts */ \
    X(COUNTING_SCAN_IPT, 8)                                                                       \
    X(COUNTING_BIND_KEYS_IN, 0)                                                                   \
    X(COUNTING_BIND_VALS_IN, 1)                                                                   \
    X(COUNTING_BIND_KEYS_OUT, 2)                                                                  \
    X(COUNTING_BIND_VALS_OUT, 3)                                                                  \
    X(COUNTING_BIND_COUNTS, 4)    /* keys of each value; zero between sorts (the scatter clears them) */ \
    X(COUNTING_BIND_STARTS, 5)    /* exclusive prefix sums of the counts, K + 1 entries */        \
    X(COUNTING_BIND_TICKET, 6)    /* the scan's block-id counter */                               \
    X(COUNTING_BIND_SLOTS, 7)     /* each key's slot in its key's run (the count's atomicAdd) */  \
    X(COUNTING_BIND_STATUS, 8)    /* the scan's look-back words, one a block */                   \
    X(COUNTING_LOC_N, 0)                                                                          \
    X(COUNTING_LOC_MASK, 1)       /* keys are looked at through this mask: K = mask + 1 */        \
    X(COUNTING_LOC_PRODUCER, 2)      /* scatter: 1 = a producer made the counts (no slots): take    \
                                     slots by counting down */                                    \
    X(COUNTING_LOC_BLOCKS, 3)     /* scan: blocks of counts; count: look-back words to clear */   \
    /* Bitonic sort: binding points and uniform locations (its sizes stay in sort_bitonic.c). */   \
    X(BITONIC_BIND_IN_KEYS, 0)    /* block kernel's input (may be the output buffers) */          \
    X(BITONIC_BIND_IN_VALS, 1)                                                                    \
    X(BITONIC_BIND_KEYS, 2)       /* the padded working copy */                                   \
    X(BITONIC_BIND_VALS, 3)                                                                       \
    X(BITONIC_LOC_N, 0)           /* block sort: the caller's pair count */                       \
    X(BITONIC_LOC_K, 1)           /* merge size */                                                \
    X(BITONIC_LOC_JBOT_LOG2, 2)   /* global: log2 of the smallest stride of the pass */           \
    X(BITONIC_LOC_THREADS, 3)     /* global: padded size / 2^levels */                            \
    /* Producer count (sort_producer_count.glsl): the producer's histogram mode. */                     \
    X(SORT_PRODUCER_RADIX, 1)                                                                        \
    X(SORT_PRODUCER_COUNTING, 2)
/* clang-format on */

#define SORT_LAYOUT_ENUM(name, value) name = (value),
enum { SORT_LAYOUT(SORT_LAYOUT_ENUM) };
#undef SORT_LAYOUT_ENUM

/* The same list as GLSL #define lines, for shader_make_compute's `defines`. */
#define SORT_LAYOUT_GLSL(name, value) "#define " #name " " #value "\n"
#define SORT_LAYOUT_GLSL_TEXT SORT_LAYOUT(SORT_LAYOUT_GLSL)

_Static_assert(RADIX == 1 << RADIX_BITS && RADIX_WIDE == 1 << RADIX_WIDE_BITS, "RADIX is 2^RADIX_BITS");
_Static_assert(RADIX_WIDE % RADIX_WG == 0, "the wide scatter's invocations take whole digits");
_Static_assert(RADIX_TILE == RADIX_WG * RADIX_KPT, "a tile is RADIX_WG invocations x RADIX_KPT keys");
_Static_assert(RADIX_WG >= RADIX && RADIX_OG_WG >= RADIX && RADIX_HIST_WG >= RADIX, "the kernels give each digit one invocation");
_Static_assert(RADIX_TILE <= 1 << 16 && RADIX_OG_KPT * 128 < 1 << 24, "ranks are packed with the digit in a uint");
_Static_assert(RADIX_MAX_PASSES *RADIX_BITS == 32, "four passes cover a 32-bit key");
_Static_assert(COUNTING_SCAN_WG >= 64 && (COUNTING_SCAN_WG & (COUNTING_SCAN_WG - 1)) == 0, "the counting scan");
_Static_assert((COUNTING_SCAN_WG * COUNTING_SCAN_IPT & (COUNTING_SCAN_WG * COUNTING_SCAN_IPT - 1)) == 0,
               "counting scan blocks divide every power-of-two count array or hold it whole");

#endif
