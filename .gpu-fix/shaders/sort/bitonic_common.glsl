// Bitonic sort: what the block and global kernels share. Included by bitonic_block.comp and
// bitonic_global.comp. Sizes come from sort_bitonic.c as defines (BITONIC_BLOCK, BITONIC_LEVELS,
// BITONIC_GLOBAL_WG), so they are defined in one place only: the C file.
#ifndef FLUID_BITONIC_COMMON_GLSL
#define FLUID_BITONIC_COMMON_GLSL
#include "common.glsl"

// The padding pair (key, value) = (UINT_MAX, UINT_MAX): not less than any real pair, and equal
// only to a real pair that is identical to it, so it can never displace a real pair from the
// first n places.
#define BITONIC_PAD UINT_MAX

// Pairs are ordered by (key, value). Puts the smaller pair first when asc, the larger otherwise.
void bitonic_cx(inout uint ka, inout uint va, inout uint kb, inout uint vb, bool asc) {
    bool a_greater = ka > kb || (ka == kb && va > vb);
    if (a_greater == asc) {
        uint t = ka; ka = kb; kb = t;
        t = va; va = vb; vb = t;
    }
}

// The work-group index of a 2-D dispatch (x varies fastest): dispatches of more than 65,535
// groups are split over y by the C side.
uint bitonic_group_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

#endif
