/* dfsph: divergence-free SPH (Bender & Koschier 2015, 2017), with SPlisHSPlasH's defaults; the
 * model and the choices are in docs/SPH.md. A step, after the shared neighbour search:
 *   density     rho and the solver factor per particle, the neighbour lists, the walls' share;
 *               loads the divergence warm start
 *   divergence  the divergence solve: warm-start update, predict, then (update, predict) pairs
 *   nonpressure viscosity, walls, gravity, mouse; the CFL step size; loads the pressure warm start
 *   pressure    the constant-density solve: warm-start update (also v += dt a), predict, pairs
 *   integrate   x += dt v, the hard walls; the step's record; the next step's hash (search.h)
 *
 * No CPU stall: each predict's last work group writes the next (update, predict) dispatches'
 * group counts, 0 once the solve has converged, and the CPU records those pairs as indirect
 * dispatches up to a cap (the most iterations seen lately, plus one; doubled when a solve hits
 * it). The step size lives on the GPU too: the CPU learns it, the iterations and the errors from
 * the step records, read a fixed two frames later (so a run is the same every time), and sizes the
 * next frames' step counts and caps from them.
 * The frame's time lives on the GPU too, in whole ticks (Ctl.t_rem): each step takes as few equal
 * steps under the CFL limit as finish it, the last exactly what is left; the CPU records step
 * slots for the speed it predicts plus a spare, and the slots after the time is used run empty
 * (their passes are indirect with 0 groups; the search, density and integrate with dt 0 run, and
 * change nothing but the particles' order). A frame whose slots run out carries the rest to the
 * next (its last record says so); sim_catch_up finishes it at a run's end.
 * The persistent path (by default on NVIDIA where the lists hold records; FLUID_DFSPH_PERSISTENT):
 * the whole step after the search is one dispatch of step.comp, its phases and the solves'
 * iterations behind grid-wide barriers (the fused step; FLUID_DFSPH_FUSED=0: each solve alone is
 * one dispatch of solve.comp, the other passes their own).
 * (About 700 lines: the control block's twin, the records, the caps' and slots' policies and the
 * choice of the persistent path and the fused step stay beside the dispatches they steer.)
 */
#include "core/env.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/dfsph/dfsph_layout.h" /* dfsph_ctl and dfsph_record, the shaders' Ctl and Record */
#include "sim/sim.h"                /* SIM_MAX_SUBSTEPS */
#include "sim/solver.h"
#include "sim/solver_test.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DFSPH_RECORDS 4096 /* step records on the GPU (a ring) */
#define DFSPH_LAG 2        /* frames between issuing a step and reading its record */
#define DFSPH_FRAMES 4     /* frames in flight, with their fences */
#define DFSPH_MAX_IT 100   /* SPlisHSPlasH's most iterations */
/* The caps until the first records come back (4 and 8 let the first frames' solves stop at the cap:
 * the worst density error went from 0.09% to 0.23%, H100; 30 cut the dam break's capped first steps
 * at 27,648 (llvmpipe, first 0.1 s: 11 -> 2 capped solves, 124 -> 92 dispatches a step) but the
 * still pool's energy then grew 0.12% in 900 steps, past test_sim_scenes' 0.1%). */
#define DFSPH_CAP_DIV0 10
#define DFSPH_CAP_DENS0 20
/* The persistent solve by default (1) where it measured faster (forward-progress drivers that report
 * their multiprocessors, lists of records), or only when FLUID_DFSPH_PERSISTENT asks (0). */
#define DFSPH_PERSISTENT_DEFAULT 1
#define DFSPH_GROUPS_PER_SM 4    /* the persistent grid: 4 groups an SM measured best on the H100 (1, 2 and 8 slower) */
#define DFSPH_MAX_STEPS 1000     /* step slots a frame at most (records in flight stay within the ring) */
#define DFSPH_REC_L2 (40u << 20) /* lists of records up to this many bytes (the H100's L2 is 50 MB) */
_Static_assert(DFSPH_MAX_STEPS == SIM_MAX_SUBSTEPS, "--substeps' range is the slots a frame holds");
_Static_assert((DFSPH_MAX_STEPS * DFSPH_FRAMES) < DFSPH_RECORDS, "the frames in flight fit the record ring");

static const char *const _dfsph_stages[] = {"density", "divergence", "nonpressure", "pressure", "integrate"};
/* The fused step times the whole step as its first stage; the others stay empty. */
static const char *const _dfsph_stages_fused[] = {"step (fused)", "divergence=step", "nonpressure=step", "pressure=step",
                                                  "integrate=step"};

/* Each lane's neighbour list holds this many (the lanes of a particle share its neighbours, about
 * 33 at rest and 50 where the fluid is squeezed): twin of DFSPH_LIST_CAP in the shaders. */
static uint32_t _dfsph_list_cap(uint32_t lanes) { return 48 / lanes + 8; }

enum {
    P_DENSITY,
    P_DIV_WARM,
    P_DIV_UPDATE,
    P_DIV_PREDICT,
    P_NONPRESSURE,
    P_DENS_WARM,
    P_DENS_UPDATE,
    P_DENS_PREDICT,
    P_INTEGRATE,
    P_COUNT,
    P_DIV_SOLVE = P_COUNT,
    P_DENS_SOLVE,
    P_ALL
};

