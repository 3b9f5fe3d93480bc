/* render_types: the shared types' helpers and render targets (see render_types.h). */
#include "render/render_types.h"
#include "core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const render_color_names[RENDER_COLOR_COUNT] = {"speed", "density", "cell hash"};

void render_sun(float dir[3]) {
    vec3 d = {0.45f, 0.78f, 0.42f};
    glm_vec3_normalize(d);
    dir[0] = d[0], dir[1] = d[1], dir[2] = d[2];
}

void render_color_range(render_color c, float *lo, float *hi) {
    if (c == RENDER_COLOR_SPEED) *lo = 0, *hi = 3;
    else if (c == RENDER_COLOR_DENSITY) *lo = 900, *hi = 1100;
    else *lo = 0, *hi = 1;
}

const char *render_color_unit(render_color c) {
    return c == RENDER_COLOR_SPEED ? "m/s" : c == RENDER_COLOR_DENSITY ? "kg/m\xc2\xb3" : "";
}

void render_view_range(const render_view *v, float *lo, float *hi) {
    *lo = v->value_lo, *hi = v->value_hi;
    if (*lo == 0 && *hi == 0) render_color_range(v->color, lo, hi);
    if (*hi <= *lo) *hi = *lo + 1;
}

void render_particles_range(const render_particles *p, const render_view *v, float *lo, float *hi) {
    render_view_range(v, lo, hi);
    if (v->color == RENDER_COLOR_CELL && p->keys) *lo = 0, *hi = (float)p->keys;
}

bool render_target_make(render_target *t, int width, int height, const char *label, char *err) {
    *t = (render_target){.width = width, .height = height};
    if (width <= 0 || height <= 0)
        return fail(err, "render target '%s' of %dx%d pixels: the size must be positive", label, width, height);
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    if (width > max || height > max)
        return fail(err, "render target '%s' of %dx%d pixels is larger than the GPU's %d; use a smaller --size", label, width,
                    height, max);
    char name[128];
    glCreateTextures(GL_TEXTURE_2D, 1, &t->color);
    glTextureStorage2D(t->color, 1, GL_RGBA8, width, height);
    snprintf(name, sizeof name, "%s-color", label);
    glObjectLabel(GL_TEXTURE, t->color, -1, name);
    glCreateTextures(GL_TEXTURE_2D, 1, &t->depth);
    glTextureStorage2D(t->depth, 1, GL_DEPTH_COMPONENT32F, width, height);
    snprintf(name, sizeof name, "%s-depth", label);
    glObjectLabel(GL_TEXTURE, t->depth, -1, name);
    glCreateFramebuffers(1, &t->fbo);
    glNamedFramebufferTexture(t->fbo, GL_COLOR_ATTACHMENT0, t->color, 0);
    glNamedFramebufferTexture(t->fbo, GL_DEPTH_ATTACHMENT, t->depth, 0);
    snprintf(name, sizeof name, "%s-fbo", label);
    glObjectLabel(GL_FRAMEBUFFER, t->fbo, -1, name);
    gpu_count_object(3);
    GLenum status = glCheckNamedFramebufferStatus(t->fbo, GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        render_target_destroy(t);
        return fail(err, "render target '%s' of %dx%d pixels is incomplete (status 0x%x); use a smaller --size", label, width,
                    height, status);
    }
    return true;
}

void render_target_destroy(render_target *t) {
    if (t->fbo) {
        glDeleteFramebuffers(1, &t->fbo);
        glDeleteTextures(1, &t->color);
        glDeleteTextures(1, &t->depth);
        gpu_count_object(-3);
    }
    *t = (render_target){0};
}

void render_target_read(const render_target *t, uint8_t *rgba) {
    size_t row = (size_t)t->width * 4;
    uint8_t *tmp = malloc(row * (size_t)t->height);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(t->color, 0, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)(row * (size_t)t->height), tmp);
    for (int y = 0; y < t->height; y++) memcpy(rgba + row * (size_t)y, tmp + row * (size_t)(t->height - 1 - y), row);
    free(tmp);
}

void render_target_read_depth(const render_target *t, float *depth) {
    size_t row = (size_t)t->width;
    float *tmp = malloc(row * (size_t)t->height * sizeof(float));
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTextureImage(t->depth, 0, GL_DEPTH_COMPONENT, GL_FLOAT, (GLsizei)(row * (size_t)t->height * sizeof(float)), tmp);
    for (int y = 0; y < t->height; y++)
        memcpy(depth + row * (size_t)y, tmp + row * (size_t)(t->height - 1 - y), row * sizeof(float));
    free(tmp);
}
