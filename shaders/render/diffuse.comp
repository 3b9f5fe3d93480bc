#version 450
// Surface style (render_surface.c), the diffuse pass: the diffuse particles (spray, foam, bubbles:
// src/sim/diffuse.h; a dispatch over the slots, RENDER_DIFFUSE_GROUP a group, to the count alive) each
// add a soft, translucent footprint to a per-pixel sum the shading pass composites as white over
// the water (1 - exp(-sum)), so nothing is opaque and the order the threads run in does not change
// the picture (integer sums). A point is a Gaussian of radius RENDER_LOC_RADIUS (0.75 to 3 pixels);
// spray is a streak along its velocity, over the last RENDER_LOC_STREAK seconds (at most
// RENDER_DIFFUSE_MAX_STREAK pixels), its weight spread along it. A particle behind the smoothed
// water surface (bubbles, foam under a wave) is dimmed by exp(-depth / RENDER_LOC_UNDER); its
// weight fades over the last RENDER_DIFFUSE_FADE seconds of its lifetime.
//
// The work is shared by pixel, not by point (a streak's box is up to ~30x30 pixels, a far point's
// 5x5: one thread a point left a warp waiting on its longest streak). A work group of
// RENDER_DIFFUSE_THREADS threads takes RENDER_DIFFUSE_GROUP points at a time (chunks of the slots,
// a grid-stride loop up to the count alive): its first threads project one
// point each into shared memory with its clamped pixel box, a scan of the boxes' areas gives each
// box its range of a flat list of the group's pixels, and every thread walks that list with a
// stride of the group's size, finding its pixel's point by a binary search of the scan. No thread
// walks more than ceil(the group's pixels / RENDER_DIFFUSE_THREADS) pixels. Each pixel's weight is
// the same expression of the same values as one thread a point gave (tests/test_render_diffuse.c
// checks the sums against a CPU reference).
#include "render/render_common.glsl"

layout(local_size_x = RENDER_DIFFUSE_THREADS) in;

layout(std430, binding = RENDER_BIND_DIFFUSE) readonly buffer Diffuse { vec4 parts[]; };
layout(std430, binding = RENDER_BIND_DIFFUSE_STATE) readonly buffer State { uint state[]; };
layout(std430, binding = RENDER_BIND_SURFACE_SRC) readonly buffer Smoothed { float smoothed[]; };
layout(std430, binding = RENDER_BIND_DIFFUSE_SUM) buffer Sum { uint sum[]; };

layout(location = RENDER_LOC_VIEW) uniform mat4 u_view;
layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_SIZE) uniform ivec2 u_size;
layout(location = RENDER_LOC_RADIUS) uniform float u_radius;  // metres
layout(location = RENDER_LOC_STREAK) uniform float u_streak;  // seconds
layout(location = RENDER_LOC_UNDER) uniform float u_under;    // metres

shared vec4 sh_seg[RENDER_DIFFUSE_GROUP];   // the streak's start s0 (pixels) and its vector s1 - s0
shared vec4 sh_point[RENDER_DIFFUSE_GROUP]; // radius (pixels), view depth, strength, streak length
shared ivec4 sh_box[RENDER_DIFFUSE_GROUP];  // the box's lowest pixel and its width
shared uint sh_end[RENDER_DIFFUSE_GROUP];   // the inclusive scan of the boxes' areas

vec2 to_pixels(vec3 c) {
    vec4 clip = u_proj * vec4(c, 1.0);
    return (clip.xy / clip.w * 0.5 + 0.5) * vec2(u_size);
}