static const struct {
    const char *file, *defines, *label;
} _dfsph_programs[P_ALL] = {
    [P_DENSITY] = {"sim/dfsph/density.comp", NULL, "sim.dfsph.density"},
    [P_DIV_WARM] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 0\n#define DFSPH_WARM 1\n", "sim.dfsph.div_warm"},
    [P_DIV_UPDATE] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 0\n#define DFSPH_WARM 0\n", "sim.dfsph.div_update"},
    [P_DIV_PREDICT] = {"sim/dfsph/predict.comp", "#define DFSPH_DENSITY 0\n", "sim.dfsph.div_predict"},
    [P_NONPRESSURE] = {"sim/dfsph/nonpressure.comp", NULL, "sim.dfsph.nonpressure"},
    [P_DENS_WARM] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 1\n#define DFSPH_WARM 1\n", "sim.dfsph.dens_warm"},
    [P_DENS_UPDATE] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 1\n#define DFSPH_WARM 0\n", "sim.dfsph.dens_update"},
    [P_DENS_PREDICT] = {"sim/dfsph/predict.comp", "#define DFSPH_DENSITY 1\n", "sim.dfsph.dens_predict"},
    [P_INTEGRATE] = {"sim/dfsph/integrate.comp", NULL, "sim.dfsph.integrate"},
    /* The persistent path (made only where it runs). */
    [P_DIV_SOLVE] = {"sim/dfsph/solve.comp", "#define DFSPH_DENSITY 0\n", "sim.dfsph.div_solve"},
    [P_DENS_SOLVE] = {"sim/dfsph/solve.comp", "#define DFSPH_DENSITY 1\n", "sim.dfsph.dens_solve"},
};

typedef struct dfsph {
    GLuint prog[P_ALL];
    uint32_t solve_groups; /* the persistent solve's grid (0: the indirect path) */
    uint32_t fused;        /* the persistent path runs the whole step as one dispatch (step.comp): 1, 2 its
                            * first form (positions read coherent: FLUID_DFSPH_FUSED=2, measuring); 0 not */
    bool step_failed;      /* step.comp did not build: said once, the solves alone run persistent */
    GLuint step_prog;      /* step.comp, built with the search's hash (0: none yet) */
    uint32_t step_serial;  /* the sorter it was built for */
    char grid_defines[96]; /* the grid barrier's defines */
    GLuint integrate_hash; /* integrate making the next step's hash (0: none; search.h) */
    uint32_t hash_serial;  /* the search's sorter it was built for */
    bool hash_failed;
    char defines[384];                                               /* the programs' common defines */
    GLuint factor, kappa, accel, ctl, records, nbr, nbr_count, wall; /* buffers */
    float dt_max, dt0;
    uint32_t n_groups_max;
    uint32_t groups_step; /* groups of a step's passes over the particles' lanes (Ctl.args_step) */
    double t_asked;       /* seconds the frames asked for since the last prime */
    uint64_t t_given;     /* ticks given to the GPU for them: round(t_asked / DFSPH_TICK) */
    bool warned_fixed;    /* --substeps steps longer than dt_max: said once */
    uint32_t rec;         /* bytes a neighbour-list entry: 16 (records) or 4 (indices) */
    /* What the CPU knows, from records DFSPH_LAG frames old. */
    uint32_t cap_div, cap_dens;        /* iterations recorded per solve */
    float dt_cfl_recent;               /* the smallest CFL step of the last frame read (0: none yet) */
    float speed_recent, speed_before;  /* the largest |v| / dx of those two frames' steps (from their records' cfl / dt) */
    float cfl;                         /* the CFL number: dt_cfl = cfl dx / |v|max */
    float carry_recent;                /* seconds the last frame read could not finish */
    uint32_t steps_recent;             /* the steps it took (its empty slots not counted) */
    uint32_t it_seen[DFSPH_FRAMES][2]; /* the most iterations (divergence, pressure) of recent frames */
    uint32_t slack;                    /* empty (update, predict) pairs recorded past them: 1, or FLUID_DFSPH_SLACK (measuring) */
    int it_seen_head;
    int history; /* frames of it_seen the caps look at: DFSPH_FRAMES, or FLUID_DFSPH_HISTORY (measuring) */
    /* Frames in flight: their fences and the steps they issued. */
    GLsync fence[DFSPH_FRAMES];
    uint32_t frame_first[DFSPH_FRAMES], frame_steps[DFSPH_FRAMES];
    uint32_t frame_caps[DFSPH_FRAMES][2]; /* the caps each frame recorded (divergence, pressure) */
    uint32_t frame_mode[DFSPH_FRAMES], frame_mode_now;
    int frames_pending, frame_head;
    uint32_t issued, read;  /* steps issued, steps whose records were read */
    uint32_t frame_issued;  /* steps issued in the frame under way */
    uint32_t frame_cap[2];  /* the caps it records */
    uint32_t frame_vals[4]; /* ticks added to t_rem, the slots, the caps: for the frame's first density pass */
    uint32_t frame_set;     /* 1 + the frame's DFSPH_MODE_* until handed to a density pass, then 0 */
    bool in_frame;
    dfsph_record *buf;                    /* the ring copied back */
    sim_step_record ready[DFSPH_RECORDS]; /* read, not yet polled */
    int ready_head, ready_count;
} dfsph;

static double _dfsph_g_over_c2(const sim_params *p) {
    (void)p;
    return 0; /* incompressible: a plain lattice at rest density */
}

static void _dfsph_destroy(void *impl) {
    dfsph *d = impl;
    if (!d) return;
    for (int i = 0; i < P_ALL; i++) shader_destroy(&d->prog[i]);
    shader_destroy(&d->integrate_hash);
    shader_destroy(&d->step_prog);
    GLuint *all[] = {&d->factor, &d->kappa, &d->accel, &d->ctl, &d->records, &d->nbr, &d->nbr_count, &d->wall};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) gpu_buffer_destroy(all[i]);
    for (int i = 0; i < DFSPH_FRAMES; i++)
        if (d->fence[i]) glDeleteSync(d->fence[i]);
    free(d->buf);
    free(d);
}

