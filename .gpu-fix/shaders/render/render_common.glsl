// Constants shared by the render shaders. C twin: src/render/render_common.h (keep in step).
#ifndef FLUID_RENDER_COMMON_GLSL
#define FLUID_RENDER_COMMON_GLSL

// Shader-storage binding points.
#define RENDER_BIND_POSITIONS 0   // vec4 per particle, xyz metres
#define RENDER_BIND_VELOCITIES 1  // vec4 per particle, xyz m/s
#define RENDER_BIND_DENSITIES 2   // float per particle, kg/m^3
#define RENDER_BIND_CELL_KEYS 3   // uint per particle, grid cell
#define RENDER_BIND_HUD_QUADS 4   // hud_quad per quad
#define RENDER_BIND_SPLAT_DEPTH 5 // uint per pixel: the nearest sphere's window depth, as float bits
#define RENDER_BIND_SPLAT_IDS 6   // uint per pixel: the index of the sphere nearest there
#define RENDER_BIND_SPLAT_THICK 7 // uint per pixel: metres of fluid along the ray / RENDER_SPLAT_THICK_UNIT
#define RENDER_BIND_SURFACE_SRC 8 // float per pixel: view distance (0: none), read by a smoothing pass
#define RENDER_BIND_SURFACE_DST 9 // float per pixel: its output

// The compute splat (render_splat.c): threads a work group has, and the cleared pixel values.
#define RENDER_SPLAT_GROUP 64
#define RENDER_SPLAT_SPHERES 8  // spheres a work group takes
#define RENDER_SPLAT_NONE 0xFFFFFFFFu  // no sphere
#define RENDER_SPLAT_FAR 0x3F800000u   // 1.0 as float bits: the far plane
#define RENDER_SPLAT_EDGES 12          // tank edges the resolve pass draws
#define RENDER_SPLAT_THICK_UNIT 1e-6   // metres

// The background (RENDER_CLEAR_* in render.h) and the tank's edges.
#define RENDER_CLEAR_R 0.075
#define RENDER_CLEAR_G 0.082
#define RENDER_CLEAR_B 0.098
#define RENDER_TANK_R 0.62
#define RENDER_TANK_G 0.68
#define RENDER_TANK_B 0.78

// Colour modes (render_color in C).
#define RENDER_COLOR_SPEED 0
#define RENDER_COLOR_DENSITY 1
#define RENDER_COLOR_CELL 2

// HUD quad kinds: how the fragment shader colours a quad.
#define HUD_KIND_GLYPH 0      // colour * atlas coverage
#define HUD_KIND_SOLID 1      // colour
#define HUD_KIND_COLORMAP 2   // + colour mode: the particle colour map along uv.x (0..1)

#endif
