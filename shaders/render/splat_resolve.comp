#version 450
// Sphere impostors rasterised in compute (render_splat.c): the resolve pass, a thread a pixel. It
// writes every pixel of the colour image, so nothing is cleared or blitted through the graphics
// pipeline (on the H100 a full-screen clear or blit costs more than all the spheres): the scene
// behind (sky, floor, the tank's glass, or the plain background: splat_backdrop.comp traced it
// when the view last changed); the tank's edges (1 pixel wide, one pixel per step along the major
// axis as GL lines are, their window depth interpolated along the line); the sphere that won the
// pixel, lit by the sun (sphere_shade) where it is nearer than an edge, with the near glass wall's
// reflection over it. The pixel's depth and index are reset for the next frame on the way.
#include "render/render_common.glsl"
#include "render/colormap.glsl"
#include "render/particles.glsl"
#include "render/sphere_hit.glsl"
#include "render/splat_edges.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SPLAT_IDS) buffer Ids { uint ids[]; };
layout(location = RENDER_LOC_IMAGE, binding = RENDER_UNIT_IMAGE, rgba8) uniform writeonly image2D u_color;
layout(location = RENDER_LOC_IMAGE_1, binding = RENDER_UNIT_IMAGE_1, rgba8) uniform readonly image2D u_behind;   // splat_backdrop.comp
layout(location = RENDER_LOC_IMAGE_2, binding = RENDER_UNIT_IMAGE_2, rgba16f) uniform readonly image2D u_front;
layout(location = RENDER_LOC_SUN_VIEW) uniform vec3 u_sun_view;

layout(location = RENDER_LOC_VIEW) uniform mat4 u_view;
layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_RADIUS) uniform float u_radius;
layout(location = RENDER_LOC_MODE) uniform int u_mode;
layout(location = RENDER_LOC_SIZE) uniform ivec2 u_size;
layout(location = RENDER_LOC_INV_PROJ) uniform mat4 u_inv_proj;
layout(location = RENDER_LOC_RANGE) uniform vec2 u_range;

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= u_size.x || px.y >= u_size.y) return;
    uint at = uint(px.y * u_size.x + px.x), id = ids[at];
    float z = uintBitsToFloat(depth_bits[at]);
    ids[at] = RENDER_SPLAT_NONE;
    depth_bits[at] = RENDER_SPLAT_FAR;
    float ze = edge_depth(vec2(px) + 0.5);
    vec3 col = vec3(RENDER_TANK_R, RENDER_TANK_G, RENDER_TANK_B);
    if (id == RENDER_SPLAT_NONE || z >= ze) {
        if (ze >= 1.0) col = imageLoad(u_behind, px).rgb;  // the near glass is in it
    } else {
        vec3 center = (u_view * vec4(positions[id].xyz, 1.0)).xyz;
        vec2 ndc = (vec2(px) + 0.5) / vec2(u_size) * 2.0 - 1.0;
        vec4 near = u_inv_proj * vec4(ndc, -1.0, 1.0);
        vec3 hit, n;
        sphere_hit(near.xyz / near.w, center, u_radius, hit, n);
        col = sphere_shade(hit, n, particle_color(id, u_mode, u_range), u_sun_view);
        vec4 front = imageLoad(u_front, px);
        if (front.a < length(hit)) col += front.rgb;
    }
    imageStore(u_color, px, vec4(col, 1.0));
}
