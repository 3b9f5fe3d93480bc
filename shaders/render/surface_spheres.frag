#version 450
// Surface passes over the sphere impostors (render_surface.c), chosen by a define:
//   SURFACE_DEPTH      view-space distance (-z) of the front of each sphere, depth tested
//   SURFACE_THICKNESS  the chord length through each sphere, summed with additive blending
#include "render/sphere_hit.glsl"

layout(location = 1) uniform mat4 u_proj;
layout(location = 2) uniform float u_radius;

in vec3 v_pos;
flat in vec3 v_center;
flat in vec3 v_color;

#ifdef SURFACE_DEPTH
layout(depth_greater) out float gl_FragDepth;
#endif
layout(location = 0) out float o_value;

void main() {
    vec3 hit, n;
    if (!sphere_hit(v_pos, v_center, u_radius, hit, n)) discard;
#ifdef SURFACE_DEPTH
    gl_FragDepth = sphere_depth(u_proj, hit);
    o_value = -hit.z;
#else
    // The chord: twice the distance from the hit point to the ray's closest approach to the centre.
    vec3 dir = normalize(v_pos);
    o_value = 2.0 * max(dot(v_center - hit, dir), 0.0);
#endif
}
