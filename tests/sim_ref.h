/* sim_ref: helpers shared by the sim tests: making a small simulation, reading its state, and an
 * independent CPU reference of the density and forces (double precision, brute force O(N^2)). */
#ifndef FLUID_SIM_REF_H
#define FLUID_SIM_REF_H
#include "check.h"
#include "sim/dfsph/dfsph.h"
#include "sim/dfsph/dfsph_layout.h" /* dfsph_gpu_params */
#include "sim/kernel.h"
#include "sim/sim_test.h"
#include <math.h>
#include <string.h>

/* A sort by name (the tests name them; the sim takes the typed value); an unknown one fails the test. */
static inline const sort_algo *ref_sort(const char *name) {
    const sort_algo *a = name ? sort_algo_find(name) : NULL;
    if (name && !a) {
        fprintf(stderr, "FAIL: no sort '%s' (%s)\n", name, sort_algo_names());
        exit(1);
    }
    return a;
}

/* The grid and lanes every ref_sim* simulation takes (sim_desc.cells_per_h, .lanes; 0: defaults),
 * set by a test's main from its command line (ref_args): a second ctest entry runs the same checks
 * with h/2 cells and 4 lanes a particle. */
static uint32_t ref_cells_per_h, ref_lanes;

/* "--half": h/2 cells (the 5 x 5 rows of 5 cells walk) and 4 lanes a particle; nothing else taken. */
static inline void ref_args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--half") != 0) {
            fprintf(stderr, "FAIL: unknown argument '%s'; the only one is --half\n", argv[i]);
            exit(1);
        }
        ref_cells_per_h = 2;
        ref_lanes = 4;
    }
}

/* A simulation with the grid of ref_cells_per_h, `lanes` lanes a particle (0: the default) and,
 * where dd is not NULL, DFSPH's own desc (its knobs set as fields, not through FLUID_DFSPH_*
 * variables). */
static inline sim *ref_sim_lanes(const char *scene, uint32_t particles, const char *sort, const char *solver, const dfsph_desc *dd,
                                 uint32_t lanes, const gpu_caps *caps) {
    char err[ERR_LEN];
    sim *s = sim_make(&(sim_desc){.scene = scene,
                                  .particles = particles,
                                  .sort = ref_sort(sort),
                                  .solver = solver,
                                  .cells_per_h = ref_cells_per_h,
                                  .lanes = lanes,
                                  .solver_descs = dd ? (const sim_solver_desc[]){{&sim_solver_dfsph, dd}, {0}} : NULL},
                      caps, err);
    if (!s) {
        fprintf(stderr, "FAIL: sim_make %s %u %s %s: %s\n", scene, particles, sort, solver ? solver : "(default)", err);
        exit(1);
    }
    return s;
}

static inline sim *ref_sim(const char *scene, uint32_t particles, const char *sort, const char *solver, const gpu_caps *caps) {
    return ref_sim_lanes(scene, particles, sort, solver, NULL, ref_lanes, caps);
}

/* The same with DFSPH's own desc, used whenever the simulation runs DFSPH (NULL: the defaults). */
static inline sim *ref_sim_with(const char *scene, uint32_t particles, const char *sort, const char *solver, const dfsph_desc *dd,
                                const gpu_caps *caps) {
    return ref_sim_lanes(scene, particles, sort, solver, dd, ref_lanes, caps);
}

static inline sim *ref_sim_dfsph(const char *scene, uint32_t particles, const char *sort, const dfsph_desc *dd,
                                 const gpu_caps *caps) {
    return ref_sim_with(scene, particles, sort, "dfsph", dd, caps);
}

/* |g|, m/s^2. */
static inline double ref_gravity(const sim_params *p) {
    return sqrt((double)p->gravity[0] * p->gravity[0] + (double)p->gravity[1] * p->gravity[1] +
                (double)p->gravity[2] * p->gravity[2]);
}

/* DFSPH's depth bound for s's particles now, from the formula docs/SPH.md states ("The depth
 * bound"): sqrt(K dx^3 / g) / H, K = 7, H (into *depth) twice their mean height above the floor. */
static inline double ref_depth_bound(sim *s, double *depth) {
    const sim_params *p = sim_get_params(s);
    uint32_t n = sim_particle_count(s);
    float *pos4 = malloc(16ull * n), lo[3], hi[3];
    sim_read_particles(s, pos4, NULL, NULL);
    sim_domain(s, lo, hi);
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) sum += pos4[4 * i + 1] - lo[1];
    free(pos4);
    *depth = 2 * sum / n;
    return sqrt(7.0 * (double)p->dx * p->dx * p->dx / ref_gravity(p)) / *depth;
}

/* Reads a buffer of n*comp 4-byte values (current GPU order). */
static inline void *ref_read(GLuint buf, size_t bytes) {
    void *p = malloc(bytes + 16);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(buf, 0, (GLsizeiptr)bytes, p);
    return p;
}

