/* The surface style's diffuse pass (render_surface_diffuse, shaders/render/diffuse.comp) on real GL
 * against a CPU reference written from its description (render_surface.h, diffuse.comp's header):
 * each particle a Gaussian point of radius RENDER_DIFFUSE_RADIUS particle radii (0.75 to 3 pixels),
 * spray a streak over its last RENDER_SURFACE_STREAK seconds (at most RENDER_DIFFUSE_MAX_STREAK
 * pixels), its weight spread along it, faded over the last RENDER_DIFFUSE_FADE seconds, dimmed
 * behind the water's distance, rounded to RENDER_DIFFUSE_UNIT per pixel, in double precision here.
 * Kind: independent (a CPU reference of the per-pixel sums; each particle's rounding may differ by
 * one unit, so a pixel may differ by at most the number of particles that touch it).
 *   made: 600 hand-made particles of every kind in front of a camera: near (3-pixel points, long
 *     streaks) and far (small), partly off the screen, behind the camera, a streak whose tail is
 *     behind it, fading ones, and half the screen behind water at 1 m;
 *   splash: the dam break's (1,000 fluid particles, 30 frames; FLUID_TEST_PARTICLES and
 *     FLUID_TEST_FRAMES change them) diffuse particles seen from near (FLUID_TEST_SIZE=WxH: at
 *     that size, from the camera_fit framing, for a measure of the work at the app's size).
 * Each prints the work a thread does: the most pixels one thread walks (one thread a particle: its
 * box; the pass shares a group's boxes among its threads: ceil(the group's pixels / threads)).
 * Made to fail on purpose: see the commit message.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "app/session/app_render.h"
#include "check.h"
#include "render/camera.h"
#include "render/image.h"
#include "render/render_common.h"
#include "render/render_surface.h"
#include "sim/sim.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int W = 320, H = 180; /* FLUID_TEST_SIZE=WxH: the splash at that size, framed as the app frames it */

static char err_buf[ERR_LEN];

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

static void to_pixels(const mat4 proj, const double c[3], double out[2]) {
    double clip[4];
    for (int r = 0; r < 4; r++) clip[r] = proj[0][r] * c[0] + proj[1][r] * c[1] + proj[2][r] * c[2] + proj[3][r];
    out[0] = (clip[0] / clip[3] * 0.5 + 0.5) * W, out[1] = (clip[1] / clip[3] * 0.5 + 0.5) * H;
}

static void to_view(const mat4 view, const float x[3], double out[3]) {
    for (int r = 0; r < 3; r++) out[r] = view[0][r] * x[0] + view[1][r] * x[1] + view[2][r] * x[2] + view[3][r];
}

typedef struct work {
    uint32_t most_one;   /* the largest box: the pixels one thread a particle walks at most */
    uint32_t most_group; /* the most a thread walks when a group's threads share its boxes */
    uint64_t pixels;     /* every box's pixels */
} work;

/* The reference: n particles (2 vec4 each) into sum (W*H), touched counting the particles that add
 * to a pixel; dist: the water's distance per pixel (0: none). */
