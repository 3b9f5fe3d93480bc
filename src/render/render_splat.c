#include "render/render_splat.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include <stdlib.h>

struct render_splat {
    GLuint visibility, resolve;
    GLuint depth_bits, ids; /* a uint per pixel each */
    int width, height;
};

render_splat *render_splat_make(char *err) {
    render_splat *s = calloc(1, sizeof *s);
    s->visibility = shader_make_compute("render/splat.comp", NULL, err);
    if (s->visibility) s->resolve = shader_make_compute("render/splat_resolve.comp", NULL, err);
    if (!s->resolve) {
        render_splat_destroy(s);
        return NULL;
    }
    glObjectLabel(GL_PROGRAM, s->visibility, -1, "splat-visibility");
    glObjectLabel(GL_PROGRAM, s->resolve, -1, "splat-resolve");
    return s;
}

static void _splat_free_buffers(render_splat *s) {
    gpu_buffer_destroy(&s->depth_bits);
    gpu_buffer_destroy(&s->ids);
    s->width = s->height = 0;
}

void render_splat_destroy(render_splat *s) {
    if (!s) return;
    _splat_free_buffers(s);
    shader_destroy(&s->visibility);
    shader_destroy(&s->resolve);
    free(s);
}

/* The per-pixel buffers at the view's size, holding their cleared values (the resolve pass keeps
 * them so afterwards). */
static bool _splat_resize(render_splat *s, int w, int h) {
    if (s->width == w && s->height == h) return true;
    _splat_free_buffers(s);
    size_t n = (size_t)w * (size_t)h;
    uint32_t *init = malloc(n * sizeof *init);
    char err[ERR_LEN];
    for (size_t i = 0; i < n; i++) init[i] = RENDER_SPLAT_FAR;
    s->depth_bits = gpu_buffer_make(n * sizeof *init, init, "splat-depth", err);
    for (size_t i = 0; i < n; i++) init[i] = RENDER_SPLAT_NONE;
    s->ids = gpu_buffer_make(n * sizeof *init, init, "splat-ids", err);
    free(init);
    if (!s->depth_bits || !s->ids) {
        log_error("RENDER", "%s", err);
        _splat_free_buffers(s);
        return false;
    }
    s->width = w, s->height = h;
    return true;
}

static void _splat_uniforms(const render_view *v, float radius) {
    mat4 inv;
    glm_mat4_inv((vec4 *)v->proj, inv);
    glUniformMatrix4fv(0, 1, GL_FALSE, (const float *)v->view);
    glUniformMatrix4fv(1, 1, GL_FALSE, (const float *)v->proj);
    glUniform1f(2, radius);
    glUniform2i(4, v->width, v->height);
    glUniformMatrix4fv(5, 1, GL_FALSE, (const float *)inv);
}

void render_splat_visibility(render_splat *s, const render_particles *p, const render_view *v) {
    if (!_splat_resize(s, v->width, v->height) || !p->count) return;
    glUseProgram(s->visibility);
    _splat_uniforms(v, p->radius);
    glUniform1ui(3, p->count);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_POSITIONS, p->positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_DEPTH, s->depth_bits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_IDS, s->ids);
    GLuint groups = (p->count + RENDER_SPLAT_GROUP - 1) / RENDER_SPLAT_GROUP;
    for (int pass = 0; pass < 2; pass++) {
        glUniform1i(6, pass);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
}

void render_splat_resolve(render_splat *s, const render_particles *p, const render_view *v, int mode, float lo, float hi,
                          GLuint color_tex, GLuint depth_tex) {
    if (!_splat_resize(s, v->width, v->height)) return;
    glUseProgram(s->resolve);
    _splat_uniforms(v, p->radius);
    glUniform1i(3, mode);
    glUniform2f(6, lo, hi);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_DEPTH, s->depth_bits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_IDS, s->ids);
    glBindTextureUnit(0, depth_tex);
    glBindImageTexture(0, color_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute((GLuint)(v->width + 15) / 16, (GLuint)(v->height + 15) / 16, 1);
    /* The colour is read next by blits, blending and readbacks; the buffers by the next frame. */
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    glBindTextureUnit(0, 0);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
}

void render_splat_buffers(const render_splat *s, GLuint *depth_bits, GLuint *ids) {
    *depth_bits = s->depth_bits;
    *ids = s->ids;
}
