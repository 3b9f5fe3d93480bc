#version 450
// Diffuse particles (src/sim/diffuse.c), pass 2, a thread a fluid particle: the spawn potentials
// of Ihmsen et al. (2012), over its neighbours j within h (j != i, W(r) = 1 - r / h):
//   trapped air  I_ta = sum_j |v_ij| (1 - v^_ij . x^_ij) W(r)          (v_ij = v_i - v_j, x_ij = x_i - x_j)
//   wave crest   I_wc = sum_j (1 - n^_i . n^_j) W(r), over the surface neighbours (n_j != 0) below
//                i's surface ((x_j - x_i) . n^_i < 0), where i is a surface particle moving along its
//                normal (v^_i . n^_i >= DIFFUSE_CREST_VN), else 0
//   energy       I_k = |v_i|^2 / 2 (a kilogram's)
// (the thresholds of I_k and I_ta in units of the scene's speed U = sqrt(|g| tank height): U^2 and U)
// each clamped into [0, 1] (diffuse_phi), and the count it spawns this frame,
//   n = Phi_k (k_ta Phi_ta + k_wc Phi_wc) dt,
// its fraction rounded up with the probability of the fraction (diffuse_rand of its id and the
// frame), at most DIFFUSE_MAX_SPAWN. Writes the count at element u_slots + i and the work group's
// sum (the scan's input).
#include "sim/diffuse/diffuse_common.glsl"

layout(local_size_x = DIFFUSE_WG) in;

layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_VEL_IN) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = B_ID_IN) readonly buffer Ids { uint ids[]; };
layout(std430, binding = DIFFUSE_B_NORMALS) readonly buffer Normals { vec4 normals[]; };
layout(std430, binding = DIFFUSE_B_STATE) buffer State { uint state[]; };
layout(std430, binding = DIFFUSE_B_COUNTS) writeonly buffer Counts { uint counts[]; };
layout(std430, binding = DIFFUSE_B_DEBUG) writeonly buffer Debug { vec4 debug[]; };  // the tests' (u_debug 1)
layout(location = 5) uniform int u_debug;
layout(location = 6) uniform float u_speed;  // U = sqrt(|g| tank height): the thresholds of I_k and I_ta are in U^2 and U

uint spawn_count(uint i) {
    vec3 xi = pos[i].xyz, vi = vel[i].xyz, ni = normals[i].xyz;
    float ek = 0.5 * dot(vi, vi);
    float phi_k = diffuse_phi(ek, DIFFUSE_TAU_K_LO * u_speed * u_speed, DIFFUSE_TAU_K_HI * u_speed * u_speed);
    if (phi_k <= 0.0 && u_debug == 0) return 0u;  // still water spawns nothing
    float speed = length(vi);
    bool crest = ni != vec3(0.0) && speed > 0.0 && dot(vi / speed, ni) >= DIFFUSE_CREST_VN;
    float ta = 0.0, wc = 0.0;
    DIFFUSE_FOR_NEIGHBOURS(xi, j) {
        vec3 xij = xi - pos[j].xyz;
        float r = length(xij);
        if (j == i || r >= P.h || r <= 0.0) continue;
        float w = diffuse_w(r);
        vec3 vij = vi - vel[j].xyz;
        float vlen = length(vij);
        if (vlen > 0.0) ta += vlen * (1.0 - dot(vij / vlen, xij / r)) * w;
        vec3 nj = normals[j].xyz;
        if (crest && nj != vec3(0.0) && dot(-xij, ni) < 0.0) wc += (1.0 - dot(ni, nj)) * w;
    }
    float n = phi_k * (DIFFUSE_K_TA * diffuse_phi(ta, DIFFUSE_TAU_TA_LO * u_speed, DIFFUSE_TAU_TA_HI * u_speed) +
                       DIFFUSE_K_WC * diffuse_phi(wc, DIFFUSE_TAU_WC_LO, DIFFUSE_TAU_WC_HI)) * u_dt;
    if (u_debug != 0) debug[i] = vec4(ta, wc, ek, n);
    float whole = floor(n);
    uint k = uint(whole) + (diffuse_rand(ids[i], u_frame, 0xFFFFu) < n - whole ? 1u : 0u);
    return min(k, uint(DIFFUSE_MAX_SPAWN));
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = i < P.n ? spawn_count(i) : 0u;
    if (i < P.n) counts[u_slots + i] = k;
    uint total;
    diffuse_group_scan(k, total);
    if (gl_LocalInvocationID.x == 0u) state[ST_GROUPS + u_slots / DIFFUSE_WG + gl_WorkGroupID.x] = total;
}
