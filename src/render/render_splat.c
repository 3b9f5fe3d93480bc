#include "render/render_splat.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the backdrop textures were traced for: they are traced again when any of it changes. */
typedef struct _splat_backdrop_key {
    float view[16], proj[16], lo[3], hi[3];
    int backdrop, width, height;
} _splat_backdrop_key;

struct render_splat {
    GLuint visibility, resolve, backdrop;
    GLuint depth_bits, ids; /* a uint per pixel each */
    GLuint behind, front;   /* the backdrop (RGBA8) and the near glass (RGBA16F: colour, ray distance) */
    GLuint ellipsoids;      /* render_splat_ellipsoids: drawn instead of spheres where not 0 (not owned) */
    GLuint dummy;           /* bound where the resolve pass is given no buffer (a colour mode without its data, no shadow) */
    _splat_backdrop_key key;
    bool key_valid;
    int width, height;
};

render_splat *render_splat_make(char *err) {
    render_splat *s = calloc(1, sizeof *s);
    s->visibility = shader_make_compute("render/splat.comp", render_shader_defines(), err);
    if (s->visibility) s->resolve = shader_make_compute("render/splat_resolve.comp", render_shader_defines(), err);
    if (s->resolve) s->backdrop = shader_make_compute("render/splat_backdrop.comp", render_shader_defines(), err);
    if (s->backdrop) s->dummy = gpu_buffer_make(16, NULL, "splat-dummy", err);
    if (!s->dummy) {
        render_splat_destroy(s);
        return NULL;
    }
    glObjectLabel(GL_PROGRAM, s->visibility, -1, "splat-visibility");
    glObjectLabel(GL_PROGRAM, s->resolve, -1, "splat-resolve");
    glObjectLabel(GL_PROGRAM, s->backdrop, -1, "splat-backdrop");
    return s;
}

static void _splat_free_buffers(render_splat *s) {
    gpu_buffer_destroy(&s->depth_bits);
    gpu_buffer_destroy(&s->ids);
    if (s->behind) {
        glDeleteTextures(1, &s->behind);
        glDeleteTextures(1, &s->front);
        gpu_count_object(-2);
        s->behind = s->front = 0;
    }
    s->key_valid = false;
    s->width = s->height = 0;
}

void render_splat_destroy(render_splat *s) {
    if (!s) return;
    _splat_free_buffers(s);
    shader_destroy(&s->visibility);
    shader_destroy(&s->resolve);
    shader_destroy(&s->backdrop);
    gpu_buffer_destroy(&s->dummy);
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
    if (!init) {
        log_error("RENDER", "out of host memory for a %dx%d view", w, h);
        return false;
    }
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

void render_splat_uniforms(const render_view *v) {
    mat4 inv;
    glm_mat4_inv((vec4 *)v->proj, inv);
    glUniformMatrix4fv(RENDER_LOC_VIEW, 1, GL_FALSE, (const float *)v->view);
    glUniformMatrix4fv(RENDER_LOC_PROJ, 1, GL_FALSE, (const float *)v->proj);
    glUniform2i(RENDER_LOC_SIZE, v->width, v->height);
    glUniformMatrix4fv(RENDER_LOC_INV_PROJ, 1, GL_FALSE, (const float *)inv);
}

bool render_splat_can_select(const render_particles *p) { return p->densities && p->velocities; }

/* The visibility program over p's spheres at `radius` (those `select` takes), for each of
 * `passes` (RENDER_PASS_*: splat.comp). */
static void _splat_passes(render_splat *s, const render_particles *p, const render_view *v, float radius, const int *passes,
                          int n_passes, int select) {
    glUseProgram(s->visibility);
    render_splat_uniforms(v);
    glUniform1f(RENDER_LOC_RADIUS, radius);
    glUniform1ui(RENDER_LOC_COUNT, p->count);
    if (!render_splat_can_select(p)) select = RENDER_SELECT_ALL;
    glUniform1i(RENDER_LOC_SELECT, select);
    glUniform2f(RENDER_LOC_SPRAY, RENDER_SPRAY_DENSITY * RENDER_REST_DENSITY, RENDER_SPRAY_SPEED);
    bool ellipsoids = s->ellipsoids && select != RENDER_SELECT_SPRAY;
    glUniform1i(RENDER_LOC_ELLIPSOIDS, ellipsoids);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_ELLIPSOIDS, ellipsoids ? s->ellipsoids : s->dummy);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_POSITIONS, p->positions);
    if (select != RENDER_SELECT_ALL) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_VELOCITIES, p->velocities);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_DENSITIES, p->densities);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_DEPTH, s->depth_bits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_IDS, s->ids);
    GLuint groups = (p->count + RENDER_SPLAT_SPHERES - 1) / RENDER_SPLAT_SPHERES;
    for (int i = 0; i < n_passes; i++) {
        glUniform1i(RENDER_LOC_PASS, passes[i]);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
}

