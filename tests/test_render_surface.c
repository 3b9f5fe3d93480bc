/* The surface style's anisotropic kernels (render_surface.c, aniso.comp), on llvmpipe, against
 * analytic references:
 *   flat: the simulation's still pool (4,096 particles): the normals of the smoothed view distance
 *     (render_surface_distance) over the visible top face (the pixels whose ray meets the plane of
 *     the top layer inside the tank, 3 spacings from its walls) are within 5 degrees of vertical
 *     (a plane's) on at least 95% of them, and the face is covered;
 *   sheet: one layer of particles on the floor, stretched to 1.5 times the rest spacing (as a
 *     splash thins out), with its cell table built here on the CPU: every pixel inside its outline
 *     (2 spacings in from its edge) is covered (no holes);
 *   droplet: a lone particle beside it is drawn round (its pixels fill the disc of its projected
 *     radius, within 15%).
 * The isotropic surface (spheres) fails the first two: the check is printed for both styles.
 * Pictures: surface-*.png in the test's output folder. */
#include "app/session/app_render.h"
#include "check.h"
#include "render/camera.h"
#include "render/image.h"
#include "render/render_common.h"
#include "render/render_splat.h"
#include "render/render_surface.h"
#include "sim/sim.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 1280
#define H 720

static char err_buf[ERR_LEN];

typedef struct shot {
    float *dist; /* W*H, row 0 at the bottom */
    mat4 view, proj;
} shot;

static void draw(render_surface *s, render_splat *splat, const render_particles *p, const camera *c, const render_target *t,
                 const char *name, shot *out) {
    render_view v = {
        .framebuffer = t->fbo, .color_texture = t->color, .width = W, .height = H, .backdrop = RENDER_BACKDROP_SCENE};
    camera_matrices(c, W, H, v.view, v.proj);
    render_surface_draw(s, splat, p, &v, t->color, NULL);
    glGetNamedBufferSubData(render_surface_distance(s), 0, (GLsizeiptr)W * H * 4, out->dist);
    glm_mat4_copy(v.view, out->view);
    glm_mat4_copy(v.proj, out->proj);
    uint8_t *img = malloc(W * H * 4);
    render_target_read(t, img);
    char path[600];
    snprintf(path, sizeof path, "%s/surface-%s.png", check_out_dir(), name);
    image_write_png(path, img, W, H, err_buf);
    free(img);
}

static void view_pos(const shot *s, int x, int y, float z, vec3 out) {
    float nx = ((float)x + 0.5f) / W * 2 - 1, ny = ((float)y + 0.5f) / H * 2 - 1;
    out[0] = nx * z / s->proj[0][0], out[1] = ny * z / s->proj[1][1], out[2] = -z;
}

/* The world point where pixel (x, y)'s ray meets the plane y = py (false: it does not, ahead). */
static bool ray_plane(const shot *s, int x, int y, float py, vec3 out) {
    mat4 inv;
    glm_mat4_inv((vec4 *)s->view, inv);
    vec3 d, e = {inv[3][0], inv[3][1], inv[3][2]};
    view_pos(s, x, y, 1.0f, d);
    glm_mat4_mulv3(inv, d, 0.0f, d);
    if (fabsf(d[1]) < 1e-6f) return false;
    float t = (py - e[1]) / d[1];
    if (t <= 0) return false;
    for (int a = 0; a < 3; a++) out[a] = e[a] + t * d[a];
    return true;
}

/* The world normal at (x, y) from the distances: the smaller one-sided difference each way (as
 * surface_shade.comp takes it). False where a neighbour has no fluid. */
static bool normal_at(const shot *s, int x, int y, vec3 n) {
    if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) return false;
    vec3 p, q[4];
    const int off[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    view_pos(s, x, y, s->dist[y * W + x], p);
    for (int k = 0; k < 4; k++) {
        float z = s->dist[(y + off[k][1]) * W + x + off[k][0]];
        if (z <= 0) return false;
        view_pos(s, x + off[k][0], y + off[k][1], z, q[k]);
        glm_vec3_sub(q[k], p, q[k]);
    }
    vec3 dx, dy;
    if (fabsf(q[0][2]) < fabsf(q[1][2])) glm_vec3_copy(q[0], dx);
    else glm_vec3_negate_to(q[1], dx);
    if (fabsf(q[2][2]) < fabsf(q[3][2])) glm_vec3_copy(q[2], dy);
    else glm_vec3_negate_to(q[3], dy);
    glm_vec3_cross(dx, dy, n);
    glm_vec3_normalize(n);
    mat4 inv;
    glm_mat4_inv((vec4 *)s->view, inv);
    glm_mat4_mulv3(inv, n, 0.0f, n);
    if (n[1] < 0) glm_vec3_negate(n);
    return true;
}

