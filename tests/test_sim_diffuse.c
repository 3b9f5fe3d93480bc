/* Diffuse particles (src/sim/diffuse.h, after Ihmsen et al. 2012) on real GL:
 *  - still water spawns none: the pool scene at rest, 20 frames: none spawned, none alive, and
 *    every frame updated once. Kind: independent (the physics: no kinetic energy, no spawn).
 *  - a splash spawns some and they decay: the dam break, frames until some are alive; then the
 *    fluid replaced by a lattice at rest on the floor (nothing spawns any more) and the count
 *    never grows and reaches none within the longest lifetime (0.25 s here). Kind: independent
 *    (the lifetimes), plus an invariant (the kinds add up to the survivors).
 *  - two runs give the same counts, bit-identical particle buffers and a bit-identical picture;
 *    the picture with them differs from the one without only by brighter pixels (no dark discs).
 *    Kind: twin runs, and an invariant of the compositing. A third run without them (none made)
 *    ends with a bit-identical fluid: they are a pure by-product.
 *  - a capacity of 5 (sim_desc.diffuse.capacity) overflows: drops are counted, never more than 5
 *    alive (5 whenever any was dropped), and every slot past 5 of both ping-pong buffers keeps the
 *    sentinel the test wrote there. Kind: independent (a sentinel).
 *  - the spawn potentials of a hand-made configuration (a jittered block with its top layer moving
 *    up and out, and a jet shot into its side) against a CPU reference written from the paper's
 *    formulas (docs/RENDER.md "Diffuse particles") in double precision, brute force over every
 *    pair (no cell table). Kind: independent (brute force).
 * Made to fail on purpose, each once: see the commit message.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "app/session/app_render.h"
#include "check.h"
#include "render/camera.h"
#include "render/image.h"
#include "render/render.h"
#include "render/render_common.h"
#include "sim/sim_test.h"
#include <math.h>

#define FRAME (1.0 / 60)
#define N_FLUID 1000
#define W 320
#define H 180
static bool verbose;

/* The renderer's twins of the sim's constants (render_common.h says they are checked here). */
_Static_assert(RENDER_DIFFUSE_SPRAY == DIFFUSE_KIND_SPRAY && RENDER_DIFFUSE_FOAM == DIFFUSE_KIND_FOAM &&
                   RENDER_DIFFUSE_BUBBLE == DIFFUSE_KIND_BUBBLE,
               "the diffuse kinds");
_Static_assert(RENDER_DIFFUSE_ALIVE == 3, "the state block's count alive (ST_ALIVE in diffuse_common.glsl)");

static sim *make(const gpu_caps *caps, const char *scene, uint32_t capacity, float lifetime) {
    char err[ERR_LEN];
    sim *s = sim_make(
        &(sim_desc){.scene = scene, .particles = N_FLUID, .diffuse = {.on = true, .capacity = capacity, .lifetime = lifetime}},
        caps, err);
    CHECK(s != NULL, "%s", err);
    return s;
}

static sim_diffuse_counts frame(sim *s) {
    sim_frame(s, FRAME, 0, NULL);
    sim_diffuse_counts c;
    sim_read_diffuse(s, &c, true);
    if (verbose)
        printf("  frame %u: alive %u (spray %u foam %u bubbles %u) spawned %u dropped %u (total %llu)\n", c.frames, c.alive,
               c.spray, c.foam, c.bubble, c.spawned, c.dropped, (unsigned long long)c.dropped_total);
    return c;
}

static void test_still(const gpu_caps *caps) {
    sim *s = make(caps, "pool", 0, 0);
    if (!s) return;
    uint32_t alive = 0, spawned = 0, frames = 20;
    sim_diffuse_counts c = {0};
    for (uint32_t f = 0; f < frames; f++) {
        c = frame(s);
        alive += c.alive, spawned += c.spawned;
    }
    CHECK(c.known && c.frames == frames, "%u frames updated, %u simulated", c.frames, frames);
    CHECK(alive == 0 && spawned == 0, "still water: %u alive and %u spawned over %u frames", alive, spawned, frames);
    printf("still pool: %u frames, none spawned\n", c.frames);
    sim_destroy(s);
}

