/* render_surface: the RENDER_STYLE_SURFACE passes of the renderer (private to src/render).
 *
 * Screen-space fluid rendering: (1) the spheres' view depth into a float target, (2) their
 * thickness summed with additive blending, (3) a separable bilateral filter on the depth (two
 * passes), (4) one full-screen pass that rebuilds normals from the smoothed depth and shades the
 * surface (Fresnel reflection of a sky, Beer-Lambert absorption by thickness, specular), writing
 * depth so the tank's outline is hidden behind the water where it should be. The targets follow
 * the view's size (rebuilt when it changes). It does NOT do refraction of the scene behind.
 */
#ifndef FLUID_RENDER_SURFACE_H
#define FLUID_RENDER_SURFACE_H
#include "render/render.h"

typedef struct render_surface render_surface;
render_surface *render_surface_make(char *err);
void render_surface_destroy(render_surface *s);
/* Draws into v->framebuffer (bound, cleared, depth test on) through its own targets. */
void render_surface_draw(render_surface *s, renderer *r, const render_particles *p, const render_view *v);

/* render.c: the sphere draw with `program` (0: the renderer's own lit spheres), colour mode
 * RENDER_COLOR_* or -1 (none), the radius times radius_scale. */
void render_draw_spheres(renderer *r, GLuint program, const render_particles *p, const render_view *v, int mode,
                         float radius_scale);

#endif