static void test_flat(render_surface *iso, render_surface *aniso, render_splat *splat, const render_target *t,
                      const gpu_caps *caps) {
    sim *s = sim_make(&(sim_desc){.scene = "pool", .particles = 4096}, caps, err_buf);
    CHECK(s != NULL, "sim_make pool: %s", err_buf);
    if (!s) return;
    while (sim_time(s) < 0.05) sim_step(s, NULL);
    uint32_t n = sim_particle_count(s);
    float *pos = malloc((size_t)n * 16), top = -1e30f;
    sim_read_particles(s, pos, NULL, NULL);
    for (uint32_t i = 0; i < n; i++) top = fmaxf(top, pos[4 * i + 1]);
    free(pos);
    render_particles p = app_render_particles(s);
    float dx = 2 * p.radius, margin = 3 * dx;
    camera c;
    camera_fit(&c, p.lo, p.hi);
    c.target[0] = 0.5f * (p.lo[0] + p.hi[0]), c.target[1] = top, c.target[2] = 0.5f * (p.lo[2] + p.hi[2]);
    c.pitch = 0.9f, c.yaw = 0.3f, c.distance = 0.9f * (p.hi[0] - p.lo[0]);
    shot sh = {.dist = malloc(W * H * 4)};
    for (int k = 0; k < 2; k++) {
        draw(k ? aniso : iso, splat, &p, &c, t, k ? "pool-anisotropic" : "pool-isotropic", &sh);
        int face = 0, covered = 0, flat = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                vec3 w, nrm;
                if (!ray_plane(&sh, x, y, top, w) || w[0] < p.lo[0] + margin || w[0] > p.hi[0] - margin ||
                    w[2] < p.lo[2] + margin || w[2] > p.hi[2] - margin)
                    continue;
                face++;
                if (sh.dist[y * W + x] <= 0) continue;
                covered++;
                flat += normal_at(&sh, x, y, nrm) && nrm[1] >= cosf(5.0f * (float)GLM_PI / 180.0f);
            }
        printf("still pool, %s: %d pixels of top face, %d covered, %.1f%% of them within 5 degrees of vertical\n",
               k ? "anisotropic" : "isotropic", face, covered, 100.0 * flat / (covered ? covered : 1));
        if (!k) continue;
        CHECK(face > 30000 && covered >= 0.98 * face, "the pool's top face: %d pixels, %d covered", face, covered);
        CHECK(flat >= 0.95 * covered, "the still pool's top is not flat: %d of %d normals within 5 degrees of vertical", flat,
              covered);
    }
    free(sh.dist);
    sim_destroy(s);
}

/* Particles as a sim would hand them over: sorted by cell key, with the cell table. */
typedef struct cpu_grid {
    float lo[3], cell, h;
    uint32_t dims[3];
} cpu_grid;

static uint32_t key_of(const cpu_grid *g, const float *x) {
    int c[3];
    for (int a = 0; a < 3; a++) {
        c[a] = (int)floorf((x[a] - g->lo[a]) / g->cell);
        c[a] = c[a] < 0 ? 0 : c[a] >= (int)g->dims[a] ? (int)g->dims[a] - 1 : c[a];
    }
    return (uint32_t)c[0] + g->dims[0] * ((uint32_t)c[1] + g->dims[1] * (uint32_t)c[2]);
}

static const cpu_grid *sort_grid;
static int by_key(const void *a, const void *b) {
    uint32_t ka = key_of(sort_grid, a), kb = key_of(sort_grid, b);
    return ka < kb ? -1 : ka > kb;
}

/* n particles as a sim hands them over: sorted by cell key, with their cell table (g's grid). */
static render_particles upload_set(float (*pos)[4], int n, const cpu_grid *g, float r, const float hi[3]) {
    uint32_t cells = g->dims[0] * g->dims[1] * g->dims[2], *starts = calloc(cells + 1, 4);
    sort_grid = g;
    qsort(pos, (size_t)n, sizeof *pos, by_key);
    for (int i = 0; i < n; i++) starts[key_of(g, pos[i]) + 1]++;
    for (uint32_t c = 0; c < cells; c++) starts[c + 1] += starts[c];
    render_particles p = {.count = (uint32_t)n, .radius = r, .hi = {hi[0], hi[1], hi[2]}, .cell = g->cell, .h = g->h};
    memcpy(p.dims, g->dims, sizeof p.dims);
    p.positions = gpu_buffer_make((size_t)n * 16, pos, "test-sheet", err_buf);
    p.ranges = gpu_buffer_make((size_t)(cells + 1) * 4, starts, "test-sheet-ranges", err_buf);
    free(starts);
    return p;
}