/* The fluid as a lattice at rest on the floor (spacing dx), every particle. */
static void fluid_at_rest(sim *s) {
    uint32_t n = sim_particle_count(s);
    float lo[3], hi[3], *pos = calloc(4ull * n, sizeof *pos);
    sim_domain(s, lo, hi);
    double dx = sim_get_layout(s)->dx;
    int nx = (int)((hi[0] - lo[0]) / dx), nz = (int)((hi[2] - lo[2]) / dx);
    for (uint32_t i = 0; i < n; i++) {
        int x = (int)(i % (uint32_t)nx), z = (int)(i / (uint32_t)nx % (uint32_t)nz), y = (int)(i / (uint32_t)(nx * nz));
        pos[4 * i] = lo[0] + (float)((x + 0.5) * dx), pos[4 * i + 1] = lo[1] + (float)((y + 0.5) * dx);
        pos[4 * i + 2] = lo[2] + (float)((z + 0.5) * dx);
    }
    char err[ERR_LEN];
    CHECK(sim_set_particles(s, pos, NULL, n, err), "%s", err);
    free(pos);
}

static void test_splash(const gpu_caps *caps) {
    const float life = 0.25f; /* seconds: 15 frames */
    sim *s = make(caps, "dambreak", 0, life);
    if (!s) return;
    sim_diffuse_counts c = {0};
    int f = 0;
    for (; f < 40 && c.alive < 20; f++) {
        c = frame(s);
        CHECK(c.spray + c.foam + c.bubble + c.spawned == c.alive,
              "frame %d: the kinds %u + %u + %u and %u new are not the %u alive", f, c.spray, c.foam, c.bubble, c.spawned,
              c.alive);
    }
    CHECK(c.alive >= 20, "a dam break of %u particles: %u diffuse particles alive after %d frames", N_FLUID, c.alive, f);
    printf("splash: %u alive after %d frames (spray %u, foam %u, bubbles %u)\n", c.alive, f, c.spray, c.foam, c.bubble);
    fluid_at_rest(s);
    uint32_t before = c.alive, spawned = 0, grew = 0;
    int k = 0, most = (int)ceil(life / FRAME) + 1;
    for (; k < most && c.alive; k++) {
        sim_diffuse_counts d = frame(s);
        spawned += d.spawned, grew += d.alive > c.alive;
        c = d;
    }
    CHECK(spawned == 0, "the fluid at rest spawned %u", spawned);
    CHECK(grew == 0, "the count grew on %u frames after the splash", grew);
    CHECK(c.alive == 0, "%u still alive %d frames after the splash (lifetime at most %g s)", c.alive, k, life);
    printf("decay: %u alive -> none in %d frames (at most %d)\n", before, k, most);
    sim_destroy(s);
}

static void picture(renderer *r, const render_target *t, const sim *s, unsigned hide, uint8_t *rgba) {
    render_particles p = app_render_particles(s);
    camera cam;
    camera_fit(&cam, p.lo, p.hi);
    cam.distance *= 0.6f; /* nearer: the splash's side */
    render_view v = {
        .framebuffer = t->fbo, .color_texture = t->color, .width = W, .height = H, .style = RENDER_STYLE_SURFACE, .hide = hide};
    camera_matrices(&cam, W, H, v.view, v.proj);
    render_scene(r, &p, &v);
    render_target_read(t, rgba);
}

