/* diag_persist_reset: why a DFSPH sim set back to its first particles steps unlike a fresh one
 * with the persistent solve on the H100 (test_sim_dispatches' reset check). Not a test: it prints,
 * for several set-ups, the records (dt, iterations, errors) of the 3 steps after the reset, of a
 * fresh sim and of a fresh indirect sim, and how many particles differ.
 *   usage: diag_persist_reset [GRID]   (GRID: dfsph_desc.persistent of the persistent sims, 0 the
 *   indirect path; 1) */
#include "sim_ref.h"
#include "sim/solver.h"
#include "gpu/shader.h"
#include <math.h>

#define AFTER 3

typedef struct run {
    float *pos, *vel;
    sim_step_record rec[16];
    int nrec;
} run;

typedef struct opts {
    const char *name;
    int pre;           /* steps before the reset */
    bool interleave;   /* the fresh sim made first and stepped in turn with the reset one (the test's order) */
    bool sync_each;    /* sim_sync after every step */
    bool zero_vel;     /* set the velocities as an explicit zero array (not the clear) */
    bool finish_after; /* glFinish after the set */
    bool same_sim;     /* the "fresh" one is a sim made, set to p0 with no steps */
} opts;

/* grid: the persistent solve's groups as dfsph_desc.persistent takes them ("0": the indirect path). */
static sim *make(const char *grid, const gpu_caps *caps) {
    int groups = atoi(grid);
    return ref_sim_dfsph("dambreak", 1200, "radix", &(dfsph_desc){.persistent = groups ? groups : DFSPH_ZERO}, caps);
}

static void finish(sim *s, run *r) {
    uint32_t n = sim_particle_count(s);
    r->pos = malloc(16ull * n);
    r->vel = malloc(16ull * n);
    sim_sync(s);
    r->nrec = sim_records(s, r->rec, 16);
    sim_read_particles(s, r->pos, r->vel, NULL);
}

static int differ(const run *a, const run *b, uint32_t n, double *maxd) {
    int k = 0;
    *maxd = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool d = memcmp(a->pos + 4 * i, b->pos + 4 * i, 16) || memcmp(a->vel + 4 * i, b->vel + 4 * i, 16);
        k += d;
        for (int c = 0; c < 4; c++) {
            double e = fabs((double)a->vel[4 * i + c] - b->vel[4 * i + c]);
            if (e > *maxd) *maxd = e;
        }
    }
    return k;
}

static void print_recs(const char *who, const run *r) {
    printf("  %-9s", who);
    for (int k = r->nrec > AFTER ? r->nrec - AFTER : 0; k < r->nrec; k++)
        printf(" | dt %.9g it %u/%u err %.9g/%.9g", r->rec[k].dt, r->rec[k].it[0], r->rec[k].it[1], r->rec[k].err_div,
               r->rec[k].err_density);
    printf("\n");
}

static void one(const opts *o, const char *grid, const gpu_caps *caps) {
    sim *b = o->interleave ? make(grid, caps) : NULL;
    sim *a = make(grid, caps);
    uint32_t n = sim_particle_count(a);
    float *p0 = malloc(16ull * n), *zero = calloc(4ull * n, 4);
    sim_read_particles(a, p0, NULL, NULL);
    for (int i = 0; i < o->pre; i++) sim_step(a, NULL);
    char err[ERR_LEN];
    if (!sim_set_particles(a, p0, o->zero_vel ? zero : NULL, n, err)) printf("set: %s\n", err);
    if (o->finish_after) glFinish();
    if (!b) {
        b = make(grid, caps);
        if (o->same_sim && !sim_set_particles(b, p0, NULL, n, err)) printf("set: %s\n", err);
    }
    for (int i = 0; i < AFTER; i++) {
        sim_step(a, NULL);
        if (o->sync_each) sim_sync(a);
        if (o->interleave) {
            sim_step(b, NULL);
            if (o->sync_each) sim_sync(b);
        }
    }
    if (!o->interleave)
        for (int i = 0; i < AFTER; i++) sim_step(b, NULL);
    run ra = {0}, rb = {0}, rc = {0};
    finish(a, &ra);
    finish(b, &rb);
    sim_destroy(a);
    sim_destroy(b);
    sim *c = make("0", caps); /* fresh, indirect */
    for (int i = 0; i < AFTER; i++) sim_step(c, NULL);
    finish(c, &rc);
    sim_destroy(c);
    double mab, mac, mbc;
    int dab = differ(&ra, &rb, n, &mab), dac = differ(&ra, &rc, n, &mac), dbc = differ(&rb, &rc, n, &mbc);
    printf("%s [grid %s]: reset-vs-fresh %d particles differ (max |dv| %.3g); reset-vs-indirect %d (%.3g); fresh-vs-indirect %d "
           "(%.3g)\n",
           o->name, grid, dab, mab, dac, mac, dbc, mbc);
    if (dab || dac || dbc) {
        print_recs("reset", &ra);
        print_recs("fresh", &rb);
        print_recs("indirect", &rc);
    }
    fflush(stdout);
    free(p0), free(zero), free(ra.pos), free(ra.vel), free(rb.pos), free(rb.vel), free(rc.pos), free(rc.vel);
}

