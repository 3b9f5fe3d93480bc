#version 450
// Surface style (render_surface.c), the diffuse pass, a thread a diffuse particle (spray, foam,
// bubbles: src/sim/diffuse.h; an indirect dispatch over the alive ones): each adds a soft,
// translucent footprint to a per-pixel sum the shading pass composites as white over the water
// (1 - exp(-sum)), so nothing is opaque and the order the threads run in does not change the
// picture (integer sums). A point is a Gaussian of radius RENDER_LOC_RADIUS (0.75 to 3 pixels);
// spray is a streak along its velocity, over the last RENDER_LOC_STREAK seconds (at most
// RENDER_DIFFUSE_MAX_STREAK pixels), its weight spread along it. A particle behind the smoothed
// water surface (bubbles, foam under a wave) is dimmed by exp(-depth / RENDER_LOC_UNDER); its
// weight fades over the last RENDER_DIFFUSE_FADE seconds of its lifetime.
#include "render/render_common.glsl"

layout(local_size_x = 64) in;

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

vec2 to_pixels(vec3 c) {
    vec4 clip = u_proj * vec4(c, 1.0);
    return (clip.xy / clip.w * 0.5 + 0.5) * vec2(u_size);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= state[RENDER_DIFFUSE_ALIVE]) return;
    vec4 x = parts[2u * i], v = parts[2u * i + 1u];
    int kind = int(v.w + 0.5);
    vec3 c = (u_view * vec4(x.xyz, 1.0)).xyz;
    float z = -c.z;
    if (z <= 1e-3) return;
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
    for (int py = lo.y; py <= hi.y; py++)
        for (int px = lo.x; px <= hi.x; px++) {
            vec2 p = vec2(px, py) + 0.5;
            float t = len > 0.0 ? clamp(dot(p - s0, seg) / (len * len), 0.0, 1.0) : 0.0;
            vec2 q = p - (s0 + t * seg);
            float w = strength * exp(-dot(q, q) / (r * r));
            uint at = uint(py * u_size.x + px);
            float zw = smoothed[at];
            if (zw > 0.0 && z > zw) w *= exp(-(z - zw) / u_under);
            if (w >= 1.0 / 512.0) atomicAdd(sum[at], uint(w * float(RENDER_DIFFUSE_UNIT) + 0.5));
        }
}
