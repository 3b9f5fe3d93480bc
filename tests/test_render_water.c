/* The surface style as water, on llvmpipe, from synthetic particles (a lattice with a little jitter,
 * set velocities and densities) in a tank on the lit scene's tiled floor:
 *   refraction: the floor's tiles show through a shallow still pool (the picture under it matches
 *     the same view with the water hidden, by normalised cross-correlation), and where the pool's
 *     surface is curved (a mound) the tiles are displaced against where the flat part shows them;
 *   absorption: a deep column is darker or more saturated than a thin sheet of the same water, and
 *     blue-green (red is absorbed first);
 *   no holes: every pixel inside a still pool's outline is water (no gap of more than 4 pixels);
 *   no bleeding: a block of fluid before a wall of it changes the wall's picture only where it
 *     covers it (the smoothing keeps silhouettes across the depth gap);
 *   Fresnel: a deep pool seen at a grazing angle is brighter than seen from straight above;
 *   spray: fast particles with few neighbours above a pool are drawn as white droplets (and are
 *     left out of the surface), and a still pool, whose top layer has as few neighbours, has none;
 *     the simulation's own still pool has none and its dam break in full flow has some;
 *   the screenshot check: the scene's frame with the HUD passes render_image_check against the
 *     empty view, and without the HUD or without the fluid it fails.
 * Each picture is written as water-*.png to the test's output folder (check.h: $FLUID_TEST_OUT, or
 * a temporary folder, kept when a check failed). */
#include "check.h"
#include "render/camera.h"
#include "render/hud.h"
#include "render/image.h"
#include "render/image_test.h"
#include "render/overlay.h"
#include "render/render.h"
#include "render/render_common.h"
#include "sim/sim.h"
#include <math.h>
#include <string.h>

#define W 320
#define H 240
#define MAXP 20000
#define R 0.01f /* particle radius; spacing 2R */

static const float k_hi[3] = {0.6f, 0.4f, 0.4f};

typedef struct parts {
    int n;
    float pos[MAXP][4], vel[MAXP][4], dens[MAXP];
} parts;

static parts P;
static uint32_t rng = 777;
static char err_buf[ERR_LEN];
static const char *out_dir; /* check_out_dir() */

static float jitter(void) { return ((float)(check_rand(&rng) & 0xFFFF) / 65536.0f - 0.5f) * 0.4f * R; }

static void add(float x, float y, float z, float vx, float vy, float vz, float dens) {
    if (P.n == MAXP) return;
    float *p = P.pos[P.n], *v = P.vel[P.n];
    p[0] = x + jitter(), p[1] = y + jitter() * 0.5f, p[2] = z + jitter(), p[3] = 0;
    v[0] = vx, v[1] = vy, v[2] = vz, v[3] = 0;
    P.dens[P.n++] = dens;
}

/* A still pool of `layers` over x0..x1, z0..z1; its top layer has few neighbours (a low density). */
static void pool(float x0, float x1, float z0, float z1, int layers) {
    for (int l = 0; l < layers; l++)
        for (float x = x0 + R; x < x1; x += 2 * R)
            for (float z = z0 + R; z < z1; z += 2 * R)
                add(x, R + 2 * R * (float)l, z, 0, 0, 0, l == layers - 1 ? 620.0f : 1000.0f);
}

typedef struct gl_parts {
    GLuint pos, vel, dens;
    render_particles p;
} gl_parts;

static gl_parts upload(void) {
    gl_parts g;
    size_t n = (size_t)(P.n ? P.n : 1);
    g.pos = gpu_buffer_make(n * 16, P.pos, "test-water-positions", err_buf);
    g.vel = gpu_buffer_make(n * 16, P.vel, "test-water-velocities", err_buf);
    g.dens = gpu_buffer_make(n * 4, P.dens, "test-water-densities", err_buf);
    g.p = (render_particles){.positions = g.pos,
                             .velocities = g.vel,
                             .densities = g.dens,
                             .count = (uint32_t)P.n,
                             .radius = R,
                             .hi = {k_hi[0], k_hi[1], k_hi[2]}};
    return g;
}

static void release(gl_parts *g) {
    gpu_buffer_destroy(&g->pos);
    gpu_buffer_destroy(&g->vel);
    gpu_buffer_destroy(&g->dens);
}

