/* render_style: the interface every render style implements, and their registry (as GLFW's
 * platform table: a new style is a new file and a line in render_styles[], not an `if` in
 * render.c).
 *
 *   surface  screen-space fluid rendering, all by compute, of anisotropic kernels (render_surface.c)
 *   spheres  the particles as lit spheres, by compute (render_spheres.c, on render_splat.h)
 *   raster   the same spheres through the graphics pipeline, on the plain backdrop (render_raster.c)
 *   surface-iso  the surface of spheres (render_surface.c), to compare with the anisotropic one live
 *
 * render.c makes one of each (make), draws the view's (draw) and, for a compute style, blits its
 * colour texture to the view's framebuffer when the view gives no texture of its own. A style
 * marks its passes by name (render_passes.h) and binds every buffer its passes read itself, from
 * its arguments: nothing is left bound for it by another.
 */
#ifndef FLUID_RENDER_STYLE_H
#define FLUID_RENDER_STYLE_H
#include "render/render_passes.h"
#include "render/render_types.h"

typedef struct render_splat render_splat;

/* What render.c shares with every style. */
typedef struct render_style_ctx {
    render_splat *splat; /* the compute splat and its per-pixel buffers (one for all styles: they follow the view's size) */
} render_style_ctx;

typedef struct render_style_ops {
    const char *key;  /* its --style name: "surface" */
    const char *name; /* the HUD's: "raster spheres" */
    bool compute;     /* writes every pixel of a colour texture by compute (else draws into v->framebuffer) */
    void *(*make)(char *err);
    void (*destroy)(void *impl);
    /* color_tex: the texture a compute style writes (v's size); 0 for the others. */
    void (*draw)(void *impl, const render_style_ctx *ctx, const render_particles *p, const render_view *v, GLuint color_tex,
                 render_passes *timer);
} render_style_ops;

extern const render_style_ops render_style_surface;
extern const render_style_ops render_style_spheres;
extern const render_style_ops render_style_raster;
extern const render_style_ops render_style_surface_iso;
/* Indexed by render_style (render_types.h). */
extern const render_style_ops *const render_styles[RENDER_STYLE_COUNT];

#endif
