/* Constants shared between C and the render shaders. GLSL twin: shaders/render/render_common.glsl
 * (keep in step). */
#ifndef FLUID_RENDER_COMMON_H
#define FLUID_RENDER_COMMON_H
#include <stdint.h>

#define RENDER_BIND_POSITIONS 0
#define RENDER_BIND_VELOCITIES 1
#define RENDER_BIND_DENSITIES 2
#define RENDER_BIND_CELL_KEYS 3
#define RENDER_BIND_HUD_QUADS 4
#define RENDER_BIND_SPLAT_DEPTH 5
#define RENDER_BIND_SPLAT_IDS 6
#define RENDER_BIND_SPLAT_THICK 7
#define RENDER_BIND_SURFACE_SRC 8
#define RENDER_BIND_SURFACE_DST 9

#define RENDER_SPLAT_GROUP 64
#define RENDER_SPLAT_SPHERES 8
#define RENDER_SPLAT_NONE 0xFFFFFFFFu
#define RENDER_SPLAT_FAR 0x3F800000u
#define RENDER_SPLAT_EDGES 12
#define RENDER_SPLAT_THICK_UNIT 1e-6

#define RENDER_TANK_R 0.62f
#define RENDER_TANK_G 0.68f
#define RENDER_TANK_B 0.78f

#define HUD_KIND_GLYPH 0
#define HUD_KIND_SOLID 1
#define HUD_KIND_COLORMAP 2

/* One HUD quad as the shader reads it (std430 struct hud_quad in shaders/render/hud.vert). */
typedef struct hud_quad {
    float rect[4];   /* x0, y0, x1, y1 in pixels, y down */
    float uv[4];     /* u0, v0, u1, v1 */
    uint32_t color;  /* RGBA8, R in the low byte */
    uint32_t kind;   /* HUD_KIND_*, + colour mode for HUD_KIND_COLORMAP */
    uint32_t pad[2];
} hud_quad;
_Static_assert(sizeof(hud_quad) == 48, "hud_quad must match the std430 struct in shaders/render/hud.vert");

#endif
