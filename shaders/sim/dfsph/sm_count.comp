// dfsph sm_count: the GPU's multiprocessors (GL_NV_shader_thread_group), read once to size the
// persistent solve's grid (src/sim/dfsph/dfsph.c); NVIDIA only.
#version 450
#extension GL_NV_shader_thread_group : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer Out { uint sm_out; };
void main() { sm_out = gl_SMCountNV; }
