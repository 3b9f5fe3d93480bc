// dfsph integrate: x += dt v with the velocity the pressure solve left, then the hard walls as in
// wcsph (a centre closer than `margin` to a wall is put back, its velocity into the wall removed).
// The CFL step is sized from the speeds before the pressure solve; where the solve leaves a
// particle faster than 0.4 dx / dt (a first impact), its speed is limited to that, as FleX limits
// speeds, and the step's record counts it (`limited`): the bound |v| dt <= 0.4 dx always holds.
// The largest |v| dt / dx of the step is reduced, and the last work group writes the step's
// record (read by the CPU a few frames later) and moves the frame on: its time left, in ticks, and
// once that is 0 the slots left run empty (C.idle: this pass alone runs there, with dt 0). Also the next step's hash
// (hash_emit.glsl), so the search skips that dispatch.
#version 450
#include "sim/sim_common.glsl"
#include "sim/kernel.glsl"
#include "sim/dfsph/dfsph_common.glsl"
#define DFSPH_CFL_LIMIT 0.4
layout(local_size_x = SIM_WG) in;
#include "sim/search/hash_emit.glsl"
layout(std430, binding = B_POS_IN) buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) buffer Vel { vec4 vel[]; };

// C twin: struct dfsph_record in src/sim/dfsph/dfsph_layout.h (checked by tests/test_layout.c).
struct Record {
    float dt, dt_cfl, cfl, err_div;
    float err_dens;
    uint it_div, it_dens, capped, dropped, limited;
    uint t_rem;
};
layout(std430, binding = B_RECORDS) writeonly buffer Records { Record records[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    sim_hash_begin();
    float dt = C.idle != 0u ? 0.0 : C.dt, ratio = 0.0; // an empty slot moves nothing, only hashes again
    if (i < P.n) {
        vec4 x = pos[i], v = vel[i];
        float speed = length(v.xyz), limit = DFSPH_CFL_LIMIT * P.dx / dt;
        if (dt > 0.0 && speed > limit) {
            v.xyz *= limit / speed;
            atomicAdd(C.limited, 1u);
        }
        x.xyz += v.xyz * dt;
        vec3 lo = P.lo.xyz + P.margin, hi = P.hi.xyz - P.margin;
        for (int a = 0; a < 3; a++) {
            if (x[a] < lo[a]) { x[a] = lo[a]; if (v[a] < 0.0) v[a] *= -P.restitution; }
            if (x[a] > hi[a]) { x[a] = hi[a]; if (v[a] > 0.0) v[a] *= -P.restitution; }
        }
        pos[i] = x;
        vel[i] = v;
        sim_hash_emit(i, x.xyz);
        ratio = length(v.xyz) * dt / P.dx;
    }
    if (dfsph_reduce_last(ratio, true) && gl_LocalInvocationID.x == 0u) {
        if (dt > 0.0) {
            C.v_post = s_red[0] * P.dx / dt;
            if (C.mode != DFSPH_MODE_FREE) C.t_rem -= min(C.dt_ticks, C.t_rem);
            C.steps_left = C.steps_left > 0u ? C.steps_left - 1u : 0u;
            if (C.mode != DFSPH_MODE_FREE && C.t_rem == 0u) { // the frame's time used: the slots left run empty
                C.idle = 1u;
                C.args_step = C.args_dens = C.args_div = uvec4(0u, 1u, 1u, 0u);
            }
        }
        // One record a slot (dt 0: an empty one); t_rem > 0 after a frame's last slot: time the
        // frame could not finish, carried to the next.
        records[C.step % uint(records.length())] = Record(dt, C.dt_cfl, s_red[0], C.err_div, C.err_dens, C.it_div, C.it_dens, C.capped, C.dropped, C.limited, C.t_rem);
        C.dropped = 0u;
        C.limited = 0u;
        C.step += 1u;
        C.capped = 0u;
    }
    sim_hash_end();
}
