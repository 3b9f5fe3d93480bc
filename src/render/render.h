/* render: the fluid in a lit scene, drawn from plain GL buffers, so it knows nothing of the
 * simulation that filled them.
 *
 *   renderer *r = render_make(err);
 *   each frame:
 *     render_view v = { .framebuffer = 0, .width = w, .height = h, .style = RENDER_STYLE_SURFACE };
 *     camera_matrices(&cam, w, h, v.view, v.proj);
 *     render_scene(r, &(render_particles){ .positions = pos, .velocities = vel, ..., .count = n,
 *                                          .radius = 0.01f, .lo = {..}, .hi = {..} }, &v);
 *     ...then the HUD (hud.h) on top, into the same framebuffer
 *   render_destroy(r);
 *
 * Positions and colour data are read from the shader-storage buffers as they are: no vertex
 * buffers, no copies. render_scene writes every pixel of the view: the backdrop, the tank and the
 * particles in one of three styles, and leaves depth testing off.
 *
 * The backdrop (RENDER_BACKDROP_SCENE, the default) is a lit scene for the water to sit in: a sky
 * with a sun, a tiled floor under the tank (with the fluid's shadow in the surface style) and the
 * tank as glass, its edges drawn and its walls faintly reflecting the sky. RENDER_BACKDROP_PLAIN is
 * a flat colour (RENDER_CLEAR_R/G/B in render_common.h) with the tank's edges, for tests that tell
 * drawn pixels from the background and for comparing with the raster path.
 *
 * RENDER_STYLE_SURFACE (the window's default) is screen-space fluid rendering, all by compute
 * (render_surface.h): depth and thickness, narrow-range smoothing, normals, refraction of the
 * scene behind, Beer-Lambert absorption, Fresnel reflection, the sun's highlight, spray drawn as
 * white droplets, the shadow through thickness.
 *
 * RENDER_STYLE_SPHERES draws the particles as lit spheres coloured by a colour mode, the whole
 * picture by compute (render_splat.h): on a GPU with few graphics units (the H100) that is many
 * times faster than the same impostors drawn as triangles.
 *
 * RENDER_STYLE_RASTER draws the same impostors through the graphics pipeline on the plain backdrop:
 * 6 vertices a particle from gl_VertexID, a ray-sphere hit per fragment writing its depth (it
 * clears the framebuffer's colour and depth first). Kept for comparison.
 *
 * The compute styles write v->color_texture directly when given (else their own texture, blitted
 * to v->framebuffer) and leave the framebuffer's depth as it was.
 *
 * Render targets (render_target_*) are offscreen framebuffers with an RGBA8 colour texture and a
 * depth texture, for screenshots, video and tests.
 *
 * Errors: render_make returns NULL with err when a shader does not build.
 * It does NOT read the simulation, handle input, or draw text (hud.h does).
 */
#ifndef FLUID_RENDER_H
#define FLUID_RENDER_H
#include "gpu/gpu.h"
#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum render_color { RENDER_COLOR_SPEED, RENDER_COLOR_DENSITY, RENDER_COLOR_CELL, RENDER_COLOR_COUNT } render_color;
/* The surface first: the window's default. */
typedef enum render_style { RENDER_STYLE_SURFACE, RENDER_STYLE_SPHERES, RENDER_STYLE_RASTER, RENDER_STYLE_COUNT } render_style;
typedef enum render_backdrop { RENDER_BACKDROP_SCENE, RENDER_BACKDROP_PLAIN } render_backdrop;
/* render_view.hide: parts of the surface style left out (tests compare with and without them). */
#define RENDER_HIDE_WATER 1u
#define RENDER_HIDE_SPRAY 2u
extern const char *const render_color_names[RENDER_COLOR_COUNT]; /* "speed", "density", "cell hash" */
extern const char *const render_style_names[RENDER_STYLE_COUNT]; /* "surface", "spheres", "raster spheres" */
extern const char *const render_style_keys[RENDER_STYLE_COUNT];  /* "surface", "spheres", "raster" (--style) */

typedef struct render_particles {
    GLuint positions;   /* vec4 per particle, xyz metres (required) */
    GLuint velocities;  /* vec4 per particle, xyz m/s (RENDER_COLOR_SPEED; the surface's spray) */
    GLuint densities;   /* float per particle, kg/m^3 (RENDER_COLOR_DENSITY; the surface's spray) */
    GLuint cell_keys;   /* uint per particle, its grid cell (RENDER_COLOR_CELL) */
    uint32_t count;
    float radius;       /* sphere radius, metres */
    float lo[3], hi[3]; /* the tank */
} render_particles;

typedef struct render_view {
    GLuint framebuffer;   /* 0: the window */
    GLuint color_texture; /* framebuffer's colour texture (RGBA8, the view's size) if it has one, else 0 */
    int width, height;    /* pixels; nothing is drawn when either is 0 */
    mat4 view, proj;
    render_color color;
    render_style style;
    float value_lo, value_hi; /* the colour map's range in m/s or kg/m^3 (0, 0: render_color_range) */
    float poke[4];        /* xyz + radius: a ring drawn where the mouse pushes/pulls (radius 0: none) */
    render_backdrop backdrop; /* RENDER_BACKDROP_SCENE (0) or _PLAIN */
    unsigned hide;        /* RENDER_HIDE_* bits (0: everything) */
} render_view;

/* The world direction towards the sun (normalised), which lights every style and casts the shadow. */
void render_sun(float dir[3]);

/* The default colour-map range of a mode: speed 0..3 m/s, density 900..1100 kg/m^3. */
void render_color_range(render_color c, float *lo, float *hi);
/* The unit shown on the legend: "m/s", "kg/m³", "" */
const char *render_color_unit(render_color c);

typedef struct renderer renderer;
renderer *render_make(char *err);
void render_destroy(renderer *r);
void render_scene(renderer *r, const render_particles *p, const render_view *v);

/* The GPU time of each pass of the compute styles (GL_TIMESTAMP queries, for profiling): turn it
 * on, draw a frame, read (waits for the GPU). False when off. A pass a style does not run reads 0;
 * the spheres style's visibility is its two splat passes, its shading the resolve pass. Where timer
 * queries read 0, so do these. */
#define RENDER_PASSES 6
extern const char *const render_pass_names[RENDER_PASSES]; /* "shadow", "visibility", "spray", "smoothing", "shading", "blit" */
void render_time_passes(renderer *r, bool on);
bool render_pass_times(renderer *r, double us[RENDER_PASSES]);

typedef struct render_target {
    GLuint fbo, color, depth;
    int width, height;
} render_target;
bool render_target_make(render_target *t, int width, int height, const char *label, char *err);
void render_target_destroy(render_target *t);
/* Reads the colour texture into rgba (width*height*4 bytes), top row first. */
void render_target_read(const render_target *t, uint8_t *rgba);
/* Reads the depth texture into depth (width*height floats, 0..1), top row first. */
void render_target_read_depth(const render_target *t, float *depth);

#endif
