#version 450
// Radix sort, onesweep path, the one upsweep of a sort: the digit counts of every pass at once,
// hist[(pass << width) + digit] (width: rx_digit_bits, 8 or 9), so the keys are read once for all
// passes. Each group counts RADIX_HIST_WG x HKPT keys into shared memory (all its keys loaded first), then adds its non-zero
// counts to the global histograms with atomics. HKPT is small for small n (more groups, less
// latency) and large for large n (fewer global atomics). The histograms start at zero: the previous sort's first scatter
// cleared them (radix_onesweep.comp), or the buffer is new.
// Loader defines: HKPT, RX_WIDE and RX_HIST_WORDS (radix_passes.glsl), and the RADIX_* constants
// of src/sort/sort_layout.h.
#include "sort/radix_passes.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = RADIX_HIST_WG) in;

layout(std430, binding = RADIX_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = RADIX_BIND_HIST) buffer Hist { uint hist[]; };

layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_BITS) uniform uint u_bits;

shared uint s_hist[RX_HIST_WORDS];

void main() {
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl)
    uint lid = gl_LocalInvocationIndex;
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint base = group * uint(RADIX_HIST_WG * HKPT);
    uint width = rx_digit_bits(u_bits), passes = rx_passes(u_bits);
    uint keys[HKPT];
    for (uint k = 0u; k < uint(HKPT); k++) {
        uint i = base + k * uint(RADIX_HIST_WG) + lid;
        keys[k] = i < u_n ? keys_in[i] : 0u;
    }
    for (uint i = lid; i < uint(RX_HIST_WORDS); i += uint(RADIX_HIST_WG)) s_hist[i] = 0u;
    barrier();
    for (uint k = 0u; k < uint(HKPT); k++) {
        if (base + k * uint(RADIX_HIST_WG) + lid < u_n) {
            for (uint p = 0u; p < passes; p++)
                atomicAdd(s_hist[(p << width) + ((keys[k] >> (p * width)) & rx_pass_mask(u_bits, p))], 1u);
        }
    }
    barrier();
    for (uint i = lid; i < passes << width; i += uint(RADIX_HIST_WG)) {
        uint c = s_hist[i];
        if (c != 0u) atomicAdd(hist[i], c);
    }
}
