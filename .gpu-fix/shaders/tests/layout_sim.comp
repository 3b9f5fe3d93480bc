#version 450
// tests/test_layout.c: the SimParams block of the real shared header, for GL reflection. Every
// member of a std140 block is active, so reading one keeps the block.
#include "sim/sim_common.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer Out { uint o[]; };
void main() { o[0] = P.n; }
