// The passes of a radix sort by `bits` key bits (1..32): one per digit, the last one narrower when
// bits is not a multiple of the digit width. The digits are RADIX_BITS wide, or RADIX_WIDE_BITS where
// that takes a pass fewer (9, 17-18 and 25-27 bits) and the sorter has the wide scatter (RX_WIDE 1, a
// loader define; 0 when not given). Shared by the onesweep histogram kernel and the producers'
// producer count (sort_producer_count.glsl), whose histograms hold pass p's counts from
// p * 2^width; the C side's twin is in sort_radix.c (_radix_digit_bits, _radix_passes, _radix_mask).
// Needs the RADIX_* constants (src/sort/sort_layout.h).
#ifndef FLUID_RADIX_PASSES_GLSL
#define FLUID_RADIX_PASSES_GLSL

#ifndef RX_WIDE
#define RX_WIDE 0
#endif

// RX_HIST_WORDS (a loader define): the histograms' words, every pass of the widest key a sort
// may be given (sort_radix.c's _radix_hist_words).
#ifndef RX_HIST_WORDS
#error "build with the radix sorter's defines (RX_HIST_WORDS)"
#endif

uint rx_digit_bits(uint bits) {
#if RX_WIDE
    uint w = uint(RADIX_WIDE_BITS), b = uint(RADIX_BITS);
    if ((bits + w - 1u) / w < (bits + b - 1u) / b) return w;
#endif
    return uint(RADIX_BITS);
}

uint rx_passes(uint bits) {
    uint w = rx_digit_bits(bits);
    return (bits + w - 1u) / w;
}

// The mask of pass p's digit, after the shift by p * rx_digit_bits(bits).
uint rx_pass_mask(uint bits, uint p) {
    uint w = rx_digit_bits(bits), left = bits - p * w;
    return left >= w ? (1u << w) - 1u : (1u << left) - 1u;
}

#endif
