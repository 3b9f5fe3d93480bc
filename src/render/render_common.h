/* Constants shared between C and the render shaders: defined here only. Every render program is
 * built with render_shader_defines() (render.c), which turns the table RENDER_SHADER_CONSTANTS
 * into #define lines after the #version line; shaders/render/render_common.glsl holds no copies
 * and stops the build if they are missing. */
#ifndef FLUID_RENDER_COMMON_H
#define FLUID_RENDER_COMMON_H
#include <stdint.h>

/* Shader-storage binding points. */
#define RENDER_BIND_POSITIONS 0    /* vec4 per particle, xyz metres */
#define RENDER_BIND_VELOCITIES 1   /* vec4 per particle, xyz m/s */
#define RENDER_BIND_DENSITIES 2    /* float per particle, kg/m^3 */
#define RENDER_BIND_CELL_KEYS 3    /* uint per particle, grid cell */
#define RENDER_BIND_HUD_QUADS 4    /* hud_quad per quad */
#define RENDER_BIND_SPLAT_DEPTH 5  /* uint per pixel: the nearest sphere's window depth, as float bits */
#define RENDER_BIND_SPLAT_IDS 6    /* uint per pixel: the index of the sphere nearest there */
#define RENDER_BIND_SPLAT_THICK 7  /* uint per pixel: metres of fluid along the ray / RENDER_SPLAT_THICK_UNIT */
#define RENDER_BIND_SURFACE_SRC 8  /* float per pixel: view distance (0: none), read by a smoothing pass */
#define RENDER_BIND_SURFACE_DST 9  /* float per pixel: its output */
#define RENDER_BIND_SPRAY_DEPTH 10 /* uint per pixel: the nearest spray droplet's window depth bits */
#define RENDER_BIND_SPRAY_IDS 11   /* uint per pixel: that droplet's index */
#define RENDER_BIND_SHADOW 12      /* uint per light pixel: fluid thickness seen from the sun */
#define RENDER_BIND_ELLIPSOIDS 13  /* 4 vec4 per particle: the surface's ellipsoids (aniso.comp) */
#define RENDER_BIND_RANGES 14      /* uint per cell + 1: the sim's cell table */
#define RENDER_BIND_DIFFUSE 15       /* 2 vec4 per diffuse particle: xyz and lifetime left, velocity and kind */
#define RENDER_BIND_DIFFUSE_STATE 16 /* uint: the diffuse particles' counts (alive at RENDER_DIFFUSE_ALIVE) */
#define RENDER_BIND_DIFFUSE_SUM 17   /* uint per pixel: the diffuse particles' summed weight / RENDER_DIFFUSE_UNIT */

/* The diffuse particles (render_particles.diffuse; twins of src/sim/diffuse.h's DIFFUSE_KIND_* and
 * its state block, checked by tests/test_sim_diffuse.c): their kinds, where the count alive is,
 * the fixed-point unit of the per-pixel sum, the longest spray streak (pixels), the seconds over
 * which one fades at the end of its lifetime, and their radius against the fluid particles'. */
#define RENDER_DIFFUSE_SPRAY 0
#define RENDER_DIFFUSE_FOAM 1
#define RENDER_DIFFUSE_BUBBLE 2
#define RENDER_DIFFUSE_ALIVE 3
#define RENDER_DIFFUSE_UNIT 256
#define RENDER_DIFFUSE_MAX_STREAK 16.0
#define RENDER_DIFFUSE_FADE 0.4
#define RENDER_DIFFUSE_RADIUS 0.5
/* The diffuse pass's work groups (diffuse.comp): the points a group draws (the sim's indirect
 * dispatch's 64 a group: sim_diffuse_view.state, diffuse_common.glsl's ST_ARGS) and its threads,
 * which share the pixels of those points' footprints evenly. */
#define RENDER_DIFFUSE_GROUP 16
#define RENDER_DIFFUSE_THREADS 128

/* The compute splat (render_splat.c): threads a work group has, and the cleared pixel values. */
#define RENDER_SPLAT_GROUP 64
#define RENDER_SPLAT_SPHERES 8        /* spheres a work group takes */
#define RENDER_SPLAT_NONE 0xFFFFFFFFu /* no sphere */
#define RENDER_SPLAT_FAR 0x3F800000u  /* 1.0 as float bits: the far plane */
#define RENDER_SPLAT_EDGES 12         /* tank edges the full-picture passes draw */
#define RENDER_SPLAT_THICK_UNIT 1e-6  /* metres */

/* The surface's ellipsoids (aniso.comp, after Yu & Turk 2013): the most one axis may be longer than
 * another (their k_r), the neighbours below which a particle stays a sphere (their N_eps, within
 * h), how far its centre moves towards its neighbours' weighted mean (their lambda), and the
 * longest axis against the sphere's radius (a bound on the splat's box). */