static camera cam_at(float tx, float ty, float tz, float yaw, float pitch, float dist) {
    camera c;
    camera_fit(&c, (float[]){0, 0, 0}, k_hi);
    c.target[0] = tx, c.target[1] = ty, c.target[2] = tz;
    c.yaw = yaw, c.pitch = pitch, c.distance = dist;
    return c;
}

static render_view view_of(const render_target *t, const camera *c, render_backdrop b, unsigned hide) {
    render_view v = {.framebuffer = t->fbo,
                     .color_texture = t->color,
                     .width = W,
                     .height = H,
                     .style = RENDER_STYLE_SURFACE,
                     .backdrop = b,
                     .hide = hide};
    camera_matrices(c, W, H, v.view, v.proj);
    return v;
}

static void shoot(renderer *r, const gl_parts *g, const render_target *t, const camera *c, render_backdrop b, unsigned hide,
                  uint8_t *img, const char *name) {
    render_view v = view_of(t, c, b, hide);
    render_scene(r, &g->p, &v);
    render_target_read(t, img);
    char path[512];
    snprintf(path, sizeof path, "%s/water-%s.png", out_dir, name);
    image_write_png(path, img, W, H, err_buf);
}

/* Window pixel (x right, y down) of a world point. */
static void project(const camera *c, const float p[3], float out[2]) {
    mat4 view, proj, vp;
    camera_matrices(c, W, H, view, proj);
    glm_mat4_mul(proj, view, vp);
    vec4 w = {p[0], p[1], p[2], 1}, q;
    glm_mat4_mulv(vp, w, q);
    out[0] = (q[0] / q[3] * 0.5f + 0.5f) * W;
    out[1] = (1.0f - (q[1] / q[3] * 0.5f + 0.5f)) * H;
}

static double lum(const uint8_t *p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; }

/* Mean colour over a square of half-size h around (x, y). */
static void mean_rgb(const uint8_t *img, int x, int y, int h, double out[3]) {
    out[0] = out[1] = out[2] = 0;
    int n = 0;
    for (int j = y - h; j <= y + h; j++)
        for (int i = x - h; i <= x + h; i++) {
            if (i < 0 || j < 0 || i >= W || j >= H) continue;
            const uint8_t *p = img + 4 * ((size_t)j * W + (size_t)i);
            for (int k = 0; k < 3; k++) out[k] += p[k];
            n++;
        }
    for (int k = 0; k < 3; k++) out[k] /= n ? n : 1;
}

/* Normalised cross-correlation of a's luminance patch (half-size h) at (x, y) with b's at (x+dx, y+dy). */
static double ncc(const uint8_t *a, const uint8_t *b, int x, int y, int dx, int dy, int h) {
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    int n = 0;
    for (int j = -h; j <= h; j++)
        for (int i = -h; i <= h; i++) {
            int ax = x + i, ay = y + j, bx = ax + dx, by = ay + dy;
            if (ax < 0 || ay < 0 || ax >= W || ay >= H || bx < 0 || by < 0 || bx >= W || by >= H) return -1;
            double va = lum(a + 4 * ((size_t)ay * W + (size_t)ax)), vb = lum(b + 4 * ((size_t)by * W + (size_t)bx));
            sa += va, sb += vb, saa += va * va, sbb += vb * vb, sab += va * vb, n++;
        }
    double cov = sab - sa * sb / n, da = saa - sa * sa / n, db = sbb - sb * sb / n;
    if (da < 1e-6 || db < 1e-6) return 0;
    return cov / sqrt(da * db);
}

/* The shift (within +-s pixels) of the dry picture that best matches the wet one at (x, y). */
static double best_shift(const uint8_t *wet, const uint8_t *dry, int x, int y, int h, int s, int *bx, int *by) {
    double best = -2;
    for (int dy = -s; dy <= s; dy++)
        for (int dx = -s; dx <= s; dx++) {
            double c = ncc(wet, dry, x, y, dx, dy, h);
            if (c > best) best = c, *bx = dx, *by = dy;
        }
    return best;
}

