#include "render/render.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include "render/render_splat.h"
#include "render/render_surface.h"
#include "core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const render_color_names[RENDER_COLOR_COUNT] = {"speed", "density", "cell hash"};
const char *const render_style_names[RENDER_STYLE_COUNT] = {"surface", "spheres", "raster spheres"};
const char *const render_style_keys[RENDER_STYLE_COUNT] = {"surface", "spheres", "raster"};

const char *render_shader_defines(void) {
    static char text[8192];
    if (text[0]) return text;
    size_t n = 0;
#define RENDER_DEFINE_LINE(name) n += (size_t)snprintf(text + n, sizeof text - n, "#define " #name " %s\n", RENDER_STR(name));
    RENDER_SHADER_CONSTANTS(RENDER_DEFINE_LINE)
#undef RENDER_DEFINE_LINE
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "#define RENDER_COLOR_SPEED %d\n#define RENDER_COLOR_DENSITY %d\n#define RENDER_COLOR_CELL %d\n"
                          "#define RENDER_BACKDROP_SCENE %d\n#define RENDER_BACKDROP_PLAIN %d\n",
                          RENDER_COLOR_SPEED, RENDER_COLOR_DENSITY, RENDER_COLOR_CELL, RENDER_BACKDROP_SCENE,
                          RENDER_BACKDROP_PLAIN);
    if (n >= sizeof text) abort(); /* the table outgrew the buffer: a programmer's error */
    return text;
}

void render_sun(float dir[3]) {
    vec3 d = {0.45f, 0.78f, 0.42f};
    glm_vec3_normalize(d);
    dir[0] = d[0], dir[1] = d[1], dir[2] = d[2];
}

struct renderer {
    GLuint spheres, tank, ring;
    GLuint vao;         /* empty: every draw reads its data from buffers in the shader */
    GLuint dummy;       /* bound where a colour buffer is not given */
    render_surface *surface;
    render_splat *splat;
    render_target scene; /* RENDER_STYLE_SPHERES draws here (the splat writes a texture), then blits */
    GLuint marks[RENDER_PASSES + 1]; /* GL_TIMESTAMP queries at the start of each pass, and the end */
    bool timing;
};

const char *const render_pass_names[RENDER_PASSES] = {"shadow", "visibility", "spray", "smoothing", "shading", "blit"};

void render_time_passes(renderer *r, bool on) {
    if (on && !r->marks[0]) glGenQueries(RENDER_PASSES + 1, r->marks);
    r->timing = on;
}

bool render_pass_times(renderer *r, double us[RENDER_PASSES]) {
    if (!r->timing) return false;
    GLuint64 t[RENDER_PASSES + 1];
    for (int k = 0; k <= RENDER_PASSES; k++) glGetQueryObjectui64v(r->marks[k], GL_QUERY_RESULT, &t[k]);
    for (int k = 0; k < RENDER_PASSES; k++) us[k] = (double)(t[k + 1] - t[k]) / 1e3;
    return true;
}

static void _render_mark(renderer *r, int k) {
    if (r->timing) glQueryCounter(r->marks[k], GL_TIMESTAMP);
}

void render_color_range(render_color c, float *lo, float *hi) {
    if (c == RENDER_COLOR_SPEED) *lo = 0, *hi = 3;
    else if (c == RENDER_COLOR_DENSITY) *lo = 900, *hi = 1100;
    else *lo = 0, *hi = 1;
}

const char *render_color_unit(render_color c) {
    return c == RENDER_COLOR_SPEED ? "m/s" : c == RENDER_COLOR_DENSITY ? "kg/m\xc2\xb3" : "";
}

renderer *render_make(char *err) {
    renderer *r = calloc(1, sizeof *r);
    const char *defs = render_shader_defines();
    r->spheres = shader_make_graphics("render/spheres.vert", "render/spheres.frag", defs, err);
    if (r->spheres) r->tank = shader_make_graphics("render/tank.vert", "render/tank.frag", defs, err);
    if (r->tank) r->ring = shader_make_graphics("render/ring.vert", "render/tank.frag", defs, err);
    if (r->ring) r->dummy = gpu_buffer_make(16, NULL, "render-dummy", err);
    if (r->dummy) r->surface = render_surface_make(err);
    if (r->surface) r->splat = render_splat_make(err);
    if (!r->splat) {
        render_destroy(r);
        return NULL;
    }
    glCreateVertexArrays(1, &r->vao);
    glObjectLabel(GL_VERTEX_ARRAY, r->vao, -1, "render-empty-vao");
    gpu_count_object(1);
    return r;
}

void render_destroy(renderer *r) {
    if (!r) return;
    shader_destroy(&r->spheres);
    shader_destroy(&r->tank);
    shader_destroy(&r->ring);
    gpu_buffer_destroy(&r->dummy);
    render_surface_destroy(r->surface);
    render_splat_destroy(r->splat);
    render_target_destroy(&r->scene);
    if (r->marks[0]) glDeleteQueries(RENDER_PASSES + 1, r->marks);
    if (r->vao) {
        glDeleteVertexArrays(1, &r->vao);
        gpu_count_object(-1);
    }
    free(r);
}

static void _render_bind(GLuint index, GLuint buffer, GLuint dummy) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, buffer ? buffer : dummy);
}

