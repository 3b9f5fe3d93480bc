// ranges: after the sort, the cell table (ranges_fns.glsl): starts[c] = the first sorted index of
// cell c, for every cell and one past the last, SIM_RANGE_CELLS cells a thread. (The counting sort
// makes this table itself and the stage is skipped.)
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = B_RANGES) buffer Starts { uint starts[]; }; // the last search's entries are its guesses

#include "sim/search/ranges_fns.glsl"

void main() { sim_ranges_write(gl_GlobalInvocationID.x); }