static void test_refraction(renderer *r, const render_target *t) {
    P.n = 0;
    pool(0.02f, 0.58f, 0.02f, 0.38f, 2);
    /* A mound on the pool: a dome of particles around (0.38, 0.2), up to 4 layers more. */
    const float mx = 0.38f, mz = 0.2f;
    for (int l = 2; l < 6; l++) {
        float rad = 0.12f * sqrtf(1.0f - (float)(l - 1) / 5.0f);
        for (float x = mx - rad; x <= mx + rad; x += 2 * R)
            for (float z = mz - rad; z <= mz + rad; z += 2 * R)
                if ((x - mx) * (x - mx) + (z - mz) * (z - mz) < rad * rad) add(x, R + 2 * R * (float)l, z, 0, 0, 0, 1000);
    }
    gl_parts g = upload();
    camera c = cam_at(0.3f, 0.0f, 0.2f, 0.0f, 1.0f, 0.62f);
    uint8_t *wet = malloc(W * H * 4), *dry = malloc(W * H * 4);
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, 0, wet, "refraction");
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, RENDER_HIDE_WATER, dry, "refraction-dry");
    /* Tile corners (the checker's tiles are 0.1 m here): one under flat water, one on the mound's flank. */
    float flat_w[3] = {0.1f, 0.04f, 0.2f}, curved_w[3] = {0.3f, 0.06f, 0.2f}, fp[2], cp[2];
    project(&c, flat_w, fp);
    project(&c, curved_w, cp);
    int fx = 0, fy = 0, cx = 0, cy = 0;
    double f_ncc = best_shift(wet, dry, (int)fp[0], (int)fp[1], 14, 14, &fx, &fy);
    double c_ncc = best_shift(wet, dry, (int)cp[0], (int)cp[1], 14, 14, &cx, &cy);
    double same = ncc(wet, dry, (int)fp[0], (int)fp[1], 0, 0, 14);
    double tint[3], bare[3];
    mean_rgb(wet, (int)fp[0], (int)fp[1], 14, tint);
    mean_rgb(dry, (int)fp[0], (int)fp[1], 14, bare);
    printf("refraction: flat water at (%.0f %.0f): tiles match the dry view at shift (%d %d), ncc %.3f (unshifted %.3f); "
           "mound flank at (%.0f %.0f): shift (%d %d), ncc %.3f; tint %.0f %.0f %.0f over %.0f %.0f %.0f\n",
           fp[0], fp[1], fx, fy, f_ncc, same, cp[0], cp[1], cx, cy, c_ncc, tint[0], tint[1], tint[2], bare[0], bare[1], bare[2]);
    CHECK(f_ncc > 0.8, "the floor's tiles do not show through flat shallow water (best correlation %.3f)", f_ncc);
    CHECK(c_ncc > 0.5, "the floor's tiles do not show through the curved water (best correlation %.3f)", c_ncc);
    CHECK(abs(cx - fx) + abs(cy - fy) >= 3,
          "the curved surface does not displace the tiles: shift (%d %d) there, (%d %d) where flat", cx, cy, fx, fy);
    CHECK(tint[0] < bare[0] - 4 && tint[2] / (tint[0] + 1) > bare[2] / (bare[0] + 1),
          "the water does not tint the floor: %.0f %.0f %.0f over %.0f %.0f %.0f", tint[0], tint[1], tint[2], bare[0], bare[1],
          bare[2]);
    free(wet), free(dry);
    release(&g);
}

static void test_absorption(renderer *r, const render_target *t) {
    P.n = 0;
    pool(0.02f, 0.3f, 0.04f, 0.36f, 1); /* a thin sheet, one particle deep */
    for (int l = 0; l < 18; l++)        /* a deep column */
        for (float x = 0.38f + R; x < 0.56f; x += 2 * R)
            for (float z = 0.12f + R; z < 0.28f; z += 2 * R) add(x, R + 2 * R * (float)l, z, 0, 0, 0, 1000);
    gl_parts g = upload();
    camera c = cam_at(0.3f, 0.1f, 0.2f, 0.0f, 1.2f, 0.8f);
    uint8_t *img = malloc(W * H * 4);
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, 0, img, "absorption");
    float thin_w[3] = {0.16f, 0.02f, 0.2f}, deep_w[3] = {0.47f, 0.36f, 0.2f}, tp[2], dp[2];
    project(&c, thin_w, tp);
    project(&c, deep_w, dp);
    double thin[3], deep[3];
    mean_rgb(img, (int)tp[0], (int)tp[1], 6, thin);
    mean_rgb(img, (int)dp[0], (int)dp[1], 6, deep);
    double lt = 0.2126 * thin[0] + 0.7152 * thin[1] + 0.0722 * thin[2],
           ld = 0.2126 * deep[0] + 0.7152 * deep[1] + 0.0722 * deep[2];
    double st =
        (fmax(thin[0], fmax(thin[1], thin[2])) - fmin(thin[0], fmin(thin[1], thin[2]))) / fmax(thin[0], fmax(thin[1], thin[2]));
    double sd =
        (fmax(deep[0], fmax(deep[1], deep[2])) - fmin(deep[0], fmin(deep[1], deep[2]))) / fmax(deep[0], fmax(deep[1], deep[2]));
    printf("absorption: thin sheet %.0f %.0f %.0f (luminance %.0f, saturation %.2f), deep column %.0f %.0f %.0f (%.0f, %.2f)\n",
           thin[0], thin[1], thin[2], lt, st, deep[0], deep[1], deep[2], ld, sd);
    CHECK(ld < 0.85 * lt || sd > st + 0.25,
          "the deep column (luminance %.0f, saturation %.2f) is neither darker nor more "
          "saturated than the thin sheet (%.0f, %.2f)",
          ld, sd, lt, st);
    CHECK(deep[2] > deep[0] * 1.5, "the deep column is not blue-green: %.0f %.0f %.0f", deep[0], deep[1], deep[2]);
    free(img);
    release(&g);
}

