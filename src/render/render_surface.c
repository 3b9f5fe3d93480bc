#include "render/render_surface.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include "render/render_style.h"
#include <math.h>
#include <stdlib.h>

#define SURFACE_SPRAY_SCALE 0.6f  /* the spray droplets' (small, soft: issue 26) */

struct render_surface {
    GLuint aniso, smooth, shade, diffuse;
    bool spheres;      /* draw spheres even where the particles come with a cell table */
    GLuint ellipsoids; /* 4 vec4 per particle (aniso.comp), `capacity` of them */
    uint32_t capacity;
    render_splat *light;          /* the sun's view: only its thickness pass runs */
    GLuint shadow;                /* uint per light pixel: thickness towards the sun, cleared each frame */
    GLuint thickness;             /* uint per pixel, zero between frames (the shade pass clears it) */
    GLuint dist[2];               /* float per pixel: the smoothing passes' ping-pong */
    GLuint spray_bits, spray_ids; /* uint per pixel, RENDER_SPLAT_FAR / _NONE between frames */
    GLuint diffuse_sum;           /* uint per pixel, zero between frames (the shade pass clears it) */
    int width, height;
};

render_surface *render_surface_make(bool spheres, char *err) {
    render_surface *s = calloc(1, sizeof *s);
    s->spheres = spheres;
    s->aniso = shader_make_compute("render/aniso.comp", render_shader_defines(), err);
    if (s->aniso) s->smooth = shader_make_compute("render/surface_smooth.comp", render_shader_defines(), err);
    if (s->smooth) s->shade = shader_make_compute("render/surface_shade.comp", render_shader_defines(), err);
    if (s->shade) s->diffuse = shader_make_compute("render/diffuse.comp", render_shader_defines(), err);
    if (s->diffuse) s->light = render_splat_make(err);
    if (s->light) s->shadow = gpu_buffer_make((size_t)RENDER_SHADOW_SIZE * RENDER_SHADOW_SIZE * 4, NULL, "surface-shadow", err);
    if (!s->shadow) {
        render_surface_destroy(s);
        return NULL;
    }
    glObjectLabel(GL_PROGRAM, s->aniso, -1, "surface-ellipsoids");
    glObjectLabel(GL_PROGRAM, s->smooth, -1, "surface-smooth");
    glObjectLabel(GL_PROGRAM, s->shade, -1, "surface-shade");
    glObjectLabel(GL_PROGRAM, s->diffuse, -1, "surface-diffuse");
    return s;
}

static void _surface_free_buffers(render_surface *s) {
    gpu_buffer_destroy(&s->thickness);
    gpu_buffer_destroy(&s->dist[0]);
    gpu_buffer_destroy(&s->dist[1]);
    gpu_buffer_destroy(&s->spray_bits);
    gpu_buffer_destroy(&s->spray_ids);
    gpu_buffer_destroy(&s->diffuse_sum);
    s->width = s->height = 0;
}

void render_surface_destroy(render_surface *s) {
    if (!s) return;
    _surface_free_buffers(s);
    gpu_buffer_destroy(&s->shadow);
    gpu_buffer_destroy(&s->ellipsoids);
    render_splat_destroy(s->light);
    shader_destroy(&s->aniso);
    shader_destroy(&s->smooth);
    shader_destroy(&s->shade);
    shader_destroy(&s->diffuse);
    free(s);
}

static GLuint _surface_filled(size_t n, uint32_t value, const char *label, char *err) {
    uint32_t *init = malloc(n * sizeof *init);
    if (!init) return fail(err, "out of host memory for %zu pixels", n), 0;
    for (size_t i = 0; i < n; i++) init[i] = value;
    GLuint b = gpu_buffer_make(n * sizeof *init, init, label, err);
    free(init);
    return b;
}

