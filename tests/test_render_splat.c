/* The compute splat (src/render/render_splat.c) against a CPU ray caster: for every pixel of small,
 * odd-sized views, the nearest sphere the GPU kept (its index and depth) is the one a brute-force
 * CPU search over all spheres finds, in layouts built to break it: overlapping spheres, exact
 * duplicates (the lowest index must win), spheres cut by the view's edges, one so near it covers
 * most of the view, one behind the eye, one around the eye, one straddling the eye's plane, counts
 * around the work-group size. After the resolve pass the per-pixel buffers are cleared again. The
 * surface style's thickness pass: each pixel's sum of chords through the spheres, against the CPU's. */
#include "check.h"
#include "render/render_common.h"
#include "render/render_splat.h"
#include <math.h>
#include <string.h>

#define MAXN 700

typedef struct layout {
    const char *name;
    int w, h, n;
    float pos[MAXN][4];
    float radius;
} layout;

/* The camera: at the origin looking down -z (view = identity), 50 degrees tall. */
static void camera(int w, int h, mat4 view, mat4 proj) {
    glm_mat4_identity(view);
    glm_perspective(glm_rad(50.0f), (float)w / (float)h, 0.05f, 40.0f, proj);
}

typedef struct cpu_hit {
    double depth;  /* window depth of the nearest hit, 2 for none */
    int id, count; /* its sphere; how many spheres the ray hits */
    double margin; /* how far (in r^2) from grazing the nearest hit is */
} cpu_hit;

/* Window depth and discriminant (relative to r^2) of sphere c hit by the ray through the pixel. */
static bool cpu_ray(const mat4 proj, const mat4 inv, int w, int h, int x, int y, const float *c, float r, double *depth,
                    double *disc_rel) {
    vec4 ndc = {((float)x + 0.5f) / (float)w * 2 - 1, ((float)y + 0.5f) / (float)h * 2 - 1, -1, 1}, near;
    glm_mat4_mulv((vec4 *)inv, ndc, near);
    double d[3] = {near[0] / near[3], near[1] / near[3], near[2] / near[3]};
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; k++) d[k] /= len;
    double b = d[0] * c[0] + d[1] * c[1] + d[2] * c[2];
    double cc = (double)c[0] * c[0] + (double)c[1] * c[1] + (double)c[2] * c[2];
    double disc = b * b - (cc - (double)r * r);
    *disc_rel = disc / ((double)r * r);
    if (disc < 0) return false;
    double t = b - sqrt(disc);
    if (t <= 0) return false;
    double p[3] = {d[0] * t, d[1] * t, d[2] * t};
    double cz = proj[2][2] * p[2] + proj[3][2], cw = proj[2][3] * p[2] + proj[3][3];
    *depth = cz / cw * 0.5 + 0.5;
    return *depth >= 0 && *depth < 1;
}

