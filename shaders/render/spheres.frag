#version 450
// Sphere impostor: ray-sphere hit per fragment, lit, with the hit point's depth. The hit is never
// nearer than the quad (the quad touches the sphere's front), so depth_greater keeps early depth
// testing on drivers that use it.
#include "render/render_common.glsl"
#include "render/sphere_hit.glsl"

layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_RADIUS) uniform float u_radius;
layout(location = RENDER_LOC_SUN_VIEW) uniform vec3 u_sun_view;

in vec3 v_pos;
flat in vec3 v_center;
flat in vec3 v_color;

layout(depth_greater) out float gl_FragDepth;
layout(location = 0) out vec4 o_color;

void main() {
    vec3 hit, n;
    if (!sphere_hit(v_pos, v_center, u_radius, hit, n)) discard;
    gl_FragDepth = sphere_depth(u_proj, hit);
    o_color = vec4(sphere_shade(hit, n, v_color, u_sun_view), 1.0);
}
