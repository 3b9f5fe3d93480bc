/* The renderer offscreen on a headless context: a synthetic block of particles in a tank, drawn
 * as sphere impostors (and as a fluid surface) with the HUD, read back and checked against the
 * CPU projection of the same camera; impostor depth against a CPU ray-sphere hit; the image check
 * on good and bad images; PNG round trip; no GL object left alive after destroy. */
#include "check.h"
#include "gpu/prof.h"
#include "render/camera.h"
#include "render/hud.h"
#include "render/image.h"
#include "render/image_test.h"
#include "render/overlay.h"
#include "render/render.h"
#include "render/render_common.h"
#include <math.h>
#include <string.h>
#include <unistd.h>

#define W 800
#define H 500
#define NX 16
#define NY 12
#define NZ 14
#define N (NX * NY * NZ)

static const float k_lo[3] = {0, 0, 0}, k_hi[3] = {1.2f, 0.7f, 0.6f};
static const float k_blo[3] = {0.62f, 0.02f, 0.1f}; /* the block's first particle centre */
static const float k_spacing = 0.025f;

typedef struct scene {
    GLuint pos, vel, dens, keys;
    render_particles p;
    camera cam;
    gpu_ctx *gpu;
} scene;

static char err_buf[ERR_LEN];

static void scene_make(scene *s) {
    float *pos = malloc(sizeof(float) * 4 * N), *vel = malloc(sizeof(float) * 4 * N), *dens = malloc(sizeof(float) * N);
    uint32_t *keys = malloc(sizeof(uint32_t) * N);
    int i = 0;
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++, i++) {
                float p[3] = {k_blo[0] + k_spacing * x, k_blo[1] + k_spacing * y, k_blo[2] + k_spacing * z};
                memcpy(pos + 4 * i, p, sizeof p);
                pos[4 * i + 3] = 0;
                vel[4 * i] = 3.0f * (float)x / NX, vel[4 * i + 1] = 0, vel[4 * i + 2] = 0, vel[4 * i + 3] = 0;
                dens[i] = 900.0f + 200.0f * (float)y / NY;
                keys[i] = (uint32_t)((x / 2) + 8 * ((y / 2) + 8 * (z / 2)));
            }
    char err[ERR_LEN];
    s->pos = gpu_buffer_make(sizeof(float) * 4 * N, pos, "test-positions", err);
    s->vel = gpu_buffer_make(sizeof(float) * 4 * N, vel, "test-velocities", err);
    s->dens = gpu_buffer_make(sizeof(float) * N, dens, "test-densities", err);
    s->keys = gpu_buffer_make(sizeof(uint32_t) * N, keys, "test-keys", err);
    free(pos), free(vel), free(dens), free(keys);
    s->p = (render_particles){.positions = s->pos,
                              .velocities = s->vel,
                              .densities = s->dens,
                              .cell_keys = s->keys,
                              .count = N,
                              .radius = 0.5f * k_spacing};
    memcpy(s->p.lo, k_lo, sizeof k_lo);
    memcpy(s->p.hi, k_hi, sizeof k_hi);
    camera_fit(&s->cam, k_lo, k_hi);
}

static void scene_destroy(scene *s) {
    gpu_buffer_destroy(&s->pos);
    gpu_buffer_destroy(&s->vel);
    gpu_buffer_destroy(&s->dens);
    gpu_buffer_destroy(&s->keys);
}

static render_view view_for(const scene *s, const render_target *t, render_color c, render_style st) {
    /* The plain backdrop: drawn pixels are told from the background by its colour. */
    render_view v = {.framebuffer = t->fbo,
                     .color_texture = t->color,
                     .width = t->width,
                     .height = t->height,
                     .color = c,
                     .style = st,
                     .backdrop = RENDER_BACKDROP_PLAIN};
    camera_matrices(&s->cam, t->width, t->height, v.view, v.proj);
    return v;
}

