// The passes of a radix sort by `bits` key bits (1..32): one per RADIX_BITS-bit digit, the last
// one narrower when bits is not a multiple of RADIX_BITS. Shared by the onesweep histogram kernel
// and the producers' producer count (sort_producer_count.glsl); the C side's twin is in sort_radix.c
// (_radix_passes, _radix_mask). Needs the RADIX_* constants (src/sort/sort_layout.h).
#ifndef FLUID_RADIX_PASSES_GLSL
#define FLUID_RADIX_PASSES_GLSL

uint rx_passes(uint bits) { return (bits + uint(RADIX_BITS) - 1u) / uint(RADIX_BITS); }

// The mask of pass p's digit, after the shift by p * RADIX_BITS.
uint rx_pass_mask(uint bits, uint p) {
    uint left = bits - p * uint(RADIX_BITS);
    return left >= uint(RADIX_BITS) ? uint(RADIX - 1) : (1u << left) - 1u;
}

#endif
