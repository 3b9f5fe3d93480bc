/* render_splat: the sphere impostors rasterised in compute (RENDER_STYLE_SPHERES; private to
 * src/render).
 *
 * Why: on a GPU whose graphics pipeline is a sliver of the chip (the H100 is one: its 3D units
 * are few, its SMs many) a draw of 6 vertices per particle costs far more than the same spheres
 * drawn by compute threads. Three dispatches, no vertices, no fragments:
 *   1. visibility, depth: each pixel whose centre ray hits a sphere keeps the nearest window depth
 *      (atomicMin on its float bits in a per-pixel buffer);
 *   2. visibility, index: the sphere whose depth equals the kept one writes its index (lowest wins
 *      a tie, so the image is deterministic);
 *   3. resolve: a thread a pixel writes the whole picture into the colour texture: the scene or
 *      the plain background, the tank's edges, and the winning sphere shaded as the raster
 *      impostor is where it is nearer than an edge; it clears the pixel's depth and index for the
 *      next frame. The scene (scene.glsl) is traced into two textures (splat_backdrop.comp) only
 *      when the view, its size or the tank changes, and read there.
 * Coverage and depth are the raster impostor's, so both paths draw the same spheres. Nothing goes
 * through the graphics pipeline: no clear, no blit, no depth buffer.
 *
 *   render_splat *s = render_splat_make(err);
 *   each frame:
 *     render_splat_visibility(s, p, v);      // 1 and 2: reads p->positions
 *     render_splat_resolve(s, p, v, mode, lo, hi, color_tex);  // 3: binds p's buffer of the mode itself
 *
 * Errors: render_splat_make returns NULL with err when a shader does not build.
 * It does NOT draw the mouse's ring or the HUD (render.c and hud.c draw those over it).
 */
#ifndef FLUID_RENDER_SPLAT_H
#define FLUID_RENDER_SPLAT_H
#include "render/render_types.h"

typedef struct render_splat render_splat;
render_splat *render_splat_make(char *err);
void render_splat_destroy(render_splat *s);
/* Passes 1 and 2 over v's width x height (the per-pixel buffers follow the size). */
void render_splat_visibility(render_splat *s, const render_particles *p, const render_view *v);
/* Pass 3: every pixel of color_tex (RGBA8, v's size). mode: a colour mode or -1 (white); lo, hi:
 * the colour map's range; the tank is p->lo..p->hi. Binds every buffer it reads from p (the mode's
 * must be there: the caller passes -1 where it is not). */
void render_splat_resolve(render_splat *s, const render_particles *p, const render_view *v, int mode, float lo, float hi,
                          GLuint color_tex);
/* The surface style (render_surface.c): pass 1 for spheres of `radius` (the nearest window depth),
 * and the sum of their chords through each pixel, in RENDER_SPLAT_THICK_UNIT metres, added to
 * `thickness` (a uint per pixel, zero before), for the particles `select` takes (RENDER_SELECT_*;
 * all where p has no densities or velocities). The depth stays for the surface's passes, which
 * must clear it (to RENDER_SPLAT_FAR) as the resolve pass does. */
void render_splat_depth_thickness(render_splat *s, const render_particles *p, const render_view *v, float radius,
                                  GLuint thickness, int select);
/* The chord sums alone, of the particles `select` takes, into `thickness` (the sun's view, for the
 * shadow); the splat's own per-pixel buffers are neither used nor resized. */
void render_splat_thickness(render_splat *s, const render_particles *p, const render_view *v, float radius, GLuint thickness,
                            int select);
/* The spray droplets (RENDER_SELECT_SPRAY) at `radius`: nearest depth into spray_bits, its index
 * into spray_ids (a uint per pixel each, RENDER_SPLAT_FAR and RENDER_SPLAT_NONE before). Nothing
 * where p has no densities or velocities. */
void render_splat_spray(render_splat *s, const render_particles *p, const render_view *v, float radius, GLuint spray_bits,
                        GLuint spray_ids);
/* The surface's ellipsoids (4 vec4 per particle, aniso.comp) drawn instead of spheres by the
 * passes that follow, bar the spray's; 0: spheres again. */
void render_splat_ellipsoids(render_splat *s, GLuint ellipsoids);
/* Whether p carries what the spray's test needs (densities and velocities). */
bool render_splat_can_select(const render_particles *p);
/* On the current program: the view's matrices and size (RENDER_LOC_VIEW, _PROJ, _SIZE, _INV_PROJ);
 * the tank's edges (splat_edges.glsl); the scene (scene.glsl: backdrop, sun, tank, and the sun's
 * view-projection where a shadow map is bound, else NULL). */
void render_splat_uniforms(const render_view *v);
void render_splat_set_edges(const render_particles *p, const render_view *v);
void render_splat_set_scene(const render_particles *p, const render_view *v, const float *shadow_vp);
void render_splat_set_sun_view(const render_view *v); /* RENDER_LOC_SUN_VIEW, for sphere_shade */
/* The per-pixel buffers after render_splat_visibility (row 0 at the bottom): the nearest depth as
 * float bits (RENDER_SPLAT_FAR where none) and the sphere's index (RENDER_SPLAT_NONE). For tests. */
void render_splat_buffers(const render_splat *s, GLuint *depth_bits, GLuint *ids);

#endif
