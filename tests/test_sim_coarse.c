/* DFSPH's pressure coarse level (shaders/sim/dfsph/coarse.glsl; docs/SPH.md, "The coarse level")
 * against a CPU reference written from its definition, in double precision: each layer's signed
 * compression sum (rho*_i - rho0) V_i from the values k_i = e_i / (S_i dt^2) it is given, the
 * flux up the tank (restarting above a layer with no particle), K down from the highest particle,
 * each grid column's surface, and each particle's value max(k_i, 0) + K(y_i) - K(surface + a cell),
 * at least minus its carried total. The GPU's two passes (the indirect path's, which the persistent
 * solve and the fused step run as phases: test_sim_persistent checks them bit for bit against it)
 * run once on a primed state (sim_run_coarse) from values the test chooses: random signed ones,
 * zeros, and large negatives that the carried totals clamp. Scenes: the drop at its start (a blob
 * above the pool: empty layers between), the dam break at its start (one column of water: the
 * grid columns' surfaces differ), the pool, and a dam break 0.5 s on (set back as its particles,
 * the totals it carries kept); odd counts. Also where it must not run: a step whose CFL limit is
 * below min(dt_max, dt_visc) (the flow not slow) leaves every value as given, bit for bit.
 * Kind: independent CPU reference (and an invariant). Made to fail on purpose, each once: the flux
 * not restarting above an empty layer in coarse.glsl (the drop: 1,908 of 1,944 values off), and the
 * surface taken without the cell above it (the drop and the dam break at 0.5 s), and (session 25)
 * the clamp reading pos.w for the carried total, which moved into vel.w (the dam break at 0.5 s with
 * index lists: 102 values off; with records pos.w holds 0 and no value there reaches its clamp).
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include <stdlib.h>

/* The coarse level's reference values for the state (pos4, factor) and values in. */
static void ref_coarse(const sim_params *p, uint32_t n, const float *pos4, const float *factor, const float *in, double dt,
                       double *out) {
    uint32_t X = p->dims[0], Y = p->dims[1], Z = p->dims[2];
    double *sum = calloc(Y, sizeof *sum), *top = malloc(Y * sizeof *top), *surf = malloc((size_t)X * Z * sizeof *surf);
    double *k = calloc(Y + 1, sizeof *k), vol = p->mass / p->rho0;
    for (uint32_t y = 0; y < Y; y++) top[y] = -INFINITY;
    for (uint32_t c = 0; c < X * Z; c++) surf[c] = -INFINITY;
    int *cy = malloc(4ull * n), *cc = malloc(4ull * n);
    for (uint32_t i = 0; i < n; i++) {
        int cell[3];
        sim_cell_of(p, pos4 + 4 * i, cell);
        cy[i] = cell[1], cc[i] = cell[0] + (int)X * cell[2];
        double y = pos4[4 * i + 1];
        if (factor[i] > 0) sum[cell[1]] += in[i] * dt * dt / factor[i] * vol; /* e_i V_i */
        if (y > top[cell[1]]) top[cell[1]] = y;
        if (y > surf[cc[i]]) surf[cc[i]] = y;
    }
    int hi = -1;
    for (int y = (int)Y - 1; y >= 0 && hi < 0; y--)
        if (top[y] > -INFINITY) hi = y;
    double area = (double)p->cell * p->cell * X * Z, inv = 1.0 / (dt * dt * p->rho0 * p->rho0), acc = 0;
    double *flux = calloc(Y, sizeof *flux);
    for (int y = 0; y <= hi; y++) {
        acc = top[y] > -INFINITY ? acc + sum[y] : 0; /* water above a layer with no particle stands on nothing */
        flux[y] = acc / area;
    }
    double kk = 0;
    for (int y = hi; y >= 0; y--) {
        double y0 = p->lo[1] + (double)y * p->cell, y1 = y == hi ? fmax(top[hi], y0) : y0 + p->cell;
        kk += (y1 - y0) * 0.5 * (flux[y] + (y > 0 ? flux[y - 1] : 0));
        k[y] = kk * inv;
    }
    for (uint32_t i = 0; i < n; i++) {
        double at[2] = {pos4[4 * i + 1], surf[cc[i]] + p->cell}, kv[2];
        for (int a = 0; a < 2; a++) {
            int y = (int)floor((at[a] - p->lo[1]) / p->cell);
            y = y < 0 ? 0 : y > (int)Y - 1 ? (int)Y - 1 : y;
            if (y > hi) {
                kv[a] = 0;
                continue;
            }
            double y0 = p->lo[1] + (double)y * p->cell, y1 = y == hi ? top[hi] : y0 + p->cell;
            double s = y1 > y0 ? fmin(fmax((at[a] - y0) / (y1 - y0), 0), 1) : 1;
            kv[a] = k[y] + s * ((y == hi ? 0 : k[y + 1]) - k[y]);
        }
        out[i] = fmax(fmax(in[i], 0) + kv[0] - kv[1], -(double)pos4[4 * i + 3]);
    }
    free(sum), free(top), free(surf), free(k), free(flux), free(cy), free(cc);
}

