// dfsph integrate: x += dt v with the velocity the pressure solve left, then the hard walls as in
// wcsph (a centre closer than `margin` to a wall is put back, its velocity into the wall removed).
// The CFL step is sized from the speeds before the pressure solve; where the solve leaves a
// particle faster than 0.4 dx / dt (a first impact), its speed is limited to that, as FleX limits
// speeds, and the step's record counts it (`limited`): the bound |v| dt <= 0.4 dx always holds.
// The largest |v| dt / dx of the step is reduced, and the last work group writes the step's
// record (read by the CPU a few frames later) and moves the frame on: its time left, in ticks, and
// once that is 0 the slots left run empty (C.idle: this pass alone runs there, with dt 0). Also the next step's hash
// (hash_emit.glsl), so the search skips that dispatch.
// The pass itself is in integrate_pass.glsl (dfsph_integrate, dfsph_integrate_record), which the fused step (step.comp) runs too.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/search/hash_emit.glsl"
layout(std430, binding = B_POS_IN) buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) buffer Vel { vec4 vel[]; };

#include "sim/dfsph/integrate_pass.glsl"

void main() {
    sim_hash_begin();
    float dt = C.idle != 0u ? 0.0 : C.dt; // an empty slot moves nothing, only hashes again
    uint groups = gl_NumWorkGroups.x, g = gl_WorkGroupID.x;
    vec2 r = _dfsph_group_max_sum(dfsph_integrate(gl_GlobalInvocationID.x, dt)); // |v| dt / dx's largest, the heights' sum
    if (gl_LocalInvocationID.x == 0u) C.partial[g] = r.x, C.partial[groups + g] = r.y;
    if (dfsph_last_group()) {
        r = dfsph_reduce_partials_max_sum(uvec2(0u, groups), groups);
        if (gl_LocalInvocationID.x == 0u) dfsph_integrate_record(r.x, r.y, dt);
    }
    sim_hash_end();
}