/* Binds the particle buffers for colour mode `mode` (-1: none) and returns the mode the shaders
 * should use: -1 where the mode's buffer is missing (a dummy bound there would colour every
 * particle by its first element; white is honest). */
static int _render_bind_particles(renderer *r, const render_particles *p, int mode) {
    _render_bind(RENDER_BIND_POSITIONS, p->positions, r->dummy);
    _render_bind(RENDER_BIND_VELOCITIES, mode == RENDER_COLOR_SPEED ? p->velocities : 0, r->dummy);
    _render_bind(RENDER_BIND_DENSITIES, mode == RENDER_COLOR_DENSITY ? p->densities : 0, r->dummy);
    _render_bind(RENDER_BIND_CELL_KEYS, mode == RENDER_COLOR_CELL ? p->cell_keys : 0, r->dummy);
    bool have = (mode == RENDER_COLOR_SPEED && p->velocities) || (mode == RENDER_COLOR_DENSITY && p->densities) ||
                (mode == RENDER_COLOR_CELL && p->cell_keys);
    return have ? mode : -1;
}

static void _render_value_range(const render_view *v, float *lo, float *hi) {
    *lo = v->value_lo, *hi = v->value_hi;
    if (*lo == 0 && *hi == 0) render_color_range(v->color, lo, hi);
    if (*hi <= *lo) *hi = *lo + 1;
}

/* RENDER_STYLE_RASTER: the impostors through the graphics pipeline, 6 vertices a particle. */
static void _render_raster_spheres(renderer *r, const render_particles *p, const render_view *v) {
    if (!p->count || !p->positions) return;
    float lo, hi;
    _render_value_range(v, &lo, &hi);
    glUseProgram(r->spheres);
    glBindVertexArray(r->vao);
    int use = _render_bind_particles(r, p, (int)v->color);
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

static void _render_tank(renderer *r, const render_particles *p, const render_view *v) {
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

static void _render_clear(GLuint fbo, int w, int h) {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(0, 0, w, h);
    glDepthMask(GL_TRUE);
    glClearColor(RENDER_CLEAR_R, RENDER_CLEAR_G, RENDER_CLEAR_B, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
}

/* The compute styles (spheres, surface): the whole picture straight into v->color_texture, or into
 * the renderer's own texture and then blitted to v->framebuffer (the window). False when that
 * texture cannot be made at this size. */
static bool _render_compute(renderer *r, const render_particles *p, const render_view *v) {
    GLuint color = v->color_texture;
    if (!color && (r->scene.width != v->width || r->scene.height != v->height)) {
        char err[ERR_LEN];
        render_target_destroy(&r->scene);
        if (!render_target_make(&r->scene, v->width, v->height, "scene", err)) return false;
    }
    if (!color) color = r->scene.color;
    render_particles drawn = *p; /* nothing to draw without positions */
    if (!p->positions) drawn.count = 0;
    _render_bind(RENDER_BIND_SHADOW, 0, r->dummy); /* read only where the surface binds its own */
    if (v->style == RENDER_STYLE_SURFACE) {
        render_surface_draw(r->surface, r->splat, &drawn, v, color, r->timing ? r->marks : NULL);
    } else {
        float lo, hi;
        _render_value_range(v, &lo, &hi);
        int mode = _render_bind_particles(r, p, (int)v->color);
        _render_mark(r, 0);
        _render_mark(r, 1);
        render_splat_visibility(r->splat, &drawn, v);
        _render_mark(r, 2);
        _render_mark(r, 3);
        _render_mark(r, 4);
        render_splat_resolve(r->splat, &drawn, v, mode, lo, hi, color);
    }
    _render_mark(r, 5);
    glBindFramebuffer(GL_FRAMEBUFFER, v->framebuffer);
    glViewport(0, 0, v->width, v->height);
    if (!v->color_texture)
        glBlitNamedFramebuffer(r->scene.fbo, v->framebuffer, 0, 0, v->width, v->height, 0, 0, v->width, v->height,
                               GL_COLOR_BUFFER_BIT, GL_NEAREST);
    _render_mark(r, 6);
    return true;
}

void render_scene(renderer *r, const render_particles *p, const render_view *v) {
    if (v->width <= 0 || v->height <= 0) return;
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    if (v->style == RENDER_STYLE_RASTER || !_render_compute(r, p, v)) {
        _render_clear(v->framebuffer, v->width, v->height);
        _render_raster_spheres(r, p, v);
        _render_tank(r, p, v);
    }
    _render_ring(r, v);
    glDisable(GL_DEPTH_TEST);
    glBindVertexArray(0);
    glUseProgram(0);
}

bool render_target_make(render_target *t, int width, int height, const char *label, char *err) {
    *t = (render_target){.width = width, .height = height};
    if (width <= 0 || height <= 0) return fail(err, "render target '%s' of %dx%d pixels: the size must be positive", label, width, height);
    GLint max = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
    if (width > max || height > max)
        return fail(err, "render target '%s' of %dx%d pixels is larger than the GPU's %d; use a smaller --size", label, width, height, max);
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
        return fail(err, "render target '%s' of %dx%d pixels is incomplete (status 0x%x); use a smaller --size", label, width, height, status);
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