/* Window pixel (x right, y down) and depth of a world point. */
static void project(const render_view *v, const float p[3], float out[3]) {
    mat4 vp;
    glm_mat4_mul((vec4 *)v->proj, (vec4 *)v->view, vp);
    vec4 w = {p[0], p[1], p[2], 1}, c;
    glm_mat4_mulv(vp, w, c);
    out[0] = (c[0] / c[3] * 0.5f + 0.5f) * (float)v->width;
    out[1] = (1.0f - (c[1] / c[3] * 0.5f + 0.5f)) * (float)v->height;
    out[2] = c[2] / c[3] * 0.5f + 0.5f;
}

/* The projected bounding rectangle of a box. */
static void project_box(const render_view *v, const float lo[3], const float hi[3], float r[4]) {
    r[0] = r[1] = 1e30f, r[2] = r[3] = -1e30f;
    for (int c = 0; c < 8; c++) {
        float p[3] = {c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]}, s[3];
        project(v, p, s);
        r[0] = fminf(r[0], s[0]), r[1] = fminf(r[1], s[1]), r[2] = fmaxf(r[2], s[0]), r[3] = fmaxf(r[3], s[1]);
    }
}

static int count_drawn_outside(const uint8_t *img, const float (*keep)[4], int nkeep) {
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool kept = false;
            for (int k = 0; k < nkeep; k++) kept |= x >= keep[k][0] && x < keep[k][2] && y >= keep[k][1] && y < keep[k][3];
            if (!kept) n += !image_is_background(img + 4 * ((size_t)y * W + (size_t)x));
        }
    return n;
}

static overlay_layout layout;

/* Pixels where two pictures differ by more than 16 of 255 in a channel, and pixels drawn in either. */
static int count_differ(const uint8_t *a, const uint8_t *b, int *drawn) {
    int n = 0;
    *drawn = 0;
    for (int i = 0; i < W * H; i++, a += 4, b += 4) {
        *drawn += !image_is_background(a) || !image_is_background(b);
        n += abs(a[0] - b[0]) > 16 || abs(a[1] - b[1]) > 16 || abs(a[2] - b[2]) > 16;
    }
    return n;
}

static void draw(renderer *r, hud *h, const scene *s, const render_target *t, render_color c, render_style st,
                 const overlay_info *info) {
    render_view v = view_for(s, t, c, st);
    render_scene(r, &s->p, &v);
    if (info) {
        overlay_draw(h, info, &layout);
        hud_draw(h, t->fbo);
    }
}

static const char *k_stage_names[] = {"hash", "sort", "ranges", "reorder", "density", "forces", "integrate", "render"};
static const char *k_help[] = {"Keys", "H  help", "Esc  quit", NULL};

static overlay_info info_for(const gpu_prof *prof) {
    return (overlay_info){.width = W,
                          .height = H,
                          .fps = 59.9,
                          .frame_ms = 16.7,
                          .particles = N,
                          .scene = "block",
                          .sort = "radix",
                          .sim_time = 1.25,
                          .steps_per_frame = 2,
                          .prof = prof,
                          .help = k_help};
}

