// What the counting sort's kernels share. Needs the COUNTING_* constants of src/sort/sort_layout.h.
#ifndef FLUID_COUNTING_COMMON_GLSL
#define FLUID_COUNTING_COMMON_GLSL

// The group's index in a dispatch that the C side splits over y past 65,535 groups.
uint ct_group(void) { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

#endif
