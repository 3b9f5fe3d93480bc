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
 * white droplets, the diffuse spray, foam and bubbles (render_particles.diffuse) as soft
 * translucent points, the shadow through thickness.
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
 * The styles are a registry (render_style.h: surface, spheres, raster), each behind one interface,
 * chosen by render_view.style; render.c owns one of each, the splat they share, the mouse's ring
 * and the blit, and nothing else. The types (render_particles, render_view, render_target) are
 * render_types.h.
 *
 * Errors: render_make returns NULL with err when a shader does not build.
 * It does NOT read the simulation, handle input, or draw text (hud.h does).
 */
#ifndef FLUID_RENDER_H
#define FLUID_RENDER_H

#include "render/render_types.h"

typedef struct renderer renderer;
renderer *render_make(char *err);
void render_destroy(renderer *r);
void render_scene(renderer *r, const render_particles *p, const render_view *v);

/* The GPU time of each pass a style ran, by name (render_passes.h: GL_TIMESTAMP queries, for
 * profiling): turn it on, draw a frame, read (waits for the GPU): the passes' names and times in
 * the order they ran, at most max; returns how many (0 when off). Where timer queries read 0, so
 * do these. */
void render_time_passes(renderer *r, bool on);
int render_pass_times(renderer *r, const char **names, double *us, int max);

#endif
