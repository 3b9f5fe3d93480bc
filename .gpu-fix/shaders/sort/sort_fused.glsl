// Fused first count: what a producer shader (the one that writes the keys) includes so that it
// makes the sort's first count itself and sort_run skips that dispatch. See "Fused first count"
// in src/sort/sort.h for the whole protocol; in short:
//
//   // built with sort_fused_defines(sorter) and "#define SORT_FUSED_BINDING 7"
//   layout(local_size_x = 128) in;
//   #include "sort/sort_fused.glsl"                // after the work-group size: it reads gl_WorkGroupSize
//   void main() {
//       sort_fused_begin();                        // uniform control flow, before any key
//       if (i < n) { keys[i] = key; vals[i] = i; sort_fused_add(key, bits); }
//       sort_fused_end();                          // uniform control flow, after every key
//   }
//
// SORT_FUSED_MODE (from sort_fused_defines):
//   1  radix (onesweep path): the digit counts of every pass, hist[pass * RADIX + digit], made in
//      shared memory (RADIX_MAX_PASSES * RADIX uints) and added to the buffer with atomics
//   2  counting: the count of each key, counts[key & (2^bits - 1)], by global atomics
//   0  the sorter takes no fused count: the functions do nothing
#ifndef FLUID_SORT_FUSED_GLSL
#define FLUID_SORT_FUSED_GLSL

#ifndef SORT_FUSED_MODE
#error "build the producer with sort_fused_defines(sorter) among its defines"
#endif

#if SORT_FUSED_MODE == 1
#include "sort/radix_passes.glsl"
layout(std430, binding = SORT_FUSED_BINDING) buffer SortFusedHist { uint sort_fused_hist[]; };
shared uint s_sort_fused[RADIX_MAX_PASSES * RADIX];

uint _sort_fused_group_size(void) { return gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z; }

void sort_fused_begin(void) {
    for (uint i = gl_LocalInvocationIndex; i < uint(RADIX_MAX_PASSES * RADIX); i += _sort_fused_group_size())
        s_sort_fused[i] = 0u;
    barrier();
}

void sort_fused_add(uint key, uint bits) {
    uint passes = rx_passes(bits);
    for (uint p = 0u; p < passes; p++)
        atomicAdd(s_sort_fused[p * uint(RADIX) + ((key >> (p * uint(RADIX_BITS))) & rx_pass_mask(bits, p))], 1u);
}

void sort_fused_end(void) {
    barrier();
    for (uint i = gl_LocalInvocationIndex; i < uint(RADIX_MAX_PASSES * RADIX); i += _sort_fused_group_size()) {
        uint c = s_sort_fused[i];
        if (c != 0u) atomicAdd(sort_fused_hist[i], c);
    }
}

#elif SORT_FUSED_MODE == 2
layout(std430, binding = SORT_FUSED_BINDING) buffer SortFusedCounts { uint sort_fused_counts[]; };

void sort_fused_begin(void) {}
void sort_fused_add(uint key, uint bits) { atomicAdd(sort_fused_counts[key & ((1u << bits) - 1u)], 1u); }
void sort_fused_end(void) {}

#else
void sort_fused_begin(void) {}
void sort_fused_add(uint key, uint bits) {}
void sort_fused_end(void) {}
#endif

#endif
