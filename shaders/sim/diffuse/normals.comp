#version 450
// Diffuse particles (src/sim/diffuse.c), pass 1, a thread a fluid particle: its surface normal,
// the normalised gradient of the colour field pointing out of the fluid,
//   g_i = sum_j (m / rho_j) / h^3 (1 - r / h)^2 (x_i - x_j) / r   (j != i, r = |x_i - x_j| < h),
// n_i = g_i / |g_i| where |g_i| >= DIFFUSE_SURFACE_GRAD (a surface particle), else 0 (inside,
// where the gradient is noise).
#include "sim/diffuse/diffuse_common.glsl"

layout(local_size_x = DIFFUSE_WG) in;

layout(std430, binding = B_POS_IN) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = B_DENS) readonly buffer Dens { float dens[]; };
layout(std430, binding = DIFFUSE_B_NORMALS) writeonly buffer Normals { vec4 normals[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= P.n) return;
    vec3 xi = pos[i].xyz;
    vec3 g = vec3(0.0);
    DIFFUSE_FOR_NEIGHBOURS(xi, j) {
        vec3 d = xi - pos[j].xyz;
        float r = length(d);
        if (j == i || r >= P.h || r <= 0.0) continue;
        float q = 1.0 - r / P.h;
        g += (P.mass / max(dens[j], 1.0)) * q * q * d / r;
    }
    g /= P.h * P.h * P.h;
    float len = length(g);
    normals[i] = vec4(len >= float(DIFFUSE_SURFACE_GRAD) ? g / len : vec3(0.0), len);
}
