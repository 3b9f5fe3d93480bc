#version 450
// Sphere impostor: ray-sphere hit per fragment, lit, with the hit point's depth. The hit is never
// nearer than the quad (the quad touches the sphere's front), so depth_greater keeps early depth
// testing on drivers that use it.
#include "render/render_common.glsl"
#include "render/sphere_hit.glsl"

layout(location = 1) uniform mat4 u_proj;
layout(location = 2) uniform float u_radius;

in vec3 v_pos;
flat in vec3 v_center;
flat in vec3 v_color;

layout(depth_greater) out float gl_FragDepth;
layout(location = 0) out vec4 o_color;

void main() {
    vec3 hit, n;
    if (!sphere_hit(v_pos, v_center, u_radius, hit, n)) discard;
    gl_FragDepth = sphere_depth(u_proj, hit);
    const vec3 light = normalize(vec3(0.35, 0.8, 0.5));
    vec3 view_dir = normalize(-hit);
    float diffuse = max(dot(n, light), 0.0);
    float spec = pow(max(dot(n, normalize(light + view_dir)), 0.0), 48.0);
    float rim = 1.0 - 0.35 * pow(1.0 - max(dot(n, view_dir), 0.0), 3.0);
    vec3 col = v_color * (0.28 + 0.72 * diffuse) * rim + vec3(0.35 * spec);
    o_color = vec4(col, 1.0);
}
