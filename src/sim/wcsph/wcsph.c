/* wcsph: the weakly compressible solver: summation density and Tait pressure, symmetric pressure
 * gradient with Monaghan's artificial viscosity, symplectic Euler; a fixed step bound by the speed
 * of sound (docs/SPH.md). Three dispatches a step:
 *   density   (shaders/sim/wcsph/density.comp)    rho and p / rho^2 per particle
 *   forces    (shaders/sim/wcsph/forces.comp)     the acceleration
 *   integrate (shaders/sim/wcsph/integrate.comp)  v += a dt, x += v dt, the hard walls; the next
 *                                                 step's hash (search.h)
 * Its dt is known on the CPU, so its step records are made there. A frame of `seconds` takes
 * k = ceil(seconds / dt) equal steps of seconds / k (at most its stable dt), or the K equal steps
 * --substeps asks for; sim_params.dt on the GPU is set each frame. */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/wcsph/wcsph.h"
#include "sim/solver.h"
#include "sim/solver_test.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static const char *const _wcsph_stages[] = {"density", "forces", "integrate"};

typedef struct wcsph {
    GLuint density, forces, integrate; /* programs */
    GLuint integrate_hash;             /* integrate making the next step's hash (0: none; search.h) */
    uint32_t hash_serial;              /* the search's sorter it was built for */
    bool hash_failed;
    GLuint pterm, accel;            /* per particle: (rho, p / rho^2) as a vec2, acceleration */
    GLuint params;                  /* the sim's parameter block, whose dt each frame sets */
    const sim_record_sink *records; /* where its steps' records go */
    float dt;                       /* the stable step (the speed of sound's CFL bound) */
    float dt_frame;                 /* the frame's step: its seconds over its steps */
    bool warned_fixed;              /* --substeps steps longer than dt: said once */
    /* Steps issued whose records poll has not returned, as runs of one dt (a frame's steps share
     * it; sim_frame_begin polls after each frame_begin, so at most the last frame's and this one's). */
    struct {
        float dt;
        uint32_t steps;
    } runs[4];
    uint32_t run_head, run_count;
} wcsph;

static double _wcsph_g_over_c2(const sim_params *p) { return -p->gravity[1] / ((double)p->c0 * p->c0); }

static void _wcsph_destroy(void *impl) {
    wcsph *w = impl;
    if (!w) return;
    shader_destroy(&w->density);
    shader_destroy(&w->forces);
    shader_destroy(&w->integrate);
    shader_destroy(&w->integrate_hash);
    gpu_buffer_destroy(&w->pterm);
    gpu_buffer_destroy(&w->accel);
    free(w);
}

static void *_wcsph_make(const sim_solver_make_desc *md, char *err) {
    const sim_particles *p = md->p;
    const sim_params *params = md->params;
    wcsph *w = calloc(1, sizeof *w);
    size_t n = p->capacity ? p->capacity : 1;
    w->dt = w->dt_frame = params->dt;
    w->runs[0].dt = w->dt_frame; /* the run the steps before any frame_begin would join */
    w->run_count = 1;
    w->params = p->params;
    w->records = md->records;
    bool ok = (w->density = sim_program_make("sim/wcsph/density.comp", p->pass_defines, "sim.wcsph.density", err)) &&
              (w->forces = sim_program_make("sim/wcsph/forces.comp", p->pass_defines, "sim.wcsph.forces", err)) &&
              (w->integrate = sim_program_make("sim/wcsph/integrate.comp", NULL, "sim.wcsph.integrate", err)) &&
              (w->pterm = gpu_buffer_make(8 * n, NULL, "sim.wcsph.pterm", err)) &&
              (w->accel = gpu_buffer_make(16 * n, NULL, "sim.wcsph.accel", err));
    if (!ok) {
        _wcsph_destroy(w);
        return NULL;
    }
    return w;
}

static void _wcsph_bind(wcsph *w, const sim_search *q) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, sim_search_ranges(q));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_PTERM, w->pterm);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, w->accel);
}

static GLuint _wcsph_integrate_hash(wcsph *w, const sim_search *q);

static void _wcsph_prime(void *impl, sim_particles *p, const sim_search *q) {
    wcsph *w = impl;
    _wcsph_integrate_hash(w, q); /* built now, not in the first step's time */
    _wcsph_bind(w, q);
    sim_dispatch_neighbours(p, w->density);
}