/* Particles inside the block's projection, background outside the tank's, HUD text in its panel. */
static void test_spheres_and_hud(renderer *r, hud *h, scene *s, render_target *t, const char *png_dir) {
    uint8_t *img = malloc(W * H * 4), *bare = malloc(W * H * 4), *other = malloc(W * H * 4);
    gpu_prof *prof = prof_make(&(prof_desc){.names = k_stage_names, .stages = 8}, gpu_get_caps(s->gpu));
    overlay_info info = info_for(prof);
    render_view v = view_for(s, t, RENDER_COLOR_SPEED, RENDER_STYLE_SPHERES);
    float block_hi[3], block[4], tank[4];
    for (int i = 0; i < 3; i++) block_hi[i] = k_blo[i] + k_spacing * (float[]){NX - 1, NY - 1, NZ - 1}[i];
    project_box(&v, k_blo, block_hi, block);
    project_box(&v, k_lo, k_hi, tank);
    printf("block projects to [%.0f %.0f]-[%.0f %.0f], tank to [%.0f %.0f]-[%.0f %.0f]\n", block[0], block[1], block[2], block[3],
           tank[0], tank[1], tank[2], tank[3]);

    /* Without the HUD: only the tank and the particles. */
    draw(r, h, s, t, RENDER_COLOR_SPEED, RENDER_STYLE_SPHERES, NULL);
    render_target_read(t, bare);
    /* The middle half of the block's rectangle is covered by spheres that touch their neighbours. */
    float bw = block[2] - block[0], bh = block[3] - block[1];
    int bx0 = (int)(block[0] + bw * 0.25f), bx1 = (int)(block[2] - bw * 0.25f);
    int by0 = (int)(block[1] + bh * 0.25f), by1 = (int)(block[3] - bh * 0.25f);
    int inside = image_count_drawn(bare, W, H, bx0, by0, bx1, by1), area = (bx1 - bx0) * (by1 - by0);
    CHECK(area > 400 && inside >= area * 98 / 100, "block interior: %d of %d pixels drawn", inside, area);
    const float keep_tank[1][4] = {{tank[0] - 2, tank[1] - 2, tank[2] + 2, tank[3] + 2}};
    int outside = count_drawn_outside(bare, keep_tank, 1);
    CHECK(outside == 0, "%d pixels drawn outside the tank's projection", outside);
    /* Between the block and the tank's far corner there is background and tank lines, not particles. */
    int left_of_block = image_count_drawn(bare, W, H, (int)tank[0] + 4, (int)block[1], (int)block[0] - 4, (int)block[3]);
    int left_area = ((int)block[0] - 4 - (int)tank[0] - 4) * (int)(block[3] - block[1]);
    CHECK(left_area > 1000 && left_of_block < left_area / 10, "left of the block: %d of %d pixels drawn", left_of_block,
          left_area);
    /* Coloured by speed: the block's left (slow) and right (fast) ends differ. */
    int cy = (int)(0.5f * (block[1] + block[3]));
    const uint8_t *slow = bare + 4 * ((size_t)cy * W + (size_t)(block[0] + bw * 0.15f));
    const uint8_t *fast = bare + 4 * ((size_t)cy * W + (size_t)(block[2] - bw * 0.15f));
    CHECK(abs((int)slow[2] - (int)fast[2]) + abs((int)slow[0] - (int)fast[0]) > 60,
          "speed colours do not vary: (%d %d %d) vs (%d %d %d)", slow[0], slow[1], slow[2], fast[0], fast[1], fast[2]);

    /* The tank's 12 edges are drawn (sampled along each, away from the block and its ends). */
    int samples = 0, on_edge = 0;
    for (int c = 0; c < 8; c++)
        for (int axis = 0; axis < 3; axis++) {
            if (c & (1 << axis)) continue;
            int d = c | (1 << axis);
            float a[3] = {c & 1 ? k_hi[0] : k_lo[0], c & 2 ? k_hi[1] : k_lo[1], c & 4 ? k_hi[2] : k_lo[2]};
            float b[3] = {d & 1 ? k_hi[0] : k_lo[0], d & 2 ? k_hi[1] : k_lo[1], d & 4 ? k_hi[2] : k_lo[2]};
            for (int k = 1; k < 20; k++) {
                float f = (float)k / 20, q[3] = {a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])},
                      sp[3];
                project(&v, q, sp);
                if (sp[0] > block[0] - 8 && sp[0] < block[2] + 8 && sp[1] > block[1] - 8 && sp[1] < block[3] + 8) continue;
                samples++;
                on_edge += image_count_drawn(bare, W, H, (int)sp[0] - 1, (int)sp[1] - 1, (int)sp[0] + 2, (int)sp[1] + 2) > 0;
            }
        }
    CHECK(samples > 150 && on_edge == samples, "tank edges drawn at %d of %d sample points", on_edge, samples);

    /* The same spheres through the graphics pipeline: the same picture, but for a few pixels on
     * silhouettes where the two paths round a ray that grazes a sphere differently. */
    draw(r, h, s, t, RENDER_COLOR_SPEED, RENDER_STYLE_RASTER, NULL);
    render_target_read(t, other);
    int drawn, differ_px = count_differ(bare, other, &drawn);
    char path[512];
    printf("compute vs raster spheres: %d of %d drawn pixels differ\n", differ_px, drawn);
    CHECK(drawn > area && differ_px <= drawn / 200, "compute and raster spheres differ at %d of %d drawn pixels", differ_px,
          drawn);
    snprintf(path, sizeof path, "%s/render-raster.png", png_dir);
    image_write_png(path, other, W, H, err_buf);

    /* With the HUD: the panel shows text over the scene; outside the HUD nothing changes. */
    draw(r, h, s, t, RENDER_COLOR_SPEED, RENDER_STYLE_SPHERES, &info);
    render_target_read(t, img);
    float panel[4];
    memcpy(panel, layout.rect[OVERLAY_STATS], sizeof panel);
    CHECK(panel[2] > panel[0] + 100 && panel[3] > panel[1] + 60, "stats panel is %.0fx%.0f", panel[2] - panel[0],
          panel[3] - panel[1]);
    int bright = 0;
    for (int y = (int)panel[1]; y < (int)panel[3]; y++)
        for (int x = (int)panel[0]; x < (int)panel[2]; x++) {
            const uint8_t *p = img + 4 * ((size_t)y * W + (size_t)x);
            bright += p[0] > 170 && p[1] > 170 && p[2] > 170;
        }
    float sc = hud_scale(h); /* the HUD scales with the view (overlay_scale): glyph area with its square */
    CHECK(bright > 300 * sc * sc, "only %d bright text pixels in the stats panel (HUD scale %.2f)", bright, sc);
    int hud_quads = hud_quad_count(h);
    CHECK(hud_quads > 150, "the overlay made %d quads (text, panels, legend)", hud_quads);
    CHECK(render_image_check(img, NULL, W, H, &layout, err_buf), "render_image_check on a good frame: %s", err_buf);
    snprintf(path, sizeof path, "%s/render-spheres.png", png_dir);
    CHECK(image_write_png(path, img, W, H, err_buf), "%s", err_buf);

    /* Bad images are told apart: no HUD, nothing, HUD without particles. */
    CHECK(!render_image_check(bare, NULL, W, H, &layout, err_buf) && strstr(err_buf, "HUD"), "no HUD not caught: %s", err_buf);
    memset(other, 0, W * H * 4);
    for (int i = 0; i < W * H; i++)
        other[4 * i] = (uint8_t)(RENDER_CLEAR_R * 255 + 0.5f), other[4 * i + 1] = (uint8_t)(RENDER_CLEAR_G * 255 + 0.5f),
                  other[4 * i + 2] = (uint8_t)(RENDER_CLEAR_B * 255 + 0.5f), other[4 * i + 3] = 255;
    CHECK(!render_image_check(other, NULL, W, H, &layout, err_buf) && strstr(err_buf, "blank"), "blank not caught: %s", err_buf);
    render_particles none = s->p;
    none.count = 0;
    render_scene(r, &none, &v);
    overlay_draw(h, &info, &layout);
    hud_draw(h, t->fbo);
    render_target_read(t, other);
    err_buf[0] = 0;
    CHECK(!render_image_check(other, NULL, W, H, &layout, err_buf) && strstr(err_buf, "particles"), "no particles not caught: %s",
          err_buf);

    /* No GPU timers here (llvmpipe) and no CPU fallback asked: the HUD says so, no numbers. On a
     * GPU with timers the panel lists the stages instead; both are real. */
    if (prof_get_mode(prof) == PROF_NONE) {
        /* Render the same overlay with a CPU-clock profiler: the panel grows by the stage lines. */
        float none_h = panel[3] - panel[1];
        gpu_prof *cpu = prof_make(&(prof_desc){.names = k_stage_names, .stages = 8, .cpu_fallback = true}, gpu_get_caps(s->gpu));
        CHECK(prof_get_mode(cpu) == PROF_CPU_CLOCK, "cpu_fallback profiler mode %d", prof_get_mode(cpu));
        for (int f = 0; f < 12; f++) {
            for (int st = 0; st < 8; st++) {
                prof_begin(cpu, st);
                if (st == 7) render_scene(r, &s->p, &v);
                prof_end(cpu, st);
            }
            prof_frame(cpu);
        }
        overlay_info ci = info_for(cpu);
        draw(r, h, s, t, RENDER_COLOR_SPEED, RENDER_STYLE_SPHERES, &ci);
        render_target_read(t, other);
        memcpy(panel, layout.rect[OVERLAY_STATS], sizeof panel);
        CHECK(panel[3] - panel[1] > none_h + 6 * hud_line_height(h), "stage lines missing: panel %.0f px high, was %.0f",
              panel[3] - panel[1], none_h);
        /* The graph (bottom left) shows the render stage's colour. */
        uint32_t c = overlay_stage_color(7);
        int hits = 0;
        const float *gr = layout.rect[OVERLAY_GRAPH];
        for (int y = (int)gr[1]; y < (int)gr[3]; y++)
            for (int x = (int)gr[0]; x < (int)gr[2]; x++) {
                const uint8_t *p = other + 4 * ((size_t)y * W + (size_t)x);
                hits +=
                    abs(p[0] - (int)(c & 255)) < 4 && abs(p[1] - (int)(c >> 8 & 255)) < 4 && abs(p[2] - (int)(c >> 16 & 255)) < 4;
            }
        const uint8_t *g =
            other + 4 * ((size_t)(layout.rect[OVERLAY_GRAPH][3] - 40) * W + (size_t)(layout.rect[OVERLAY_GRAPH][2] - 12));
        CHECK(hits > 100, "the graph shows %d pixels of the render stage's colour (%d %d %d) (near its right end: %d %d %d)",
              hits, c & 255, c >> 8 & 255, c >> 16 & 255, g[0], g[1], g[2]);
        snprintf(path, sizeof path, "%s/render-cpu-prof.png", png_dir);
        image_write_png(path, other, W, H, err_buf);
        prof_destroy(cpu);
    }

    /* The colour modes differ where the block is; the cell hash gives many different hues. */
    draw(r, h, s, t, RENDER_COLOR_CELL, RENDER_STYLE_SPHERES, NULL);
    render_target_read(t, other);
    int differ = 0, n = 0;
    for (int y = by0; y < by1; y++)
        for (int x = bx0; x < bx1; x++, n++) {
            const uint8_t *a = bare + 4 * ((size_t)y * W + (size_t)x), *b = other + 4 * ((size_t)y * W + (size_t)x);
            differ += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 30;
        }
    CHECK(differ > n / 2, "cell-hash colours equal speed colours at %d of %d pixels", n - differ, n);
    snprintf(path, sizeof path, "%s/render-cell.png", png_dir);
    image_write_png(path, other, W, H, err_buf);
    draw(r, h, s, t, RENDER_COLOR_DENSITY, RENDER_STYLE_SPHERES, NULL);
    render_target_read(t, other);
    const uint8_t *low = other + 4 * ((size_t)(block[3] - bh * 0.12f) * W + (size_t)(0.5f * (block[0] + block[2])));
    const uint8_t *high = other + 4 * ((size_t)(block[1] + bh * 0.12f) * W + (size_t)(0.5f * (block[0] + block[2])));
    CHECK(high[0] > high[2] && low[2] > low[0], "density colours: top (dense) (%d %d %d) should be red, bottom (%d %d %d) blue",
          high[0], high[1], high[2], low[0], low[1], low[2]);

    /* Surface mode: the block's interior is drawn, outside the tank stays background. */
    draw(r, h, s, t, RENDER_COLOR_SPEED, RENDER_STYLE_SURFACE, &info);
    render_target_read(t, other);
    inside = image_count_drawn(other, W, H, bx0, by0, bx1, by1);
    CHECK(inside >= area * 98 / 100, "surface: block interior %d of %d pixels drawn", inside, area);
    /* Kept: the tank and every HUD panel where the overlay says it drew them (their sizes depend
     * on the stage rows, which depend on the GPU's timers). */
    float keep_hud[1 + OVERLAY_PANELS][4] = {{tank[0] - 2, tank[1] - 2, tank[2] + 2, tank[3] + 2}};
    for (int p = 0; p < OVERLAY_PANELS; p++)
        for (int c = 0; c < 4; c++) keep_hud[1 + p][c] = layout.rect[p][c] + (c < 2 ? -1.0f : 1.0f);
    outside = count_drawn_outside(other, keep_hud, 1 + OVERLAY_PANELS);
    CHECK(outside == 0, "surface: %d pixels drawn outside the tank and the HUD", outside);
    CHECK(render_image_check(other, NULL, W, H, &layout, err_buf), "render_image_check on the surface frame: %s", err_buf);
    snprintf(path, sizeof path, "%s/render-surface.png", png_dir);
    image_write_png(path, other, W, H, err_buf);
    prof_destroy(prof);
    free(img), free(bare), free(other);
}