static bool _dfsph_persistent_choose(dfsph *d, const gpu_caps *caps, char *err);

static void _dfsph_ctl_reset(dfsph *d) {
    dfsph_ctl c = {.dt = d->dt0,
                   .cap_div = d->cap_div,
                   .cap_dens = d->cap_dens,
                   .args_step = {d->groups_step, 1, 1, 0},
                   .mode = DFSPH_MODE_FREE};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glNamedBufferSubData(d->ctl, 0, sizeof c, &c);
}

static void *_dfsph_make(const sim_particles *p, const sim_params *params, const gpu_caps *caps, char *err) {
    dfsph *d = calloc(1, sizeof *d);
    size_t n = p->capacity ? p->capacity : 1;
    d->n_groups_max = gpu_groups(n * p->lanes, SIM_WG);
    d->dt_max = params->dt_max;
    d->cfl = params->cfl;
    d->dt0 = params->dt_max;
    d->cap_div = DFSPH_CAP_DIV0;
    d->cap_dens = DFSPH_CAP_DENS0;
    const char *slack = getenv("FLUID_DFSPH_SLACK");
    /* Empty pairs cost ~10 us each at 27,648 on the H100 (slack 2 against 0: 8.15 against 6.82 ms a
     * frame); one pair of slack catches most solves that need one more iteration than lately. */
    d->slack = slack && slack[0] >= '0' && slack[0] <= '9' && !slack[1] ? (uint32_t)(slack[0] - '0') : 1;
    uint32_t history = DFSPH_FRAMES, records = 2, warm_sph = 0, prefetch = 2; /* records, prefetch: 0 or 1 forced, 2 chosen */
    if (!env_u32(ENV_DFSPH_HISTORY, 1, DFSPH_FRAMES, &history, err) || !env_u32(ENV_DFSPH_RECORDS, 0, 1, &records, err) ||
        !env_u32(ENV_DFSPH_WARM_SPH, 0, 1, &warm_sph, err) || !env_u32(ENV_DFSPH_PREFETCH, 0, 1, &prefetch, err)) {
        _dfsph_destroy(d);
        return NULL;
    }
    d->history = (int)history;
    d->buf = malloc(sizeof(dfsph_record) * DFSPH_RECORDS);
    bool ok = d->buf != NULL;
    size_t stride = n * p->lanes, cap = _dfsph_list_cap(p->lanes);
    /* 16-byte records {m grad W_ij, j} where the lists fit the L2 (FLUID_DFSPH_RECORDS=0|1 forces it,
     * for measuring): at 27,648 they cut the solves' time by a third; at 109,744, past the L2, they
     * made the frame 27% slower (docs/BENCHMARKS.md) */
    size_t rec = records < 2 ? (records ? 16 : 4) : 16 * stride * cap <= DFSPH_REC_L2 ? 16 : 4;
    d->rec = (uint32_t)rec;
    /* The walks load the next entry ahead (DFSPH_PREFETCH) where the lists hold indices: on the H100
     * 3% off the frame at 432,000 and 986,078; with records it cost 9% at 27,648 (docs/BENCHMARKS.md). */
    if (prefetch == 2) prefetch = rec == 4;
    if (rec * stride * cap > (size_t)caps->max_ssbo_bytes) {
        _dfsph_destroy(d);
        fail(err, "%u particles need %zu MB of neighbour lists, more than one GPU buffer holds here; ask for fewer particles",
             p->capacity, rec * stride * cap >> 20);
        return NULL;
    }
    snprintf(d->defines, sizeof d->defines,
             "%s#define DFSPH_LIST_CAP %zu\n#define DFSPH_LIST_STRIDE %zu\n#define DFSPH_REC %d\n#define DFSPH_WARM_SPH %u\n"
             "#define DFSPH_PREFETCH %u\n",
             p->pass_defines, cap, stride, rec == 16, warm_sph, prefetch);
    for (int i = 0; ok && i < P_COUNT; i++) {
        char defines[512];
        snprintf(defines, sizeof defines, "%s%s", d->defines, _dfsph_programs[i].defines ? _dfsph_programs[i].defines : "");
        ok = (d->prog[i] = sim_program_make(_dfsph_programs[i].file, defines, _dfsph_programs[i].label, err)) != 0;
    }
    ok = ok && (d->factor = gpu_buffer_make(4 * n, NULL, "sim.dfsph.factor", err)) &&
         (d->kappa = gpu_buffer_make(4 * n, NULL, "sim.dfsph.kappa", err)) &&
         (d->accel = gpu_buffer_make(16 * n, NULL, "sim.dfsph.accel", err)) &&
         (d->ctl = gpu_buffer_make(sizeof(dfsph_ctl) + 8ull * d->n_groups_max, NULL, "sim.dfsph.ctl", err)) &&
         (d->records = gpu_buffer_make(sizeof(dfsph_record) * DFSPH_RECORDS, NULL, "sim.dfsph.records", err)) &&
         (d->nbr = gpu_buffer_make(rec * stride * cap, NULL, "sim.dfsph.neighbours", err)) &&
         (d->wall = gpu_buffer_make(16 * n, NULL, "sim.dfsph.wall", err)) &&
         (d->nbr_count = gpu_buffer_make(4 * stride, NULL, "sim.dfsph.neighbour_counts", err));
    if (!ok) {
        if (!d->buf) fail(err, "out of host memory");
        _dfsph_destroy(d);
        return NULL;
    }
    if (!_dfsph_persistent_choose(d, caps, err)) {
        _dfsph_destroy(d);
        return NULL;
    }
    _dfsph_ctl_reset(d);
    return d;
}