static int _wcsph_frame_begin(void *impl, double seconds, int substeps) {
    wcsph *w = impl;
    int k = 1;
    if (seconds <= 0) seconds = w->dt; /* one step of its own size */
    else if (substeps > 0) {
        k = substeps > SIM_MAX_SUBSTEPS ? SIM_MAX_SUBSTEPS : substeps;
        if (!w->warned_fixed && seconds / k > w->dt * 1.0001) {
            log_warn("SIM", "wcsph: %d steps a frame are %.3g s each, longer than its stable step %.3g s: the fluid may blow up",
                     k, seconds / k, w->dt);
            w->warned_fixed = true;
        }
    } else {
        double c = ceil(seconds / w->dt - 1e-6);
        k = c < 1 ? 1 : c > 1e6 ? 1000000 : (int)c;
    }
    w->dt_frame = (float)(seconds / k);
    uint32_t last = (w->run_head + w->run_count - 1) % ARRAY_LEN(w->runs);
    if (w->runs[last].dt != w->dt_frame && w->run_count < ARRAY_LEN(w->runs)) {
        last = (w->run_head + w->run_count++) % ARRAY_LEN(w->runs);
        w->runs[last].dt = w->dt_frame;
        w->runs[last].steps = 0;
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glNamedBufferSubData(w->params, offsetof(sim_params, dt), sizeof w->dt_frame, &w->dt_frame);
    return k;
}

/* integrate with the next step's hash, built for the search's sorter (again after a sort switch);
 * 0 where it does not build (then integrate runs alone and the search hashes). */
static GLuint _wcsph_integrate_hash(wcsph *w, const sim_search *q) {
    if (w->integrate_hash && w->hash_serial == sim_search_serial(q)) return w->integrate_hash;
    shader_destroy(&w->integrate_hash);
    w->hash_serial = sim_search_serial(q);
    char defines[8192], err[ERR_LEN];
    sim_search_hash_defines(q, defines, sizeof defines);
    w->integrate_hash = sim_program_make("sim/wcsph/integrate.comp", defines, "sim.wcsph.integrate_hash", err);
    if (!w->integrate_hash && !w->hash_failed) log_error("SIM", "wcsph: integrate with the hash: %s (integrate runs alone)", err);
    w->hash_failed = !w->integrate_hash;
    return w->integrate_hash;
}

static void _wcsph_step(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first) {
    wcsph *w = impl;
    GLuint hash = _wcsph_integrate_hash(w, q);
    GLuint progs[] = {w->density, w->forces, hash ? hash : w->integrate};
    _wcsph_bind(w, q);
    for (int st = 0; st < 3; st++) {
        prof_begin(prof, first + st);
        if (st < 2) sim_dispatch_neighbours(p, progs[st]);
        else if (hash) {
            sim_search_hash_bind(q);
            sim_dispatch(hash, p->n);
            sim_search_hashed(q, p->n);
        } else sim_dispatch(progs[st], p->n);
        prof_end(prof, first + st);
    }
    w->runs[(w->run_head + w->run_count - 1) % ARRAY_LEN(w->runs)].steps++;
}

static void _wcsph_frame_end(void *impl) { (void)impl; }

static void _wcsph_poll(void *impl, bool wait) {
    (void)wait;
    wcsph *w = impl;
    while (w->run_count) {
        if (!w->runs[w->run_head].steps) { /* used up: the next run, but keep the frame's own */
            if (w->run_count == 1) break;
            w->run_head = (w->run_head + 1) % ARRAY_LEN(w->runs);
            w->run_count--;
            continue;
        }
        w->runs[w->run_head].steps--;
        w->records->push(w->records->owner, &(sim_step_record){.dt = w->runs[w->run_head].dt, .dt_cfl = w->dt, .cfl = NAN});
    }
}

static bool _wcsph_read_pressure(void *impl, const sim_particles *p, float *out) {
    wcsph *w = impl;
    float *dp = malloc(8ull * p->n + 8); /* (rho, p / rho^2) */
    if (!dp) return false;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(w->pterm, 0, 8ll * p->n, dp);
    for (uint32_t i = 0; i < p->n; i++) out[i] = dp[2 * i + 1] * dp[2 * i] * dp[2 * i];
    free(dp);
    return true;
}

static GLuint _wcsph_accel(void *impl) { return ((wcsph *)impl)->accel; }

static const sim_solver_test_hooks _wcsph_test = {.read_pressure = _wcsph_read_pressure, .accel = _wcsph_accel};

const sim_solver sim_solver_wcsph = {
    .name = "wcsph",
    .summary = "weakly compressible SPH, Tait pressure, fixed step bound by the speed of sound",
    .stages = _wcsph_stages,
    .stage_count = (int)ARRAY_LEN(_wcsph_stages),
    .layout_g_over_c2 = _wcsph_g_over_c2,
    /* h/2 cells pay at large counts and cost at small ones (a third radix pass;
     * docs/BENCHMARKS.md) */
    .half_cells_above = 262144,
    .fast_kernels = true,
    .lanes4_upto = 49152, /* 4 lanes fastest to 39,366, even at 54,000, 2 from 71,874 (session 13) */
    .lanes2_upto = 262144,
    .make = _wcsph_make,
    .destroy = _wcsph_destroy,
    .prime = _wcsph_prime,
    .frame_begin = _wcsph_frame_begin,
    .step = _wcsph_step,
    .frame_end = _wcsph_frame_end,
    .poll = _wcsph_poll,
    .test = &_wcsph_test,
};
