#version 450
// The spheres style's backdrop (render_splat.c), a thread a pixel, run only when the view changes
// (the camera, the size, the tank): what the scene (scene.glsl) shows where no sphere covers a
// pixel, and the near glass wall's reflection with the ray distance where the ray enters the tank,
// to add over a sphere that lies behind it. The resolve pass then reads two texels a pixel instead
// of tracing the scene every frame.
#include "render/render_common.glsl"
#include "render/scene.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(location = RENDER_LOC_IMAGE, binding = RENDER_UNIT_IMAGE, rgba8) uniform writeonly image2D u_behind;
layout(location = RENDER_LOC_IMAGE_1, binding = RENDER_UNIT_IMAGE_1, rgba16f) uniform writeonly image2D u_front;  // rgb: the near glass, a: where it is (ray distance)

layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_SIZE) uniform ivec2 u_size;
layout(location = RENDER_LOC_INV_PROJ) uniform mat4 u_inv_proj;

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= u_size.x || px.y >= u_size.y) return;
    vec3 o, d, d_view;
    scene_ray(u_inv_proj, px, u_size, o, d, d_view);
    float px_angle = 2.0 / (u_proj[1][1] * float(u_size.y));
    vec3 bg = scene_behind(o, d, 0.0, px_angle), front = vec3(0.0);
    float at = 65504.0;  // none (the largest half float)
    if (u_backdrop != RENDER_BACKDROP_PLAIN) {
        vec3 n_in, n_out;
        vec2 tb = scene_box(o, d, n_in, n_out);
        if (tb.x < tb.y && tb.x > 0.0 && abs(n_in.y) < 0.5) front = scene_glass(d, n_in), at = tb.x;
    }
    imageStore(u_behind, px, vec4(bg + (at < 65504.0 ? front : vec3(0.0)), 1.0));
    imageStore(u_front, px, vec4(front, at));
}
