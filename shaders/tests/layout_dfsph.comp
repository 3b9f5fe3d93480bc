#version 450
// tests/test_layout.c: DFSPH's own uniform block (DfsphParams in the real sim/dfsph/dfsph_common.glsl),
// for GL reflection. Every member of a std140 block is active, so reading one keeps the block.
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer Out { uint o[]; };
void main() { o[0] = D.min_neighbours; }