#define RENDER_ANISO_KR 4.0
#define RENDER_ANISO_MIN_NEIGHBOURS 4
#define RENDER_ANISO_LAMBDA 0.9
#define RENDER_ANISO_MAX_AXIS 2.0

/* The splat's passes (splat.comp, uniform RENDER_LOC_PASS). */
#define RENDER_PASS_DEPTH 0       /* nearest window depth */
#define RENDER_PASS_INDEX 1       /* the sphere at that depth */
#define RENDER_PASS_THICKNESS 2   /* sum of chords */
#define RENDER_PASS_SPRAY_DEPTH 3 /* spray droplets only: nearest depth, into the spray buffer */
#define RENDER_PASS_SPRAY_INDEX 4 /* spray droplets only: the droplet at that depth */

/* Which particles a splat pass takes (uniform RENDER_LOC_SELECT). */
#define RENDER_SELECT_ALL 0
#define RENDER_SELECT_BULK 1  /* all but spray */
#define RENDER_SELECT_SPRAY 2 /* spray only */

/* Spray: a particle that has left the bulk: density below this share of the rest density (few
 * neighbours) and speed above RENDER_SPRAY_SPEED. */
#define RENDER_REST_DENSITY 1000.0f /* kg/m^3 */
#define RENDER_SPRAY_DENSITY 0.72f
#define RENDER_SPRAY_SPEED                                                                                                       \
    0.5f /* m/s; thresholds from a dump of the dam break: droplets 300-600 kg/m^3, the front's surface 700-900 */

/* The surface style's spheres against the particles' radius (render_surface.c: so neighbours
 * overlap; the shadow's too, so a lone droplet's chord there is twice this radius). */
#define RENDER_SURFACE_RADIUS_SCALE 1.5f

/* The shadow: the sun's view of the fluid's thickness, RENDER_SHADOW_SIZE pixels square. */
#define RENDER_SHADOW_SIZE 384

/* Uniform locations, one namespace for every render program, so a number means one thing. */
#define RENDER_LOC_VIEW 0          /* mat4 world -> view */
#define RENDER_LOC_PROJ 1          /* mat4 view -> clip */
#define RENDER_LOC_RADIUS 2        /* float, sphere radius, metres */
#define RENDER_LOC_COUNT 3         /* uint, particles */
#define RENDER_LOC_SIZE 4          /* ivec2 (vec2 in the HUD), the view's pixels */
#define RENDER_LOC_INV_PROJ 5      /* mat4 clip -> view */
#define RENDER_LOC_PASS 6          /* int, RENDER_PASS_* */
#define RENDER_LOC_EDGES 7         /* int, how many tank edges */
#define RENDER_LOC_EDGE_A 8        /* vec3[RENDER_SPLAT_EDGES] */
#define RENDER_LOC_EDGE_B 20       /* vec3[RENDER_SPLAT_EDGES] */
#define RENDER_LOC_MODE 32         /* int, colour mode or -1 */
#define RENDER_LOC_RANGE 33        /* vec2, the colour map's range */
#define RENDER_LOC_SELECT 34       /* int, RENDER_SELECT_* */
#define RENDER_LOC_SPRAY 35        /* vec2, spray: density below, speed above */
#define RENDER_LOC_INV_VIEW 36     /* mat4 view -> world */
#define RENDER_LOC_TANK_LO 37      /* vec3 */
#define RENDER_LOC_TANK_HI 38      /* vec3 */
#define RENDER_LOC_SUN 39          /* vec3, world direction towards the sun */
#define RENDER_LOC_BACKDROP 40     /* int, render_backdrop */
#define RENDER_LOC_SHADOW_VP 41    /* mat4 world -> the sun's clip space */
#define RENDER_LOC_SHADOW_ON 42    /* int, 1: RENDER_BIND_SHADOW holds the sun's view */
#define RENDER_LOC_SUN_VIEW 43     /* vec3, the sun's direction in view space */
#define RENDER_LOC_DIR 44          /* ivec2, a smoothing pass's direction */
#define RENDER_LOC_PX_PER_M 45     /* float, pixels per metre at view distance 1 */
#define RENDER_LOC_FILTER_M 46     /* float, smoothing radius, metres */
#define RENDER_LOC_NARROW_M 47     /* float, the narrow-range filter's depth range, metres */
#define RENDER_LOC_FROM_BITS 48    /* int, 1: the first smoothing pass reads window depth bits */
#define RENDER_LOC_LINEAR 49       /* vec2, proj[3][2], proj[2][2] */
#define RENDER_LOC_EDGE_BIAS 50    /* float, metres an edge behind the surface still shows */
#define RENDER_LOC_SPRAY_RADIUS 51 /* float, the spray droplets' radius, metres */
#define RENDER_LOC_SHOW 52         /* int, bit 0: draw the water, bit 1: draw the spray (tests hide them) */
#define RENDER_LOC_VIEW_PROJ 53    /* mat4 (raster tank lines) */
#define RENDER_LOC_COLOR 54        /* vec4 (raster lines) */
#define RENDER_LOC_CENTER 55       /* vec3 (the ring, view space) */
#define RENDER_LOC_IMAGE 56        /* image2D, the colour target (set by its binding; located so it takes no other's place) */
#define RENDER_LOC_IMAGE_1 57      /* image2D at binding 1 (likewise) */
#define RENDER_LOC_IMAGE_2 58      /* image2D at binding 2 (likewise) */
#define RENDER_LOC_ELLIPSOIDS 59   /* int, 1: the splat draws RENDER_BIND_ELLIPSOIDS' ellipsoids, not spheres */
#define RENDER_LOC_GRID_LO 60      /* vec3, the cell grid's corner */
#define RENDER_LOC_INV_CELL 61     /* float, 1 / cell size */
#define RENDER_LOC_GRID_DIMS 62    /* ivec3, cells per axis */
#define RENDER_LOC_H 63            /* float, the neighbourhood's radius, metres */
#define RENDER_LOC_STREAK 64       /* float, seconds of motion a spray streak shows */
#define RENDER_LOC_UNDER 65        /* float, metres under the water over which a diffuse particle dims to 1/e */
#define RENDER_LOC_SHADOW_THIN 66  /* float, metres of the sun's thickness that cast little shadow (a droplet's) */
#define RENDER_LOC_GRID_BRICK 67   /* uvec4, the cell order's bricks (grid.glsl); w unused */