/* Flood fill of the 4-connected region of `mask` pixels from (x, y); returns its size. */
static int fill(uint8_t *mask, int x, int y, int *stack) {
    int n = 0, top = 0;
    stack[top++] = y * W + x;
    mask[y * W + x] = 0;
    while (top) {
        int at = stack[--top], px = at % W, py = at / W;
        n++;
        const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int k = 0; k < 4; k++) {
            int qx = px + nb[k][0], qy = py + nb[k][1];
            if (qx < 0 || qy < 0 || qx >= W || qy >= H || !mask[qy * W + qx]) continue;
            mask[qy * W + qx] = 0;
            stack[top++] = qy * W + qx;
        }
    }
    return n;
}

static void test_no_holes(renderer *r, const render_target *t) {
    P.n = 0;
    pool(0.0f, 0.6f, 0.0f, 0.4f, 3);
    gl_parts g = upload();
    camera c = cam_at(0.3f, 0.0f, 0.2f, -0.3f, 0.8f, 0.75f);
    uint8_t *wet = malloc(W * H * 4), *dry = malloc(W * H * 4), *mask = calloc(W * H, 1);
    int *stack = malloc(sizeof(int) * W * H);
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, 0, wet, "pool");
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, RENDER_HIDE_WATER, dry, "pool-dry");
    /* Inside the pool's top face, shrunk by 2 particle spacings: a pixel the water left as the dry
     * view shows it is a hole. */
    float corner[4][2], y = 6 * R;
    const float cw[4][3] = {{0.04f, y, 0.04f}, {0.56f, y, 0.04f}, {0.56f, y, 0.36f}, {0.04f, y, 0.36f}};
    for (int k = 0; k < 4; k++) project(&c, cw[k], corner[k]);
    int inside = 0, holes_px = 0, biggest = 0;
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            int pos = 0, neg = 0; /* inside the convex quad: the same side of every edge */
            for (int k = 0; k < 4; k++) {
                const float *a = corner[k], *b = corner[(k + 1) % 4];
                float side = (b[0] - a[0]) * ((float)py + 0.5f - a[1]) - (b[1] - a[1]) * ((float)px + 0.5f - a[0]);
                pos += side > 0, neg += side < 0;
            }
            bool in = pos == 4 || neg == 4;
            if (!in) continue;
            inside++;
            const uint8_t *a = wet + 4 * ((size_t)py * W + (size_t)px), *b = dry + 4 * ((size_t)py * W + (size_t)px);
            bool water = abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 12;
            mask[py * W + px] = !water;
            holes_px += !water;
        }
    for (int i = 0; i < W * H; i++)
        if (mask[i]) {
            int n = fill(mask, i % W, i / W, stack);
            if (n > biggest) biggest = n;
        }
    printf("no holes: %d pixels inside the pool's outline, %d not water, the largest gap %d pixels\n", inside, holes_px, biggest);
    CHECK(inside > 10000, "the pool's outline covers only %d pixels", inside);
    CHECK(biggest <= 4, "a hole of %d pixels in the still pool's surface (%d hole pixels in all)", biggest, holes_px);
    free(wet), free(dry), free(mask), free(stack);
    release(&g);
}