/* The GPU's multiprocessors times the warps each holds, from gl_SMCountNV (0 where the extension
 * is missing). */
static uint32_t _dfsph_sm_count(void) {
    char err[ERR_LEN];
    GLuint prog = sim_program_make("sim/dfsph/sm_count.comp", NULL, "sim.dfsph.sm_count", err), buf = 0;
    uint32_t out[2] = {0, 0};
    if (prog && (buf = gpu_buffer_make(sizeof out, out, "sim.dfsph.sm_count", err))) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
        glUseProgram(prog);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(buf, 0, sizeof out, out);
    }
    gpu_buffer_destroy(&buf);
    shader_destroy(&prog);
    return out[0];
}

/* The persistent solve: one dispatch a solve whose groups all stay resident and meet at grid
 * barriers, so only on drivers that make forward progress between groups (gpu_forward_progress),
 * with a grid of DFSPH_GROUPS_PER_SM groups of SIM_WG an SM (NVIDIA: gl_SMCountNV; elsewhere the
 * count is unknown and the indirect path runs), and only where the neighbour lists hold records:
 * past the L2 (109,744 on the H100) the coherent reads it needs made it 50% slower
 * (docs/BENCHMARKS.md). FLUID_DFSPH_PERSISTENT=N forces N groups on any driver (0: the indirect
 * path; llvmpipe runs up to LP_NUM_THREADS groups at once). Where the programs do not build, the
 * indirect path. */
static bool _dfsph_persistent_choose(dfsph *d, const gpu_caps *caps, char *err) {
    uint32_t groups = UINT32_MAX;
    if (!env_u32(ENV_DFSPH_PERSISTENT, 0, 65535, &groups, err)) return false;
    if (groups == UINT32_MAX)
        groups = DFSPH_PERSISTENT_DEFAULT && d->rec == 16 && gpu_forward_progress() && !caps->llvmpipe
                     ? DFSPH_GROUPS_PER_SM * _dfsph_sm_count()
                     : 0;
    if (!groups) return true;
    uint32_t form = 1, fused = 1;
    if (!env_u32(ENV_DFSPH_GRID_FORM, 0, 1, &form, err) || !env_u32(ENV_DFSPH_FUSED, 0, 2, &fused, err)) return false;
    snprintf(d->grid_defines, sizeof d->grid_defines, "#define GRID_POLL_ONE %d\n#define GRID_FORM %u\n", !caps->llvmpipe, form);
    char e[ERR_LEN];
    for (int i = P_DIV_SOLVE; i < P_ALL; i++) {
        char defines[512];
        snprintf(defines, sizeof defines, "%s%s%s", d->defines, _dfsph_programs[i].defines, d->grid_defines);
        if (!(d->prog[i] = sim_program_make(_dfsph_programs[i].file, defines, _dfsph_programs[i].label, e))) {
            log_error("SIM", "dfsph: the persistent solve: %s (the indirect path runs)", e);
            return true;
        }
    }
    d->solve_groups = groups;
    d->fused = fused;
    return true;
}

static void _dfsph_bind(dfsph *d, const sim_search *q) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, sim_search_ranges(q));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_FACTOR, d->factor);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KAPPA, d->kappa);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, d->accel);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_CTL, d->ctl);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RECORDS, d->records);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_NBR, d->nbr);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_NBR_COUNT, d->nbr_count);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_WALL, d->wall);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, d->ctl);
}

