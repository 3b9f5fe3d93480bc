// Definitions shared by every shader. Included with #include "common.glsl".
// Work-group sizes and binding points of each module come from that module's C code (the sort's
// from src/sort/sort_layout.h, passed as #defines) or its own include (sim/sim_common.glsl).
#ifndef FLUID_COMMON_GLSL
#define FLUID_COMMON_GLSL

#define UINT_MAX 0xFFFFFFFFu

#endif
