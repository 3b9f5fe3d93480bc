#version 450
#include "render/render_common.glsl"
// The tank's 12 edges as 24 line vertices from gl_VertexID.
layout(location = RENDER_LOC_VIEW_PROJ) uniform mat4 u_view_proj;
layout(location = RENDER_LOC_TANK_LO) uniform vec3 u_lo;
layout(location = RENDER_LOC_TANK_HI) uniform vec3 u_hi;

// Corner index bits: x = bit 0, y = bit 1, z = bit 2.
const int k_edges[24] = int[](0, 1, 2, 3, 4, 5, 6, 7,   // along x
                              0, 2, 1, 3, 4, 6, 5, 7,   // along y
                              0, 4, 1, 5, 2, 6, 3, 7);  // along z

void main() {
    int c = k_edges[gl_VertexID];
    vec3 p = vec3((c & 1) != 0 ? u_hi.x : u_lo.x, (c & 2) != 0 ? u_hi.y : u_lo.y, (c & 4) != 0 ? u_hi.z : u_lo.z);
    gl_Position = u_view_proj * vec4(p, 1.0);
}