/* The smoothing keeps silhouettes: a block in front of a wall of fluid, 0.2 m nearer, changes the
 * wall's picture only where it covers it (and 3 pixels around): the filter does not pull the
 * wall's depth towards the block's across the gap, nor the block's towards the wall's. */
static void test_no_bleeding(renderer *r, const render_target *t) {
    camera c = cam_at(0.3f, 0.16f, 0.2f, 0.0f, 0.0f, 0.7f);
    uint8_t *wall = malloc(W * H * 4), *both = malloc(W * H * 4);
    P.n = 0;
    for (float x = 0.05f; x < 0.55f; x += 2 * R)
        for (float y = 0.02f; y < 0.3f; y += 2 * R)
            for (int l = 0; l < 2; l++) add(x, y, 0.08f + 2 * R * (float)l, 0, 0, 0, 1000);
    int n_wall = P.n;
    gl_parts g = upload();
    shoot(r, &g, t, &c, RENDER_BACKDROP_PLAIN, 0, wall, "wall");
    release(&g);
    float lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
    for (float x = 0.2f; x < 0.32f; x += 2 * R)
        for (float y = 0.1f; y < 0.22f; y += 2 * R)
            for (int l = 0; l < 2; l++) {
                add(x, y, 0.3f + 2 * R * (float)l, 0, 0, 0, 1000);
                /* the block's outline on screen: its spheres (at the surface's 1.5 R) projected */
                for (int k = 0; k < 4; k++) {
                    float q[3] = {x + ((k & 1) ? 1.6f : -1.6f) * R, y + ((k & 2) ? 1.6f : -1.6f) * R,
                                  0.3f + 2 * R * (float)l + 1.5f * R},
                          sp[2];
                    project(&c, q, sp);
                    lo[0] = fminf(lo[0], sp[0]), lo[1] = fminf(lo[1], sp[1]), hi[0] = fmaxf(hi[0], sp[0]),
                    hi[1] = fmaxf(hi[1], sp[1]);
                }
            }
    g = upload();
    shoot(r, &g, t, &c, RENDER_BACKDROP_PLAIN, 0, both, "wall-block");
    release(&g);
    int outside = 0, changed = 0, covered = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *a = wall + 4 * ((size_t)y * W + (size_t)x), *b = both + 4 * ((size_t)y * W + (size_t)x);
            bool differ = abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 12;
            if (x >= lo[0] - 3 && x <= hi[0] + 3 && y >= lo[1] - 3 && y <= hi[1] + 3) {
                covered += differ;
                continue;
            }
            outside += !image_is_background(a);
            changed += differ;
        }
    printf("no bleeding: a block %d particles strong 0.2 m before a wall of %d: %d of the wall's pixels outside the block's "
           "outline change (%d inside it)\n",
           P.n - n_wall, n_wall, changed, covered);
    CHECK(outside > 5000 && covered > 100, "the scene is not as meant: %d wall pixels outside the block, %d changed inside",
          outside, covered);
    CHECK(changed <= 10, "the block bleeds into the wall behind it: %d pixels outside its outline change", changed);
    free(wall), free(both);
}

static void test_fresnel(renderer *r, const render_target *t) {
    P.n = 0;
    pool(0.0f, 0.6f, 0.0f, 0.4f, 8);
    gl_parts g = upload();
    uint8_t *img = malloc(W * H * 4);
    /* The plain backdrop behind: what comes through the water is dim, what it reflects is the sky. */
    camera down = cam_at(0.3f, 0.16f, 0.2f, 0.0f, 1.5f, 0.3f), graze = cam_at(0.3f, 0.16f, 0.2f, 0.0f, 0.12f, 0.3f);
    double a[3], b[3];
    shoot(r, &g, t, &down, RENDER_BACKDROP_PLAIN, 0, img, "fresnel-down");
    mean_rgb(img, W / 2, H / 2, 10, a);
    shoot(r, &g, t, &graze, RENDER_BACKDROP_PLAIN, 0, img, "fresnel-grazing");
    mean_rgb(img, W / 2, H / 2 + 20, 10, b);
    double la = 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2], lb = 0.2126 * b[0] + 0.7152 * b[1] + 0.0722 * b[2];
    printf("fresnel: straight down %.0f %.0f %.0f (luminance %.0f), grazing %.0f %.0f %.0f (%.0f)\n", a[0], a[1], a[2], la, b[0],
           b[1], b[2], lb);
    /* Schlick with IOR 1.33: 2%% reflected straight down, about 35%% at 80 degrees. */
    CHECK(lb > 2.0 * la && lb > la + 25, "grazing (luminance %.0f) is not brighter than straight down (%.0f)", lb, la);
    free(img);
    release(&g);
}

