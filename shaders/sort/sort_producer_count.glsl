// Producer count: what a producer shader (the one that writes the keys) includes so that it
// makes the sort's first count itself and sort_run skips that dispatch. See "Producer count"
// in src/sort/sort.h for the whole protocol; in short:
//
//   // built with sort_producer_defines(sorter) and "#define SORT_PRODUCER_BINDING 7"
//   layout(local_size_x = 128) in;
//   #include "sort/sort_producer_count.glsl"                // after the work-group size: it reads gl_WorkGroupSize
//   void main() {
//       sort_producer_begin();                        // uniform control flow, before any key
//       if (i < n) { keys[i] = key; vals[i] = i; sort_producer_add(key, bits); }
//       sort_producer_end();                          // uniform control flow, after every key
//   }
//
// SORT_PRODUCER_MODE (from sort_producer_defines):
//   1  radix (onesweep path): the digit counts of every pass, hist[(pass << width) + digit] (width:
//      rx_digit_bits), made in shared memory (RX_HIST_WORDS uints) and added to the buffer with
//      atomics
//   2  counting: the count of each key, counts[key & (2^bits - 1)], by global atomics
//   0  the sorter takes no producer count: the functions do nothing
#ifndef FLUID_SORT_PRODUCER_COUNT_GLSL
#define FLUID_SORT_PRODUCER_COUNT_GLSL

#ifndef SORT_PRODUCER_MODE
#error "build the producer with sort_producer_defines(sorter) among its defines"
#endif

#if SORT_PRODUCER_MODE == 1
#include "sort/radix_passes.glsl"
layout(std430, binding = SORT_PRODUCER_BINDING) buffer SortProducerHist { uint sort_producer_hist[]; };
shared uint s_sort_producer[RX_HIST_WORDS];

uint _sort_producer_group_size(void) { return gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z; }

void sort_producer_begin(void) {
    for (uint i = gl_LocalInvocationIndex; i < uint(RX_HIST_WORDS); i += _sort_producer_group_size())
        s_sort_producer[i] = 0u;
    barrier();
}

void sort_producer_add(uint key, uint bits) {
    uint width = rx_digit_bits(bits), passes = rx_passes(bits);
    for (uint p = 0u; p < passes; p++)
        atomicAdd(s_sort_producer[(p << width) + ((key >> (p * width)) & rx_pass_mask(bits, p))], 1u);
}

void sort_producer_end(void) {
    barrier();
    for (uint i = gl_LocalInvocationIndex; i < uint(RX_HIST_WORDS); i += _sort_producer_group_size()) {
        uint c = s_sort_producer[i];
        if (c != 0u) atomicAdd(sort_producer_hist[i], c);
    }
}

#elif SORT_PRODUCER_MODE == 2
layout(std430, binding = SORT_PRODUCER_BINDING) buffer SortProducerCounts { uint sort_producer_counts[]; };

void sort_producer_begin(void) {}
void sort_producer_add(uint key, uint bits) { atomicAdd(sort_producer_counts[key & ((1u << bits) - 1u)], 1u); }
void sort_producer_end(void) {}

#else
void sort_producer_begin(void) {}
void sort_producer_add(uint key, uint bits) {}
void sort_producer_end(void) {}
#endif

#endif
