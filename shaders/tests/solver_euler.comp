#version 450
// tests/solver_euler: the tests' third solver's one pass: explicit (symplectic) Euler under gravity
// alone, v += g dt then x += v dt, the centres kept `margin` inside the tank (velocity into a wall
// zeroed). No pressure, no viscosity: a solver small enough to show what a new solver needs.
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) buffer Vel { vec4 vel[]; };
layout(location = 0) uniform float u_dt;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= P.n) return;
    vec3 v = vel[i].xyz + P.gravity.xyz * u_dt;
    vec3 x = pos[i].xyz + v * u_dt;
    vec3 lo = P.lo.xyz + P.margin, hi = P.hi.xyz - P.margin;
    for (int a = 0; a < 3; a++) {
        if (x[a] < lo[a]) { x[a] = lo[a]; v[a] = 0.0; }
        if (x[a] > hi[a]) { x[a] = hi[a]; v[a] = 0.0; }
    }
    pos[i] = vec4(x, 0.0);
    vel[i] = vec4(v, 0.0);
}