void render_splat_ellipsoids(render_splat *s, GLuint ellipsoids) { s->ellipsoids = ellipsoids; }

void render_splat_visibility(render_splat *s, const render_particles *p, const render_view *v) {
    if (!_splat_resize(s, v->width, v->height) || !p->count) return;
    _splat_passes(s, p, v, p->radius, (const int[]){RENDER_PASS_DEPTH, RENDER_PASS_INDEX}, 2, RENDER_SELECT_ALL);
}

void render_splat_depth_thickness(render_splat *s, const render_particles *p, const render_view *v, float radius,
                                  GLuint thickness, int select) {
    if (!_splat_resize(s, v->width, v->height) || !p->count) return;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_THICK, thickness);
    _splat_passes(s, p, v, radius, (const int[]){RENDER_PASS_DEPTH, RENDER_PASS_THICKNESS}, 2, select);
}

void render_splat_thickness(render_splat *s, const render_particles *p, const render_view *v, float radius, GLuint thickness,
                            int select) {
    if (!p->count) return;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_THICK, thickness);
    _splat_passes(s, p, v, radius, (const int[]){RENDER_PASS_THICKNESS}, 1, select);
}

void render_splat_spray(render_splat *s, const render_particles *p, const render_view *v, float radius, GLuint spray_bits,
                        GLuint spray_ids) {
    if (!p->count || !render_splat_can_select(p)) return;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPRAY_DEPTH, spray_bits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPRAY_IDS, spray_ids);
    _splat_passes(s, p, v, radius, (const int[]){RENDER_PASS_SPRAY_DEPTH, RENDER_PASS_SPRAY_INDEX}, 2, RENDER_SELECT_SPRAY);
}

/* The tank's edges in window coordinates (x, y in pixels, window depth), cut at the near plane;
 * edges that fall on a point are left out. Returns how many. */
static int _splat_edges(const render_particles *p, const render_view *v, float a[][3], float b[][3]) {
    mat4 vp;
    glm_mat4_mul((vec4 *)v->proj, (vec4 *)v->view, vp);
    vec4 corner[8];
    for (int c = 0; c < 8; c++) {
        vec4 w = {c & 1 ? p->hi[0] : p->lo[0], c & 2 ? p->hi[1] : p->lo[1], c & 4 ? p->hi[2] : p->lo[2], 1};
        glm_mat4_mulv(vp, w, corner[c]);
    }
    int n = 0;
    for (int c = 0; c < 8; c++)
        for (int axis = 0; axis < 3; axis++) {
            if (c & (1 << axis)) continue;
            vec4 e[2];
            glm_vec4_copy(corner[c], e[0]);
            glm_vec4_copy(corner[c | (1 << axis)], e[1]);
            float f0 = e[0][2] + e[0][3], f1 = e[1][2] + e[1][3]; /* >= 0 in front of the near plane */
            if (f0 < 0 && f1 < 0) continue;
            if (f0 < 0 || f1 < 0) glm_vec4_lerp(e[0], e[1], f0 / (f0 - f1), e[f0 < 0 ? 0 : 1]);
            float *out[2] = {a[n], b[n]};
            for (int k = 0; k < 2; k++) {
                out[k][0] = (e[k][0] / e[k][3] * 0.5f + 0.5f) * (float)v->width;
                out[k][1] = (e[k][1] / e[k][3] * 0.5f + 0.5f) * (float)v->height;
                out[k][2] = e[k][2] / e[k][3] * 0.5f + 0.5f;
            }
            n += fmaxf(fabsf(b[n][0] - a[n][0]), fabsf(b[n][1] - a[n][1])) > 1e-3f;
        }
    return n;
}

void render_splat_set_edges(const render_particles *p, const render_view *v) {
    float a[RENDER_SPLAT_EDGES][3], b[RENDER_SPLAT_EDGES][3];
    int edges = _splat_edges(p, v, a, b);
    glUniform1i(RENDER_LOC_EDGES, edges);
    glUniform3fv(RENDER_LOC_EDGE_A, RENDER_SPLAT_EDGES, &a[0][0]);
    glUniform3fv(RENDER_LOC_EDGE_B, RENDER_SPLAT_EDGES, &b[0][0]);
}

void render_splat_set_sun_view(const render_view *v) {
    float sun[3];
    render_sun(sun);
    vec4 sw = {sun[0], sun[1], sun[2], 0}, sv;
    glm_mat4_mulv((vec4 *)v->view, sw, sv);
    glUniform3fv(RENDER_LOC_SUN_VIEW, 1, sv);
}

