// Definitions shared by every shader. Included with #include "common.glsl".
// Work-group sizes and binding points of each module live in that module's own include
// (sort/sort_common.glsl, sim/sim_common.glsl), each with its C twin named at the top.
#ifndef FLUID_COMMON_GLSL
#define FLUID_COMMON_GLSL

#define UINT_MAX 0xFFFFFFFFu

#endif
