#include "render/render_surface.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include <stdlib.h>

struct render_surface {
    GLuint smooth, shade;
    GLuint thickness;   /* uint per pixel, zero between frames (the shade pass clears it) */
    GLuint dist[2];     /* float per pixel: the smoothing passes' ping-pong */
    int width, height;
};

render_surface *render_surface_make(char *err) {
    render_surface *s = calloc(1, sizeof *s);
    s->smooth = shader_make_compute("render/surface_smooth.comp", NULL, err);
    if (s->smooth) s->shade = shader_make_compute("render/surface_shade.comp", NULL, err);
    if (!s->shade) {
        render_surface_destroy(s);
        return NULL;
    }
    return s;
}

static void _surface_free_buffers(render_surface *s) {
    gpu_buffer_destroy(&s->thickness);
    gpu_buffer_destroy(&s->dist[0]);
    gpu_buffer_destroy(&s->dist[1]);
    s->width = s->height = 0;
}

void render_surface_destroy(render_surface *s) {
    if (!s) return;
    _surface_free_buffers(s);
    shader_destroy(&s->smooth);
    shader_destroy(&s->shade);
    free(s);
}

static bool _surface_resize(render_surface *s, int w, int h) {
    if (s->width == w && s->height == h) return true;
    _surface_free_buffers(s);
    size_t bytes = (size_t)w * (size_t)h * 4;
    char err[ERR_LEN];
    s->thickness = gpu_buffer_make(bytes, NULL, "surface-thickness", err);
    if (s->thickness) s->dist[0] = gpu_buffer_make(bytes, NULL, "surface-distance-0", err);
    if (s->dist[0]) s->dist[1] = gpu_buffer_make(bytes, NULL, "surface-distance-1", err);
    if (!s->dist[1]) {
        log_error("RENDER", "%s", err);
        _surface_free_buffers(s);
        return false;
    }
    s->width = w, s->height = h;
    return true;
}

void render_surface_draw(render_surface *s, render_splat *splat, const render_particles *p, const render_view *v,
                         GLuint color_tex) {
    if (!_surface_resize(s, v->width, v->height)) return;
    GLuint depth_bits, ids;
    /* 1, 2: depth and thickness of the (slightly enlarged, so neighbours overlap) spheres */
    render_splat_depth_thickness(splat, p, v, p->radius * 1.5f, s->thickness);
    render_splat_buffers(splat, &depth_bits, &ids);
    if (!depth_bits) return;
    GLuint groups_x = (GLuint)(v->width + 15) / 16, groups_y = (GLuint)(v->height + 15) / 16;
    /* 3: bilateral smoothing, x then y, twice (a smaller kernel twice is less blocky than one big one) */
    glUseProgram(s->smooth);
    glUniform2i(0, v->width, v->height);
    glUniform1f(2, v->proj[1][1] * (float)v->height * 0.5f);
    glUniform1f(3, p->radius * 2.5f);
    glUniform1f(4, p->radius * 2.0f);
    glUniform2f(6, v->proj[3][2], v->proj[2][2]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_DEPTH, depth_bits);
    for (int k = 0; k < 4; k++) {
        glUniform1i(5, k == 0);
        glUniform2i(1, k % 2 == 0, k % 2 == 1);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_SRC, s->dist[(k + 1) % 2]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_DST, s->dist[k % 2]);
        glDispatchCompute(groups_x, groups_y, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    /* 4: shade every pixel (the last smoothing pass wrote dist[1]) */
    glUseProgram(s->shade);
    glUniform2i(0, v->width, v->height);
    glUniformMatrix4fv(1, 1, GL_FALSE, (const float *)v->proj);
    glUniform1f(5, p->radius * 1.5f);
    render_splat_set_edges(p, v);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_THICK, s->thickness);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_SRC, s->dist[1]);
    glBindImageTexture(0, color_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(groups_x, groups_y, 1);
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
}
