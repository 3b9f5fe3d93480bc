// Definitions shared by the diffuse particles' passes (src/sim/diffuse.c says what each does; the
// constants and bindings DIFFUSE_* come from there as #defines). A pass runs once a frame, after
// its last step, over the fluid in the order of the frame's last search and that search's cell
// table (ranges at B_RANGES), so the neighbour walk below is the simulation's own.
#ifndef FLUID_DIFFUSE_COMMON_GLSL
#define FLUID_DIFFUSE_COMMON_GLSL
#include "sim/sim_common.glsl"

layout(location = 0) uniform float u_dt;     // the frame's seconds
layout(location = 1) uniform uint u_frame;   // frames updated before this one (the hash's seed)
layout(location = 2) uniform uint u_capacity;  // slots
layout(location = 3) uniform uint u_slots;   // slots rounded up to DIFFUSE_WG: the first fluid element
layout(location = 4) uniform uint u_groups;  // work groups of the (slots + fluid) elements

// The state block: std430 uints (sim_diffuse_state in diffuse.c).
#define ST_ARGS 0      // 3 uints: the indirect dispatch over the alive ones, 64 threads a group
#define ST_ALIVE 3
#define ST_KIND 4      // 3 uints: spray, foam, bubbles
#define ST_SPAWNED 7
#define ST_DROPPED 8
#define ST_DROPPED_LO 9
#define ST_DROPPED_HI 10
#define ST_FRAMES 11
#define ST_GROUPS 16   // a work group's sum, then (after the scan) its exclusive prefix

// W(r) = 1 - r / h within h: the paper's radially symmetric weight.
float diffuse_w(float r) { return max(1.0 - r / P.h, 0.0); }

// Phi: I clamped into [0, 1] between the thresholds lo and hi.
float diffuse_phi(float I, float lo, float hi) { return (min(I, hi) - min(I, lo)) / (hi - lo); }

// A hash (PCG's output permutation) into [0, 1): the same for the same inputs on every run.
uint diffuse_pcg(uint v) {
    uint s = v * 747796405u + 2891336453u;
    uint w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
    return (w >> 22u) ^ w;
}
float diffuse_rand(uint id, uint frame, uint k) {
    return float(diffuse_pcg(id ^ diffuse_pcg(frame ^ diffuse_pcg(k))) >> 8u) * (1.0 / 16777216.0);
}

// The cells of the walk around p: every cell within h (one each side where cells are h wide, two
// where they are h/2). For each row of cells, j runs over the particles j0 .. j1 - 1 of that row
// (each of its cells, in a brick order: sim_run_end).
#define DIFFUSE_FOR_NEIGHBOURS(p, j)                                                                      \
    ivec3 c_ = sim_cell_of(p);                                                                            \
    int reach_ = int(ceil(P.h * P.inv_cell - 1e-3));                                                      \
    ivec3 dims_ = ivec3(P.dims.xyz);                                                                      \
    for (int z_ = max(c_.z - reach_, 0); z_ <= min(c_.z + reach_, dims_.z - 1); z_++)                    \
        for (int y_ = max(c_.y - reach_, 0); y_ <= min(c_.y + reach_, dims_.y - 1); y_++)                \
            for (int x1_ = min(c_.x + reach_, dims_.x - 1), xs_ = max(c_.x - reach_, 0), xe_ = sim_run_end(xs_, x1_); \
                 xs_ <= x1_; xs_ = xe_ + 1, xe_ = sim_run_end(xs_, x1_))                                  \
                for (uint j = ranges[sim_cell_key(ivec3(xs_, y_, z_))],                                   \
                          j1_ = ranges[sim_cell_key(ivec3(xe_, y_, z_)) + 1u];                            \
                     j < j1_; j++)

// Exclusive prefix of each thread's v within a work group of DIFFUSE_WG (shared memory, Hillis-Steele).
shared uint s_scan[DIFFUSE_WG];
uint diffuse_group_scan(uint v, out uint total) {
    uint t = gl_LocalInvocationID.x;
    s_scan[t] = v;
    barrier();
    for (uint d = 1u; d < DIFFUSE_WG; d <<= 1u) {
        uint add = t >= d ? s_scan[t - d] : 0u;
        barrier();
        s_scan[t] += add;
        barrier();
    }
    total = s_scan[DIFFUSE_WG - 1u];
    uint inclusive = s_scan[t];
    barrier();
    return inclusive - v;
}

#endif