static void test_twins(const gpu_caps *caps) {
    char err[ERR_LEN];
    renderer *r = render_make(err);
    CHECK(r != NULL, "render_make: %s", err);
    render_target t;
    bool have_t = render_target_make(&t, W, H, "test-diffuse", err);
    CHECK(have_t, "%s", err);
    if (!r || !have_t) return;
    static uint8_t pic[2][W * H * 4], bare[W * H * 4];
    sim_diffuse_counts c[2];
    float *parts[2] = {NULL, NULL};
    uint32_t n = 0;
    float *fluid[3][3] = {{NULL}}; /* positions, velocities, densities: two runs with, one without */
    for (int run = 0; run < 3; run++) {
        sim *s = run < 2 ? make(caps, "dambreak", 0, 0)
                         : sim_make(&(sim_desc){.scene = "dambreak", .particles = N_FLUID}, caps, err); /* none made */
        if (!s) return;
        n = sim_particle_count(s);
        for (int f = 0; f < 24; f++)
            if (run < 2) c[run] = frame(s);
            else sim_frame(s, FRAME, 0, NULL);
        for (int k = 0; k < 3; k++) fluid[run][k] = malloc((k < 2 ? 16ull : 4ull) * n);
        sim_read_particles(s, fluid[run][0], fluid[run][1], fluid[run][2]);
        if (run == 2) {
            sim_destroy(s);
            break;
        }
        sim_diffuse_view dv;
        sim_get_diffuse(s, &dv);
        parts[run] = calloc((size_t)c[run].alive * 8 + 8, sizeof(float));
        glGetNamedBufferSubData(dv.particles, 0, (GLsizeiptr)c[run].alive * 32, parts[run]);
        picture(r, &t, s, 0, pic[run]);
        if (run == 0) picture(r, &t, s, RENDER_HIDE_DIFFUSE, bare);
        sim_destroy(s);
    }
    CHECK(c[0].alive > 0, "no diffuse particle after 24 frames of the dam break");
    CHECK(!memcmp(&c[0], &c[1], sizeof c[0]), "two runs: %u and %u alive, %u and %u spawned", c[0].alive, c[1].alive,
          c[0].spawned, c[1].spawned);
    CHECK(c[0].alive == c[1].alive && !memcmp(parts[0], parts[1], (size_t)c[0].alive * 32),
          "two runs: the particle buffers differ");
    CHECK(!memcmp(pic[0], pic[1], sizeof pic[0]), "two runs: the pictures differ");
    bool same = true; /* the fluid is the same with and without them, bit for bit */
    for (int k = 0; k < 3; k++) same &= !memcmp(fluid[0][k], fluid[2][k], (k < 2 ? 16ull : 4ull) * n);
    CHECK(same, "the fluid with diffuse particles differs from the fluid without");
    for (int run = 0; run < 3; run++)
        for (int k = 0; k < 3; k++) free(fluid[run][k]);
    int changed = 0, darker = 0;
    for (int i = 0; i < W * H; i++) {
        int a = pic[0][4 * i] + pic[0][4 * i + 1] + pic[0][4 * i + 2], b = bare[4 * i] + bare[4 * i + 1] + bare[4 * i + 2];
        changed += a != b, darker += a < b;
    }
    CHECK(changed > 0, "the diffuse particles change no pixel");
    CHECK(darker == 0, "%d of the %d pixels they change are darker (a dark disc)", darker, changed);
    printf("twins: %u alive in both, buffers and %dx%d pictures bit-identical; they change %d pixels, darken %d; the fluid "
           "bit-identical to a run without them\n",
           c[0].alive, W, H, changed, darker);
    image_write_png(check_path("diffuse.png"), pic[0], W, H, err);
    image_write_png(check_path("diffuse-hidden.png"), bare, W, H, err);
    free(parts[0]), free(parts[1]);
    render_target_destroy(&t);
    render_destroy(r);
}

static void test_overflow(const gpu_caps *caps) {
    const uint32_t cap = 5, sentinel = 0xFFFFFFFFu;
    sim *s = make(caps, "dambreak", cap, 0);
    if (!s) return;
    GLuint buf[2];
    uint32_t slots;
    sim_get_diffuse_buffers(s, buf, &slots);
    CHECK(slots >= cap && buf[0] && buf[1], "%u slots for a capacity of %u", slots, cap);
    for (int b = 0; b < 2; b++) glClearNamedBufferData(buf[b], GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &sentinel);
    sim_diffuse_counts c = {0};
    int f = 0, over = 0;
    for (; f < 40 && c.dropped_total < 10; f++) {
        c = frame(s);
        over += c.alive > cap || (c.dropped && c.alive != cap);
    }
    CHECK(c.dropped_total >= 10, "a capacity of %u: %llu dropped after %d frames", cap, (unsigned long long)c.dropped_total, f);
    CHECK(over == 0, "%d frames with more than %u alive, or fewer while dropping", over, cap);
    uint32_t *words = malloc((size_t)slots * 32);
    int touched = 0;
    for (int b = 0; b < 2; b++) {
        glGetNamedBufferSubData(buf[b], 0, (GLsizeiptr)slots * 32, words);
        for (uint32_t w = cap * 8; w < slots * 8; w++) touched += words[w] != sentinel;
    }
    free(words);
    CHECK(touched == 0, "%d words past the capacity written", touched);
    printf("overflow: capacity %u, %llu dropped over %d frames, never more alive, nothing written past it\n", cap,
           (unsigned long long)c.dropped_total, f);
    sim_destroy(s);
}