static bool _surface_resize(render_surface *s, int w, int h) {
    if (s->width == w && s->height == h) return true;
    _surface_free_buffers(s);
    size_t n = (size_t)w * (size_t)h;
    char err[ERR_LEN];
    s->thickness = gpu_buffer_make(n * 4, NULL, "surface-thickness", err);
    if (s->thickness) s->dist[0] = gpu_buffer_make(n * 4, NULL, "surface-distance-0", err);
    if (s->dist[0]) s->dist[1] = gpu_buffer_make(n * 4, NULL, "surface-distance-1", err);
    if (s->dist[1]) s->spray_bits = _surface_filled(n, RENDER_SPLAT_FAR, "surface-spray-depth", err);
    if (s->spray_bits) s->spray_ids = _surface_filled(n, RENDER_SPLAT_NONE, "surface-spray-ids", err);
    if (s->spray_ids) s->diffuse_sum = _surface_filled(n, 0, "surface-diffuse-sum", err);
    if (!s->diffuse_sum) {
        log_error("RENDER", "%s", err);
        _surface_free_buffers(s);
        return false;
    }
    s->width = w, s->height = h;
    return true;
}

/* The sun's view of the tank: a narrow perspective from far along the sun's direction (nearly
 * parallel rays, and the splat's ray casting stays the same), its frustum around the tank's
 * bounding sphere. */
static void _surface_light_view(const render_particles *p, render_view *lv, mat4 vp) {
    float sun[3];
    render_sun(sun);
    vec3 c, eye, up = {0, 1, 0};
    float r = 0;
    for (int a = 0; a < 3; a++) c[a] = 0.5f * (p->lo[a] + p->hi[a]), r += (p->hi[a] - p->lo[a]) * (p->hi[a] - p->lo[a]);
    r = 0.5f * sqrtf(r) * 1.05f + 1e-3f;
    float dist = 8.0f * r;
    for (int a = 0; a < 3; a++) eye[a] = c[a] + sun[a] * dist;
    if (fabsf(sun[1]) > 0.99f) up[0] = 1, up[1] = 0;
    *lv = (render_view){.width = RENDER_SHADOW_SIZE, .height = RENDER_SHADOW_SIZE};
    glm_lookat(eye, c, up, lv->view);
    glm_perspective(2.0f * asinf(r / dist), 1.0f, dist - 1.5f * r, dist + 1.5f * r, lv->proj);
    glm_mat4_mul(lv->proj, lv->view, vp);
}

/* The ellipsoids of p's particles into s->ellipsoids (aniso.comp), or false where they are not
 * drawn: the spheres style, no cell table, or no memory for them. */