/* Reads the records of frames at least `lag` frames old (waiting for their fences). */
static void _dfsph_collect(dfsph *d, int lag) {
    while (d->frames_pending > lag) {
        int f = d->frame_head;
        glClientWaitSync(d->fence[f], GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)60e9);
        glDeleteSync(d->fence[f]);
        d->fence[f] = 0;
        uint32_t first = d->frame_first[f], count = d->frame_steps[f];
        if (d->solve_groups) { /* a grid barrier that waited past its bound: the groups were not all resident */
            uint32_t stalled = 0;
            glGetNamedBufferSubData(d->ctl, offsetof(dfsph_ctl, stalled), 4, &stalled);
            if (stalled) {
                log_error("SIM",
                          "dfsph: the persistent solve's %u groups were not all resident (a grid barrier stalled); "
                          "the indirect path runs from now on (set FLUID_DFSPH_PERSISTENT lower, or 0)",
                          d->solve_groups);
                d->solve_groups = 0; /* the barrier's words stay as they are: only the persistent solve reads them */
            }
        }
        uint32_t frame_cap_div = d->frame_caps[f][0], frame_cap_dens = d->frame_caps[f][1];
        float dt_cfl_min = 0, carry = 0, speed = 0;
        uint32_t it_div_max = 0, it_dens_max = 0, capped = 0, taken = 0;
        for (uint32_t k = 0; k < count; k++) {
            uint32_t slot = (first + k) % DFSPH_RECORDS;
            dfsph_record r;
            glGetNamedBufferSubData(d->records, (GLintptr)(slot * sizeof r), sizeof r, &r);
            if (r.dt <= 0) continue; /* an empty slot: the frame's time was used; nothing moved */
            taken++;
            /* The frame's last step with time still left: its slots ran out (the time carries over). */
            bool short_frame = d->frame_mode[f] != DFSPH_MODE_FREE && r.t_rem && (k + 1 == count);
            if (short_frame) carry = (float)(r.t_rem * DFSPH_TICK);
            if (d->ready_count < DFSPH_RECORDS) {
                d->ready[(d->ready_head + d->ready_count++) % DFSPH_RECORDS] =
                    (sim_step_record){.dt = r.dt,
                                      .dt_cfl = r.dt_cfl,
                                      .cfl = r.cfl,
                                      .it_div = r.it_div,
                                      .it_density = r.it_dens,
                                      .err_div = r.err_div,
                                      .err_density = r.err_dens,
                                      .capped = r.capped,
                                      .dropped = r.dropped,
                                      .limited = r.limited,
                                      .t_left = (float)(r.t_rem * DFSPH_TICK),
                                      .short_frame = short_frame};
            }
            if (!dt_cfl_min || r.dt_cfl < dt_cfl_min) dt_cfl_min = r.dt_cfl;
            if (r.cfl / r.dt > speed) speed = r.cfl / r.dt;
            if (r.it_div > it_div_max) it_div_max = r.it_div;
            if (r.it_dens > it_dens_max) it_dens_max = r.it_dens;
            capped += r.capped;
        }
        d->read += count;
        d->frame_head = (d->frame_head + 1) % DFSPH_FRAMES;
        d->frames_pending--;
        if (!count) continue;
        /* The next frames' caps: the most iterations seen in the last frames, plus the slack (empty
         * dispatch pairs when not needed); doubled after a capped solve, the cap of that solve only
         * (a solve stopped at its cap has as many iterations as the cap: doubling the divergence
         * cap, which needs 1, after a capped pressure solve filled the worst frames at 27,648 with
         * empty pairs: docs/BENCHMARKS.md, issue 15). */
        bool capped_div = capped && it_div_max >= frame_cap_div, capped_dens = capped && it_dens_max >= frame_cap_dens;
        d->it_seen[d->it_seen_head][0] = it_div_max;
        d->it_seen[d->it_seen_head][1] = it_dens_max;
        d->it_seen_head = (d->it_seen_head + 1) % DFSPH_FRAMES;
        for (int m = 0; m < d->history; m++) {
            int k = (d->it_seen_head - 1 - m + DFSPH_FRAMES) % DFSPH_FRAMES;
            if (d->it_seen[k][0] > it_div_max) it_div_max = d->it_seen[k][0];
            if (d->it_seen[k][1] > it_dens_max) it_dens_max = d->it_seen[k][1];
        }
        uint32_t div = it_div_max + d->slack, dens = it_dens_max + d->slack;
        if (capped_div) div = d->cap_div * 2 > div ? d->cap_div * 2 : div;
        if (capped_dens) dens = d->cap_dens * 2 > dens ? d->cap_dens * 2 : dens;
        d->cap_div = div < 1 ? 1 : div > DFSPH_MAX_IT ? DFSPH_MAX_IT : div;
        d->cap_dens = dens < 2 ? 2 : dens > DFSPH_MAX_IT ? DFSPH_MAX_IT : dens;
        d->dt_cfl_recent = dt_cfl_min;
        d->speed_before = d->speed_recent;
        d->speed_recent = speed;
        d->carry_recent = carry;
        d->steps_recent = taken;
    }
}

static GLuint _dfsph_integrate_hash(dfsph *d, const sim_search *q);
static GLuint _dfsph_step_program(dfsph *d, const sim_search *q);

static void _dfsph_prime(void *impl, sim_particles *p, const sim_search *q) {
    dfsph *d = impl;
    _dfsph_integrate_hash(d, q); /* built now, not in the first step's time */
    _dfsph_step_program(d, q);   /* the same (and the stages' names, read at setup, follow it) */
    _dfsph_collect(d, 0);
    d->ready_count = 0; /* new particles or a new solver: earlier steps are not this state's */
    d->issued = d->read = 0;
    d->groups_step = gpu_groups((size_t)p->n * p->lanes, SIM_WG);
    d->t_asked = 0;
    d->t_given = 0;
    memset(d->it_seen, 0, sizeof d->it_seen);
    d->dt_cfl_recent = d->speed_recent = d->speed_before = d->carry_recent = 0;
    d->steps_recent = 0;
    d->cap_div = DFSPH_CAP_DIV0; /* the caps a fresh solver starts with: the same steps as a fresh sim */
    d->cap_dens = DFSPH_CAP_DENS0;
    _dfsph_ctl_reset(d); /* every step issued has finished (collected above): the upload cannot land early */
    _dfsph_bind(d, q);
    glProgramUniform1ui(d->prog[P_DENSITY], 1, 0);
    sim_dispatch_neighbours(p, d->prog[P_DENSITY]);
    float zero = 0;
    glClearNamedBufferData(d->kappa, GL_R32F, GL_RED, GL_FLOAT, &zero);
}

/* A frame's time goes to the GPU in whole ticks, rounded so that the frames' sum is the time asked
 * for within half a tick (t_given follows t_asked), and adds to what earlier frames could not
 * finish (Ctl.t_rem). The GPU sizes the steps (nonpressure.comp); the CPU sizes the slots:
 *   seconds > 0, substeps 0   CFL: the steps the last CFL limit read needs, plus spare slots that
 *                             run empty where the time is used sooner (DFSPH_MODE_CFL)
 *   seconds > 0, substeps K   exactly K equal steps, the CFL limit not asked (DFSPH_MODE_FIXED)
 *   seconds == 0              one step of the CFL size (DFSPH_MODE_FREE)
 *   seconds < 0               a catch-up frame: no new time, slots for the -seconds owed (sim_catch_up) */
