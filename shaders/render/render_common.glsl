// The render shaders' shared constants come from C: every program of src/render is built with
// render_shader_defines() (src/render/render.c), which writes the table RENDER_SHADER_CONSTANTS of
// src/render/render_common.h as #define lines. There are no copies here to fall out of step.
#ifndef FLUID_RENDER_COMMON_GLSL
#define FLUID_RENDER_COMMON_GLSL
#ifndef RENDER_BIND_POSITIONS
#error "built without render_shader_defines(): pass it as the defines of shader_make_*"
#endif
#endif
