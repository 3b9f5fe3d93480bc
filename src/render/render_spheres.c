/* render_spheres: RENDER_STYLE_SPHERES, the particles as lit spheres coloured by a colour mode, the
 * whole picture by compute (render_splat.h says why): visibility, then the resolve pass that shades
 * every pixel. No state of its own: the splat is render.c's, shared with the surface. */
#include "render/render_common.h"
#include "render/render_splat.h"
#include "render/render_style.h"

static void *_spheres_make(char *err) { return (void *)&render_style_spheres; } /* a token: nothing to make */
static void _spheres_destroy(void *impl) {}

static void _spheres_draw(void *impl, const render_style_ctx *ctx, const render_particles *p, const render_view *v,
                          GLuint color_tex, render_passes *timer) {
    float lo, hi;
    render_particles_range(p, v, &lo, &hi);
    /* The mode's buffer missing: white (a dummy would colour every particle by its first element). */
    int mode = (int)v->color;
    bool have = (mode == RENDER_COLOR_SPEED && p->velocities) || (mode == RENDER_COLOR_DENSITY && p->densities) ||
                (mode == RENDER_COLOR_CELL && p->cell_keys);
    render_particles drawn = *p; /* nothing to draw without positions */
    if (!p->positions) drawn.count = 0;
    render_passes_begin(timer, "visibility");
    render_splat_visibility(ctx->splat, &drawn, v);
    render_passes_begin(timer, "shading");
    render_splat_resolve(ctx->splat, &drawn, v, have ? mode : -1, lo, hi, color_tex);
}

const render_style_ops render_style_spheres = {.key = "spheres",
                                               .name = "spheres",
                                               .compute = true,
                                               .make = _spheres_make,
                                               .destroy = _spheres_destroy,
                                               .draw = _spheres_draw};
