#version 450
// compare (src/sim/compare.c): counts the pairs where one sort's result differs from the driving
// sort's (key or value), into counts[slot] with an atomic; one thread a pair.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer AKeys { uint a_keys[]; };
layout(std430, binding = 1) readonly buffer AVals { uint a_vals[]; };
layout(std430, binding = 2) readonly buffer BKeys { uint b_keys[]; };
layout(std430, binding = 3) readonly buffer BVals { uint b_vals[]; };
layout(std430, binding = 4) buffer Counts { uint counts[]; };
layout(location = 0) uniform uint n;
layout(location = 1) uniform uint slot;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    if (a_keys[i] != b_keys[i] || a_vals[i] != b_vals[i]) atomicAdd(counts[slot], 1u);
}
