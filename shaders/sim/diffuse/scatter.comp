#version 450
// Diffuse particles (src/sim/diffuse.c), pass 5, a thread an element: each survivor (a slot's
// element) copied to its slot in the other buffer, and each fluid particle's new ones written at
// theirs: its element's place in the scan (the work group's prefix from the scan pass plus the
// element's within the group). A slot at or past the capacity is not written (dropped; the scan
// counted it). A new one, the k-th of fluid particle i (after Ihmsen et al.): in a cylinder
// around i along its velocity, at a distance r = DIFFUSE_SPAWN_R h sqrt(X_r) across it at angle
// 2 pi X_t and X_h |v_i| dt along it; its velocity v_i plus DIFFUSE_SPAWN_SPREAD |v_i| across;
// its lifetime DIFFUSE_LIFE_MIN .. 1 of u_lifetime by X_l; foam until the next advection
// classifies it. X_* = diffuse_rand(id_i, frame, 4k + 0..3).
#include "sim/diffuse/diffuse_common.glsl"

layout(local_size_x = DIFFUSE_WG) in;
layout(location = 7) uniform float u_lifetime;  // the longest, seconds

layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_ID_IN) readonly buffer Ids { uint ids[]; };
layout(std430, binding = DIFFUSE_B_PARTS_IN) readonly buffer PartsIn { vec4 parts_in[]; };
layout(std430, binding = DIFFUSE_B_PARTS_OUT) writeonly buffer PartsOut { vec4 parts_out[]; };
layout(std430, binding = DIFFUSE_B_STATE) readonly buffer State { uint state[]; };
layout(std430, binding = DIFFUSE_B_COUNTS) readonly buffer Counts { uint counts[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    bool fluid = e >= u_slots;
    uint i = e - u_slots;
    uint c = (!fluid || i < P.n) ? counts[e] : 0u;
    uint total;
    uint slot = state[ST_GROUPS + gl_WorkGroupID.x] + diffuse_group_scan(c, total);
    if (c == 0u) return;
    if (!fluid) {
        if (slot < u_capacity) parts_out[2u * slot] = parts_in[2u * e], parts_out[2u * slot + 1u] = parts_in[2u * e + 1u];
        return;
    }
    vec3 xi = pos[i].xyz, vi = vel[i].xyz;
    float speed = length(vi);
    vec3 a = speed > 0.0 ? vi / speed : vec3(0.0, 1.0, 0.0);
    vec3 e1 = normalize(abs(a.x) < 0.9 ? cross(a, vec3(1.0, 0.0, 0.0)) : cross(a, vec3(0.0, 1.0, 0.0))), e2 = cross(a, e1);
    uint id = ids[i];
    for (uint k = 0u; k < c && slot + k < u_capacity; k++) {
        float xr = diffuse_rand(id, u_frame, 4u * k), xt = diffuse_rand(id, u_frame, 4u * k + 1u);
        float xh = diffuse_rand(id, u_frame, 4u * k + 2u), xl = diffuse_rand(id, u_frame, 4u * k + 3u);
        float r = DIFFUSE_SPAWN_R * P.h * sqrt(xr), th = 6.2831853 * xt;
        vec3 across = cos(th) * e1 + sin(th) * e2;
        vec3 x = xi + r * across + xh * vi * u_dt;
        vec3 v = vi + DIFFUSE_SPAWN_SPREAD * speed * across;
        float life = u_lifetime * (DIFFUSE_LIFE_MIN + (1.0 - DIFFUSE_LIFE_MIN) * xl);
        parts_out[2u * (slot + k)] = vec4(x, life);
        parts_out[2u * (slot + k) + 1u] = vec4(v, float(DIFFUSE_KIND_FOAM));
    }
}
