#version 450
// HUD: every quad of the frame (glyphs, panels, colour bars, graph bars) in one draw, 6 vertices
// per quad from gl_VertexID. C twin of the struct: hud_quad in src/render/render_common.h.
#include "render/render_common.glsl"

struct hud_quad {
    vec4 rect;   // x0, y0, x1, y1, pixels, y down
    vec4 uv;     // u0, v0, u1, v1
    uint color;  // RGBA8
    uint kind;   // HUD_KIND_*
    uint pad0, pad1;
};
layout(std430, binding = RENDER_BIND_HUD_QUADS) readonly buffer Quads { hud_quad quads[]; };
layout(location = RENDER_LOC_SIZE) uniform vec2 u_size;    // framebuffer size in pixels

out vec2 v_uv;
flat out vec4 v_color;
flat out uint v_kind;

const vec2 k_corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

void main() {
    hud_quad q = quads[gl_VertexID / 6];
    vec2 k = k_corners[gl_VertexID % 6];
    vec2 p = mix(q.rect.xy, q.rect.zw, k);
    v_uv = mix(q.uv.xy, q.uv.zw, k);
    v_color = unpackUnorm4x8(q.color);
    v_kind = q.kind;
    gl_Position = vec4(p.x / u_size.x * 2.0 - 1.0, 1.0 - p.y / u_size.y * 2.0, 0.0, 1.0);
}