// Point i's footprint into shared slot k; its box's area (0: nothing to draw).
uint project(uint i, uint k) {
    vec4 x = parts[2u * i], v = parts[2u * i + 1u];
    int kind = int(v.w + 0.5);
    vec3 c = (u_view * vec4(x.xyz, 1.0)).xyz;
    float z = -c.z;
    if (z <= 1e-3) return 0u;
    vec2 s0 = to_pixels(c), s1 = s0;
    float r = clamp(u_radius * u_proj[1][1] * float(u_size.y) * 0.5 / z, 0.75, 3.0);
    if (kind == RENDER_DIFFUSE_SPRAY) {
        vec3 c1 = (u_view * vec4(x.xyz - v.xyz * u_streak, 1.0)).xyz;
        if (-c1.z > 1e-3) s1 = to_pixels(c1);
        vec2 d = s1 - s0;
        float len = length(d);
        if (len > RENDER_DIFFUSE_MAX_STREAK) s1 = s0 + d * (RENDER_DIFFUSE_MAX_STREAK / len);
    }
    vec2 seg = s1 - s0;
    float len = length(seg);
    float strength = kind == RENDER_DIFFUSE_SPRAY ? 0.7 : (kind == RENDER_DIFFUSE_FOAM ? 0.55 : 0.35);
    strength *= clamp(x.w / RENDER_DIFFUSE_FADE, 0.0, 1.0) * r / (r + 0.5 * len);
    ivec2 lo = ivec2(floor(min(s0, s1) - 2.0 * r)), hi = ivec2(ceil(max(s0, s1) + 2.0 * r));
    lo = max(lo, ivec2(0)), hi = min(hi, u_size - 1);
    if (any(lessThan(hi, lo))) return 0u;
    sh_seg[k] = vec4(s0, seg);
    sh_point[k] = vec4(r, z, strength, len);
    sh_box[k] = ivec4(lo, hi.x - lo.x + 1, 0);
    return uint(hi.x - lo.x + 1) * uint(hi.y - lo.y + 1);
}

// The group's chunk of RENDER_DIFFUSE_GROUP slots from `first` (below `alive`, the count alive).
// Call from uniform control flow.
void draw_chunk(uint first, uint alive, uint k) {
    if (k < RENDER_DIFFUSE_GROUP) sh_end[k] = first + k < alive ? project(first + k, k) : 0u;
    barrier();
    for (uint off = 1u; off < RENDER_DIFFUSE_GROUP; off <<= 1) { // Hillis-Steele: the inclusive scan
        uint add = k < RENDER_DIFFUSE_GROUP && k >= off ? sh_end[k - off] : 0u;
        barrier();
        if (k < RENDER_DIFFUSE_GROUP) sh_end[k] += add;
        barrier();
    }
    uint total = sh_end[RENDER_DIFFUSE_GROUP - 1];
    for (uint f = k; f < total; f += RENDER_DIFFUSE_THREADS) {
        uint a = 0u, b = RENDER_DIFFUSE_GROUP - 1; // the first point whose range ends past f
        while (a < b) {
            uint m = (a + b) / 2u;
            if (sh_end[m] > f) b = m;
            else a = m + 1u;
        }
        uint at_box = f - (a > 0u ? sh_end[a - 1u] : 0u), width = uint(sh_box[a].z);
        int px = sh_box[a].x + int(at_box % width), py = sh_box[a].y + int(at_box / width);
        vec2 s0 = sh_seg[a].xy, seg = sh_seg[a].zw;
        float r = sh_point[a].x, z = sh_point[a].y, strength = sh_point[a].z, len = sh_point[a].w;
        vec2 p = vec2(px, py) + 0.5;
        float t = len > 0.0 ? clamp(dot(p - s0, seg) / (len * len), 0.0, 1.0) : 0.0;
        vec2 q = p - (s0 + t * seg);
        float w = strength * exp(-dot(q, q) / (r * r));
        uint at = uint(py * u_size.x + px);
        float zw = smoothed[at];
        if (zw > 0.0 && z > zw) w *= exp(-(z - zw) / u_under);
        if (w >= 1.0 / 512.0) atomicAdd(sum[at], uint(w * float(RENDER_DIFFUSE_UNIT) + 0.5));
    }
    barrier(); // the next chunk writes the shared arrays this one's threads may still read
}

void main() {
    uint k = gl_LocalInvocationID.x, alive = state[RENDER_DIFFUSE_ALIVE]; // the same in every thread
    for (uint first = gl_WorkGroupID.x * RENDER_DIFFUSE_GROUP; first < alive; first += gl_NumWorkGroups.x * RENDER_DIFFUSE_GROUP)
        draw_chunk(first, alive, k);
}

