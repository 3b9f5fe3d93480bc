/* render_types: what every part of src/render shares: the colour modes, styles and backdrops, the
 * particles and view a frame is drawn from, the sun, the colour map's range, and render targets
 * (offscreen framebuffers with an RGBA8 colour texture and a depth texture, for screenshots, video
 * and tests). The lowest module of src/render: it includes nothing of it but render_common.h's
 * constants. */
#ifndef FLUID_RENDER_TYPES_H
#define FLUID_RENDER_TYPES_H
#include "gpu/gpu.h"
#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum render_color { RENDER_COLOR_SPEED, RENDER_COLOR_DENSITY, RENDER_COLOR_CELL, RENDER_COLOR_COUNT } render_color;
/* An index into the style registry, render_styles[] (render_style.h); the surface first: the
 * window's default. */
typedef enum render_style {
    RENDER_STYLE_SURFACE,
    RENDER_STYLE_SPHERES,
    RENDER_STYLE_RASTER,
    RENDER_STYLE_SURFACE_ISO, /* the surface of spheres, not ellipsoids: the anisotropic one's comparison */
    RENDER_STYLE_COUNT
} render_style;
typedef enum render_backdrop { RENDER_BACKDROP_SCENE, RENDER_BACKDROP_PLAIN } render_backdrop;
/* render_view.hide: parts of the surface style left out (tests compare with and without them). */
#define RENDER_HIDE_WATER 1u
#define RENDER_HIDE_SPRAY 2u
#define RENDER_HIDE_DIFFUSE 4u /* the diffuse particles (spray, foam, bubbles) */
extern const char *const render_color_names[RENDER_COLOR_COUNT]; /* "speed", "density", "cell hash" */

typedef struct render_particles {
    GLuint positions;  /* vec4 per particle, xyz metres (required) */
    GLuint velocities; /* vec4 per particle, xyz m/s (RENDER_COLOR_SPEED; the surface's spray) */
    GLuint densities;  /* float per particle, kg/m^3 (RENDER_COLOR_DENSITY; the surface's spray) */
    GLuint cell_keys;  /* uint per particle, its grid cell (RENDER_COLOR_CELL) */
    uint32_t count;
    float radius;       /* sphere radius, metres */
    /* The sim's cell table in the particles' order and its grid (sim_get_grid), for the surface's
     * ellipsoids; ranges 0: none (the surface draws spheres). */
    GLuint ranges;
    float grid_lo[3], cell, h;
    uint32_t dims[3];
    uint32_t keys;     /* the cells' keys in all (sim_grid.keys): RENDER_COLOR_CELL's range; 0: none */
    uint32_t brick[4]; /* the cell order (sim_grid.brick); all 0: rows */
    float lo[3], hi[3]; /* the tank */
    /* The diffuse particles (spray, foam, bubbles: the sim's sim_diffuse_view), drawn by the surface
     * style over the water; diffuse 0: none. */
    GLuint diffuse;       /* 2 vec4 a slot: xyz metres and the lifetime left (s), xyz m/s and the kind (RENDER_DIFFUSE_*) */
    GLuint diffuse_state; /* uints: the indirect dispatch over the alive ones at 0 (64 a group), the count alive at
                           * RENDER_DIFFUSE_ALIVE */
    uint32_t diffuse_capacity; /* its slots: the pass's groups cover them (those past the alive return at once) */
} render_particles;

typedef struct render_view {
    GLuint framebuffer;   /* 0: the window */
    GLuint color_texture; /* framebuffer's colour texture (RGBA8, the view's size) if it has one, else 0 */
    int width, height;    /* pixels; nothing is drawn when either is 0 */
    mat4 view, proj;
    render_color color;
    render_style style;
    float value_lo, value_hi; /* the colour map's range in m/s or kg/m^3 (0, 0: render_color_range) */
    float poke[4];            /* xyz + radius: a ring drawn where the mouse pushes/pulls (radius 0: none) */
    render_backdrop backdrop; /* RENDER_BACKDROP_SCENE (0) or _PLAIN */
    unsigned hide;            /* RENDER_HIDE_* bits (0: everything) */
} render_view;

/* The world direction towards the sun (normalised), which lights every style and casts the shadow. */
void render_sun(float dir[3]);

/* The default colour-map range of a mode: speed 0..3 m/s, density 900..1100 kg/m^3. */
void render_color_range(render_color c, float *lo, float *hi);
/* The unit shown on the legend: "m/s", "kg/m³", "" */
const char *render_color_unit(render_color c);

/* The world direction towards the sun (normalised), which lights every style and casts the shadow. */
void render_sun(float dir[3]);
/* The default colour-map range of a mode: speed 0..3 m/s, density 900..1100 kg/m^3. */
void render_color_range(render_color c, float *lo, float *hi);
/* The unit shown on the legend: "m/s", "kg/m³", "" */
const char *render_color_unit(render_color c);
/* v's colour-map range: its own, else the mode's default (render_color_range). */
void render_view_range(const render_view *v, float *lo, float *hi);
/* The same, but for the cell colour where p's grid is known: 0 and the number of cells (the hue
 * follows the sorted key order; particles.glsl). */
void render_particles_range(const render_particles *p, const render_view *v, float *lo, float *hi);

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