/* Image and texture units (the binding of an image2D or sampler, glBindImageTexture's or
 * glBindTextureUnit's first argument). */
#define RENDER_UNIT_IMAGE 0   /* the image at RENDER_LOC_IMAGE */
#define RENDER_UNIT_IMAGE_1 1 /* the image at RENDER_LOC_IMAGE_1 */
#define RENDER_UNIT_IMAGE_2 2 /* the image at RENDER_LOC_IMAGE_2 */
#define RENDER_UNIT_ATLAS 0   /* the HUD's glyph atlas (sampler2D) */

/* The flat backdrop (render_view.backdrop RENDER_BACKDROP_PLAIN) and the tank's edges. */
#define RENDER_CLEAR_R 0.075f
#define RENDER_CLEAR_G 0.082f
#define RENDER_CLEAR_B 0.098f
#define RENDER_TANK_R 0.62f
#define RENDER_TANK_G 0.68f
#define RENDER_TANK_B 0.78f

#define HUD_KIND_GLYPH 0    /* colour * atlas coverage */
#define HUD_KIND_SOLID 1    /* colour */
#define HUD_KIND_COLORMAP 2 /* + colour mode: the particle colour map along uv.x (0..1) */

/* Every constant above that a shader reads, as (name, value text): render_shader_defines() writes
 * "#define NAME VALUE" for each (GLSL takes C's float suffix f and hex u as they are). */
