// The dfsph integrate pass as functions (see integrate.comp for the model): integrate.comp runs it
// as its own dispatch (one thread a particle) and its last group ends the step; step.comp (the
// fused step) runs it per virtual group and reduces in the same order. The includer declares Pos
// and Vel (read and written) and includes sim/search/hash_emit.glsl; this declares the records.
#define DFSPH_CFL_LIMIT 0.4
// C twin: struct dfsph_record in src/sim/dfsph/dfsph_layout.h (checked by tests/test_layout.c).
struct Record {
    float dt, dt_cfl, cfl, err_div; // dt_cfl: the limit it was held to (Ctl.dt_lim)
    float err_dens;
    uint it_div, it_dens, capped, dropped, limited;
    uint t_rem;
    uint clk_density, clk_divergence, clk_nonpressure, clk_pressure, clk_integrate; // Ctl.clk
};
layout(std430, binding = B_RECORDS) writeonly buffer Records { Record records[]; };

// x += dt v for particle i (dt 0: an empty slot, only the hash again); returns its |v| dt / dx
// and its height above the floor.
vec2 dfsph_integrate(uint i, float dt) {
    float ratio = 0.0, height = 0.0;
    if (i < P.n) {
        vec4 x = pos[i], v = vel[i];
        float speed = length(v.xyz), limit = DFSPH_CFL_LIMIT * P.dx / dt;
        if (dt > 0.0 && speed > limit) {
            v.xyz *= limit / speed;
            atomicAdd(C.limited, 1u);
        }
        vec3 xn = x.xyz + v.xyz * dt, vn = v.xyz;
        sim_hard_walls(xn, vn);
        x.xyz = xn;
        v.xyz = vn;
        pos[i] = x;
        vel[i] = v;
        sim_hash_emit(i, x.xyz);
        ratio = length(v.xyz) * dt / P.dx;
        height = x.y - P.lo.y;
    }
    return vec2(ratio, height);
}

// The step's end, from the largest |v| dt / dx and the sum of the heights reduced over the
// particles: the frame's time and slots counted down, the step's record, the water's depth for the
// next step's bound (twice the mean height: a flat pool's mean height is half its depth), the
// step's counters cleared. Call from one thread, once.
void dfsph_integrate_record(float cfl, float hsum, float dt) {
    C.depth = 2.0 * hsum / float(max(P.n, 1u));
    C.still = dt > 0.0 ? 0u : 1u; // dfsph_density_skip
    if (dt > 0.0) {
        C.v_post = cfl * P.dx / dt;
        if (C.mode != DFSPH_MODE_FREE) C.t_rem -= min(C.dt_ticks, C.t_rem), C.t_frame -= min(C.dt_ticks, C.t_frame);
        C.steps_left = C.steps_left > 0u ? C.steps_left - 1u : 0u;
        // the frame's time (or its budget) used: the slots left run empty
        if (C.mode != DFSPH_MODE_FREE && (C.t_rem == 0u || C.t_frame == 0u)) {
            C.idle = 1u;
            C.args_step = C.args_dens = C.args_div = C.args_tail = uvec4(0u, 1u, 1u, 0u);
        }
    }
    // One record a slot (dt 0: an empty one); t_rem > 0 after a frame's last step: time the frame
    // could not finish (its slots or its budget ran out), carried to the next.
    records[C.step % uint(records.length())] = Record(dt, C.dt_lim, cfl, C.err_div, C.err_dens, C.it_div, C.it_dens, C.capped, C.dropped, C.limited, C.t_rem,
                                                     C.clk[0], C.clk[1], C.clk[2], C.clk[3], C.clk[4]);
    for (int k = 0; k < 5; k++) C.clk[k] = 0u; // the fused step writes them anew each step; other paths leave 0
    C.dropped = 0u;
    C.limited = 0u;
    C.step += 1u;
    C.capped = 0u;
}
