#version 450
// Diffuse particles (src/sim/diffuse.c), pass 3, a thread a slot: each alive diffuse particle
// classified by its fluid neighbours within h and moved over the frame's dt:
//   fewer than DIFFUSE_SPRAY_BELOW   spray:  v += g dt (ballistic)
//   more than DIFFUSE_BUBBLE_ABOVE   bubble: dv/dt = -k_b g + (v_f - v) / T (buoyancy and drag)
//   else                             foam:   v = v_f (carried by the fluid)
// where v_f is the neighbours' velocity weighted by K(r) = (1 - r^2 / h^2)^3; then x += v dt (a
// bubble's v and x integrated exactly over dt with v_f and g held: v relaxes by exp(-dt / T)
// towards v_f - k_b g T, T = DIFFUSE_DRAG_TIME, so its motion does not depend on the frame rate),
// kept inside the tank (the velocity across a wall it meets dropped), and the lifetime shortened
// by dt. Spray with no fluid neighbour that meets a wall or the floor (landed on a dry one) lives
// at most DIFFUSE_WALL_LIFE seconds more. A particle whose lifetime ran out is dead. Counts each kind alive (integer sums: the same
// whatever the order), writes the particle back in place, a 1 (alive) or 0 at its element and the
// work group's sum.
#include "sim/diffuse/diffuse_common.glsl"

layout(local_size_x = DIFFUSE_WG) in;

layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = DIFFUSE_B_PARTS_IN) buffer Parts { vec4 parts[]; };
layout(std430, binding = DIFFUSE_B_STATE) buffer State { uint state[]; };
layout(std430, binding = DIFFUSE_B_COUNTS) writeonly buffer Counts { uint counts[]; };

uint advect(uint i) {
    vec4 x = parts[2u * i], v = parts[2u * i + 1u];
    int n = 0;
    float ksum = 0.0;
    vec3 kv = vec3(0.0);
    DIFFUSE_FOR_NEIGHBOURS(x.xyz, j) {
        vec3 d = pos[j].xyz - x.xyz;
        float r2 = dot(d, d);
        if (r2 >= P.h * P.h) continue;
        float q = 1.0 - r2 / (P.h * P.h), k = q * q * q;
        n++, ksum += k, kv += k * vel[j].xyz;
    }
    vec3 vf = ksum > 0.0 ? kv / ksum : v.xyz;
    uint kind = n < DIFFUSE_SPRAY_BELOW ? DIFFUSE_KIND_SPRAY : (n > DIFFUSE_BUBBLE_ABOVE ? DIFFUSE_KIND_BUBBLE : DIFFUSE_KIND_FOAM);
    if (kind == DIFFUSE_KIND_SPRAY) v.xyz += P.gravity.xyz * u_dt;
    else if (kind == DIFFUSE_KIND_FOAM) v.xyz = vf;
    if (kind != DIFFUSE_KIND_BUBBLE) {
        x.xyz += v.xyz * u_dt;
    } else {
        vec3 v_end = vf - DIFFUSE_K_BUOYANCY * P.gravity.xyz * DIFFUSE_DRAG_TIME, slip = v.xyz - v_end;
        float e = exp(-u_dt / DIFFUSE_DRAG_TIME);
        x.xyz += v_end * u_dt + slip * (DIFFUSE_DRAG_TIME * (1.0 - e));
        v.xyz = v_end + slip * e;
    }
    vec3 lo = P.lo.xyz + P.margin, hi = P.hi.xyz - P.margin;
    bvec3 out_lo = lessThan(x.xyz, lo), out_hi = greaterThan(x.xyz, hi);
    x.xyz = clamp(x.xyz, lo, hi);
    v.xyz = mix(v.xyz, vec3(0.0), bvec3(uvec3(out_lo) | uvec3(out_hi)));
    if (kind == DIFFUSE_KIND_SPRAY && n == 0 && (any(out_lo) || any(out_hi))) x.w = min(x.w, DIFFUSE_WALL_LIFE);
    x.w -= u_dt;
    v.w = float(kind);
    parts[2u * i] = x, parts[2u * i + 1u] = v;
    if (x.w <= 0.0) return 0u;
    atomicAdd(state[ST_KIND + kind], 1u);
    return 1u;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint alive = state[ST_ALIVE];
    uint keep = i < alive ? advect(i) : 0u;
    counts[i] = keep;
    uint total;
    diffuse_group_scan(keep, total);
    if (gl_LocalInvocationID.x == 0u) state[ST_GROUPS + gl_WorkGroupID.x] = total;
}
