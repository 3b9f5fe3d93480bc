#version 450
// Sphere impostors rasterised in compute (render_splat.c): the visibility passes (RENDER_PASS_*).
//   DEPTH:     every pixel a sphere covers keeps the nearest window depth (atomicMin on its bits;
//              depths are positive floats, so their bits order as the values do).
//   INDEX:     every sphere whose depth at a pixel equals the kept one writes its index there
//              (atomicMin again, so a tie always goes to the lowest index: the image is the same
//              from run to run).
//   THICKNESS: (the surface style, the shadow) every sphere adds its chord, the ray's path through
//              it, to the pixel's thickness, in fixed point of RENDER_SPLAT_THICK_UNIT metres.
//   SPRAY_DEPTH, SPRAY_INDEX: DEPTH and INDEX for the spray droplets, into the spray buffers.
// u_select picks the spheres a pass takes: all, the bulk (not spray) or the spray (a particle with
// few neighbours, so a low density, moving fast: render_common.h says how low and how fast).
// The same program runs every pass, so a depth is computed by the same instructions each time and
// the equality of INDEX is exact. Coverage is the raster impostor's: the pixel's centre ray hits
// the sphere. A work group takes RENDER_SPLAT_SPHERES spheres and deals the pixels of their boxes,
// laid end to end, to its RENDER_SPLAT_GROUP threads: a thread walks few pixels (so many groups
// are in flight to hide memory latency), and a sphere close to the eye that covers much of the
// screen is shared out instead of stalling one thread.
// With u_ellipsoids (the surface's anisotropic kernels, aniso.comp) each particle is the ellipsoid
// there instead: its centre, and the shape S that takes offsets (in radii) into the unit sphere;
// its box is that of its bounding sphere (the longest axis).
#include "render/render_common.glsl"
#include "render/sphere_hit.glsl"

layout(local_size_x = RENDER_SPLAT_GROUP) in;

layout(std430, binding = RENDER_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = RENDER_BIND_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = RENDER_BIND_DENSITIES) readonly buffer Densities { float densities[]; };
layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SPLAT_IDS) buffer Ids { uint ids[]; };
layout(std430, binding = RENDER_BIND_SPLAT_THICK) buffer Thickness { uint thickness[]; };
layout(std430, binding = RENDER_BIND_SPRAY_DEPTH) buffer SprayDepth { uint spray_bits[]; };
layout(std430, binding = RENDER_BIND_SPRAY_IDS) buffer SprayIds { uint spray_ids[]; };
layout(std430, binding = RENDER_BIND_ELLIPSOIDS) readonly buffer Ellipsoids { vec4 ellipsoids[]; };

layout(location = RENDER_LOC_VIEW) uniform mat4 u_view;
layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_RADIUS) uniform float u_radius;
layout(location = RENDER_LOC_COUNT) uniform uint u_count;
layout(location = RENDER_LOC_SIZE) uniform ivec2 u_size;
layout(location = RENDER_LOC_INV_PROJ) uniform mat4 u_inv_proj;
layout(location = RENDER_LOC_PASS) uniform int u_pass;
layout(location = RENDER_LOC_SELECT) uniform int u_select;
layout(location = RENDER_LOC_SPRAY) uniform vec2 u_spray;  // density below, speed above
layout(location = RENDER_LOC_ELLIPSOIDS) uniform int u_ellipsoids;

shared vec3 s_center[RENDER_SPLAT_SPHERES];
shared ivec4 s_box[RENDER_SPLAT_SPHERES];     // pixels x0, y0 (inclusive), x1, y1 (exclusive)
shared int s_end[RENDER_SPLAT_SPHERES];       // where each sphere's pixels end in the group's run
shared mat3 s_shape[RENDER_SPLAT_SPHERES];    // u_ellipsoids: view-space offset (metres) -> unit sphere