/* clang-format off */
#define RENDER_STR_(x) #x
#define RENDER_STR(x) RENDER_STR_(x)
#define RENDER_SHADER_CONSTANTS(X) \
    X(RENDER_BIND_POSITIONS) X(RENDER_BIND_VELOCITIES) X(RENDER_BIND_DENSITIES) X(RENDER_BIND_CELL_KEYS) \
    X(RENDER_BIND_HUD_QUADS) X(RENDER_BIND_SPLAT_DEPTH) X(RENDER_BIND_SPLAT_IDS) X(RENDER_BIND_SPLAT_THICK) \
    X(RENDER_BIND_SURFACE_SRC) X(RENDER_BIND_SURFACE_DST) X(RENDER_BIND_SPRAY_DEPTH) X(RENDER_BIND_SPRAY_IDS) \
    X(RENDER_BIND_SHADOW) X(RENDER_BIND_ELLIPSOIDS) X(RENDER_BIND_RANGES) X(RENDER_ANISO_KR) \
    X(RENDER_ANISO_MIN_NEIGHBOURS) X(RENDER_ANISO_LAMBDA) X(RENDER_ANISO_MAX_AXIS) X(RENDER_LOC_ELLIPSOIDS) \
    X(RENDER_LOC_GRID_LO) X(RENDER_LOC_INV_CELL) X(RENDER_LOC_GRID_DIMS) X(RENDER_LOC_GRID_BRICK) X(RENDER_LOC_H) X(RENDER_SPLAT_GROUP) X(RENDER_SPLAT_SPHERES) X(RENDER_SPLAT_NONE) X(RENDER_SPLAT_FAR) \
    X(RENDER_SPLAT_EDGES) X(RENDER_SPLAT_THICK_UNIT) X(RENDER_PASS_DEPTH) X(RENDER_PASS_INDEX) \
    X(RENDER_PASS_THICKNESS) X(RENDER_PASS_SPRAY_DEPTH) X(RENDER_PASS_SPRAY_INDEX) X(RENDER_SELECT_ALL) \
    X(RENDER_SELECT_BULK) X(RENDER_SELECT_SPRAY) X(RENDER_LOC_VIEW) X(RENDER_LOC_PROJ) X(RENDER_LOC_RADIUS) \
    X(RENDER_LOC_COUNT) X(RENDER_LOC_SIZE) X(RENDER_LOC_INV_PROJ) X(RENDER_LOC_PASS) X(RENDER_LOC_EDGES) \
    X(RENDER_LOC_EDGE_A) X(RENDER_LOC_EDGE_B) X(RENDER_LOC_MODE) X(RENDER_LOC_RANGE) X(RENDER_LOC_SELECT) \
    X(RENDER_LOC_SPRAY) X(RENDER_LOC_INV_VIEW) X(RENDER_LOC_TANK_LO) X(RENDER_LOC_TANK_HI) X(RENDER_LOC_SUN) \
    X(RENDER_LOC_BACKDROP) X(RENDER_LOC_SHADOW_VP) X(RENDER_LOC_SHADOW_ON) X(RENDER_LOC_SHADOW_THIN) X(RENDER_LOC_SUN_VIEW) \
    X(RENDER_LOC_DIR) X(RENDER_LOC_PX_PER_M) X(RENDER_LOC_FILTER_M) X(RENDER_LOC_NARROW_M) \
    X(RENDER_LOC_FROM_BITS) X(RENDER_LOC_LINEAR) X(RENDER_LOC_EDGE_BIAS) X(RENDER_LOC_SPRAY_RADIUS) \
    X(RENDER_LOC_SHOW) X(RENDER_LOC_VIEW_PROJ) X(RENDER_LOC_COLOR) X(RENDER_LOC_CENTER) X(RENDER_LOC_IMAGE) X(RENDER_LOC_IMAGE_1) X(RENDER_LOC_IMAGE_2) \
    X(RENDER_UNIT_IMAGE) X(RENDER_UNIT_IMAGE_1) X(RENDER_UNIT_IMAGE_2) X(RENDER_UNIT_ATLAS) \
    X(RENDER_CLEAR_R) X(RENDER_CLEAR_G) X(RENDER_CLEAR_B) X(RENDER_TANK_R) X(RENDER_TANK_G) X(RENDER_TANK_B) \
    X(HUD_KIND_GLYPH) X(HUD_KIND_SOLID) X(HUD_KIND_COLORMAP) X(RENDER_SHADOW_SIZE) \
    X(RENDER_BIND_DIFFUSE) X(RENDER_BIND_DIFFUSE_STATE) X(RENDER_BIND_DIFFUSE_SUM) X(RENDER_DIFFUSE_SPRAY) \
    X(RENDER_DIFFUSE_FOAM) X(RENDER_DIFFUSE_BUBBLE) X(RENDER_DIFFUSE_ALIVE) X(RENDER_DIFFUSE_UNIT) \
    X(RENDER_DIFFUSE_MAX_STREAK) X(RENDER_DIFFUSE_FADE) X(RENDER_LOC_STREAK) X(RENDER_LOC_UNDER) \
    X(RENDER_DIFFUSE_GROUP) X(RENDER_DIFFUSE_THREADS)
/* clang-format on */

/* The #define text of RENDER_SHADER_CONSTANTS and the colour modes and backdrops (render.h), for
 * every program of src/render (hud.c's too). A static string. */
const char *render_shader_defines(void);

/* One HUD quad as the shader reads it (std430 struct hud_quad in shaders/render/hud.vert). */
typedef struct hud_quad {
    float rect[4];  /* x0, y0, x1, y1 in pixels, y down */
    float uv[4];    /* u0, v0, u1, v1 */
    uint32_t color; /* RGBA8, R in the low byte */
    uint32_t kind;  /* HUD_KIND_*, + colour mode for HUD_KIND_COLORMAP */
    uint32_t pad[2];
} hud_quad;
_Static_assert(sizeof(hud_quad) == 48, "hud_quad must match the std430 struct in shaders/render/hud.vert");

#endif
