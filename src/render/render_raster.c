/* render_raster: RENDER_STYLE_RASTER, the sphere impostors through the graphics pipeline: 6
 * vertices a particle from gl_VertexID, a ray-sphere hit per fragment writing its depth, then the
 * tank's edges as lines. First the backdrop: with the scene backdrop (render_view.backdrop) the
 * same lit scene as the compute styles (floor, sky, the tank's glass: the splat's resolve pass
 * with no particles, into the view's colour texture or a texture of its own, blitted), else the
 * plain colour; the depth cleared. Kept for comparison, and as render.c's fallback where a compute
 * style cannot make its texture. */
#include "render/render_common.h"
#include "render/render_splat.h"
#include "render/render_style.h"
#include "core/util.h"
#include "gpu/shader.h"
#include <stdlib.h>

typedef struct render_raster {
    GLuint spheres, tank;
    GLuint vao;   /* empty: every draw reads its data from buffers in the shader */
    GLuint dummy; /* bound where a colour buffer is not given */
    render_target scene; /* the lit scene, where the view has no colour texture of its own */
} render_raster;

static void _raster_destroy(void *impl) {
    render_raster *r = impl;
    if (!r) return;
    shader_destroy(&r->spheres);
    shader_destroy(&r->tank);
    gpu_buffer_destroy(&r->dummy);
    render_target_destroy(&r->scene);
    gpu_vao_destroy(&r->vao);
    free(r);
}

static void *_raster_make(char *err) {
    render_raster *r = calloc(1, sizeof *r);
    const char *defs = render_shader_defines();
    r->spheres = shader_make_graphics("render/spheres.vert", "render/spheres.frag", defs, err);
    if (r->spheres) r->tank = shader_make_graphics("render/tank.vert", "render/tank.frag", defs, err);
    if (r->tank) r->dummy = gpu_buffer_make(16, NULL, "render-raster-dummy", err);
    if (!r->dummy) {
        _raster_destroy(r);
        return NULL;
    }
    r->vao = gpu_vao_make("render-raster-vao");
    return r;
}

static void _raster_bind(GLuint index, GLuint buffer, GLuint dummy) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, buffer ? buffer : dummy);
}

/* Binds the particle buffers for colour mode `mode` (-1: none) and returns the mode the shaders
 * should use: -1 where the mode's buffer is missing (a dummy bound there would colour every
 * particle by its first element; white is honest). */
static int _raster_bind_particles(render_raster *r, const render_particles *p, int mode) {
    _raster_bind(RENDER_BIND_POSITIONS, p->positions, r->dummy);
    _raster_bind(RENDER_BIND_VELOCITIES, mode == RENDER_COLOR_SPEED ? p->velocities : 0, r->dummy);
    _raster_bind(RENDER_BIND_DENSITIES, mode == RENDER_COLOR_DENSITY ? p->densities : 0, r->dummy);
    _raster_bind(RENDER_BIND_CELL_KEYS, mode == RENDER_COLOR_CELL ? p->cell_keys : 0, r->dummy);
    bool have = (mode == RENDER_COLOR_SPEED && p->velocities) || (mode == RENDER_COLOR_DENSITY && p->densities) ||
                (mode == RENDER_COLOR_CELL && p->cell_keys);
    return have ? mode : -1;
}

/* RENDER_STYLE_RASTER: the impostors through the graphics pipeline, 6 vertices a particle. */
static void _raster_spheres(render_raster *r, const render_particles *p, const render_view *v) {
    if (!p->count || !p->positions) return;
    float lo, hi;
    render_particles_range(p, v, &lo, &hi);
    glUseProgram(r->spheres);
    glBindVertexArray(r->vao);
    int use = _raster_bind_particles(r, p, (int)v->color);
    float sun[3];
    render_sun(sun);
    vec4 sw = {sun[0], sun[1], sun[2], 0}, sv;
    glm_mat4_mulv((vec4 *)v->view, sw, sv);
    glUniformMatrix4fv(RENDER_LOC_VIEW, 1, GL_FALSE, (const float *)v->view);
    glUniformMatrix4fv(RENDER_LOC_PROJ, 1, GL_FALSE, (const float *)v->proj);
    glUniform1f(RENDER_LOC_RADIUS, p->radius);
    glUniform1i(RENDER_LOC_MODE, use);
    glUniform2f(RENDER_LOC_RANGE, lo, hi);
    glUniform3fv(RENDER_LOC_SUN_VIEW, 1, sv);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)(6 * p->count));
}

static void _raster_tank(render_raster *r, const render_particles *p, const render_view *v) {
    mat4 vp;
    glm_mat4_mul((vec4 *)v->proj, (vec4 *)v->view, vp);
    glUseProgram(r->tank);
    glBindVertexArray(r->vao);
    glUniformMatrix4fv(RENDER_LOC_VIEW_PROJ, 1, GL_FALSE, (const float *)vp);
    glUniform3fv(RENDER_LOC_TANK_LO, 1, p->lo);
    glUniform3fv(RENDER_LOC_TANK_HI, 1, p->hi);
    glUniform4f(RENDER_LOC_COLOR, RENDER_TANK_R, RENDER_TANK_G, RENDER_TANK_B, 1.0f);
    glDrawArrays(GL_LINES, 0, 24);
}

/* The lit scene with no particles into the view's colour (false: not made, the plain colour it is). */
static bool _raster_scene(render_raster *r, render_splat *splat, const render_particles *p, const render_view *v) {
    if (v->backdrop != RENDER_BACKDROP_SCENE || !splat) return false;
    GLuint color = v->color_texture;
    if (!color && (r->scene.width != v->width || r->scene.height != v->height)) {
        char err[ERR_LEN];
        render_target_destroy(&r->scene);
        if (!render_target_make(&r->scene, v->width, v->height, "raster-scene", err)) return false;
    }
    if (!color) color = r->scene.color;
    render_particles none = *p;
    none.count = 0;
    render_splat_resolve(splat, &none, v, -1, 0, 1, color);
    if (!v->color_texture)
        glBlitNamedFramebuffer(r->scene.fbo, v->framebuffer, 0, 0, v->width, v->height, 0, 0, v->width, v->height,
                               GL_COLOR_BUFFER_BIT, GL_NEAREST);
    return true;
}

static void _raster_clear(GLuint fbo, int w, int h, bool keep_color) {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(0, 0, w, h);
    glDepthMask(GL_TRUE);
    glClearColor(RENDER_CLEAR_R, RENDER_CLEAR_G, RENDER_CLEAR_B, 1.0f);
    glClearDepth(1.0);
    glClear((keep_color ? 0 : GL_COLOR_BUFFER_BIT) | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
}

static void _raster_draw(void *impl, const render_style_ctx *ctx, const render_particles *p, const render_view *v,
                         GLuint color_tex, render_passes *timer) {
    render_raster *r = impl;
    render_passes_begin(timer, "raster");
    bool scene = _raster_scene(r, ctx ? ctx->splat : NULL, p, v);
    _raster_clear(v->framebuffer, v->width, v->height, scene);
    _raster_spheres(r, p, v);
    _raster_tank(r, p, v);
    render_passes_end(timer);
}

const render_style_ops render_style_raster = {.key = "raster",
                                              .name = "raster spheres",
                                              .compute = false,
                                              .make = _raster_make,
                                              .destroy = _raster_destroy,
                                              .draw = _raster_draw};