static uint32_t g_seed = 12345;
static double rnd(void) { /* [0, 1) */
    g_seed = g_seed * 1664525u + 1013904223u;
    return (g_seed >> 8) / 16777216.0;
}

/* One state: the coarse level on the GPU against the reference, then its gate. */
static void check_state(sim *s, const char *what) {
    const sim_params *p = sim_get_params(s);
    const dfsph_gpu_params *dp = sim_get_solver_params(s);
    uint32_t n = sim_particle_count(s);
    float *in = malloc(4ull * n), *out = malloc(4ull * n), *factor = malloc(4ull * n), *pos4 = malloc(16ull * n);
    double dt = dp->dt_max, *want = malloc(8ull * n);
    /* A value k = e f / dt^2 for a compression e of -2% .. +5% of rho0 (f = 1/S, from a first run
     * that reads the factors); every 7th 0, every 11th an expansion of 10% (past the totals the
     * particles carry, where they carry any: clamped). */
    CHECK(sim_run_coarse(s, (float)dt, dp->dt_max, (float *)memset(in, 0, 4ull * n), out, factor, pos4), "%s: no coarse level",
          what);
    uint32_t clamped = 0;
    for (uint32_t i = 0; i < n; i++) {
        double e = (rnd() * 0.07 - 0.02) * p->rho0;
        if (i % 11 == 0) e = -0.1 * p->rho0;
        in[i] = (float)(i % 7 == 0 ? 0 : e * factor[i] / (dt * dt));
    }
    CHECK(sim_run_coarse(s, (float)dt, dp->dt_max, in, out, factor, pos4), "%s: no coarse level", what);
    ref_coarse(p, n, pos4, factor, in, dt, want);
    double scale = 0, worst = 0;
    for (uint32_t i = 0; i < n; i++) scale = fmax(scale, fabs(want[i]));
    uint32_t bad = 0, first = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        double d = fabs(out[i] - want[i]);
        worst = fmax(worst, d / scale);
        if (d > 1e-4 * scale + 1e-5 * fabs(want[i])) bad++, first = first == UINT32_MAX ? i : first;
        clamped += want[i] == -(double)pos4[4 * i + 3] && in[i] < 0;
    }
    printf("%s: %u particles, grid %ux%ux%u: the coarse level against the CPU reference, worst difference %.2e of the largest "
           "value (%.3g); %u values held at minus their carried total\n",
           what, n, p->dims[0], p->dims[1], p->dims[2], worst, scale, clamped);
    CHECK(bad == 0, "%s: %u of %u values differ from the reference (first: particle %u, %.6g against %.6g)", what, bad, n,
          first == UINT32_MAX ? 0 : first, first == UINT32_MAX ? 0.0 : out[first], first == UINT32_MAX ? 0.0 : want[first]);
    /* Where the flow is not slow (its CFL limit under min(dt_max, dt_visc)), nothing: the values as given, bit for bit. */
    float slow = dp->dt_max < dp->dt_visc ? dp->dt_max : dp->dt_visc;
    CHECK(sim_run_coarse(s, (float)dt, nextafterf(slow, 0), in, out, factor, pos4), "%s: no coarse level", what);
    CHECK(!memcmp(in, out, 4ull * n), "%s: with dt_cfl < min(dt_max, dt_visc) the coarse level changed the values", what);
    free(in), free(out), free(factor), free(pos4), free(want);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const struct {
        const char *scene;
        uint32_t particles;
    } cases[] = {{"drop", 1777}, {"dambreak", 1001}, {"pool", 1331}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        sim *s = ref_sim_dfsph(cases[c].scene, cases[c].particles, "radix", &(dfsph_desc){.coarse = 1}, caps);
        char what[64];
        snprintf(what, sizeof what, "%s at its start", cases[c].scene);
        check_state(s, what);
        sim_destroy(s);
    }
    /* The dam break 0.5 s on: its particles (with the totals they carry) set back, so the search and
     * density pass are the state's; with records (the values k in their own array) and with index
     * lists (the values k in pos.w: dfsph_common.glsl's DFSPH_K). */
    for (int rec = 1; rec >= 0; rec--) {
        sim *s = ref_sim_dfsph("dambreak", 1001, "radix", &(dfsph_desc){.coarse = 1, .records = rec ? 1 : DFSPH_ZERO}, caps);
        for (int f = 0; f < 30; f++) sim_frame(s, 1.0 / 60, 0, NULL);
        uint32_t n = sim_particle_count(s);
        const sim_particles *sp = sim_get_particles(s);
        sim_sync(s);
        float *pos4 = ref_read(sp->pos[sp->cur], 16ull * n), *vel4 = ref_read(sp->vel[sp->cur], 16ull * n);
        char err[ERR_LEN];
        CHECK(sim_set_particles(s, pos4, vel4, n, err), "%s", err);
        check_state(s, rec ? "dambreak at 0.5 s, records" : "dambreak at 0.5 s, index lists");
        free(pos4), free(vel4);
        sim_destroy(s);
    }
    gpu_destroy(gpu);
    return check_done();
}