static inline double ref_wall_phi(const sim_params *p, const double x[3], double grad[3]) {
    double lo[3] = {p->lo[0], p->lo[1], p->lo[2]}, hi[3] = {p->hi[0], p->hi[1], p->hi[2]};
    return sim_kernel_wall_fraction(x, lo, hi, p->hs, p->dx, p->mass / ((double)p->rho0 * p->dx * p->dx), grad);
}

/* Density (mirrored walls) and Tait pressure of every particle, brute force. */
static inline void ref_density(const sim_params *p, const float *pos4, uint32_t n, double *rho, double *press) {
    for (uint32_t i = 0; i < n; i++) {
        double sum = 0, xi[3] = {pos4[4 * i], pos4[4 * i + 1], pos4[4 * i + 2]}, g[3];
        for (uint32_t j = 0; j < n; j++) {
            double dx = xi[0] - pos4[4 * j], dy = xi[1] - pos4[4 * j + 1], dz = xi[2] - pos4[4 * j + 2];
            double r = sqrt(dx * dx + dy * dy + dz * dz);
            if (r < p->h) sum += sim_kernel_w(r, p->hs);
        }
        rho[i] = p->mass * sum / (1 - ref_wall_phi(p, xi, g));
        double pr = p->tait_b * (pow(rho[i] / p->rho0, 7) - 1);
        press[i] = pr > 0 ? pr : 0;
    }
}

/* Acceleration of every particle (the formulas of docs/SPH.md), brute force. */
static inline void ref_forces(const sim_params *p, const float *pos4, const float *vel4, uint32_t n, const double *rho,
                              const double *press, double *acc3) {
    double eps2 = 0.01 * p->hs * p->hs, k = p->mass / ((double)p->rho0 * p->dx * p->dx);
    for (uint32_t i = 0; i < n; i++) {
        double xi[3] = {pos4[4 * i], pos4[4 * i + 1], pos4[4 * i + 2]}, vi[3] = {vel4[4 * i], vel4[4 * i + 1], vel4[4 * i + 2]};
        double a[3] = {0, 0, 0}, sw = sim_kernel_w(0, p->hs), spw = press[i] * sw, gp[3] = {0, 0, 0}, mom[3] = {0, 0, 0};
        for (uint32_t j = 0; j < n; j++) {
            if (j == i) continue;
            double d[3], v[3], r2 = 0, vr = 0;
            for (int c = 0; c < 3; c++) {
                d[c] = xi[c] - pos4[4 * j + c];
                v[c] = vi[c] - vel4[4 * j + c];
                r2 += d[c] * d[c];
                vr += v[c] * d[c];
            }
            if (r2 >= (double)p->h * p->h || r2 == 0) continue;
            double r = sqrt(r2), dw = sim_kernel_dw(r, p->hs), w = sim_kernel_w(r, p->hs);
            double visc = vr < 0 ? p->alpha * p->c0 * p->hs * -vr / ((r2 + eps2) * 0.5 * (rho[i] + rho[j])) : 0;
            double f = p->mass * (press[i] / (rho[i] * rho[i]) + press[j] / (rho[j] * rho[j]) + visc) * dw / r;
            for (int c = 0; c < 3; c++) a[c] -= f * d[c];
            sw += w;
            spw += press[j] * w;
            for (int c = 0; c < 3; c++) {
                gp[c] += p->mass / rho[j] * (press[j] - press[i]) * dw / r * d[c];
                mom[c] -= p->mass / rho[j] * d[c] * dw / r * d[c];
            }
        }
        double grad[3];
        ref_wall_phi(p, xi, grad);
        double pw = spw / sw;
        double ww = 0;
        for (int c = 0; c < 3; c++)
            ww += sim_kernel_wall_w(xi[c] - p->lo[c], p->hs, p->dx) + sim_kernel_wall_w(p->hi[c] - xi[c], p->hs, p->dx);
        double keep[3];
        for (int c = 0; c < 3; c++) {
            double g0[2], g1[2];
            sim_kernel_wall_g(xi[c] - p->lo[c], p->hs, p->dx, k, g0);
            sim_kernel_wall_g(p->hi[c] - xi[c], p->hs, p->dx, k, g1);
            keep[c] = (1 - g0[0]) * (1 - g1[0]);
        }
        for (int c = 0; c < 3; c++) {
            double ghost_t = 1 - keep[(c + 1) % 3] * keep[(c + 2) % 3];
            a[c] -= ghost_t * gp[c] / (mom[c] > 0.3 ? mom[c] : 0.3) / rho[i];
            a[c] -= (press[i] / rho[i] + pw / rho[i]) * grad[c];
            a[c] -= 4 * 3.14159265358979323846 * p->wall_friction * k * ww * vi[c];
            a[c] += p->gravity[c];
        }
        memcpy(acc3 + 3 * i, a, sizeof a);
    }
}

#endif
