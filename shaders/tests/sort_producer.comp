#version 450
// A producer for the producer-count test (tests/test_sort_rig.h): copies n (key, value) pairs
// from a source pair into the sort's input pair and makes the sorter's first count on the way,
// as the simulation's hash stage would. Loader defines: sort_producer_defines(sorter),
// SORT_PRODUCER_BINDING, WG.
layout(local_size_x = WG) in;

#include "sort/sort_producer_count.glsl" // after the work-group size (it reads gl_WorkGroupSize)

layout(std430, binding = 0) readonly buffer SrcKeys { uint src_keys[]; };
layout(std430, binding = 1) readonly buffer SrcVals { uint src_vals[]; };
layout(std430, binding = 2) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = 3) writeonly buffer Vals { uint vals[]; };

layout(location = 0) uniform uint u_n;
layout(location = 1) uniform uint u_bits;

void main() {
    sort_producer_begin();
    uint i = gl_GlobalInvocationID.x;
    if (i < u_n) {
        uint key = src_keys[i];
        keys[i] = key;
        vals[i] = src_vals[i];
        sort_producer_add(key, u_bits);
    }
    sort_producer_end();
}