/* ---- the potentials' CPU reference (docs/RENDER.md "Diffuse particles") ---- */
#define REF_SURFACE 0.03
#define REF_K_LO 0.05
#define REF_K_HI 0.4
#define REF_TA_LO 0.75
#define REF_TA_HI 2.0
#define REF_WC_LO 0.5
#define REF_WC_HI 4.0
#define REF_K_TA 20.0
#define REF_K_WC 40.0
#define REF_CREST 0.6

static double phi(double x, double lo, double hi) { return (fmin(x, hi) - fmin(x, lo)) / (hi - lo); }

static void test_potentials(const gpu_caps *caps) {
    sim *s = make(caps, "pool", 0, 0);
    if (!s) return;
    const sim_params *P = sim_get_params(s);
    double h = P->h, dx = sim_get_layout(s)->dx, m = P->mass;
    float lo[3], hi[3];
    sim_domain(s, lo, hi);
    /* a block 6 x 4 x 6 at dx, jittered by a hash, its top layer moving up and out, a jet of 4 into its side */
    enum { NB = 6 * 4 * 6, NJ = 4, N = NB + NJ };
    float pos[N * 4], vel[N * 4];
    uint32_t seed = 12345;
#define JIT() ((seed = seed * 1664525u + 1013904223u), ((float)(seed >> 8) / 16777216.0f - 0.5f) * 0.1f * (float)dx)
    for (int i = 0; i < NB; i++) {
        int x = i % 6, y = i / 6 % 4, z = i / 24;
        pos[4 * i] = lo[0] + (float)((x + 2) * dx) + JIT(), pos[4 * i + 1] = lo[1] + (float)((y + 1) * dx) + JIT();
        pos[4 * i + 2] = lo[2] + (float)((z + 2) * dx) + JIT(), pos[4 * i + 3] = 0;
        float up = y == 3 ? 1.2f + 0.1f * (float)x : 0.05f * (float)y;
        vel[4 * i] = 0.1f * (float)(x - 3) + 0.3f * (y == 3), vel[4 * i + 1] = up, vel[4 * i + 2] = 0.05f * (float)(z - 2),
                vel[4 * i + 3] = 0;
    }
    for (int k = 0; k < NJ; k++) {
        int i = NB + k;
        pos[4 * i] = lo[0] + (float)((1.2 - 0.6 * k) * dx), pos[4 * i + 1] = lo[1] + (float)(2.5 * dx),
                pos[4 * i + 2] = lo[2] + (float)(4.5 * dx);
        pos[4 * i + 3] = 0;
        vel[4 * i] = 2.5f, vel[4 * i + 1] = -0.3f, vel[4 * i + 2] = 0.1f * (float)k, vel[4 * i + 3] = 0;
    }
    /* in cell order (stable), so the cell table indexes the particles as they are (no reorder) */
    int order[N], cellk[N];
    for (int i = 0; i < N; i++) {
        int c[3];
        sim_cell_of(P, pos + 4 * i, c);
        cellk[i] = (int)sim_cell_key(P, c), order[i] = i;
    }
    for (int i = 1; i < N; i++)
        for (int j = i; j > 0 && cellk[order[j - 1]] > cellk[order[j]]; j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    float sp[N * 4], sv[N * 4];
    for (int i = 0; i < N; i++) memcpy(sp + 4 * i, pos + 4 * order[i], 16), memcpy(sv + 4 * i, vel + 4 * order[i], 16);
    char err[ERR_LEN];
    CHECK(sim_set_particles(s, sp, sv, N, err), "%s", err);
    sim_find_neighbours(s);
    uint32_t n_all = sim_particle_count(s);
    float *gpu = calloc(4ull * n_all, sizeof *gpu), *dens = calloc(n_all, sizeof *dens);
    CHECK(sim_read_diffuse_potentials(s, (float)FRAME, gpu, err), "%s", err);
    sim_read_particles(s, NULL, NULL, dens);
    /* the reference, by brute force */
    double nrm[N][3], U = sqrt(fabs(P->gravity[1]) * (hi[1] - lo[1]));
    for (int i = 0; i < N; i++) {
        double g[3] = {0, 0, 0};
        for (int j = 0; j < N; j++) {
            double d[3], r = 0;
            for (int a = 0; a < 3; a++) d[a] = (double)sp[4 * i + a] - sp[4 * j + a], r += d[a] * d[a];
            r = sqrt(r);
            if (j == i || r >= h || r <= 0) continue;
            double w = (m / fmax(dens[j], 1.0)) * (1 - r / h) * (1 - r / h) / (h * h * h);
            for (int a = 0; a < 3; a++) g[a] += w * d[a] / r;
        }
        double len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        for (int a = 0; a < 3; a++) nrm[i][a] = len >= REF_SURFACE ? g[a] / len : 0;
    }
    int bad = 0, crests = 0, traps = 0, spawning = 0;
    for (int i = 0; i < N; i++) {
        const float *vi = sv + 4 * i;
        double ta = 0, wc = 0, speed = sqrt((double)vi[0] * vi[0] + (double)vi[1] * vi[1] + (double)vi[2] * vi[2]);
        double vn = (nrm[i][0] * vi[0] + nrm[i][1] * vi[1] + nrm[i][2] * vi[2]) / fmax(speed, 1e-30);
        bool surface = nrm[i][0] != 0 || nrm[i][1] != 0 || nrm[i][2] != 0, crest = surface && speed > 0 && vn >= REF_CREST;
        for (int j = 0; j < N; j++) {
            double x[3], v[3], r = 0, vl = 0, dot = 0;
            for (int a = 0; a < 3; a++) x[a] = (double)sp[4 * i + a] - sp[4 * j + a], v[a] = (double)vi[a] - sv[4 * j + a];
            for (int a = 0; a < 3; a++) r += x[a] * x[a], vl += v[a] * v[a], dot += x[a] * v[a];
            r = sqrt(r), vl = sqrt(vl);
            if (j == i || r >= h || r <= 0) continue;
            double w = 1 - r / h;
            if (vl > 0) ta += vl * (1 - dot / (vl * r)) * w;
            bool nj = nrm[j][0] != 0 || nrm[j][1] != 0 || nrm[j][2] != 0;
            double below = -(x[0] * nrm[i][0] + x[1] * nrm[i][1] + x[2] * nrm[i][2]);
            if (crest && nj && below < 0) wc += (1 - (nrm[i][0] * nrm[j][0] + nrm[i][1] * nrm[j][1] + nrm[i][2] * nrm[j][2])) * w;
        }
        double ek = 0.5 * speed * speed;
        double n = phi(ek, REF_K_LO * U * U, REF_K_HI * U * U) *
                   (REF_K_TA * phi(ta, REF_TA_LO * U, REF_TA_HI * U) + REF_K_WC * phi(wc, REF_WC_LO, REF_WC_HI)) * FRAME;
        const float *gp = gpu + 4 * i; /* the sim's ids are this order's 0..N-1 */
        double want[4] = {ta, wc, ek, n};
        bool ok = true;
        for (int k = 0; k < 4; k++) ok &= fabs(gp[k] - want[k]) <= 2e-3 * fabs(want[k]) + 1e-4;
        if (!ok && bad++ < 5)
            printf("  particle %d: gpu ta %g wc %g ek %g n %g; cpu %g %g %g %g\n", i, gp[0], gp[1], gp[2], gp[3], ta, wc, ek, n);
        crests += wc > 0, traps += ta > REF_TA_LO * U, spawning += n > 0;
    }
    CHECK(bad == 0, "%d of %d particles' potentials differ from the CPU reference", bad, N);
    CHECK(crests >= 4 && traps >= 2 && spawning >= 4,
          "the configuration exercises too little: %d crests, %d trapping air, %d spawning", crests, traps, spawning);
    printf("potentials: %d particles against a brute-force CPU reference: %d crests, %d trapping air, %d spawning, %d differ\n",
           N, crests, traps, spawning, bad);
    free(gpu), free(dens);
    sim_destroy(s);
}

int main(void) {
    verbose = getenv("FLUID_TEST_VERBOSE") != NULL;
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    test_potentials(caps);
    test_still(caps);
    test_splash(caps);
    test_overflow(caps);
    test_twins(caps);
    gpu_destroy(gpu);
    return check_done();
}