static int _dfsph_frame_begin(void *impl, double seconds, int substeps) {
    dfsph *d = impl;
    _dfsph_collect(d, DFSPH_LAG);
    int steps = 1;
    uint32_t mode = DFSPH_MODE_FREE, add = 0;
    if (seconds > 0) {
        d->t_asked += seconds;
        uint64_t target = (uint64_t)llround(d->t_asked / DFSPH_TICK);
        add = target > d->t_given ? (uint32_t)(target - d->t_given) : 0;
        d->t_given = target;
    }
    if (seconds != 0 && substeps > 0) {
        mode = DFSPH_MODE_FIXED;
        steps = substeps > DFSPH_MAX_STEPS ? DFSPH_MAX_STEPS : substeps;
        if (!d->warned_fixed && seconds / steps > d->dt_max * 1.0001) {
            log_warn("SIM", "dfsph: %d steps a frame are %.3g s each, longer than its largest step %.3g s: the fluid may blow up",
                     steps, seconds / steps, d->dt_max);
            d->warned_fixed = true;
        }
    } else if (seconds != 0) {
        mode = DFSPH_MODE_CFL;
        /* The CFL step this frame will see, from the records DFSPH_LAG + 1 frames old: the flow's
         * largest speed (|v| dt / dx over dt, which dt_max's clamp does not hide) carried on at
         * the rate it last grew (a dam break's first tenths of a second: the speed doubles within
         * the lag), so that the slots cover the frame's time and what the last frame read left
         * over; then one spare slot (an empty slot costs the search, the density pass and
         * integrate, no solve). A sudden impact outruns it: that frame carries over. */
        double dt = d->dt_cfl_recent > 0 ? d->dt_cfl_recent : d->dt_max, speed = d->speed_recent;
        /* at most 1.25 times the last: an impact's jump is not a trend, and a spare slot is not free
         * (the H100, dam break: at most twice the last gave worst frames of 73 slots at 27,648 and 168
         * at 109,744, 14.2 and 60.4 ms; 1.25 times, 44 and 97 slots, 10.5 and 50.6 ms; short frames at
         * 27,648, headless, 60 frames: 8 against 14, each carried to the next frame) */
        if (d->speed_before > 0 && speed > d->speed_before)
            speed += fmin((DFSPH_LAG + 1) * (speed - d->speed_before), 0.25 * speed);
        if (speed > 0 && d->cfl / speed < dt) dt = d->cfl / speed;
        double k = ceil((seconds > 0 ? seconds + d->carry_recent : -seconds) / dt - 1e-6);
        k = (k < 1 ? 1 : k) + 1;
        /* and at most 1.5 times the steps that frame took, plus 2: one record's speed spike (a
         * particle flung off an impact) asked 3.5-3.8 times a mean frame's steps at 432,000 and
         * 986,078 on the H100 (their worst frames, mostly empty slots); a flow that truly outruns
         * this carries over, and the next frames' slots follow the steps it takes (not a catch-up
         * frame's: it has only the time owed) */
        if (seconds > 0 && d->steps_recent && k > ceil(1.5 * d->steps_recent) + 2) k = ceil(1.5 * d->steps_recent) + 2;
        steps = k > DFSPH_MAX_STEPS ? DFSPH_MAX_STEPS : (int)k;
    }
    /* The frame's slots, time and caps, read by the GPU's step-size decision. */
    uint32_t caps[2] = {d->cap_div, d->cap_dens};
    if (d->solve_groups) caps[0] = caps[1] = DFSPH_MAX_IT; /* no dispatches to size: SPlisHSPlasH's bound */
    d->frame_cap[0] = caps[0];
    d->frame_cap[1] = caps[1];
    d->frame_mode_now = mode;
    /* They reach the GPU as uniforms of the frame's first density pass, in the command stream (see
     * density.comp: a glNamedBufferSubData of them landed early on the H100). */
    d->frame_vals[0] = add;
    d->frame_vals[1] = (uint32_t)steps;
    d->frame_vals[2] = caps[0];
    d->frame_vals[3] = caps[1];
    d->frame_set = 1 + mode;
    d->frame_issued = 0;
    d->in_frame = true;
    return steps;
}

/* Seconds of the frames asked for that the GPU has not simulated yet (waits for it): a frame whose
 * slots ran out before its time did. */
static double _dfsph_owed(void *impl) {
    dfsph *d = impl;
    uint32_t t_rem = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(d->ctl, offsetof(dfsph_ctl, t_rem), sizeof t_rem, &t_rem);
    return t_rem * DFSPH_TICK;
}

/* A pass over the particles' lanes in a step slot: indirect, so that the slots after the frame's
 * time run it with 0 groups (Ctl.args_step). */
