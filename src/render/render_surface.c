#include "render/render_surface.h"
#include "core/util.h"
#include "gpu/shader.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct _surface_tex {
    GLuint tex, fbo;
} _surface_tex;

struct render_surface {
    GLuint depth_prog, thick_prog, smooth_prog, shade_prog;
    GLuint zbuf;                  /* depth attachment of the depth pass */
    _surface_tex depth, thick, tmp, smooth;
    GLuint vao;
    int width, height;
};

render_surface *render_surface_make(char *err) {
    render_surface *s = calloc(1, sizeof *s);
    s->depth_prog = shader_make_graphics("render/spheres.vert", "render/surface_spheres.frag", "#define SURFACE_DEPTH 1\n", err);
    if (s->depth_prog)
        s->thick_prog = shader_make_graphics("render/spheres.vert", "render/surface_spheres.frag", "#define SURFACE_THICKNESS 1\n", err);
    if (s->thick_prog) s->smooth_prog = shader_make_graphics("render/fullscreen.vert", "render/surface_smooth.frag", NULL, err);
    if (s->smooth_prog) s->shade_prog = shader_make_graphics("render/fullscreen.vert", "render/surface_shade.frag", NULL, err);
    if (!s->shade_prog) {
        render_surface_destroy(s);
        return NULL;
    }
    glCreateVertexArrays(1, &s->vao);
    glObjectLabel(GL_VERTEX_ARRAY, s->vao, -1, "surface-empty-vao");
    gpu_count_object(1);
    return s;
}

static void _surface_tex_make(_surface_tex *t, GLenum format, int w, int h, GLuint depth, const char *label) {
    char name[64];
    glCreateTextures(GL_TEXTURE_2D, 1, &t->tex);
    glTextureStorage2D(t->tex, 1, format, w, h);
    glTextureParameteri(t->tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t->tex, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    snprintf(name, sizeof name, "surface-%s", label);
    glObjectLabel(GL_TEXTURE, t->tex, -1, name);
    glCreateFramebuffers(1, &t->fbo);
    glNamedFramebufferTexture(t->fbo, GL_COLOR_ATTACHMENT0, t->tex, 0);
    if (depth) glNamedFramebufferTexture(t->fbo, GL_DEPTH_ATTACHMENT, depth, 0);
    snprintf(name, sizeof name, "surface-%s-fbo", label);
    glObjectLabel(GL_FRAMEBUFFER, t->fbo, -1, name);
    gpu_count_object(2);
}

static void _surface_tex_destroy(_surface_tex *t) {
    if (!t->tex) return;
    glDeleteFramebuffers(1, &t->fbo);
    glDeleteTextures(1, &t->tex);
    gpu_count_object(-2);
    *t = (_surface_tex){0};
}

static void _surface_free_targets(render_surface *s) {
    _surface_tex_destroy(&s->depth);
    _surface_tex_destroy(&s->thick);
    _surface_tex_destroy(&s->tmp);
    _surface_tex_destroy(&s->smooth);
    if (s->zbuf) {
        glDeleteTextures(1, &s->zbuf);
        gpu_count_object(-1);
        s->zbuf = 0;
    }
    s->width = s->height = 0;
}

static void _surface_resize(render_surface *s, int w, int h) {
    if (s->width == w && s->height == h) return;
    _surface_free_targets(s);
    glCreateTextures(GL_TEXTURE_2D, 1, &s->zbuf);
    glTextureStorage2D(s->zbuf, 1, GL_DEPTH_COMPONENT32F, w, h);
    glObjectLabel(GL_TEXTURE, s->zbuf, -1, "surface-zbuffer");
    gpu_count_object(1);
    _surface_tex_make(&s->depth, GL_R32F, w, h, s->zbuf, "depth");
    _surface_tex_make(&s->thick, GL_R16F, w, h, 0, "thickness");
    _surface_tex_make(&s->tmp, GL_R32F, w, h, 0, "smooth-tmp");
    _surface_tex_make(&s->smooth, GL_R32F, w, h, 0, "smooth");
    s->width = w;
    s->height = h;
}

void render_surface_destroy(render_surface *s) {
    if (!s) return;
    _surface_free_targets(s);
    shader_destroy(&s->depth_prog);
    shader_destroy(&s->thick_prog);
    shader_destroy(&s->smooth_prog);
    shader_destroy(&s->shade_prog);
    if (s->vao) {
        glDeleteVertexArrays(1, &s->vao);
        gpu_count_object(-1);
    }
    free(s);
}

void render_surface_draw(render_surface *s, renderer *r, const render_particles *p, const render_view *v) {
    _surface_resize(s, v->width, v->height);
    const float zero = 0.0f, one = 1.0f;
    /* 1. front depth of the (slightly enlarged, so neighbours overlap) spheres */
    glBindFramebuffer(GL_FRAMEBUFFER, s->depth.fbo);
    glClearNamedFramebufferfv(s->depth.fbo, GL_COLOR, 0, &zero);
    glClearNamedFramebufferfv(s->depth.fbo, GL_DEPTH, 0, &one);
    glEnable(GL_DEPTH_TEST);
    render_draw_spheres(r, s->depth_prog, p, v, -1, 1.5f);
    /* 2. thickness: every sphere adds its chord, no depth test */
    glBindFramebuffer(GL_FRAMEBUFFER, s->thick.fbo);
    glClearNamedFramebufferfv(s->thick.fbo, GL_COLOR, 0, &zero);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    render_draw_spheres(r, s->thick_prog, p, v, -1, 1.5f);
    glDisable(GL_BLEND);
    /* 3. bilateral smoothing, x then y, twice (a smaller kernel twice is less blocky than one big one) */
    glBindVertexArray(s->vao);
    glUseProgram(s->smooth_prog);
    glUniform1f(1, v->proj[1][1] * (float)v->height * 0.5f);
    glUniform1f(2, p->radius * 2.5f);
    glUniform1f(3, p->radius * 2.0f);
    GLuint src = s->depth.tex;
    for (int it = 0; it < 2; it++) {
        glBindFramebuffer(GL_FRAMEBUFFER, s->tmp.fbo);
        glBindTextureUnit(0, src);
        glUniform2f(0, 1, 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindFramebuffer(GL_FRAMEBUFFER, s->smooth.fbo);
        glBindTextureUnit(0, s->tmp.tex);
        glUniform2f(0, 0, 1);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        src = s->smooth.tex;
    }
    /* 4. shade into the view's framebuffer, writing depth for the tank's outline */
    glBindFramebuffer(GL_FRAMEBUFFER, v->framebuffer);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(s->shade_prog);
    glBindTextureUnit(0, s->smooth.tex);
    glBindTextureUnit(1, s->thick.tex);
    glUniformMatrix4fv(0, 1, GL_FALSE, (const float *)v->proj);
    glUniform3f(1, RENDER_CLEAR_R, RENDER_CLEAR_G, RENDER_CLEAR_B);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindTextureUnit(0, 0);
    glBindTextureUnit(1, 0);
}