/* The eye inside the tank, facing the block: the tank's edges are cut by the near plane. Compute
 * and raster draw the same picture. */
static void test_eye_inside(renderer *r, scene *s, render_target *t, const char *png_dir) {
    uint8_t *a = malloc(W * H * 4), *b = malloc(W * H * 4);
    scene in = *s;
    in.cam.target[0] = 0.8f, in.cam.target[1] = 0.17f, in.cam.target[2] = 0.27f;
    in.cam.distance = 0.7f, in.cam.yaw = 1.5707963f, in.cam.pitch = 0.1f; /* the eye at (0.10 0.27 0.27), facing +x */
    draw(r, NULL, &in, t, RENDER_COLOR_CELL, RENDER_STYLE_SPHERES, NULL);
    render_target_read(t, a);
    draw(r, NULL, &in, t, RENDER_COLOR_CELL, RENDER_STYLE_RASTER, NULL);
    render_target_read(t, b);
    int drawn, differ = count_differ(a, b, &drawn);
    printf("eye inside the tank: compute vs raster differ at %d of %d drawn pixels\n", differ, drawn);
    CHECK(drawn > W * H / 4 && differ <= drawn / 100, "eye inside the tank: compute and raster differ at %d of %d drawn pixels",
          differ, drawn);
    char path[512];
    snprintf(path, sizeof path, "%s/render-eye-inside.png", png_dir);
    image_write_png(path, a, W, H, err_buf);
    free(a), free(b);
}

