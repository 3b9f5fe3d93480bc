#version 450
// Test shader: out[i] = FILL_VALUE + i. FILL_VALUE comes from the loader's defines.
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint data[]; };
layout(location = 0) uniform uint n;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) data[i] = FILL_VALUE + i;
}
