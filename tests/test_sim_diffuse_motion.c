/* The diffuse particles' motion (shaders/sim/diffuse/advect.comp, run alone: sim_advect_diffuse)
 * on real GL, in a fluid held still on the GPU (a 10x6 lattice block moving at a uniform
 * velocity v_f, its cell table built once; the fluid is never stepped):
 *   - bubble drag does not depend on the step: a bubble in the block, started against the flow,
 *     moved over 4 frames of 1/60 s with one update a frame and with two of 1/120 s, follows
 *     dv/dt = -k_b g + (v_f - v) / T both times: its position and velocity at each frame's end
 *     within 1e-6 m and 1e-5 m/s of the analytic exponential, v(t) = v_e + (v0 - v_e) e^(-t/T),
 *     x(t) = x0 + v_e t + (v0 - v_e) T (1 - e^(-t/T)), v_e = v_f - k_b g T (k_b = 2, T = 0.024 s),
 *     in double precision. Kind: independent (the closed form).
 *   - spray on a dry floor dies: spray at rest on the floor far from the block (no fluid
 *     neighbour), lifetime 2 s, is dead within ceil(0.1 s * 60) + 1 = 7 frames; spray in the air
 *     far from everything, with the same lifetime, is still alive then, and a bubble's lifetime
 *     is untouched (2 s less the frames' time). Kind: independent (lifetimes).
 * Made to fail on purpose: see the commit message.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "check.h"
#include "sim/sim_test.h"
#include <math.h>

#define FRAME (1.0 / 60)
#define REF_K_BUOYANCY 2.0  /* diffuse.c's DIFFUSE_K_BUOYANCY, in g */
#define REF_DRAG_TIME 0.024 /* diffuse.c's DIFFUSE_DRAG_TIME, seconds */
#define REF_WALL_LIFE 0.1   /* diffuse.c's DIFFUSE_WALL_LIFE, seconds */
#define REF_G 9.81          /* m/s^2, along -y */
#define N_PARTS 3           /* the bubble, spray on the floor, spray in the air */

static const double vf[3] = {0.2, 0.0, -0.1};

typedef struct setup {
    sim *s;
    sim_diffuse_view dv;
    float init[N_PARTS * 8];
} setup;

static bool make(setup *u, const gpu_caps *caps) {
    char err[ERR_LEN];
    u->s = sim_make(&(sim_desc){.scene = "dambreak", .particles = 1000, .diffuse = {.on = true}}, caps, err);
    CHECK(u->s != NULL, "%s", err);
    if (!u->s) return false;
    uint32_t n = sim_particle_count(u->s);
    float lo[3], hi[3], *pos = calloc(4ull * n, sizeof *pos), *vel = calloc(4ull * n, sizeof *vel);
    sim_domain(u->s, lo, hi);
    double dx = sim_get_layout(u->s)->dx, x0 = lo[0] + 0.5 * (hi[0] - lo[0]) - 5 * dx, z0 = lo[2] + dx;
    for (uint32_t i = 0; i < n; i++) { /* the block: 10 x 6 columns from the floor up, in the middle of x */
        int x = (int)(i % 10), z = (int)(i / 10 % 6), y = (int)(i / 60);
        pos[4 * i] = (float)(x0 + (x + 0.5) * dx), pos[4 * i + 1] = (float)(lo[1] + (y + 0.5) * dx);
        pos[4 * i + 2] = (float)(z0 + (z + 0.5) * dx);
        for (int a = 0; a < 3; a++) vel[4 * i + a] = (float)vf[a];
    }
    bool ok = sim_set_particles(u->s, pos, vel, n, err);
    CHECK(ok, "%s", err);
    free(pos), free(vel);
    sim_find_neighbours(u->s);
    sim_get_diffuse(u->s, &u->dv);
    float *b = u->init, *sp = u->init + 8, *air = u->init + 16;
    /* the bubble: in the block's middle, 6 layers up, moving down and across the flow */
    b[0] = (float)(x0 + 5 * dx), b[1] = (float)(lo[1] + 6 * dx), b[2] = (float)(z0 + 3 * dx), b[3] = 2.0f;
    b[4] = 0.0f, b[5] = -0.5f, b[6] = 0.3f, b[7] = DIFFUSE_KIND_BUBBLE;
    /* spray on the floor near the +x wall (the block is 7 spacings from it, at least), sliding */
    sp[0] = hi[0] - (float)(3 * dx), sp[1] = lo[1], sp[2] = (float)(z0 + 3 * dx), sp[3] = 2.0f;
    sp[4] = 0.1f, sp[5] = 0.0f, sp[6] = 0.0f, sp[7] = DIFFUSE_KIND_SPRAY;
    /* spray in the air above it, at rest */
    air[0] = sp[0], air[1] = lo[1] + 0.6f * (hi[1] - lo[1]), air[2] = sp[2], air[3] = 2.0f;
    air[4] = air[5] = air[6] = 0.0f, air[7] = DIFFUSE_KIND_SPRAY;
    return ok;
}