void render_splat_set_scene(const render_particles *p, const render_view *v, const float *shadow_vp) {
    mat4 inv_view;
    glm_mat4_inv((vec4 *)v->view, inv_view);
    float sun[3];
    render_sun(sun);
    glUniformMatrix4fv(RENDER_LOC_INV_VIEW, 1, GL_FALSE, (const float *)inv_view);
    glUniform3fv(RENDER_LOC_TANK_LO, 1, p->lo);
    glUniform3fv(RENDER_LOC_TANK_HI, 1, p->hi);
    glUniform3fv(RENDER_LOC_SUN, 1, sun);
    glUniform1i(RENDER_LOC_BACKDROP, (int)v->backdrop);
    glUniform1i(RENDER_LOC_SHADOW_ON, shadow_vp != NULL);
    glUniform1f(RENDER_LOC_SHADOW_THIN, 2.0f * RENDER_SURFACE_RADIUS_SCALE * p->radius); /* a drawn droplet across */
    if (shadow_vp) glUniformMatrix4fv(RENDER_LOC_SHADOW_VP, 1, GL_FALSE, shadow_vp);
}

/* The backdrop textures for v: traced again only when the view, its size or the tank changed. */
static void _splat_backdrop(render_splat *s, const render_particles *p, const render_view *v) {
    _splat_backdrop_key key = {.backdrop = (int)v->backdrop, .width = v->width, .height = v->height};
    memcpy(key.view, v->view, sizeof key.view);
    memcpy(key.proj, v->proj, sizeof key.proj);
    memcpy(key.lo, p->lo, sizeof key.lo);
    memcpy(key.hi, p->hi, sizeof key.hi);
    if (s->key_valid && !memcmp(&key, &s->key, sizeof key)) return;
    if (!s->behind) {
        glCreateTextures(GL_TEXTURE_2D, 1, &s->behind);
        glTextureStorage2D(s->behind, 1, GL_RGBA8, v->width, v->height);
        glObjectLabel(GL_TEXTURE, s->behind, -1, "splat-backdrop");
        glCreateTextures(GL_TEXTURE_2D, 1, &s->front);
        glTextureStorage2D(s->front, 1, GL_RGBA16F, v->width, v->height);
        glObjectLabel(GL_TEXTURE, s->front, -1, "splat-front-glass");
        gpu_count_object(2);
    }
    glUseProgram(s->backdrop);
    mat4 inv;
    glm_mat4_inv((vec4 *)v->proj, inv);
    glUniformMatrix4fv(RENDER_LOC_PROJ, 1, GL_FALSE, (const float *)v->proj);
    glUniform2i(RENDER_LOC_SIZE, v->width, v->height);
    glUniformMatrix4fv(RENDER_LOC_INV_PROJ, 1, GL_FALSE, (const float *)inv);
    render_splat_set_scene(p, v, NULL);
    glBindImageTexture(RENDER_UNIT_IMAGE, s->behind, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(RENDER_UNIT_IMAGE_1, s->front, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F);
    glDispatchCompute((GLuint)(v->width + 15) / 16, (GLuint)(v->height + 15) / 16, 1);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    s->key = key;
    s->key_valid = true;
}

void render_splat_resolve(render_splat *s, const render_particles *p, const render_view *v, int mode, float lo, float hi,
                          GLuint color_tex) {
    if (!_splat_resize(s, v->width, v->height)) return;
    /* Every buffer the pass reads, from the arguments: the positions, the colour mode's data (a
     * dummy where the mode takes none), no shadow (the backdrop pass reads it too). */
    GLuint mode_data[3] = {p->velocities, p->densities, p->cell_keys};
    const GLuint mode_bind[3] = {RENDER_BIND_VELOCITIES, RENDER_BIND_DENSITIES, RENDER_BIND_CELL_KEYS};
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_POSITIONS, p->positions ? p->positions : s->dummy);
    for (int k = 0; k < 3; k++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, mode_bind[k], k == mode && mode_data[k] ? mode_data[k] : s->dummy);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SHADOW, s->dummy);
    _splat_backdrop(s, p, v);
    glUseProgram(s->resolve);
    render_splat_uniforms(v);
    glUniform1f(RENDER_LOC_RADIUS, p->radius);
    glUniform1i(RENDER_LOC_MODE, mode);
    glUniform2f(RENDER_LOC_RANGE, lo, hi);
    render_splat_set_edges(p, v);
    render_splat_set_sun_view(v);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_DEPTH, s->depth_bits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_IDS, s->ids);
    glBindImageTexture(RENDER_UNIT_IMAGE, color_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(RENDER_UNIT_IMAGE_1, s->behind, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    glBindImageTexture(RENDER_UNIT_IMAGE_2, s->front, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA16F);
    glDispatchCompute((GLuint)(v->width + 15) / 16, (GLuint)(v->height + 15) / 16, 1);
    /* The colour is read next by blits, blending and readbacks; the buffers by the next frame. */
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    glBindImageTexture(RENDER_UNIT_IMAGE, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(RENDER_UNIT_IMAGE_1, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    glBindImageTexture(RENDER_UNIT_IMAGE_2, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA16F);
}

void render_splat_buffers(const render_splat *s, GLuint *depth_bits, GLuint *ids) {
    *depth_bits = s->depth_bits;
    *ids = s->ids;
}
