#version 450
// A circle facing the camera (the mouse's push/pull reach), as 64 line segments.
#include "render/render_common.glsl"
layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_CENTER) uniform vec3 u_center;  // view space
layout(location = RENDER_LOC_RADIUS) uniform float u_radius;
void main() {
    int i = (gl_VertexID + 1) / 2;  // 0,1 1,2 2,3 ...
    float a = float(i) * (6.28318530718 / 64.0);
    gl_Position = u_proj * vec4(u_center + u_radius * vec3(cos(a), sin(a), 0.0), 1.0);
}