static void check_layout(render_splat *s, const layout *L) {
    char err[ERR_LEN];
    GLuint pos = gpu_buffer_make(sizeof(float) * 4 * (size_t)(L->n ? L->n : 1), L->pos, "test-splat-positions", err);
    render_particles p = {.positions = pos, .count = (uint32_t)L->n, .radius = L->radius};
    render_view v = {.width = L->w, .height = L->h};
    camera(L->w, L->h, v.view, v.proj);
    render_splat_visibility(s, &p, &v);
    size_t npx = (size_t)L->w * (size_t)L->h;
    uint32_t *depth = malloc(npx * 4), *ids = malloc(npx * 4);
    GLuint db, ib;
    render_splat_buffers(s, &db, &ib);
    glGetNamedBufferSubData(db, 0, (GLsizeiptr)(npx * 4), depth);
    glGetNamedBufferSubData(ib, 0, (GLsizeiptr)(npx * 4), ids);
    mat4 inv;
    glm_mat4_inv(v.proj, inv);
    int covered = 0, bad = 0, graze = 0;
    for (int y = 0; y < L->h; y++)
        for (int x = 0; x < L->w; x++) {
            cpu_hit c = {.depth = 2, .id = -1};
            for (int i = 0; i < L->n; i++) {
                double z, m;
                bool hit = cpu_ray(v.proj, inv, L->w, L->h, x, y, L->pos[i], L->radius, &z, &m);
                /* Ties (exact duplicates) go to the lowest index, as on the GPU. */
                if (hit && (z < c.depth - 1e-12)) c = (cpu_hit){z, i, c.count, m};
                c.count += hit;
            }
            size_t at = (size_t)y * (size_t)L->w + (size_t)x;
            uint32_t gid = ids[at];
            float gz;
            memcpy(&gz, &depth[at], 4);
            covered += gid != RENDER_SPLAT_NONE;
            bool ok;
            if (gid == RENDER_SPLAT_NONE) {
                ok = c.id < 0 && depth[at] == RENDER_SPLAT_FAR;
                if (!ok && c.margin < 1e-3) ok = true, graze++; /* the CPU's hit only grazes the sphere */
            } else if (gid >= (uint32_t)L->n) {
                ok = false;
            } else {
                double z, m;
                bool hit = cpu_ray(v.proj, inv, L->w, L->h, x, y, L->pos[gid], L->radius, &z, &m);
                /* The GPU's sphere is hit there, its depth is the CPU's nearest (within float
                 * rounding), the kept depth is its own, and of exact duplicates the lowest index won. */
                ok = (hit || m > -1e-3) && (c.id < 0 || z <= c.depth + 2e-6) && fabs(gz - z) < 2e-6;
                if (ok && c.id >= 0 && !memcmp(L->pos[gid], L->pos[c.id], sizeof L->pos[0])) ok = (int)gid == c.id;
                if (ok && c.id < 0) graze++;
            }
            if (!ok && bad < 5)
                printf("  %s: pixel %d,%d: GPU id %d depth %.7f, CPU id %d depth %.7f (margin %.2e, %d hits)\n", L->name, x, y,
                       gid == RENDER_SPLAT_NONE ? -1 : (int)gid, gz, c.id, c.depth, c.margin, c.count);
            bad += !ok;
        }
    printf("%-22s %4dx%-4d %4d spheres: %6d pixels covered, %d grazing, %d wrong\n", L->name, L->w, L->h, L->n, covered, graze,
           bad);
    CHECK(bad == 0, "%s: %d pixels disagree with the CPU ray caster", L->name, bad);
    CHECK(graze <= covered / 50 + 4, "%s: %d grazing pixels of %d: the comparison is too loose", L->name, graze, covered);

    /* The resolve pass leaves the per-pixel buffers cleared for the next frame. */
    render_target t;
    CHECK(render_target_make(&t, L->w, L->h, "test-splat-target", err), "%s", err);
    render_splat_resolve(s, &p, &v, -1, 0, 1, t.color);
    glGetNamedBufferSubData(db, 0, (GLsizeiptr)(npx * 4), depth);
    glGetNamedBufferSubData(ib, 0, (GLsizeiptr)(npx * 4), ids);
    int dirty = 0;
    for (size_t i = 0; i < npx; i++) dirty += depth[i] != RENDER_SPLAT_FAR || ids[i] != RENDER_SPLAT_NONE;
    CHECK(dirty == 0, "%s: %d pixels not cleared after the resolve", L->name, dirty);

    /* The surface style's pass: every sphere's chord summed per pixel, against the CPU's sum. */
    GLuint thick = gpu_buffer_make(npx * 4, NULL, "test-splat-thickness", err);
    render_splat_depth_thickness(s, &p, &v, L->radius, thick, RENDER_SELECT_ALL);
    glGetNamedBufferSubData(thick, 0, (GLsizeiptr)(npx * 4), ids);
    double worst = 0, total = 0;
    int off = 0;
    for (int y = 0; y < L->h; y++)
        for (int x = 0; x < L->w; x++) {
            double sum = 0, slack = 0;
            int hits = 0;
            for (int i = 0; i < L->n; i++) {
                double z, m;
                if (cpu_ray(v.proj, inv, L->w, L->h, x, y, L->pos[i], L->radius, &z, &m)) {
                    /* The GPU's float discriminant b^2 - (|c|^2 - r^2) loses a few 1e-7 |c|^2 to
                     * cancellation (its ray, b and |c|^2 each round): its chord is that much /
                     * sqrt(disc) off, at most the chord. A sphere missed or counted twice is not. */
                    const float *c = L->pos[i];
                    double chord = 2.0 * sqrt(m) * L->radius,
                           cc = (double)c[0] * c[0] + (double)c[1] * c[1] + (double)c[2] * c[2];
                    sum += chord, hits++;
                    slack += fmin(chord, 1e-6 * cc / (0.5 * chord + 1e-12));
                    if (m < 1e-3) slack += chord; /* a grazing ray the GPU may miss */
                } else if (m > -1e-3 && m < 1e-3) {
                    slack += 0.07 * L->radius; /* or count */
                }
            }
            double got = ids[(size_t)y * (size_t)L->w + (size_t)x] * RENDER_SPLAT_THICK_UNIT, e = fabs(got - sum);
            total += sum;
            worst = fmax(worst, e);
            off += e > 4e-6 * (hits + 1) + slack;
        }
    printf("%-22s thickness: sum %.4f m over the view, worst pixel off by %.2e m\n", L->name, total, worst);
    CHECK(off == 0, "%s: %d pixels' thickness differs from the CPU's chord sum (worst %.2e m)", L->name, off, worst);
    CHECK(L->n == 0 || total > 0, "%s: no thickness at all", L->name);
    render_splat_resolve(s, &p, &v, -1, 0, 1, t.color); /* clears the depth for the next layout */
    gpu_buffer_destroy(&thick);
    render_target_destroy(&t);
    free(depth), free(ids);
    gpu_buffer_destroy(&pos);
}