// The pixel box of sphere c (view space): that of its raster impostor's quad (spheres.vert).
ivec4 sphere_box(vec3 c, float radius) {
    float d = length(c);
    if (d <= radius * 1.001) return ivec4(0);  // the eye is inside: dropped, as by the raster path
    vec3 to_eye = -c / d;
    vec3 up = abs(to_eye.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(up, to_eye)), v = cross(to_eye, u);
    vec3 front = c + to_eye * radius;
    vec2 lo = vec2(1e30), hi = vec2(-1e30);
    for (int k = 0; k < 4; k++) {
        vec2 corner = vec2((k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0);
        vec4 clip = u_proj * vec4(front + (corner.x * u + corner.y * v) * radius, 1.0);
        if (clip.w <= 1e-6) return ivec4(0, 0, u_size);  // crosses the eye's plane: test every pixel
        vec2 px = (clip.xy / clip.w * 0.5 + 0.5) * vec2(u_size);
        lo = min(lo, px), hi = max(hi, px);
    }
    ivec2 a = max(ivec2(floor(lo)), ivec2(0)), b = min(ivec2(ceil(hi)), u_size);
    return ivec4(a, max(b, a));
}

bool is_spray(uint i) {
    return densities[i] < u_spray.x && dot(velocities[i].xyz, velocities[i].xyz) > u_spray.y * u_spray.y;
}

void main() {
    uint lid = gl_LocalInvocationID.x, first = gl_WorkGroupID.x * RENDER_SPLAT_SPHERES;
    if (lid < RENDER_SPLAT_SPHERES) {
        uint i = first + lid;
        vec3 c = vec3(0.0);
        ivec4 box = ivec4(0);
        bool take = i < u_count;
        if (take && u_select != RENDER_SELECT_ALL) take = is_spray(i) == (u_select == RENDER_SELECT_SPRAY);
        if (take && u_ellipsoids != 0) {
            vec4 e = ellipsoids[4u * i];
            c = (u_view * vec4(e.xyz, 1.0)).xyz;
            box = sphere_box(c, u_radius * e.w);
            mat3 S = mat3(ellipsoids[4u * i + 1u].xyz, ellipsoids[4u * i + 2u].xyz, ellipsoids[4u * i + 3u].xyz);
            s_shape[lid] = S * transpose(mat3(u_view)) / u_radius;  // S is symmetric: rows = columns
        } else if (take) {
            c = (u_view * vec4(positions[i].xyz, 1.0)).xyz;
            box = sphere_box(c, u_radius);
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
        float chord = 0.0;
        if (u_ellipsoids != 0) {
            vec3 dir = normalize(near.xyz / near.w);
            mat3 S = s_shape[k];
            vec3 o = S * -s_center[k], d = S * dir;
            float a = dot(d, d), bq = dot(o, d), disc = bq * bq - a * (dot(o, o) - 1.0);
            if (disc < 0.0) continue;
            hit = dir * ((-bq - sqrt(disc)) / a);
            chord = 2.0 * sqrt(disc) / a;
            if (hit.z >= 0.0) continue;
        } else {
            if (!sphere_hit(near.xyz / near.w, s_center[k], u_radius, hit, normal) || hit.z >= 0.0) continue;
            chord = 2.0 * max(dot(s_center[k] - hit, normalize(hit)), 0.0);
        }
        precise float z = sphere_depth(u_proj, hit);
        if (z < 0.0 || z >= 1.0) continue;  // outside the depth range, as the raster path clips
        uint zb = floatBitsToUint(z), at = uint(px.y * u_size.x + px.x);
        if (u_pass == RENDER_PASS_DEPTH)
            atomicMin(depth_bits[at], zb);
        else if (u_pass == RENDER_PASS_INDEX && zb == depth_bits[at])
            atomicMin(ids[at], first + uint(k));
        else if (u_pass == RENDER_PASS_THICKNESS)
            atomicAdd(thickness[at], uint(chord / RENDER_SPLAT_THICK_UNIT + 0.5));
        else if (u_pass == RENDER_PASS_SPRAY_DEPTH)
            atomicMin(spray_bits[at], zb);
        else if (u_pass == RENDER_PASS_SPRAY_INDEX && zb == spray_bits[at])
            atomicMin(spray_ids[at], first + uint(k));
    }
}