/* The raster impostors (the graphics pipeline) on one sphere: its depth off-centre is the CPU
 * ray-sphere hit's, not the flat quad's; outside its
 * silhouette the depth stays cleared. Two spheres: the nearer one wins where they overlap. */
static void test_depth(renderer *r, scene *s, render_target *t) {
    float c[4] = {0.6f, 0.35f, 0.3f, 0}, radius = 0.08f;
    GLuint one = gpu_buffer_make(sizeof c, c, "test-one-sphere", err_buf);
    /* A tank of zero size (its outline draws nothing), so only the sphere writes depth. */
    render_particles p = {.positions = one, .count = 1, .radius = radius, .lo = {c[0], c[1], c[2]}, .hi = {c[0], c[1], c[2]}};
    render_view v = view_for(s, t, RENDER_COLOR_SPEED, RENDER_STYLE_RASTER);
    render_scene(r, &p, &v);
    float *depth = malloc(sizeof(float) * W * H);
    render_target_read_depth(t, depth);
    float sc[3];
    project(&v, c, sc);
    mat4 vp, inv;
    glm_mat4_mul(v.proj, v.view, vp);
    glm_mat4_inv(vp, inv);
    vec3 eye;
    camera_eye(&s->cam, eye);
    int checked = 0, bad = 0, inside_px = 0;
    float worst = 0, flat_gap = 0;
    for (int dy = -40; dy <= 40; dy += 4)
        for (int dx = -40; dx <= 40; dx += 4) {
            int x = (int)sc[0] + dx, y = (int)sc[1] + dy;
            if (x < 0 || y < 0 || x >= W || y >= H) continue;
            /* The ray through the pixel's centre. */
            float nx = ((float)x + 0.5f) / W * 2 - 1, ny = 1 - ((float)y + 0.5f) / H * 2;
            vec4 a = {nx, ny, 1, 1}, wa;
            glm_mat4_mulv(inv, a, wa);
            vec3 far = {wa[0] / wa[3], wa[1] / wa[3], wa[2] / wa[3]}, dir, oc;
            glm_vec3_sub(far, eye, dir);
            glm_vec3_normalize(dir);
            glm_vec3_sub(eye, c, oc);
            float b = glm_vec3_dot(oc, dir), disc = b * b - (glm_vec3_dot(oc, oc) - radius * radius);
            float got = depth[(size_t)y * W + (size_t)x];
            checked++;
            /* Skip pixels right on the silhouette, where coverage is a matter of rounding. */
            if (fabsf(disc) < 0.03f * radius * radius) continue;
            if (disc < 0) {
                if (got != 1.0f)
                    printf("pixel %d %d outside the sphere (disc %g r^2) has depth %g\n", x, y, disc / (radius * radius), got);
                bad += got != 1.0f;
                continue;
            }
            inside_px++;
            float t_hit = -b - sqrtf(disc);
            float hit[3] = {eye[0] + dir[0] * t_hit, eye[1] + dir[1] * t_hit, eye[2] + dir[2] * t_hit}, sh[3];
            project(&v, hit, sh);
            float e = fabsf(got - sh[2]);
            worst = fmaxf(worst, e);
            /* How far the sphere's depth is from the quad's plane here (the test must tell them apart). */
            float sc_depth = sc[2];
            flat_gap = fmaxf(flat_gap, fabsf(sh[2] - sc_depth));
            bad += e > 1e-5f;
        }
    CHECK(inside_px > 100, "only %d pixels inside the sphere checked (of %d)", inside_px, checked);
    CHECK(bad == 0, "%d pixels with wrong depth (worst error %.2e; sphere vs. flat depth differ by up to %.2e)", bad, worst,
          flat_gap);
    CHECK(flat_gap > 10 * 1e-5f, "the sphere's depth varies by only %.2e: the test could not tell a flat quad", flat_gap);
    free(depth);
    gpu_buffer_destroy(&one);
}

