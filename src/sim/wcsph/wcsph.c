/* wcsph: the weakly compressible solver: summation density and Tait pressure, symmetric pressure
 * gradient with Monaghan's artificial viscosity, symplectic Euler; a fixed step bound by the speed
 * of sound (docs/SPH.md). Two dispatches a step:
 *   density          (shaders/sim/wcsph/density.comp)  rho and p / rho^2 per particle, in vel.w
 *                                                      and pos.w; up to WCSPH_LISTS_UPTO particles
 *                                                      the neighbours' indices, a list a lane
 *   forces+integrate (shaders/sim/wcsph/forces.comp)   the acceleration (over the lists, where a
 *                                                      lane's fit, else the cells), then v += a dt, x += v dt
 *                                                      and the hard walls into the other buffer of
 *                                                      each pair, which becomes the current one;
 *                                                      the next step's hash (search.h)
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
#include <stdio.h>
#include <stdlib.h>

static const char *const _wcsph_stages[] = {"density", "forces+integrate"};

/* Neighbour lists (density makes them, forces walks them) up to this many particles: on the H100
 * (session 26, alternating twice) they took 27,648 from 24.6 to 22.1 ms a frame and 109,744 from
 * 87.5 to 68.1, but 432,000 from 284 to 386 and 986,078 from 758 to 1,153: there the lists are
 * larger than the L2 (57 and 130 MB of entries; density's pass 227 -> 558 µs at 986,078, its
 * scattered stores of them going to memory, as we read it). */
#define WCSPH_LISTS_UPTO 262144

typedef struct wcsph {
    GLuint density, forces;         /* programs */
    sim_hash_pass forces_hash;      /* forces making the next step's hash (search.h) */
    char defines[640];              /* its neighbour passes': the particles' (lanes, reach) and the lists' */
    GLuint accel;                   /* per particle: the acceleration (the tests') */
    bool keep_accel;                /* forces writes it (solver_test.h: once a test asked for it) */
    GLuint nbr, nbr_count;          /* the neighbour lists density makes for forces (0: none) */
    int dens_at;                    /* the pair whose w the last density pass wrote (rho, p / rho^2) */
    GLuint params;                  /* the sim's parameter block, whose dt each frame sets */
    const sim_record_sink *records; /* where its steps' records go */
    float dt;                       /* the stable step (the speed of sound's CFL bound) */
    float dt_frame;                 /* the frame's step: its seconds over its steps */
    bool warned_fixed;              /* --substeps steps longer than dt: said once */
    /* Steps issued whose records poll has not returned, a run a frame (its steps share one dt;
     * sim_frame_begin polls after each frame_begin, so at most the last frame's and this one's). */
    struct {
        float dt;
        uint32_t steps;
        uint32_t frame; /* its frame_begin's count from 1, which the records name (0: before any) */
    } runs[4];
    uint32_t run_head, run_count;
    uint32_t frames; /* frame_begin's calls */
} wcsph;

static double _wcsph_g_over_c2(const sim_params *p) { return -p->gravity[1] / ((double)p->c0 * p->c0); }

static void _wcsph_destroy(void *impl) {
    wcsph *w = impl;
    if (!w) return;
    shader_destroy(&w->density);
    shader_destroy(&w->forces);
    shader_destroy(&w->forces_hash.prog);
    gpu_buffer_destroy(&w->accel);
    gpu_buffer_destroy(&w->nbr);
    gpu_buffer_destroy(&w->nbr_count);
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
    /* The lists: each lane's first `cap` neighbours (a lane has about 33 / lanes; DFSPH's cap), up
     * to WCSPH_LISTS_UPTO particles; forces walks them `batch` entries at a time (the H100, session
     * 26: with 4 lanes 1 at a time 20.6 ms a frame at 27,648 against 22.1 for 2 and 23.9 for 4; with
     * 2 lanes 2 at a time 68.0 at 109,744 against 69.0 and 79.6; one lane only where FLUID_SIM_LANES
     * asks for it below 262,144, not measured). */
    size_t stride = n * p->lanes, cap = sim_list_cap(p->lanes), bytes = 4 * stride * cap;
    unsigned batch = p->lanes >= 4 ? 1 : p->lanes == 2 ? 2 : 8;
    bool lists = n <= WCSPH_LISTS_UPTO && bytes <= (size_t)md->caps->max_ssbo_bytes;
    int used = snprintf(w->defines, sizeof w->defines, "%s", p->pass_defines);
    if (lists)
        snprintf(w->defines + used, sizeof w->defines - used,
                 /* the stride from the particles now, not the capacity: the programs' text then
                  * does not depend on the count, so the shader cache serves every count */
                 "#define WCSPH_LISTS 1\n#define WCSPH_LIST_CAP %zu\n#define WCSPH_LIST_STRIDE (P.n * uint(SIM_LANES))\n"
                 "#define WCSPH_LIST_BATCH %u\n#define WCSPH_B_NBR %d\n#define WCSPH_B_NBR_COUNT %d\n",
                 cap, batch, SIM_B_SOLVER, SIM_B_SOLVER + 1);
    bool ok = (!lists || ((w->nbr = gpu_buffer_make(bytes, NULL, "sim.wcsph.neighbours", err)) &&
                          (w->nbr_count = gpu_buffer_make(4 * stride, NULL, "sim.wcsph.neighbour_counts", err)))) &&
              (w->density = sim_program_make("sim/wcsph/density.comp", w->defines, "sim.wcsph.density", err)) &&
              (w->forces = sim_program_make("sim/wcsph/forces.comp", w->defines, "sim.wcsph.forces", err)) &&
              (w->accel = gpu_buffer_make(16 * n, NULL, "sim.wcsph.accel", err));
    if (!ok) {
        _wcsph_destroy(w);
        return NULL;
    }
    return w;
}

