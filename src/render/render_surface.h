/* render_surface: the RENDER_STYLE_SURFACE passes of the renderer (private to src/render).
 *
 * Screen-space fluid rendering, all in compute (render_splat.h says why): (1) the spheres' nearest
 * depth and (2) the sum of their chords through each pixel (the fluid's thickness) by the splat's
 * visibility program, at 1.5 times the radius so neighbours overlap; (3) a separable bilateral
 * filter on the view distance, x then y, twice (surface_smooth.comp); (4) one pass that rebuilds
 * normals from the smoothed distance and shades the surface (Fresnel reflection of a sky,
 * Beer-Lambert absorption by thickness, specular), draws the tank's edges where they are nearer,
 * and writes every pixel of the colour texture (surface_shade.comp). The per-pixel buffers follow
 * the view's size. It does NOT do refraction of the scene behind.
 */
#ifndef FLUID_RENDER_SURFACE_H
#define FLUID_RENDER_SURFACE_H
#include "render/render.h"
#include "render/render_splat.h"

typedef struct render_surface render_surface;
render_surface *render_surface_make(char *err);
void render_surface_destroy(render_surface *s);
/* Writes every pixel of color_tex (RGBA8, v's size). */
void render_surface_draw(render_surface *s, render_splat *splat, const render_particles *p, const render_view *v,
                         GLuint color_tex);

#endif