static work reference(const float *parts, uint32_t n, const mat4 view, const mat4 proj, double radius_m, const float *dist,
                      double *sum, uint32_t *touched) {
    work wk = {0};
    uint64_t group = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *x = parts + 8 * i, *v = x + 4;
        int kind = (int)(v[3] + 0.5f);
        double c[3], s0[2], s1[2];
        to_view(view, x, c);
        double z = -c[2];
        uint32_t area = 0;
        if (z > 1e-3) {
            to_pixels(proj, c, s0);
            s1[0] = s0[0], s1[1] = s0[1];
            double r = clampd(radius_m * RENDER_DIFFUSE_RADIUS * proj[1][1] * H * 0.5 / z, 0.75, 3.0);
            if (kind == RENDER_DIFFUSE_SPRAY) {
                float tail[3];
                for (int a = 0; a < 3; a++) tail[a] = x[a] - v[a] * RENDER_SURFACE_STREAK;
                double c1[3];
                to_view(view, tail, c1);
                if (-c1[2] > 1e-3) to_pixels(proj, c1, s1);
                double d[2] = {s1[0] - s0[0], s1[1] - s0[1]}, len = hypot(d[0], d[1]);
                if (len > RENDER_DIFFUSE_MAX_STREAK)
                    for (int a = 0; a < 2; a++) s1[a] = s0[a] + d[a] * (RENDER_DIFFUSE_MAX_STREAK / len);
            }
            double seg[2] = {s1[0] - s0[0], s1[1] - s0[1]}, len = hypot(seg[0], seg[1]);
            double strength = kind == RENDER_DIFFUSE_SPRAY ? 0.7 : (kind == RENDER_DIFFUSE_FOAM ? 0.55 : 0.35);
            strength *= clampd(x[3] / RENDER_DIFFUSE_FADE, 0, 1) * r / (r + 0.5 * len);
            int lo[2], hi[2], size[2] = {W, H};
            for (int a = 0; a < 2; a++) {
                lo[a] = (int)floor(fmin(s0[a], s1[a]) - 2 * r), hi[a] = (int)ceil(fmax(s0[a], s1[a]) + 2 * r);
                lo[a] = lo[a] < 0 ? 0 : lo[a], hi[a] = hi[a] > size[a] - 1 ? size[a] - 1 : hi[a];
            }
            if (hi[0] >= lo[0] && hi[1] >= lo[1]) area = (uint32_t)(hi[0] - lo[0] + 1) * (uint32_t)(hi[1] - lo[1] + 1);
            for (int py = lo[1]; area && py <= hi[1]; py++)
                for (int px = lo[0]; px <= hi[0]; px++) {
                    double p[2] = {px + 0.5, py + 0.5};
                    double t = len > 0 ? clampd(((p[0] - s0[0]) * seg[0] + (p[1] - s0[1]) * seg[1]) / (len * len), 0, 1) : 0;
                    double q[2] = {p[0] - (s0[0] + t * seg[0]), p[1] - (s0[1] + t * seg[1])};
                    double w = strength * exp(-(q[0] * q[0] + q[1] * q[1]) / (r * r));
                    int at = py * W + px;
                    if (dist[at] > 0 && z > dist[at]) w *= exp(-(z - dist[at]) / (radius_m * RENDER_SURFACE_UNDER_SCALE));
                    if (w >= 1.0 / 512) sum[at] += floor(w * RENDER_DIFFUSE_UNIT + 0.5), touched[at]++;
                }
        }
        wk.most_one = area > wk.most_one ? area : wk.most_one;
        wk.pixels += area, group += area;
        if ((i + 1) % RENDER_DIFFUSE_GROUP == 0 || i + 1 == n) {
            uint32_t each = (uint32_t)((group + RENDER_DIFFUSE_THREADS - 1) / RENDER_DIFFUSE_THREADS);
            wk.most_group = each > wk.most_group ? each : wk.most_group;
            group = 0;
        }
    }
    return wk;
}

/* The pass on n particles (2 vec4 each, in GPU buffer `parts` or uploaded from host) against the
 * reference; returns the pixels the pass lit. */
static void compare(const char *name, GLuint parts_buf, const float *parts, uint32_t n, const mat4 view, const mat4 proj,
                    float radius, const float *dist, render_surface *surf) {
    uint32_t state[8] = {(n + RENDER_DIFFUSE_GROUP - 1) / RENDER_DIFFUSE_GROUP, 1, 1, n};
    GLuint st = gpu_buffer_make(sizeof state, state, "test-diffuse-state", err_buf);
    GLuint d = gpu_buffer_make((size_t)W * H * 4, dist, "test-diffuse-distance", err_buf);
    uint32_t *zero = calloc((size_t)W * H, 4), *got = malloc((size_t)W * H * 4), *touched = calloc((size_t)W * H, 4);
    GLuint sum = gpu_buffer_make((size_t)W * H * 4, zero, "test-diffuse-sum", err_buf);
    /* a capacity past the alive: whole groups of empty slots, and a part-filled last one */
    render_particles p = {.diffuse = parts_buf, .diffuse_state = st, .radius = radius, .diffuse_capacity = n + 3 * RENDER_DIFFUSE_GROUP + 5};
    render_view v = {.width = W, .height = H};
    glm_mat4_copy((vec4 *)view, v.view), glm_mat4_copy((vec4 *)proj, v.proj);
    render_surface_diffuse(surf, &p, &v, d, sum);
    glGetNamedBufferSubData(sum, 0, (GLsizeiptr)W * H * 4, got);
    double *want = calloc((size_t)W * H, sizeof *want);
    work wk = reference(parts, n, view, proj, radius, dist, want, touched);
    int lit = 0, differ = 0, over = 0, most = 0;
    double total = 0;
    for (int i = 0; i < W * H; i++) {
        int diff = abs((int)got[i] - (int)want[i]);
        lit += got[i] > 0, differ += diff > 0, over += diff > (int)touched[i], total += got[i];
        most = diff > most ? diff : most;
    }
    CHECK(over == 0, "%s: %d pixels differ from the reference by more than the particles touching them (most %d units)", name,
          over, most);
    CHECK(lit > 0 && total > 0, "%s: no pixel lit", name);
    printf("%s: %u particles, %d pixels lit (sum %.0f units), %d differ from the reference by at most %d unit(s); a thread "
           "walks at most %u pixels (one thread a particle: %u; %.1f on average a particle), 1 dispatch of %u groups\n",
           name, n, lit, total, differ, most, wk.most_group, wk.most_one, n ? (double)wk.pixels / n : 0.0, state[0]);
    /* a picture of the sum, for a look */
    uint8_t *rgba = malloc((size_t)W * H * 4);
    for (int i = 0; i < W * H; i++) {
        double a = 1 - exp(-(double)got[i] / RENDER_DIFFUSE_UNIT);
        uint8_t g = (uint8_t)(255 * a);
        rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = g, rgba[4 * i + 3] = 255;
    }
    char file[64];
    snprintf(file, sizeof file, "diffuse-%s.png", name);
    image_write_png(check_path(file), rgba, W, H, err_buf);
    free(rgba), free(want), free(zero), free(got), free(touched);
    gpu_buffer_destroy(&st), gpu_buffer_destroy(&d), gpu_buffer_destroy(&sum);
}