/* Pixels that differ between the pictures with and without spray, and how many of them are whitish. */
static void spray_pixels(const uint8_t *with, const uint8_t *without, int *changed, int *white) {
    *changed = *white = 0;
    for (int i = 0; i < W * H; i++) {
        const uint8_t *a = with + 4 * i, *b = without + 4 * i;
        if (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) <= 12) continue;
        (*changed)++;
        *white += a[0] > 140 && a[1] > 140 && a[2] > 140 && abs(a[0] - a[2]) < 60;
    }
}

static void test_spray(renderer *r, const render_target *t) {
    uint8_t *with = malloc(W * H * 4), *without = malloc(W * H * 4);
    camera c = cam_at(0.3f, 0.1f, 0.2f, -0.3f, 0.5f, 0.9f);
    int changed, white;
    /* Still water: the top layer has few neighbours, but nothing moves. */
    P.n = 0;
    pool(0.0f, 0.6f, 0.0f, 0.4f, 3);
    gl_parts g = upload();
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, 0, with, "still");
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, RENDER_HIDE_SPRAY, without, "still-nospray");
    spray_pixels(with, without, &changed, &white);
    printf("spray, still pool: %d pixels change with the spray shown\n", changed);
    CHECK(changed == 0, "spray in still water: %d pixels", changed);
    release(&g);
    /* A splash: droplets thrown up from the pool, fast and alone (a low density). */
    int before = P.n;
    for (int i = 0; i < 60; i++) {
        float a = (float)i * 2.4f, d = 0.02f + 0.0025f * (float)i;
        add(0.3f + d * cosf(a), 0.12f + 0.003f * (float)(i % 30), 0.2f + d * sinf(a), 0.8f * cosf(a), 2.0f, 0.8f * sinf(a),
            250.0f);
    }
    g = upload();
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, 0, with, "splash");
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, RENDER_HIDE_SPRAY, without, "splash-nospray");
    spray_pixels(with, without, &changed, &white);
    printf("spray, splash of %d droplets: %d pixels change, %d of them white\n", P.n - before, changed, white);
    CHECK(white > 150, "the splash shows only %d white spray pixels (%d changed)", white, changed);
    /* Without the spray the droplets leave no blobs of surface above the pool. */
    float top[3] = {0.3f, 0.2f, 0.2f}, tp[2];
    project(&c, top, tp);
    uint8_t *bare = malloc(W * H * 4);
    P.n = before;
    gl_parts pool_only = upload();
    shoot(r, &pool_only, t, &c, RENDER_BACKDROP_SCENE, 0, bare, "splash-pool-only");
    int blobs = 0;
    for (int i = 0; i < W * H; i++) {
        const uint8_t *a = without + 4 * i, *b = bare + 4 * i;
        blobs += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) > 12;
    }
    printf("spray hidden: %d pixels differ from the pool alone (the droplets are not surface)\n", blobs);
    CHECK(blobs == 0, "spray droplets made %d pixels of surface", blobs);
    free(bare);
    release(&pool_only);
    release(&g);
    free(with), free(without);
}

/* The same with the real simulation: its still pool (after some steps) shows no spray, its dam
 * break in full flow does; so the spray's thresholds fit the densities and speeds it makes. */