static void _dfsph_pass(const dfsph *d, GLuint prog) {
    (void)d;
    sim_dispatch_indirect(prog, offsetof(dfsph_ctl, args_step));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

/* The persistent path's grid for `groups` virtual groups: as few groups as take them in as few
 * rounds as solve_groups would: the same passes' time with a cheaper barrier (27,648 on the
 * H100: 432 groups of 2 each, not 528 of 1 or 2). */
static uint32_t _dfsph_grid(const dfsph *d, uint32_t groups) {
    uint32_t rounds = (groups + d->solve_groups - 1) / d->solve_groups;
    return (groups + rounds - 1) / rounds;
}

/* One solve: the warm-start update and the first predict run always; then `cap` (update, predict)
 * pairs whose group counts the predicts write (0 once converged). */
static void _dfsph_solve(dfsph *d, const sim_particles *p, int warm, int update, int predict, GLintptr args, uint32_t cap) {
    if (d->solve_groups) {                                             /* the persistent path: the whole solve in one dispatch */
        uint32_t groups = gpu_groups((size_t)p->n * p->lanes, SIM_WG); /* the indirect path's (virtual) groups */
        if (!groups) return;
        glUseProgram(d->prog[predict == P_DIV_PREDICT ? P_DIV_SOLVE : P_DENS_SOLVE]);
        glDispatchCompute(_dfsph_grid(d, groups), 1, 1);
        sim_dispatch_count_add(1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        return;
    }
    _dfsph_pass(d, d->prog[warm]);
    _dfsph_pass(d, d->prog[predict]);
    for (uint32_t k = 0; k < cap; k++) {
        sim_dispatch_indirect(d->prog[update], args);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        sim_dispatch_indirect(d->prog[predict], args);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    }
}

/* integrate with the next step's hash, built for the search's sorter (again after a sort switch);
 * 0 where it does not build (then integrate runs alone and the search hashes). */
static GLuint _dfsph_integrate_hash(dfsph *d, const sim_search *q) {
    if (d->integrate_hash && d->hash_serial == sim_search_serial(q)) return d->integrate_hash;
    shader_destroy(&d->integrate_hash);
    d->hash_serial = sim_search_serial(q);
    char defines[8192], err[ERR_LEN];
    size_t used = (size_t)snprintf(defines, sizeof defines, "%s", d->defines);
    sim_search_hash_defines(q, defines + used, sizeof defines - used);
    d->integrate_hash = sim_program_make("sim/dfsph/integrate.comp", defines, "sim.dfsph.integrate_hash", err);
    if (!d->integrate_hash && !d->hash_failed) log_error("SIM", "dfsph: integrate with the hash: %s (integrate runs alone)", err);
    d->hash_failed = !d->integrate_hash;
    return d->integrate_hash;
}

/* The fused step (step.comp) for the search's sorter, with the next step's hash as integrate
 * makes it; 0 where the persistent path does not run fused, or it does not build (then each solve
 * alone runs persistent). Its partials' second region starts at n_groups_max (DFSPH_PARTIAL2). */
static GLuint _dfsph_step_program(dfsph *d, const sim_search *q) {
    if (!d->solve_groups || !d->fused || d->step_failed) return 0;
    if (d->step_prog && d->step_serial == sim_search_serial(q)) return d->step_prog;
    if (!_dfsph_integrate_hash(d, q)) return 0; /* no hash made in the pass: the unfused path's */
    shader_destroy(&d->step_prog);
    d->step_serial = sim_search_serial(q);
    char defines[8192], err[ERR_LEN];
    size_t used = (size_t)snprintf(defines, sizeof defines, "%s%s#define DFSPH_PARTIAL2 %uu\n#define DFSPH_STEP_ALIAS %d\n",
                                   d->defines, d->grid_defines, d->n_groups_max, d->fused != 2);
    sim_search_hash_defines(q, defines + used, sizeof defines - used);
    d->step_prog = sim_program_make("sim/dfsph/step.comp", defines, "sim.dfsph.step", err);
    if (!d->step_prog) log_error("SIM", "dfsph: the fused step: %s (each solve alone runs persistent)", err);
    d->step_failed = !d->step_prog;
    return d->step_prog;
}

/* The whole step after the search as one dispatch (timed as the first stage, named for it by
 * _dfsph_stage_name). */
static void _dfsph_step_fused(dfsph *d, sim_particles *p, sim_search *q, gpu_prof *prof, int first, GLuint prog) {
    prof_begin(prof, first + 0);
    glProgramUniform4uiv(prog, 0, 1, d->frame_vals);
    glProgramUniform1ui(prog, 1, d->frame_set);
    d->frame_set = 0;
    sim_search_hash_bind(q);
    glUseProgram(prog);
    glDispatchCompute(_dfsph_grid(d, gpu_groups((size_t)p->n * p->lanes, SIM_WG)), 1, 1);
    sim_dispatch_count_add(1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    sim_search_hashed(q, p->n);
    prof_end(prof, first + 0);
    for (int k = 1; k < 5; k++) {
        prof_begin(prof, first + k);
        prof_end(prof, first + k);
    }
    d->frame_issued++;
}

static const char *_dfsph_stage_name(void *impl, int stage) {
    const dfsph *d = impl;
    /* the fused step's program, built at prime (the profiler reads the names at setup) */
    return d->solve_groups && d->fused && d->step_prog && !d->step_failed && stage >= 0 &&
                   stage < (int)ARRAY_LEN(_dfsph_stages_fused)
               ? _dfsph_stages_fused[stage]
               : NULL;
}

static void _dfsph_step(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first) {
    dfsph *d = impl;
    uint32_t n = p->n;
    _dfsph_bind(d, q);
    GLuint fused = n ? _dfsph_step_program(d, q) : 0;
    if (fused) {
        _dfsph_step_fused(d, p, q, prof, first, fused);
        return;
    }
    prof_begin(prof, first + 0);
    /* Direct, also in an empty slot: the search there reordered the particles, and the densities
     * (read by the renderer and the stats) must follow them; it writes nothing else that lasts
     * but, in the frame's first slot, the frame's values into the control block. */
    glProgramUniform4uiv(d->prog[P_DENSITY], 0, 1, d->frame_vals);
    glProgramUniform1ui(d->prog[P_DENSITY], 1, d->frame_set);
    d->frame_set = 0;
    sim_dispatch_neighbours(p, d->prog[P_DENSITY]);
    glMemoryBarrier(GL_COMMAND_BARRIER_BIT); /* the step's indirect arguments it may have written */
    prof_end(prof, first + 0);
    prof_begin(prof, first + 1);
    _dfsph_solve(d, p, P_DIV_WARM, P_DIV_UPDATE, P_DIV_PREDICT, offsetof(dfsph_ctl, args_div), d->cap_div);
    prof_end(prof, first + 1);
    prof_begin(prof, first + 2);
    _dfsph_pass(d, d->prog[P_NONPRESSURE]);
    prof_end(prof, first + 2);
    prof_begin(prof, first + 3);
    _dfsph_solve(d, p, P_DENS_WARM, P_DENS_UPDATE, P_DENS_PREDICT, offsetof(dfsph_ctl, args_dens), d->cap_dens);
    prof_end(prof, first + 3);
    prof_begin(prof, first + 4);
    GLuint hash = _dfsph_integrate_hash(d, q);
    if (hash) {
        sim_search_hash_bind(q);
        sim_dispatch(hash, n);
        sim_search_hashed(q, n);
    } else sim_dispatch(d->prog[P_INTEGRATE], n);
    prof_end(prof, first + 4);
    d->frame_issued++;
}

static void _dfsph_frame_end(void *impl) {
    dfsph *d = impl;
    if (!d->in_frame) return;
    d->in_frame = false;
    if (d->frames_pending == DFSPH_FRAMES) _dfsph_collect(d, DFSPH_FRAMES - 1);
    int f = (d->frame_head + d->frames_pending) % DFSPH_FRAMES;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    d->fence[f] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    d->frame_first[f] = d->issued;
    d->frame_caps[f][0] = d->frame_cap[0];
    d->frame_caps[f][1] = d->frame_cap[1];
    d->frame_mode[f] = d->frame_mode_now;
    d->frame_steps[f] = d->frame_issued;
    d->issued += d->frame_issued;
    d->frames_pending++;
}

static int _dfsph_poll(void *impl, bool wait, sim_step_record *out, int max) {
    dfsph *d = impl;
    if (wait) _dfsph_collect(d, 0);
    int n = d->ready_count < max ? d->ready_count : max;
    for (int i = 0; i < n; i++) out[i] = d->ready[(d->ready_head + i) % DFSPH_RECORDS];
    d->ready_head = (d->ready_head + n) % DFSPH_RECORDS;
    d->ready_count -= n;
    return n;
}

static bool _dfsph_read_pressure(void *impl, const sim_particles *p, float *out) {
    (void)impl;
    /* The pressure solve's total k = kappa / rho = p / rho^2 of the last step, kept in pos.w. */
    float *pos = malloc(16ull * p->n + 16), *rho = malloc(4ull * p->n + 4);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(p->pos[p->cur], 0, 16ll * p->n, pos);
    glGetNamedBufferSubData(p->dens, 0, 4ll * p->n, rho);
    for (uint32_t i = 0; i < p->n; i++) out[i] = pos[4 * i + 3] * rho[i] * rho[i];
    free(pos);
    free(rho);
    return true;
}

static uint32_t _dfsph_pairs(void *impl) {
    dfsph *d = impl;
    if (d->solve_groups) return 0;
    return d->cap_div + d->cap_dens;
}

static GLuint _dfsph_accel(void *impl) { return ((dfsph *)impl)->accel; }

static uint32_t _dfsph_read_neighbour_counts(void *impl, const sim_particles *p, uint32_t *out) {
    dfsph *d = impl;
    uint32_t *lane = malloc(4ull * p->n * p->lanes + 4);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(d->nbr_count, 0, 4ll * p->n * p->lanes, lane);
    uint32_t cap = _dfsph_list_cap(p->lanes);
    for (uint32_t i = 0; i < p->n; i++) {
        out[i] = 0;
        for (uint32_t l = 0; l < p->lanes && out[i] != UINT32_MAX; l++)
            out[i] = lane[i * p->lanes + l] >= cap ? UINT32_MAX : out[i] + lane[i * p->lanes + l];
    }
    free(lane);
    return cap;
}

static const sim_solver_test_hooks _dfsph_test = {
    .read_pressure = _dfsph_read_pressure, .accel = _dfsph_accel, .read_neighbour_counts = _dfsph_read_neighbour_counts};

const sim_solver sim_solver_dfsph = {
    .name = "dfsph",
    .summary = "divergence-free SPH: divergence and constant-density solves on the GPU, CFL steps",
    .stages = _dfsph_stages,
    .stage_count = (int)ARRAY_LEN(_dfsph_stages),
    .stage_name = _dfsph_stage_name,
    .layout_g_over_c2 = _dfsph_g_over_c2,
    /* no h/2 cells: slower at every count on the H100 (its list passes read neighbours in an order
     * that h/2 cells' x-long runs scatter; docs/BENCHMARKS.md, 2026-11-24 s9) */
    .half_cells_above = 0,
    .fast_kernels = false,
    .make = _dfsph_make,
    .destroy = _dfsph_destroy,
    .prime = _dfsph_prime,
    .frame_begin = _dfsph_frame_begin,
    .step = _dfsph_step,
    .frame_end = _dfsph_frame_end,
    .poll = _dfsph_poll,
    .pairs = _dfsph_pairs,
    .owed = _dfsph_owed,
    .test = &_dfsph_test,
};