static uint32_t rng = 12345u;
static double uniform(double lo, double hi) {
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (double)(rng >> 8) / (double)(1u << 24);
}

static void test_made(render_surface *surf) {
    enum { N = 600 };
    static float parts[N * 8];
    vec3 eye = {0, 0, 0}, at = {0, 0, -1}, up = {0, 1, 0};
    mat4 view, proj;
    glm_lookat(eye, at, up, view);
    glm_perspective(glm_rad(45.0f), (float)W / H, 0.01f, 100.0f, proj);
    const float radius = 0.01f;
    for (int i = 0; i < N; i++) {
        float *x = parts + 8 * i, *v = x + 4;
        double z = i < 200 ? uniform(0.15, 0.5) : uniform(0.5, 3.0); /* near: 3-pixel points and long streaks */
        double half = z * tan(glm_rad(22.5f)) * 1.15;                /* past the edges too */
        x[0] = (float)uniform(-half * W / H, half * W / H), x[1] = (float)uniform(-half, half), x[2] = (float)-z;
        x[3] = (float)uniform(0, 1.0); /* lifetime left: below RENDER_DIFFUSE_FADE fades */
        for (int a = 0; a < 3; a++) v[a] = (float)uniform(-4, 4);
        v[3] = (float)(i % 3);
        if (i % 50 == 7) x[2] = 0.2f;                           /* behind the camera */
        if (i % 50 == 9) x[2] = -0.02f, v[2] = -5, v[3] = 0.0f; /* spray whose tail is behind it */
    }
    float *dist = calloc((size_t)W * H, sizeof *dist);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W / 2; x++) dist[y * W + x] = 1.0f; /* water at 1 m on the left half */
    GLuint buf = gpu_buffer_make(sizeof parts, parts, "test-diffuse-particles", err_buf);
    compare("made", buf, parts, N, view, proj, radius, dist, surf);
    gpu_buffer_destroy(&buf);
    free(dist);
}

static void test_splash(render_surface *surf, const gpu_caps *caps) {
    const char *np = getenv("FLUID_TEST_PARTICLES"), *nf = getenv("FLUID_TEST_FRAMES");
    uint32_t particles = np ? (uint32_t)atoi(np) : 1000, frames = nf ? (uint32_t)atoi(nf) : 30;
    sim *s = sim_make(&(sim_desc){.scene = "dambreak", .particles = particles, .diffuse = {.on = true}}, caps, err_buf);
    CHECK(s != NULL, "%s", err_buf);
    if (!s) return;
    for (uint32_t f = 0; f < frames; f++) sim_frame(s, 1.0 / 60, 0, NULL);
    sim_diffuse_counts c;
    sim_read_diffuse(s, &c, true);
    sim_diffuse_view dv;
    sim_get_diffuse(s, &dv);
    float *parts = calloc((size_t)c.alive * 8 + 8, sizeof *parts);
    glGetNamedBufferSubData(dv.particles, 0, (GLsizeiptr)c.alive * 32, parts);
    render_particles rp = app_render_particles(s);
    camera cam;
    camera_fit(&cam, rp.lo, rp.hi);
    if (!getenv("FLUID_TEST_SIZE")) cam.distance *= 0.5f; /* near: long streaks */
    mat4 view, proj;
    camera_matrices(&cam, W, H, view, proj);
    float *dist = calloc((size_t)W * H, sizeof *dist);
    CHECK(c.alive > 0, "no diffuse particle after %u frames", frames);
    if (c.alive) compare("splash", dv.particles, parts, c.alive, view, proj, rp.radius, dist, surf);
    free(dist), free(parts);
    sim_destroy(s);
}

int main(void) {
    const char *size = getenv("FLUID_TEST_SIZE");
    if (size && (sscanf(size, "%dx%d", &W, &H) != 2 || W < 16 || H < 16 || W > 4096 || H > 4096)) {
        fprintf(stderr, "FAIL: FLUID_TEST_SIZE=%s is not WxH (16 to 4096 each)\n", size);
        return 1;
    }
    gpu_ctx *gpu = check_gpu();
    int live0 = gpu_live_objects();
    render_surface *surf = render_surface_make(false, err_buf);
    CHECK(surf != NULL, "%s", err_buf);
    if (!surf) return check_done();
    test_made(surf);
    test_splash(surf, gpu_get_caps(gpu));
    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "GL error 0x%x", gl_err);
    render_surface_destroy(surf);
    CHECK(gpu_live_objects() == live0, "%d GL objects left alive", gpu_live_objects() - live0);
    gpu_destroy(gpu);
    return check_done();
}
