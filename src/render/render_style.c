/* render_style: the registry of render styles (see render_style.h). */
#include "render/render_style.h"

const render_style_ops *const render_styles[RENDER_STYLE_COUNT] = {
    [RENDER_STYLE_SURFACE] = &render_style_surface,
    [RENDER_STYLE_SPHERES] = &render_style_spheres,
    [RENDER_STYLE_RASTER] = &render_style_raster,
    [RENDER_STYLE_SURFACE_ISO] = &render_style_surface_iso,
};