static int sim_spray_pixels(renderer *r, const render_target *t, const gpu_caps *caps, const char *scene, uint32_t n,
                            double seconds, const char *name) {
    sim *s = sim_make(&(sim_desc){.scene = scene, .particles = n}, caps, err_buf);
    CHECK(s != NULL, "sim_make %s: %s", scene, err_buf);
    if (!s) return -1;
    while (sim_time(s) < seconds) sim_step(s, NULL);
    render_particles p = {.positions = sim_positions(s),
                          .velocities = sim_velocities(s),
                          .densities = sim_densities(s),
                          .count = sim_particle_count(s),
                          .radius = sim_particle_radius(s)};
    sim_domain(s, p.lo, p.hi);
    camera c;
    camera_fit(&c, p.lo, p.hi);
    gl_parts g = {.p = p};
    uint8_t *with = malloc(W * H * 4), *without = malloc(W * H * 4);
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, 0, with, name);
    shoot(r, &g, t, &c, RENDER_BACKDROP_SCENE, RENDER_HIDE_SPRAY, without, "sim-nospray");
    int changed, white;
    spray_pixels(with, without, &changed, &white);
    printf("spray, the simulation's %s after %.2f s (%u particles): %d pixels change with the spray shown, %d white\n", scene,
           sim_time(s), sim_particle_count(s), changed, white);
    free(with), free(without);
    sim_destroy(s);
    return white;
}

static void test_sim_spray(renderer *r, const render_target *t, const gpu_caps *caps) {
    int still = sim_spray_pixels(r, t, caps, "pool", 1500, 0.05, "sim-pool");
    CHECK(still == 0, "spray in the simulation's still pool: %d white pixels", still);
    int flow = sim_spray_pixels(r, t, caps, "dambreak", 2000, 0.45, "sim-dambreak");
    CHECK(flow > 20, "no spray in the simulation's dam break in full flow: %d white pixels", flow);
}

static void test_hud_check(renderer *r, hud *h, const render_target *t) {
    P.n = 0;
    pool(0.0f, 0.6f, 0.0f, 0.4f, 3);
    gl_parts g = upload();
    camera c = cam_at(0.3f, 0.05f, 0.2f, -0.4f, 0.5f, 0.9f);
    uint8_t *img = malloc(W * H * 4), *empty = malloc(W * H * 4), *bare = malloc(W * H * 4);
    overlay_layout layout;
    overlay_info info = {
        .width = W, .height = H, .particles = (uint32_t)P.n, .scene = "pool", .sort = "radix", .steps_per_frame = 1};
    render_view v = view_of(t, &c, RENDER_BACKDROP_SCENE, 0);
    render_scene(r, &g.p, &v);
    render_target_read(t, bare);
    overlay_draw(h, &info, &layout);
    hud_draw(h, t->fbo);
    render_target_read(t, img);
    render_particles none = g.p;
    none.count = 0;
    render_scene(r, &none, &v);
    render_target_read(t, empty);
    CHECK(render_image_check(img, empty, W, H, &layout, err_buf), "the scene's frame with the HUD fails its check: %s", err_buf);
    err_buf[0] = 0;
    CHECK(!render_image_check(bare, empty, W, H, &layout, err_buf) && strstr(err_buf, "HUD"), "no HUD not caught: %s", err_buf);
    overlay_draw(h, &info, &layout);
    hud_draw(h, t->fbo); /* the HUD over the empty view, still in the target */
    render_target_read(t, bare);
    err_buf[0] = 0;
    CHECK(!render_image_check(bare, empty, W, H, &layout, err_buf) && strstr(err_buf, "particles"), "no fluid not caught: %s",
          err_buf);
    char path[512];
    snprintf(path, sizeof path, "%s/water-hud.png", out_dir);
    image_write_png(path, img, W, H, err_buf);
    free(img), free(empty), free(bare);
    release(&g);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    int live0 = gpu_live_objects();
    out_dir = check_out_dir();
    renderer *r = render_make(err_buf);
    CHECK(r != NULL, "render_make: %s", err_buf);
    hud *h = r ? hud_make(&(hud_desc){0}, err_buf) : NULL;
    CHECK(h != NULL, "hud_make: %s", err_buf);
    render_target t;
    if (!h || !render_target_make(&t, W, H, "test-water", err_buf)) {
        CHECK(false, "%s", err_buf);
        return check_done();
    }
    test_refraction(r, &t);
    test_absorption(r, &t);
    test_no_holes(r, &t);
    test_no_bleeding(r, &t);
    test_fresnel(r, &t);
    test_spray(r, &t);
    test_sim_spray(r, &t, gpu_get_caps(gpu));
    test_hud_check(r, h, &t);
    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "GL error 0x%x (the --debug lines above say where)", gl_err);
    render_target_destroy(&t);
    hud_destroy(h);
    render_destroy(r);
    CHECK(gpu_live_objects() == live0, "%d GL objects left alive", gpu_live_objects() - live0);
    gpu_destroy(gpu);
    return check_done();
}
