#version 450
#include "render/render_common.glsl"
#include "render/colormap.glsl"

layout(binding = RENDER_UNIT_ATLAS) uniform sampler2D u_atlas;  // glyph coverage, R8

in vec2 v_uv;
flat in vec4 v_color;
flat in uint v_kind;
layout(location = 0) out vec4 o_color;

void main() {
    if (v_kind == HUD_KIND_GLYPH)
        o_color = vec4(v_color.rgb, v_color.a * texture(u_atlas, v_uv).r);
    else if (v_kind == HUD_KIND_SOLID)
        o_color = v_color;
    else
        o_color = vec4(colormap(int(v_kind - HUD_KIND_COLORMAP), v_uv.x), v_color.a);
}
