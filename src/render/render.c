/* render: the renderer: one of each style of the registry (render_style.h), the splat they share,
 * the mouse's ring and the blit of a compute style's texture to the window (see render.h). */
#include "render/render.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include "render/render_splat.h"
#include "render/render_style.h"
#include <stdlib.h>

struct renderer {
    void *styles[RENDER_STYLE_COUNT]; /* each style's own state (render_styles[k]->make) */
    render_style_ctx ctx;             /* the splat the compute styles share */
    GLuint ring, vao;                 /* the mouse's ring: a line loop from gl_VertexID, no vertex buffer */
    render_target scene;              /* a compute style draws here when the view has no texture, then blits */
    render_passes timer;
};

void render_time_passes(renderer *r, bool on) { render_passes_on(&r->timer, on); }

int render_pass_times(renderer *r, const char **names, double *us, int max) {
    return render_passes_read(&r->timer, names, us, max);
}

void render_destroy(renderer *r) {
    if (!r) return;
    for (int k = 0; k < RENDER_STYLE_COUNT; k++)
        if (r->styles[k]) render_styles[k]->destroy(r->styles[k]);
    render_splat_destroy(r->ctx.splat);
    shader_destroy(&r->ring);
    render_target_destroy(&r->scene);
    render_passes_destroy(&r->timer);
    gpu_vao_destroy(&r->vao);
    free(r);
}

renderer *render_make(char *err) {
    renderer *r = calloc(1, sizeof *r);
    bool ok = (r->ring = shader_make_graphics("render/ring.vert", "render/tank.frag", render_shader_defines(), err)) != 0;
    if (ok) ok = (r->ctx.splat = render_splat_make(err)) != NULL;
    for (int k = 0; ok && k < RENDER_STYLE_COUNT; k++) ok = (r->styles[k] = render_styles[k]->make(err)) != NULL;
    if (!ok) {
        render_destroy(r);
        return NULL;
    }
    r->vao = gpu_vao_make("render-empty-vao");
    return r;
}

/* The mouse's push/pull ring, over everything. */
static void _render_ring(renderer *r, const render_view *v) {
    if (v->poke[3] <= 0) return;
    vec4 c = {v->poke[0], v->poke[1], v->poke[2], 1}, cv;
    glm_mat4_mulv((vec4 *)v->view, c, cv);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(r->ring);
    glBindVertexArray(r->vao);
    glUniformMatrix4fv(RENDER_LOC_PROJ, 1, GL_FALSE, (const float *)v->proj);
    glUniform3fv(RENDER_LOC_CENTER, 1, cv);
    glUniform1f(RENDER_LOC_RADIUS, v->poke[3]);
    glUniform4f(RENDER_LOC_COLOR, 1.0f, 0.85f, 0.3f, 1.0f);
    glDrawArrays(GL_LINES, 0, 128);
}

/* A compute style: the whole picture straight into v->color_texture, or into the renderer's own
 * texture and then blitted to v->framebuffer (the window). False when that texture cannot be made
 * at this size. */
static bool _render_compute(renderer *r, int style, const render_particles *p, const render_view *v) {
    GLuint color = v->color_texture;
    if (!color && (r->scene.width != v->width || r->scene.height != v->height)) {
        char err[ERR_LEN];
        render_target_destroy(&r->scene);
        if (!render_target_make(&r->scene, v->width, v->height, "scene", err)) return false;
    }
    if (!color) color = r->scene.color;
    render_styles[style]->draw(r->styles[style], &r->ctx, p, v, color, &r->timer);
    render_passes_begin(&r->timer, "blit");
    glBindFramebuffer(GL_FRAMEBUFFER, v->framebuffer);
    glViewport(0, 0, v->width, v->height);
    if (!v->color_texture)
        glBlitNamedFramebuffer(r->scene.fbo, v->framebuffer, 0, 0, v->width, v->height, 0, 0, v->width, v->height,
                               GL_COLOR_BUFFER_BIT, GL_NEAREST);
    render_passes_end(&r->timer);
    return true;
}

void render_scene(renderer *r, const render_particles *p, const render_view *v) {
    if (v->width <= 0 || v->height <= 0) return;
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    render_passes_reset(&r->timer);
    int style = v->style >= 0 && v->style < RENDER_STYLE_COUNT ? (int)v->style : RENDER_STYLE_SURFACE;
    if (!render_styles[style]->compute || !_render_compute(r, style, p, v)) {
        render_passes_reset(&r->timer);
        render_styles[RENDER_STYLE_RASTER]->draw(r->styles[RENDER_STYLE_RASTER], &r->ctx, p, v, 0, &r->timer);
    }
    _render_ring(r, v);
    glDisable(GL_DEPTH_TEST);
    glBindVertexArray(0);
    glUseProgram(0);
}