static void put(layout *L, float x, float y, float z) {
    L->pos[L->n][0] = x, L->pos[L->n][1] = y, L->pos[L->n][2] = z, L->pos[L->n][3] = 0;
    L->n++;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    int live0 = gpu_live_objects();
    char err[ERR_LEN] = "";
    render_splat *s = render_splat_make(err);
    CHECK(s != NULL, "render_splat_make: %s", err);
    if (!s) {
        gpu_destroy(gpu);
        return check_done();
    }
    static layout L;
    uint32_t rng = 12345;
#define RND(lo, hi) ((lo) + ((hi) - (lo)) * (float)(check_rand(&rng) & 0xFFFFFF) / 16777216.0f)

    /* Overlapping spheres in a slab before the eye, a count that is not a multiple of 64. */
    L = (layout){.name = "random overlapping", .w = 97, .h = 61, .radius = 0.09f};
    for (int i = 0; i < 203; i++) put(&L, RND(-1.2f, 1.2f), RND(-0.8f, 0.8f), RND(-3.0f, -1.5f));
    check_layout(s, &L);

    /* Exact duplicates: every sphere twice (and some three times), indices far apart. */
    L = (layout){.name = "duplicates", .w = 80, .h = 80, .radius = 0.12f};
    for (int i = 0; i < 150; i++) put(&L, RND(-1, 1), RND(-1, 1), RND(-3.5f, -2));
    for (int i = 0; i < 150; i++) put(&L, L.pos[149 - i][0], L.pos[149 - i][1], L.pos[149 - i][2]);
    for (int i = 0; i < 70; i++) put(&L, L.pos[i * 2][0], L.pos[i * 2][1], L.pos[i * 2][2]);
    check_layout(s, &L);

    /* Cut by the view's edges and corners, and one sphere so near it covers most of the view (one
     * work group walks thousands of pixels). */
    L = (layout){.name = "edges, near", .w = 64, .h = 48, .radius = 0.3f};
    for (int i = 0; i < 24; i++) {
        float z = -2.0f - 0.1f * (float)i, hx = 0.466f * (-z) * 64.0f / 48.0f, hy = 0.466f * (-z);
        put(&L, (i & 1 ? 1 : -1) * hx * RND(0.9f, 1.1f), (i & 2 ? 1 : -1) * hy * RND(0.8f, 1.2f), z);
    }
    put(&L, 0.1f, 0.05f, -0.45f);
    check_layout(s, &L);

    /* Around the eye: one behind it, one around it (dropped), one beside it whose impostor quad
     * crosses the eye's plane (its pixels are found by testing the whole view), one ahead. */
    L = (layout){.name = "around the eye", .w = 64, .h = 48, .radius = 0.2f};
    put(&L, 0.0f, 0.0f, 2.0f);
    put(&L, 0.0f, 0.1f, 0.05f);
    put(&L, 0.25f, 0.0f, -0.15f);
    put(&L, -0.3f, 0.1f, -1.5f);
    check_layout(s, &L);

    /* A dense block: many spheres deep, as the fluid is; a count of 64 * 10 + 1. */
    L = (layout){.name = "dense block", .w = 120, .h = 90, .radius = 0.05f};
    for (int i = 0; i < 641; i++)
        put(&L, -0.4f + 0.08f * (float)(i % 10), -0.3f + 0.08f * (float)(i / 10 % 8), -2.0f - 0.08f * (float)(i / 80));
    check_layout(s, &L);

    /* One sphere; none at all. */
    L = (layout){.name = "one", .w = 33, .h = 17, .radius = 0.2f};
    put(&L, 0.05f, -0.02f, -1.5f);
    check_layout(s, &L);
    L = (layout){.name = "none", .w = 16, .h = 16, .radius = 0.2f};
    check_layout(s, &L);

    render_splat_destroy(s);
    CHECK(gpu_live_objects() == live0, "%d GL objects left alive", gpu_live_objects() - live0);
    gpu_destroy(gpu);
    return check_done();
}
