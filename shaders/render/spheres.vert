#version 450
// Particles as sphere impostors: 6 vertices (two triangles) per particle from gl_VertexID, no
// vertex buffers. The quad faces the eye, sits at the sphere's front point and is one radius wide
// each way, which covers the sphere's silhouette in perspective (it needs r*sqrt((d-r)/(d+r))).
#include "render/render_common.glsl"
#include "render/colormap.glsl"
#include "render/particles.glsl"

layout(location = RENDER_LOC_VIEW) uniform mat4 u_view;
layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_RADIUS) uniform float u_radius;
layout(location = RENDER_LOC_MODE) uniform int u_mode;     // RENDER_COLOR_*, or -1: white (the mode's buffer is missing)
layout(location = RENDER_LOC_RANGE) uniform vec2 u_range;  // value mapped to 0 and to 1 of the colour map

out vec3 v_pos;              // view-space position on the quad
flat out vec3 v_center;      // view-space sphere centre
flat out vec3 v_color;

const vec2 k_corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
    int id = gl_VertexID / 6;
    vec2 corner = k_corners[gl_VertexID % 6];
    vec3 c = (u_view * vec4(positions[id].xyz, 1.0)).xyz;
    float d = length(c);
    if (d <= u_radius * 1.001) {  // the eye is inside this sphere: drop it
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    vec3 to_eye = -c / d;
    vec3 up = abs(to_eye.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(up, to_eye));
    vec3 v = cross(to_eye, u);
    v_pos = c + to_eye * u_radius + (corner.x * u + corner.y * v) * u_radius;
    v_center = c;
    gl_Position = u_proj * vec4(v_pos, 1.0);
    v_color = particle_color(uint(id), u_mode, u_range);
}
