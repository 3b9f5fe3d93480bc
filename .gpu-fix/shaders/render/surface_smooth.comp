#version 450
// Surface style (render_surface.c), one direction of a separable bilateral filter on the fluid's
// view distance, a thread a pixel: neighbours weigh by distance in pixels (Gaussian) and by
// difference in depth, so silhouettes stay sharp. 0 means "no fluid" and is neither smoothed nor
// used. The first pass reads the splat's window depths (u_from_bits) and turns them into view
// distances on the way.
#include "render/render_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) readonly buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SURFACE_SRC) readonly buffer Src { float src[]; };
layout(std430, binding = RENDER_BIND_SURFACE_DST) writeonly buffer Dst { float dst[]; };

layout(location = 0) uniform ivec2 u_size;
layout(location = 1) uniform ivec2 u_dir;          // (1,0) or (0,1)
layout(location = 2) uniform float u_world_px;    // pixels per metre at distance 1 (proj[1][1] * h / 2)
layout(location = 3) uniform float u_filter_m;    // filter radius in metres
layout(location = 4) uniform float u_depth_falloff; // metres of depth difference that halve a weight
layout(location = 5) uniform int u_from_bits;
layout(location = 6) uniform vec2 u_linear;        // proj[3][2], proj[2][2]: view distance from window depth

float view_distance(ivec2 q) {
    uint at = uint(q.y * u_size.x + q.x);
    if (u_from_bits == 0) return src[at];
    uint bits = depth_bits[at];
    return bits == RENDER_SPLAT_FAR ? 0.0 : u_linear.x / (uintBitsToFloat(bits) * 2.0 - 1.0 + u_linear.y);
}

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= u_size.x || px.y >= u_size.y) return;
    uint at = uint(px.y * u_size.x + px.x);
    float z = view_distance(px);
    if (z <= 0.0) {
        dst[at] = 0.0;
        return;
    }
    int radius = int(clamp(u_filter_m * u_world_px / z, 1.0, 24.0));
    float sigma = float(radius) * 0.5, sum = 0.0, wsum = 0.0;
    for (int i = -radius; i <= radius; i++) {
        float s = view_distance(clamp(px + u_dir * i, ivec2(0), u_size - 1));
        if (s <= 0.0) continue;
        float dz = (s - z) / u_depth_falloff;
        float w = exp(-float(i * i) / (2.0 * sigma * sigma) - dz * dz);
        sum += s * w;
        wsum += w;
    }
    dst[at] = sum / wsum;
}