/* The camera: the pixel at the centre picks the orbit target; a picked point projects back to its
 * pixel; orbit, zoom and pan keep the target in the middle / move it as asked. */
static void test_camera(scene *s) {
    camera c = s->cam;
    vec3 p;
    CHECK(camera_pick_plane(&c, W, H, W * 0.5f, H * 0.5f, p), "centre pick failed");
    CHECK(glm_vec3_distance(p, c.target) < 1e-4f, "centre pick (%g %g %g) is not the target", p[0], p[1], p[2]);
    render_target fake = {.width = W, .height = H};
    CHECK(camera_pick_plane(&c, W, H, 123, 321, p), "pick failed");
    render_view v = view_for(s, &fake, RENDER_COLOR_SPEED, RENDER_STYLE_SPHERES);
    float px[3];
    project(&v, p, px);
    CHECK(fabsf(px[0] - 123) < 0.05f && fabsf(px[1] - 321) < 0.05f, "picked point projects to (%g %g), not (123 321)", px[0],
          px[1]);
    float d0 = c.distance;
    camera_zoom(&c, 3);
    CHECK(c.distance < d0, "zoom in did not come closer");
    camera_orbit(&c, 50, 20);
    CHECK(camera_pick_plane(&c, W, H, W * 0.5f, H * 0.5f, p) && glm_vec3_distance(p, c.target) < 1e-4f, "orbit moved the target");
    vec3 t0;
    glm_vec3_copy(c.target, t0);
    camera_pan(&c, 40, 0, H);
    CHECK(glm_vec3_distance(t0, c.target) > 1e-4f, "pan did not move the target");
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    int live0 = gpu_live_objects();
    char err[ERR_LEN] = "";
    renderer *r = render_make(err);
    CHECK(r != NULL, "render_make: %s", err);
    hud *h = hud_make(&(hud_desc){0}, err);
    CHECK(h != NULL, "hud_make: %s", err);
    if (!r || !h) return check_done();
    scene s;
    scene_make(&s);
    render_target t;
    CHECK(render_target_make(&t, W, H, "test-target", err), "render_target_make: %s", err);
    s.gpu = gpu;
    const char *png_dir = check_out_dir(); /* a temporary folder unless $FLUID_TEST_OUT */
    test_spheres_and_hud(r, h, &s, &t, png_dir);
    test_eye_inside(r, &s, &t, png_dir);
    test_depth(r, &s, &t);
    test_camera(&s);
    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "GL error 0x%x (the --debug lines above say where)", gl_err);
    render_target_destroy(&t);
    scene_destroy(&s);
    hud_destroy(h);
    render_destroy(r);
    CHECK(gpu_live_objects() == live0, "%d GL objects alive after destroy, %d before", gpu_live_objects(), live0);
    gpu_destroy(gpu);
    return check_done();
}