static void _wcsph_bind(wcsph *w, const sim_search *q) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, sim_search_ranges(q));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, w->accel);
    if (w->nbr) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_SOLVER, w->nbr);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_SOLVER + 1, w->nbr_count);
    }
}

static GLuint _wcsph_forces_hash(wcsph *w, const sim_search *q);

static void _wcsph_prime(void *impl, sim_particles *p, const sim_search *q) {
    wcsph *w = impl;
    _wcsph_forces_hash(w, q); /* built now, not in the first step's time */
    _wcsph_bind(w, q);
    sim_dispatch_neighbours(p, w->density);
    w->dens_at = p->cur;
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
    w->frames++;
    /* A run of its own (the last one where its steps were polled already; where all four were
     * still unpolled, which poll's draining after each frame_begin leaves never, its steps would
     * join the last). */
    uint32_t last = (w->run_head + w->run_count - 1) % ARRAY_LEN(w->runs);
    if (w->runs[last].steps && w->run_count < ARRAY_LEN(w->runs)) last = (w->run_head + w->run_count++) % ARRAY_LEN(w->runs);
    if (!w->runs[last].steps) {
        w->runs[last].dt = w->dt_frame;
        w->runs[last].frame = w->frames;
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glNamedBufferSubData(w->params, offsetof(sim_params, dt), sizeof w->dt_frame, &w->dt_frame);
    return k;
}

/* forces with the next step's hash (sim_search_hash_pass; 0: forces runs without it). */
static GLuint _wcsph_forces_hash(wcsph *w, const sim_search *q) {
    return sim_search_hash_pass(&w->forces_hash, q, "sim/wcsph/forces.comp", w->defines, "sim.wcsph.forces_hash");
}

static void _wcsph_step(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first) {
    wcsph *w = impl;
    GLuint hash = _wcsph_forces_hash(w, q);
    _wcsph_bind(w, q);
    prof_begin(prof, first);
    sim_dispatch_neighbours(p, w->density);
    w->dens_at = p->cur;
    prof_end(prof, first);
    prof_begin(prof, first + 1);
    int a = p->cur, b = 1 - p->cur; /* forces reads a, steps into b (what the search's reorder writes next) */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_IN, p->id[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_OUT, p->pos[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_OUT, p->vel[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_OUT, p->id[b]);
    if (hash) sim_search_hash_bind(q);
    glProgramUniform1ui(hash ? hash : w->forces, 0, w->keep_accel); /* forces.comp's u_accel */
    sim_dispatch_neighbours(p, hash ? hash : w->forces);
    if (hash) sim_search_hashed(q, p->n);
    p->cur = b;
    sim_particles_bind(p); /* the bindings follow p->cur (sim.c binds before each search) */
    prof_end(prof, first + 1);
    w->runs[(w->run_head + w->run_count - 1) % ARRAY_LEN(w->runs)].steps++;
}

static void _wcsph_frame_end(void *impl) { (void)impl; }

static void _wcsph_poll(void *impl, bool wait) {
    (void)wait;
    wcsph *w = impl;
    while (w->run_count) {
        if (!w->runs[w->run_head].steps) { /* used up: the next run, but keep the frame's own */
            if (w->run_count == 1) break;
            w->records->frame_done(w->records->owner, w->runs[w->run_head].frame); /* a later frame has begun */
            w->run_head = (w->run_head + 1) % ARRAY_LEN(w->runs);
            w->run_count--;
            continue;
        }
        w->runs[w->run_head].steps--;
        w->records->push(
            w->records->owner,
            &(sim_step_record){.dt = w->runs[w->run_head].dt, .dt_cfl = w->dt, .cfl = NAN, .frame = w->runs[w->run_head].frame});
    }
}

/* The pressure from the last density pass's w's: the pair it ran on, which the step's forces left
 * for the other in the same order (and the search's reorder overwrites only before the next). */
static bool _wcsph_read_pressure(void *impl, const sim_particles *p, float *out) {
    wcsph *w = impl;
    float *x = malloc(16ull * p->n + 16), *v = malloc(16ull * p->n + 16); /* w: p / rho^2, rho */
    bool ok = x && v;
    if (ok) {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(p->pos[w->dens_at], 0, 16ll * p->n, x);
        glGetNamedBufferSubData(p->vel[w->dens_at], 0, 16ll * p->n, v);
        for (uint32_t i = 0; i < p->n; i++) out[i] = x[4 * i + 3] * v[4 * i + 3] * v[4 * i + 3];
    }
    free(x);
    free(v);
    return ok;
}

static GLuint _wcsph_accel(void *impl) {
    wcsph *w = impl;
    w->keep_accel = true;
    return w->accel;
}

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