static bool _surface_ellipsoids(render_surface *s, const render_particles *p, render_passes *timer) {
    if (s->spheres || !p->ranges || !p->count || p->cell <= 0 || p->h <= 0) return false;
    render_passes_begin(timer, "ellipsoids");
    if (s->capacity < p->count) {
        char err[ERR_LEN];
        gpu_buffer_destroy(&s->ellipsoids);
        s->capacity = 0;
        s->ellipsoids = gpu_buffer_make((size_t)p->count * 64, NULL, "surface-ellipsoids", err);
        if (!s->ellipsoids) {
            log_error("RENDER", "%s", err);
            return false;
        }
        s->capacity = p->count;
    }
    glUseProgram(s->aniso);
    glUniform1ui(RENDER_LOC_COUNT, p->count);
    glUniform3fv(RENDER_LOC_GRID_LO, 1, p->grid_lo);
    glUniform1f(RENDER_LOC_INV_CELL, 1.0f / p->cell);
    glUniform3i(RENDER_LOC_GRID_DIMS, (GLint)p->dims[0], (GLint)p->dims[1], (GLint)p->dims[2]);
    glUniform4ui(RENDER_LOC_GRID_BRICK, p->brick[0], p->brick[1], p->brick[2], 0); /* all 0: rows */
    glUniform1f(RENDER_LOC_H, p->h);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_POSITIONS, p->positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_RANGES, p->ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_ELLIPSOIDS, s->ellipsoids);
    glDispatchCompute((p->count + 63) / 64, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

void render_surface_diffuse(render_surface *s, const render_particles *p, const render_view *v, GLuint distance, GLuint sum) {
    if (!p->diffuse || !p->diffuse_state || !p->diffuse_capacity) return;
    glUseProgram(s->diffuse);
    glUniformMatrix4fv(RENDER_LOC_VIEW, 1, GL_FALSE, (const float *)v->view);
    glUniformMatrix4fv(RENDER_LOC_PROJ, 1, GL_FALSE, (const float *)v->proj);
    glUniform2i(RENDER_LOC_SIZE, v->width, v->height);
    glUniform1f(RENDER_LOC_RADIUS, p->radius * RENDER_DIFFUSE_RADIUS);
    glUniform1f(RENDER_LOC_STREAK, RENDER_SURFACE_STREAK);
    glUniform1f(RENDER_LOC_UNDER, p->radius * RENDER_SURFACE_UNDER_SCALE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_DIFFUSE, p->diffuse);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_DIFFUSE_STATE, p->diffuse_state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_SRC, distance);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_DIFFUSE_SUM, sum);
    /* Groups of RENDER_DIFFUSE_GROUP slots over the whole capacity (at most 65,535; each then takes
     * every gridth chunk): those past the count alive, read on the GPU, return at once. Smaller
     * groups than the sim's 64 a group: at 27,648 particles about 2,000 alive made 31 groups of 64
     * for 132 multiprocessors. */
    uint32_t groups = (p->diffuse_capacity + RENDER_DIFFUSE_GROUP - 1) / RENDER_DIFFUSE_GROUP;
    glDispatchCompute(groups < 65535 ? groups : 65535, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void render_surface_draw(render_surface *s, render_splat *splat, const render_particles *p, const render_view *v,
                         GLuint color_tex, render_passes *timer) {
    if (!_surface_resize(s, v->width, v->height)) return;
    /* 0: the ellipsoids (the bulk's splats below draw them instead of spheres) */
    GLuint ellipsoids = _surface_ellipsoids(s, p, timer) ? s->ellipsoids : 0;
    render_splat_ellipsoids(splat, ellipsoids);
    render_splat_ellipsoids(s->light, ellipsoids);
    GLuint depth_bits, ids;
    bool water = !(v->hide & RENDER_HIDE_WATER), spray = !(v->hide & RENDER_HIDE_SPRAY);
    float radius = p->radius * RENDER_SURFACE_RADIUS_SCALE;
    /* 1: the fluid's thickness from the sun */
    render_passes_begin(timer, "shadow");
    mat4 light_vp;
    bool shadow = v->backdrop == RENDER_BACKDROP_SCENE && water && p->count;
    if (shadow) {
        render_view lv;
        _surface_light_view(p, &lv, light_vp);
        GLuint zero = 0;
        glClearNamedBufferData(s->shadow, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        render_splat_thickness(s->light, p, &lv, radius, s->shadow, RENDER_SELECT_BULK); /* the spray casts none */
    }
    /* 2: depth and thickness of the bulk's (enlarged, so neighbours overlap) spheres */
    render_passes_begin(timer, "visibility");
    render_splat_depth_thickness(splat, p, v, radius, s->thickness, RENDER_SELECT_BULK);
    render_splat_ellipsoids(splat, 0);
    render_splat_ellipsoids(s->light, 0);
    render_splat_buffers(splat, &depth_bits, &ids);
    if (!depth_bits) return;
    /* 3: the spray droplets */
    render_passes_begin(timer, "spray");
    if (spray) render_splat_spray(splat, p, v, p->radius * SURFACE_SPRAY_SCALE, s->spray_bits, s->spray_ids);
    GLuint groups_x = (GLuint)(v->width + 15) / 16, groups_y = (GLuint)(v->height + 15) / 16;
    /* 4: the narrow-range filter, x then y, twice (a smaller kernel twice is less blocky than one big one) */
    render_passes_begin(timer, "smoothing");
    glUseProgram(s->smooth);
    glUniform2i(RENDER_LOC_SIZE, v->width, v->height);
    glUniform1f(RENDER_LOC_PX_PER_M, v->proj[1][1] * (float)v->height * 0.5f);
    glUniform1f(RENDER_LOC_FILTER_M, p->radius * 3.0f);
    glUniform1f(RENDER_LOC_NARROW_M, p->radius * 2.0f);
    glUniform2f(RENDER_LOC_LINEAR, v->proj[3][2], v->proj[2][2]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_DEPTH, depth_bits);
    for (int k = 0; k < 4; k++) {
        glUniform1i(RENDER_LOC_FROM_BITS, k == 0);
        glUniform2i(RENDER_LOC_DIR, k % 2 == 0, k % 2 == 1);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_SRC, s->dist[(k + 1) % 2]);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_DST, s->dist[k % 2]);
        glDispatchCompute(groups_x, groups_y, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    /* 5: the diffuse particles' soft points and streaks, dimmed under the smoothed surface (dist[1]) */
    render_passes_begin(timer, "diffuse");
    if (!(v->hide & RENDER_HIDE_DIFFUSE)) render_surface_diffuse(s, p, v, s->dist[1], s->diffuse_sum);
    /* 6: shade every pixel (the last smoothing pass wrote dist[1]) */
    render_passes_begin(timer, "shading");
    glUseProgram(s->shade);
    render_splat_uniforms(v);
    glUniform1f(RENDER_LOC_EDGE_BIAS, radius);
    glUniform1f(RENDER_LOC_SPRAY_RADIUS, p->radius * SURFACE_SPRAY_SCALE);
    glUniform1i(RENDER_LOC_SHOW, (water ? 1 : 0) | (spray ? 2 : 0));
    render_splat_set_edges(p, v);
    render_splat_set_scene(p, v, shadow ? (const float *)light_vp : NULL);
    render_splat_set_sun_view(v);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_POSITIONS, p->positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPLAT_THICK, s->thickness);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SURFACE_SRC, s->dist[1]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPRAY_DEPTH, s->spray_bits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SPRAY_IDS, s->spray_ids);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_SHADOW, s->shadow);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_DIFFUSE_SUM, s->diffuse_sum);
    glBindImageTexture(RENDER_UNIT_IMAGE, color_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(groups_x, groups_y, 1);
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT);
    glBindImageTexture(RENDER_UNIT_IMAGE, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
}

/* ---- the style (render_style.h) ---- */

static void *_surface_style_make(char *err) { return render_surface_make(false, err); }
static void *_surface_iso_style_make(char *err) { return render_surface_make(true, err); }
static void _surface_style_destroy(void *impl) { render_surface_destroy(impl); }
static void _surface_style_draw(void *impl, const render_style_ctx *ctx, const render_particles *p, const render_view *v,
                                GLuint color_tex, render_passes *timer) {
    render_particles drawn = *p; /* nothing to draw without positions */
    if (!p->positions) drawn.count = 0;
    render_surface_draw(impl, ctx->splat, &drawn, v, color_tex, timer);
}

const render_style_ops render_style_surface = {.key = "surface",
                                               .name = "surface",
                                               .compute = true,
                                               .make = _surface_style_make,
                                               .destroy = _surface_style_destroy,
                                               .draw = _surface_style_draw};

const render_style_ops render_style_surface_iso = {.key = "surface-iso",
                                                   .name = "isotropic surface",
                                                   .compute = true,
                                                   .make = _surface_iso_style_make,
                                                   .destroy = _surface_style_destroy,
                                                   .draw = _surface_style_draw};

GLuint render_surface_distance(const render_surface *s) { return s->dist[1]; }
