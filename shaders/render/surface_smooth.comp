#version 450
// Surface style (render_surface.c), one direction of the narrow-range filter (Truong & Yuksel,
// "A Narrow-Range Filter for Screen-Space Fluid Rendering", I3D 2018) on the fluid's view
// distance, a thread a pixel, in its separable form (x, then y, twice). Neighbours weigh by their
// distance in pixels (Gaussian) only, but within a narrow depth range around the pixel's own depth
// z: a neighbour more than u_narrow_m behind (a farther layer of fluid) is left out, and one more
// than u_narrow_m in front is clamped to z - u_narrow_m, so it still flattens the pixel's
// neighbourhood but cannot drag a silhouette towards a nearer layer. A bilateral filter's depth
// weight instead smooths less where the surface is steep and so keeps the spheres' bumps there.
// 0 means "no fluid" and is neither smoothed nor used. The first pass reads the splat's window
// depths (u_from_bits) and turns them into view distances on the way.
#include "render/render_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) readonly buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SURFACE_SRC) readonly buffer Src { float src[]; };
layout(std430, binding = RENDER_BIND_SURFACE_DST) writeonly buffer Dst { float dst[]; };

layout(location = RENDER_LOC_SIZE) uniform ivec2 u_size;
layout(location = RENDER_LOC_DIR) uniform ivec2 u_dir;           // (1,0) or (0,1)
layout(location = RENDER_LOC_PX_PER_M) uniform float u_world_px; // pixels per metre at distance 1 (proj[1][1] * h / 2)
layout(location = RENDER_LOC_FILTER_M) uniform float u_filter_m; // filter radius in metres
layout(location = RENDER_LOC_NARROW_M) uniform float u_narrow_m; // the narrow depth range, metres
layout(location = RENDER_LOC_FROM_BITS) uniform int u_from_bits;
layout(location = RENDER_LOC_LINEAR) uniform vec2 u_linear;       // proj[3][2], proj[2][2]: view distance from window depth

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
    float inv2s2 = 2.0 / float(radius * radius), sum = 0.0, wsum = 0.0;  // sigma = radius / 2
    // A surface seen at a slant changes depth along the filter's line, by more than the narrow
    // range over the kernel: the range follows the slope, measured over half the kernel each way
    // (wide enough to average out the spheres' bumps), so a tilted plane is not cut into bands.
    int k = max(radius / 2, 1);
    float a = view_distance(clamp(px - u_dir * k, ivec2(0), u_size - 1)), b = view_distance(clamp(px + u_dir * k, ivec2(0), u_size - 1));
    float slope = 0.0;
    if (a > 0.0 && b > 0.0 && abs(b - z) < float(k) * u_narrow_m && abs(z - a) < float(k) * u_narrow_m)
        slope = clamp((b - a) / float(2 * k), -u_narrow_m, u_narrow_m);
    for (int i = -radius; i <= radius; i++) {
        float s = view_distance(clamp(px + u_dir * i, ivec2(0), u_size - 1)), zi = z + slope * float(i);
        if (s <= 0.0 || s > zi + u_narrow_m) continue;
        s = max(s, zi - u_narrow_m) - slope * float(i);  // about the slope's line: z where no sample is cut
        float w = exp(-float(i * i) * inv2s2);
        sum += s * w;
        wsum += w;
    }
    dst[at] = sum / wsum;
}
