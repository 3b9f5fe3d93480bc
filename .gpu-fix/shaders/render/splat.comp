#version 450
// Sphere impostors rasterised in compute (render_splat.c): the visibility passes.
//   u_pass 0: every pixel a sphere covers keeps the nearest window depth (atomicMin on its bits;
//             depths are positive floats, so their bits order as the values do).
//   u_pass 1: every sphere whose depth at a pixel equals the kept one writes its index there
//             (atomicMin again, so a tie always goes to the lowest index: the image is the same
//             from run to run).
//   u_pass 2: (the surface style) every sphere adds its chord, the ray's path through it, to the
//             pixel's thickness, in fixed point of RENDER_SPLAT_THICK_UNIT metres.
// The same program runs both passes, so a depth is computed by the same instructions each time and
// the equality of pass 1 is exact. Coverage is the raster impostor's: the pixel's centre ray hits
// the sphere. A work group takes RENDER_SPLAT_SPHERES spheres and deals the pixels of their boxes,
// laid end to end, to its RENDER_SPLAT_GROUP threads: a thread walks few pixels (so many groups
// are in flight to hide memory latency), and a sphere close to the eye that covers much of the
// screen is shared out instead of stalling one thread.
#include "render/render_common.glsl"
#include "render/sphere_hit.glsl"

layout(local_size_x = RENDER_SPLAT_GROUP) in;

layout(std430, binding = RENDER_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SPLAT_IDS) buffer Ids { uint ids[]; };
layout(std430, binding = RENDER_BIND_SPLAT_THICK) buffer Thickness { uint thickness[]; };

layout(location = 0) uniform mat4 u_view;
layout(location = 1) uniform mat4 u_proj;
layout(location = 2) uniform float u_radius;
layout(location = 3) uniform uint u_count;
layout(location = 4) uniform ivec2 u_size;
layout(location = 5) uniform mat4 u_inv_proj;
layout(location = 6) uniform int u_pass;

shared vec3 s_center[RENDER_SPLAT_SPHERES];
shared ivec4 s_box[RENDER_SPLAT_SPHERES];     // pixels x0, y0 (inclusive), x1, y1 (exclusive)
shared int s_end[RENDER_SPLAT_SPHERES];       // where each sphere's pixels end in the group's run

// The pixel box of sphere c (view space): that of its raster impostor's quad (spheres.vert).
ivec4 sphere_box(vec3 c) {
    float d = length(c);
    if (d <= u_radius * 1.001) return ivec4(0);  // the eye is inside: dropped, as by the raster path
    vec3 to_eye = -c / d;
    vec3 up = abs(to_eye.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(up, to_eye)), v = cross(to_eye, u);
    vec3 front = c + to_eye * u_radius;
    vec2 lo = vec2(1e30), hi = vec2(-1e30);
    for (int k = 0; k < 4; k++) {
        vec2 corner = vec2((k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0);
        vec4 clip = u_proj * vec4(front + (corner.x * u + corner.y * v) * u_radius, 1.0);
        if (clip.w <= 1e-6) return ivec4(0, 0, u_size);  // crosses the eye's plane: test every pixel
        vec2 px = (clip.xy / clip.w * 0.5 + 0.5) * vec2(u_size);
        lo = min(lo, px), hi = max(hi, px);
    }
    ivec2 a = max(ivec2(floor(lo)), ivec2(0)), b = min(ivec2(ceil(hi)), u_size);
    return ivec4(a, max(b, a));
}

void main() {
    uint lid = gl_LocalInvocationID.x, first = gl_WorkGroupID.x * RENDER_SPLAT_SPHERES;
    if (lid < RENDER_SPLAT_SPHERES) {
        uint i = first + lid;
        vec3 c = vec3(0.0);
        ivec4 box = ivec4(0);
        if (i < u_count) {
            c = (u_view * vec4(positions[i].xyz, 1.0)).xyz;
            box = sphere_box(c);
        }
        s_center[lid] = c;
        s_box[lid] = box;
        s_end[lid] = (box.z - box.x) * (box.w - box.y);
    }
    barrier();
    if (lid == 0)
        for (int k = 1; k < RENDER_SPLAT_SPHERES; k++) s_end[k] += s_end[k - 1];
    barrier();
    int total = s_end[RENDER_SPLAT_SPHERES - 1], k = 0;
    for (int p = int(lid); p < total; p += RENDER_SPLAT_GROUP) {
        while (p >= s_end[k]) k++;  // p only grows, so k does too
        ivec4 b = s_box[k];
        int local = p - (k > 0 ? s_end[k - 1] : 0), w = b.z - b.x;
        ivec2 px = ivec2(b.x + local % w, b.y + local / w);
        vec2 ndc = (vec2(px) + 0.5) / vec2(u_size) * 2.0 - 1.0;
        vec4 near = u_inv_proj * vec4(ndc, -1.0, 1.0);
        vec3 hit, normal;
        if (!sphere_hit(near.xyz / near.w, s_center[k], u_radius, hit, normal) || hit.z >= 0.0) continue;
        precise float z = sphere_depth(u_proj, hit);
        if (z < 0.0 || z >= 1.0) continue;  // outside the depth range, as the raster path clips
        uint zb = floatBitsToUint(z), at = uint(px.y * u_size.x + px.x);
        if (u_pass == 0)
            atomicMin(depth_bits[at], zb);
        else if (u_pass == 1 && zb == depth_bits[at])
            atomicMin(ids[at], first + uint(k));
        else if (u_pass == 2)
            atomicAdd(thickness[at], uint(2.0 * max(dot(s_center[k] - hit, normalize(hit)), 0.0) / RENDER_SPLAT_THICK_UNIT + 0.5));
    }
}
