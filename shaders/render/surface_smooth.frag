#version 450
// One direction of a separable bilateral filter on the fluid's view depth: neighbours are
// weighted by distance in pixels (Gaussian) and by difference in depth, so silhouettes stay sharp.
// 0 means "no fluid" and is neither smoothed nor used.
layout(binding = 0) uniform sampler2D u_depth;
layout(location = 0) uniform vec2 u_dir;          // (1,0) or (0,1), in pixels
layout(location = 1) uniform float u_world_px;    // pixels per metre at distance 1 (proj[1][1] * h / 2)
layout(location = 2) uniform float u_filter_m;    // filter radius in metres
layout(location = 3) uniform float u_depth_falloff; // metres of depth difference that halve a weight

in vec2 v_uv;
layout(location = 0) out float o_depth;

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float z = texelFetch(u_depth, px, 0).r;
    if (z <= 0.0) { o_depth = 0.0; return; }
    int radius = int(clamp(u_filter_m * u_world_px / z, 1.0, 24.0));
    float sigma = float(radius) * 0.5;
    float sum = 0.0, wsum = 0.0;
    ivec2 size = textureSize(u_depth, 0);
    for (int i = -radius; i <= radius; i++) {
        ivec2 q = clamp(px + ivec2(u_dir) * i, ivec2(0), size - 1);
        float s = texelFetch(u_depth, q, 0).r;
        if (s <= 0.0) continue;
        float dz = (s - z) / u_depth_falloff;
        float w = exp(-float(i * i) / (2.0 * sigma * sigma) - dz * dz);
        sum += s * w;
        wsum += w;
    }
    o_depth = sum / wsum;
}