static void test_sheet(render_surface *iso, render_surface *aniso, render_splat *splat, const render_target *t) {
    const float r = 0.01f, dx = 2 * r, sp = 1.5f * dx, hi[3] = {0.6f, 0.3f, 0.6f};
    const int side = 18, n = side * side;
    float(*pos)[4] = calloc((size_t)n, sizeof *pos), drop[1][4] = {{0.3f, 0.1f, 0.3f, 0}};
    uint32_t rng = 99;
    for (int i = 0; i < side; i++)
        for (int k = 0; k < side; k++) {
            float *q = pos[i * side + k];
            q[0] = 0.05f + i * sp + ((float)(check_rand(&rng) & 0xFFFF) / 65536.0f - 0.5f) * 0.1f * sp;
            q[2] = 0.05f + k * sp + ((float)(check_rand(&rng) & 0xFFFF) / 65536.0f - 0.5f) * 0.1f * sp;
            q[1] = r;
        }
    cpu_grid g = {.lo = {0, 0, 0}, .h = 2 * dx, .cell = 2 * dx * 1.0001f};
    for (int a = 0; a < 3; a++) g.dims[a] = (uint32_t)ceilf(hi[a] / g.cell);
    render_particles p = upload_set(pos, n, &g, r, hi), one = upload_set(drop, 1, &g, r, hi);
    camera c;
    camera_fit(&c, p.lo, p.hi);
    c.target[0] = 0.3f, c.target[1] = 0, c.target[2] = 0.3f, c.pitch = 1.2f, c.yaw = 0.0f, c.distance = 0.9f;
    shot sh = {.dist = malloc(W * H * 4)};
    float s_lo = 0.05f + 2 * sp, s_hi = 0.05f + (side - 3) * sp;
    for (int k = 0; k < 2; k++) {
        draw(k ? aniso : iso, splat, &p, &c, t, k ? "sheet-anisotropic" : "sheet-isotropic", &sh);
        int inside = 0, holes = 0, drop_px = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                vec3 w;
                if (!ray_plane(&sh, x, y, r, w) || w[0] < s_lo || w[0] > s_hi || w[2] < s_lo || w[2] > s_hi) continue;
                inside++;
                holes += sh.dist[y * W + x] <= 0;
            }
        /* the droplet alone: its pixels against the disc of its sphere (1.5 r, the surface's) */
        draw(k ? aniso : iso, splat, &one, &c, t, k ? "droplet-anisotropic" : "droplet-isotropic", &sh);
        for (int i = 0; i < W * H; i++) drop_px += sh.dist[i] > 0;
        vec4 cv, d4 = {drop[0][0], drop[0][1], drop[0][2], 1};
        glm_mat4_mulv(sh.view, d4, cv);
        float rad_px = 1.5f * r * sh.proj[1][1] * H * 0.5f / -cv[2], disc = (float)GLM_PI * rad_px * rad_px;
        printf("sheet, %s: %d pixels inside, %d holes; the droplet %d pixels (disc %.0f)\n", k ? "anisotropic" : "isotropic",
               inside, holes, drop_px, disc);
        if (!k) continue;
        CHECK(inside > 100000 && holes == 0, "the sheet has %d holes in %d pixels", holes, inside);
        CHECK(fabsf((float)drop_px - disc) < 0.15f * disc, "the lone droplet is not round: %d pixels, its disc %.0f", drop_px,
              disc);
    }
    free(sh.dist);
    free(pos);
    gpu_buffer_destroy(&p.positions);
    gpu_buffer_destroy(&p.ranges);
    gpu_buffer_destroy(&one.positions);
    gpu_buffer_destroy(&one.ranges);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    int live0 = gpu_live_objects();
    render_splat *splat = render_splat_make(err_buf);
    render_surface *iso = splat ? render_surface_make(true, err_buf) : NULL;
    render_surface *aniso = iso ? render_surface_make(false, err_buf) : NULL;
    render_target t;
    if (!aniso || !render_target_make(&t, W, H, "test-surface", err_buf)) {
        CHECK(false, "%s", err_buf);
        return check_done();
    }
    test_flat(iso, aniso, splat, &t, gpu_get_caps(gpu));
    test_sheet(iso, aniso, splat, &t);
    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "GL error 0x%x", gl_err);
    render_target_destroy(&t);
    render_surface_destroy(iso);
    render_surface_destroy(aniso);
    render_splat_destroy(splat);
    CHECK(gpu_live_objects() == live0, "%d GL objects left alive", gpu_live_objects() - live0);
    gpu_destroy(gpu);
    return check_done();
}