/* GPU time of one dispatch of tests/grid_barrier.comp: `groups` groups of 64 crossing `rounds` barriers. */
static double barrier_time(uint32_t groups, uint32_t rounds, int form) {
    char err[ERR_LEN] = "";
    char defines[96];
    snprintf(defines, sizeof defines, "#define GRID_POLL_ONE 1\n#define GRID_FORM %d\n", form);
    GLuint p = shader_make_compute("tests/grid_barrier.comp", defines, err);
    if (!p) {
        printf("grid_barrier.comp: %s\n", err);
        return -1;
    }
    uint32_t *zero = calloc(4 + rounds + (size_t)rounds * groups + 4, 4);
    GLuint bar = gpu_buffer_make(4 * (4 + rounds), zero, "diag-bar", err);
    GLuint seen = gpu_buffer_make(4ull * rounds * groups + 4, zero, "diag-seen", err);
    GLuint q;
    glGenQueries(1, &q);
    glUseProgram(p);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, bar);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, seen);
    glUniform1ui(0, rounds);
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        glNamedBufferSubData(bar, 0, 4 * (4 + rounds), zero);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        glBeginQuery(GL_TIME_ELAPSED, q);
        glDispatchCompute(groups, 1, 1);
        glEndQuery(GL_TIME_ELAPSED);
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        if (ns < best) best = (double)ns;
    }
    uint32_t head[4];
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(bar, 0, sizeof head, head);
    if (head[2] || (form ? head[0] != rounds << 16 : head[0] != 0 || head[1] != rounds))
        printf("  (form %d, %u groups, %u rounds: stalled %u, words %#x %u)\n", form, groups, rounds, head[2], head[0], head[1]);
    glDeleteQueries(1, &q);
    free(zero);
    gpu_buffer_destroy(&bar);
    gpu_buffer_destroy(&seen);
    shader_destroy(&p);
    return best / 1e3;
}

int main(int argc, char **argv) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    if (argc > 1 && !strcmp(argv[1], "barrier")) {
        const uint32_t gs[] = {1, 132, 264, 432, 528, 1056};
        for (int form = 0; form < 2; form++)
            for (size_t g = 0; g < ARRAY_LEN(gs); g++) {
                double t0 = barrier_time(gs[g], 0, form), t1 = barrier_time(gs[g], 1, form), t64 = barrier_time(gs[g], 64, form);
                printf("grid barrier form %d, %u groups of 64: empty dispatch %.2f us, 1 barrier %.2f us, 64 barriers %.2f us: "
                       "%.3f us a barrier\n",
                       form, gs[g], t0, t1, t64, (t64 - t0) / 64);
            }
        CHECK(1, "ran");
        gpu_destroy(gpu);
        return check_done();
    }
    if (argc > 1 && !strcmp(argv[1], "hash")) { /* a hash of the state after 30 steps, indirect and persistent */
        const char *grids[] = {"0", "1", argc > 2 ? argv[2] : "1"};
        for (int k = 0; k < 3; k++) {
            sim *s = make(grids[k], caps);
            for (int i = 0; i < 30; i++) sim_step(s, NULL);
            uint32_t n = sim_particle_count(s);
            float *b = malloc(36ull * n);
            sim_read_particles(s, b, b + 4 * n, b + 8 * n);
            uint64_t h = 1469598103934665603ull;
            for (size_t i = 0; i < 36ull * n; i++) h = (h ^ ((unsigned char *)b)[i]) * 1099511628211ull;
            printf("state hash after 30 steps [grid %s]: %016llx\n", grids[k], (unsigned long long)h);
            free(b);
            sim_destroy(s);
        }
        CHECK(1, "ran");
        gpu_destroy(gpu);
        return check_done();
    }
    int only = argc > 2 ? atoi(argv[2]) : -1;
    const char *grid = argc > 1 ? argv[1] : "1";
    const opts all[] = {
        {.name = "test's order", .pre = 5, .interleave = true},
        {.name = "test's order, indirect", .pre = 5, .interleave = true},
        {.name = "test's order again", .pre = 5, .interleave = true},
        {.name = "no steps before the reset", .pre = 0, .interleave = true},
        {.name = "fresh sim made after, not interleaved", .pre = 5},
        {.name = "sync after every step", .pre = 5, .interleave = true, .sync_each = true},
        {.name = "velocities set as zeros", .pre = 5, .interleave = true, .zero_vel = true},
        {.name = "glFinish after the set", .pre = 5, .interleave = true, .finish_after = true},
        {.name = "fresh one also set (no steps)", .pre = 5, .same_sim = true},
        {.name = "pre 1", .pre = 1, .interleave = true},
        {.name = "pre 2", .pre = 2, .interleave = true},
    };
    for (size_t k = 0; k < ARRAY_LEN(all); k++)
        if (only < 0 || (size_t)only == k) one(&all[k], k == 1 ? "0" : grid, caps);
    CHECK(1, "ran");
    gpu_destroy(gpu);
    return check_done();
}
