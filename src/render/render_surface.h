/* render_surface: RENDER_STYLE_SURFACE and RENDER_STYLE_SURFACE_ISO (render_style_surface and
 * render_style_surface_iso, render_style.h; private to src/render).
 *
 * Screen-space fluid rendering, all in compute (render_splat.h says why):
 *   0. ellipsoids: where the particles come with the sim's cell table (render_particles.ranges)
 *      and the style is not the isotropic one, each particle's anisotropic kernel (Yu & Turk 2013:
 *      aniso.comp), which passes 1 and 2 draw instead of spheres (flat water flat, a sheet of one
 *      layer continuous, a lone droplet round);
 *   1. shadow: the fluid's thickness seen from the sun (a RENDER_SHADOW_SIZE square view of the
 *      tank along the sun's direction), read by the floor (the scene backdrop only);
 *   2. depth and thickness: the bulk's nearest depth and the sum of its chords through each pixel,
 *      by the splat's visibility program, at 1.5 times the radius so neighbours overlap; spray
 *      (render_common.h: few neighbours, fast) is left out of the surface;
 *   3. spray: the spray droplets' nearest depth and index;
 *   4. smoothing: the narrow-range filter (Truong & Yuksel 2018) on the view distance, x then y,
 *      twice (surface_smooth.comp says how and why);
 *   5. diffuse: the diffuse particles (render_particles.diffuse: spray, foam, bubbles) as soft
 *      Gaussian points, spray streaked along its velocity, dimmed behind the smoothed water, summed
 *      per pixel in fixed point (diffuse.comp; one dispatch over the slots up to those alive, each
 *      work group's threads sharing its points' pixels);
 *   6. shading: normals from the smoothed distance, refraction of the scene, Beer-Lambert
 *      absorption, Fresnel reflection, the sun's highlight, the spray over it, the diffuse sum as
 *      white (never darker than what is behind), the tank's edges and glass, every pixel of the
 *      colour texture (surface_shade.comp).
 * The per-pixel buffers follow the view's size. Spray just under the surface shows as foam. It
 * does NOT draw bubbles inside the fluid, and the shadow is the bulk's
 * only (the spray and the tank cast none).
 */
#ifndef FLUID_RENDER_SURFACE_H
#define FLUID_RENDER_SURFACE_H
#include "render/render_passes.h"
#include "render/render_splat.h"
#include "render/render_types.h"

/* The diffuse pass's uniforms (render_surface_diffuse), public for its test's CPU reference. */
#define RENDER_SURFACE_STREAK 0.02f     /* seconds of a spray particle's motion its streak shows */
#define RENDER_SURFACE_UNDER_SCALE 6.0f /* metres under the water over which a diffuse particle dims to 1/e, in radii */

typedef struct render_surface render_surface;
/* spheres: draw spheres even where the particles come with a cell table (the isotropic style). */
render_surface *render_surface_make(bool spheres, char *err);
/* The smoothed view distance of the last draw (float per pixel, 0: no fluid; row 0 at the
 * bottom), for tests. */
GLuint render_surface_distance(const render_surface *s);
void render_surface_destroy(render_surface *s);
/* Pass 5 alone (render_surface_draw runs it; tests call it): p's diffuse particles (p->diffuse and
 * p->diffuse_state, p->diffuse_capacity slots; none: nothing) added to sum (uint per pixel, v's size,
 * in RENDER_DIFFUSE_UNITs), dimmed behind distance (float per pixel, the smoothed view distance; 0: no
 * water). One dispatch over the capacity, RENDER_DIFFUSE_GROUP slots a work group at a time. */
void render_surface_diffuse(render_surface *s, const render_particles *p, const render_view *v, GLuint distance, GLuint sum);
/* Writes every pixel of color_tex (RGBA8, v's size); its passes are timed by name on timer (may be
 * NULL): shadow, visibility, spray, smoothing, diffuse, shading. */
void render_surface_draw(render_surface *s, render_splat *splat, const render_particles *p, const render_view *v,
                         GLuint color_tex, render_passes *timer);

#endif
