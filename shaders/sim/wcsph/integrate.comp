// integrate: symplectic Euler (v += a dt, then x += v dt), then the hard walls: a centre that
// ends up closer than `margin` to a wall is put back at margin and its velocity into that wall is
// reversed and scaled by `restitution`. Also the next step's hash (hash_emit.glsl), so the
// search skips that dispatch.
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
#include "sim/search/hash_emit.glsl"
layout(std430, binding = B_POS_IN) buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) buffer Vel { vec4 vel[]; };
layout(std430, binding = B_ACCEL) readonly buffer Accel { vec4 accel[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    sim_hash_begin();
    if (i < P.n) {
        vec3 v = vel[i].xyz + accel[i].xyz * P.dt;
        vec3 x = pos[i].xyz + v * P.dt;
        vec3 lo = P.lo.xyz + P.margin, hi = P.hi.xyz - P.margin;
        for (int a = 0; a < 3; a++) {
            if (x[a] < lo[a]) { x[a] = lo[a]; if (v[a] < 0.0) v[a] *= -P.restitution; }
            if (x[a] > hi[a]) { x[a] = hi[a]; if (v[a] > 0.0) v[a] *= -P.restitution; }
        }
        pos[i] = vec4(x, 0.0); // w: the solver's; 0 leaves a dfsph switched to afterwards no warm start
        vel[i] = vec4(v, 0.0);
        sim_hash_emit(i, x);
    }
    sim_hash_end();
}