static void start(setup *u) {
    uint32_t alive = N_PARTS;
    glNamedBufferSubData(u->dv.particles, 0, sizeof u->init, u->init);
    glNamedBufferSubData(u->dv.state, 3 * 4, 4, &alive); /* ST_ALIVE (diffuse_common.glsl) */
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

static void read_parts(const setup *u, float *out) {
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    glGetNamedBufferSubData(u->dv.particles, 0, N_PARTS * 32, out);
}

static void test_drag(setup *u) {
    const float *b0 = u->init;
    double worst_x = 0, worst_v = 0, worst_pair = 0;
    float got[2][4][8];
    for (int split = 1; split <= 2; split++) {
        start(u);
        for (int f = 0; f < 4; f++) {
            for (int k = 0; k < split; k++) sim_advect_diffuse(u->s, (float)(FRAME / split));
            float p[N_PARTS * 8];
            read_parts(u, p);
            memcpy(got[split - 1][f], p, 32);
            double t = (f + 1) * FRAME, e = exp(-t / REF_DRAG_TIME);
            CHECK(p[7] == DIFFUSE_KIND_BUBBLE, "%d update(s) a frame, frame %d: the bubble is kind %g", split, f, p[7]);
            for (int a = 0; a < 3; a++) {
                double ve = vf[a] + (a == 1 ? REF_K_BUOYANCY * REF_G * REF_DRAG_TIME : 0.0), v0 = b0[4 + a];
                double v = ve + (v0 - ve) * e, x = b0[a] + ve * t + (v0 - ve) * REF_DRAG_TIME * (1 - e);
                worst_x = fmax(worst_x, fabs(p[a] - x)), worst_v = fmax(worst_v, fabs(p[4 + a] - v));
            }
        }
    }
    for (int f = 0; f < 4; f++)
        for (int a = 0; a < 3; a++) worst_pair = fmax(worst_pair, fabs(got[0][f][a] - got[1][f][a]));
    CHECK(worst_x <= 1e-6, "the bubble's position is %.3g m from the analytic exponential", worst_x);
    CHECK(worst_v <= 1e-5, "the bubble's velocity is %.3g m/s from the analytic exponential", worst_v);
    printf("drag: a bubble over 4 frames, 1 and 2 updates a frame: at most %.2g m and %.2g m/s from the analytic "
           "exponential; the two runs %.2g m apart (rose %.1f mm)\n",
           worst_x, worst_v, worst_pair, 1e3 * (got[0][3][1] - b0[1]));
}

static void test_dry_floor(setup *u) {
    start(u);
    int most = (int)ceil(REF_WALL_LIFE / FRAME) + 1, died = -1;
    float p[N_PARTS * 8];
    for (int f = 0; f < most; f++) {
        sim_advect_diffuse(u->s, (float)FRAME);
        read_parts(u, p);
        if (died < 0 && p[8 + 3] <= 0) died = f + 1;
    }
    CHECK(died > 0, "spray on the dry floor still has %.3f s to live after %d frames", p[8 + 3], most);
    CHECK(p[16 + 3] > 1.5f, "spray in the air: %.3f s left to live after %d frames", p[16 + 3], most);
    CHECK(fabs(p[3] - (2.0 - most * FRAME)) < 1e-4, "the bubble's lifetime left %.4f s, expected %.4f", p[3], 2.0 - most * FRAME);
    printf("dry floor: spray resting on it dead after %d frames (at most %d); spray in the air %.3f s left\n", died, most,
           p[16 + 3]);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    setup u = {0};
    if (make(&u, gpu_get_caps(gpu))) {
        test_drag(&u);
        test_dry_floor(&u);
    }
    GLenum gl_err = glGetError();
    CHECK(gl_err == GL_NO_ERROR, "GL error 0x%x", gl_err);
    sim_destroy(u.s);
    gpu_destroy(gpu);
    return check_done();
}
