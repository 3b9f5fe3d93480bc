#version 450
// Surface style (render_surface.c), the last pass, a thread a pixel, writing every pixel of the
// colour image: normals from the smoothed view distance (the smaller of the two one-sided
// differences, so edges do not smear), Fresnel reflection of a sky, colour absorbed by thickness
// (Beer-Lambert) over the background, a specular highlight; the tank's edges where they are
// nearer (or just behind); the background elsewhere. It clears the pixel's depth and thickness for the next frame.
#include "render/render_common.glsl"
#include "render/splat_edges.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) writeonly buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SPLAT_THICK) buffer Thickness { uint thickness[]; };
layout(std430, binding = RENDER_BIND_SURFACE_SRC) readonly buffer Smoothed { float smoothed[]; };
layout(binding = 0, rgba8) uniform writeonly image2D u_color;

layout(location = 0) uniform ivec2 u_size;
layout(location = 1) uniform mat4 u_proj;
layout(location = 5) uniform float u_edge_bias; // metres: an edge this far behind the surface still shows

vec3 view_pos(ivec2 px, float z) {
    vec2 ndc = (vec2(px) + 0.5) / vec2(u_size) * 2.0 - 1.0;
    return vec3(ndc.x * z / u_proj[0][0], ndc.y * z / u_proj[1][1], -z);
}

float distance_at(ivec2 q) { return smoothed[uint(q.y * u_size.x + q.x)]; }

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= u_size.x || px.y >= u_size.y) return;
    uint at = uint(px.y * u_size.x + px.x);
    float thick = float(thickness[at]) * RENDER_SPLAT_THICK_UNIT, z = distance_at(px);
    thickness[at] = 0u;
    depth_bits[at] = RENDER_SPLAT_FAR;
    const vec3 background = vec3(RENDER_CLEAR_R, RENDER_CLEAR_G, RENDER_CLEAR_B);
    float ze = edge_depth(vec2(px) + 0.5);
    vec3 col = ze < 1.0 ? vec3(RENDER_TANK_R, RENDER_TANK_G, RENDER_TANK_B) : background;
    // The surface stands out of the tank by the enlarged spheres' radius: the walls' edges would
    // fight it where the fluid touches them, so an edge just behind the surface still shows.
    float edge_distance = ze < 1.0 ? u_proj[3][2] / (ze * 2.0 - 1.0 + u_proj[2][2]) : 1e30;
    if (z > 0.0 && z + u_edge_bias < edge_distance) {
        vec3 p = view_pos(px, z);
        vec3 d[4];
        ivec2 off[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
        for (int i = 0; i < 4; i++) {
            ivec2 q = clamp(px + off[i], ivec2(0), u_size - 1);
            float zq = distance_at(q);
            d[i] = zq > 0.0 ? view_pos(q, zq) - p : vec3(0.0);
        }
        vec3 ddx = (d[1] == vec3(0.0) || (d[0] != vec3(0.0) && abs(d[0].z) < abs(d[1].z))) ? d[0] : -d[1];
        vec3 ddy = (d[3] == vec3(0.0) || (d[2] != vec3(0.0) && abs(d[2].z) < abs(d[3].z))) ? d[2] : -d[3];
        vec3 n = normalize(cross(ddx, ddy));
        if (dot(n, -p) < 0.0) n = -n;
        if (any(isnan(n))) n = vec3(0.0, 0.0, 1.0);
        vec3 view_dir = normalize(-p);
        const vec3 absorb = vec3(18.0, 6.0, 2.5);  // per metre: red goes first
        vec3 body = mix(vec3(0.10, 0.42, 0.78), background, exp(-absorb * thick));
        const vec3 light = normalize(vec3(0.35, 0.8, 0.5));
        body *= 0.65 + 0.55 * max(dot(n, light), 0.0);
        vec3 r = reflect(-view_dir, n);
        vec3 sky = mix(vec3(0.25, 0.30, 0.38), vec3(0.75, 0.85, 0.95), clamp(r.y * 0.5 + 0.5, 0.0, 1.0));
        float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, view_dir), 0.0), 5.0);
        float spec = pow(max(dot(n, normalize(light + view_dir)), 0.0), 96.0);
        col = mix(body, sky, fresnel) + vec3(0.8 * spec);
    }
    imageStore(u_color, px, vec4(col, 1.0));
}
