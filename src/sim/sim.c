/* sim: the simulation object: the scene's particles, the shared neighbour search, the chosen
 * solver, and the records of the steps taken. The physics is described in docs/SPH.md. */
#include "sim/sim_internal.h"
#include "core/env.h"
#include "core/log.h"
#include "core/util.h"
#include "sim/kernel.h"
#include "sim/sim_test.h"
#include "sim/solver.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model's constants (docs/SPH.md explains each). */
#define SIM_H_OVER_DX 2.0       /* kernel support radius h (= cell size) per particle spacing */
#define SIM_RHO0 1000.0         /* kg/m^3, water */
#define SIM_SOUND_FACTOR 10.0   /* c0 = this * sqrt(2 g H), H the highest fluid at the start */
#define SIM_CFL 0.25            /* wcsph: dt = SIM_CFL * hs / (c0 + v_max) */
#define SIM_ALPHA 0.1           /* Monaghan's artificial viscosity (both solvers) */
#define SIM_MARGIN_OVER_DX 0.25 /* the hard clamp keeps centres this far (in dx) inside the walls */
#define SIM_RESTITUTION 0.0     /* normal velocity kept (reversed) by the hard clamp */
#define SIM_NO_SLIP 1           /* walls are no-slip, with the fluid's (artificial) viscosity */
/* A solver's own constants are its own (DFSPH's: src/sim/dfsph/dfsph_params.c). */

/* "dambreak, drop, ...": every scene, for error messages. */
static const char *_sim_scene_list(void) {
    static char list[256];
    names_join(list, sizeof list, &sim_scenes[0].name, sizeof sim_scenes[0], sim_scene_count, ", ", NULL);
    return list;
}

void sim_cell_of(const sim_params *p, const float pos[3], int cell[3]) {
    for (int a = 0; a < 3; a++) {
        int c = (int)floorf((pos[a] - p->lo[a]) * p->inv_cell);
        cell[a] = c < 0 ? 0 : c > (int)p->dims[a] - 1 ? (int)p->dims[a] - 1 : c;
    }
}

/* Bricks along axis a of a grid of dims (grid.glsl): the last one may stick out past the grid. */
static uint32_t _sim_bricks_along(const uint32_t dims[3], const uint32_t brick[4], int a) {
    return (dims[a] + (1u << brick[a]) - 1) >> brick[a];
}

/* Twin of grid_cell_key() in grid.glsl. */
uint32_t sim_cell_key(const sim_params *p, const int cell[3]) {
    const uint32_t *l = p->brick;
    uint32_t b[3], m[3];
    for (int a = 0; a < 3; a++) b[a] = (uint32_t)cell[a] >> l[a], m[a] = (uint32_t)cell[a] - (b[a] << l[a]);
    uint32_t nbx = _sim_bricks_along(p->dims, l, 0), nby = _sim_bricks_along(p->dims, l, 1);
    return (((b[2] * nby + b[1]) * nbx + b[0]) << (l[0] + l[1] + l[2])) | (((m[2] << l[1]) | m[1]) << l[0]) | m[0];
}

void sim_key_cell(const sim_params *p, uint32_t key, int cell[3]) {
    const uint32_t *l = p->brick;
    uint32_t lsum = l[0] + l[1] + l[2], b = key >> lsum, m = key & ((1u << lsum) - 1);
    uint32_t nbx = _sim_bricks_along(p->dims, l, 0), nby = _sim_bricks_along(p->dims, l, 1);
    uint32_t bb[3] = {b % nbx, b / nbx % nby, b / nbx / nby};
    uint32_t mm[3] = {m & ((1u << l[0]) - 1), (m >> l[0]) & ((1u << l[1]) - 1), m >> (l[0] + l[1])};
    for (int a = 0; a < 3; a++) cell[a] = (int)((bb[a] << l[a]) | mm[a]);
}

/* The keys a grid of dims cut into bricks takes: whole bricks along each axis. */
static uint64_t _sim_grid_keys(const uint32_t dims[3], const uint32_t brick[4]) {
    uint64_t keys = 1;
    for (int a = 0; a < 3; a++) keys *= (uint64_t)_sim_bricks_along(dims, brick, a) << brick[a];
    return keys;
}

/* The cell order's bricks (sim_cell_key): FLUID_SIM_BRICK, else the solver's above its count
 * (solver.h), else none (rows). With bricks every cell is a run of its own in the walks
 * (grid_run_end in grid.glsl); with rows a row's cells are one run. */
static const char *const _sim_brick_names[] = {"off", "2x2x2", "4x2x2", "4x4x2", "4x4x4", "8x4x4", "8x8x4", "8x8x8"};
static const uint8_t _sim_brick_log2[][3] = {{0, 0, 0}, {1, 1, 1}, {2, 1, 1}, {2, 2, 1}, {2, 2, 2}, {3, 2, 2}, {3, 3, 2}, {3, 3, 3}};
static const char *_sim_brick_name(const uint32_t brick[4]) {
    for (size_t k = 0; k < sizeof _sim_brick_names / sizeof *_sim_brick_names; k++)
        if (brick[0] == _sim_brick_log2[k][0] && brick[1] == _sim_brick_log2[k][1] && brick[2] == _sim_brick_log2[k][2])
            return _sim_brick_names[k];
    return "?";
}
static bool _sim_brick(const sim_solver *solver, uint64_t particles, uint32_t brick[4], char *err) {
    int k = solver->bricks_above && particles > solver->bricks_above ? 2 : 0; /* 4x2x2 */
    if (!env_choice(ENV_SIM_BRICK, _sim_brick_names, (int)(sizeof _sim_brick_names / sizeof *_sim_brick_names), &k, err))
        return false;
    for (int a = 0; a < 3; a++) brick[a] = _sim_brick_log2[k][a];
    brick[3] = 0;
    return true;
}

/* --- limits --- */

uint64_t sim_max_particles(const gpu_caps *caps) {
    uint64_t by_groups = (uint64_t)caps->max_groups_x * SIM_WG;
    uint64_t by_ssbo = (uint64_t)caps->max_ssbo_bytes / 16; /* a vec4 per particle */
    uint64_t m = by_groups < by_ssbo ? by_groups : by_ssbo;
    return m < (1u << 30) ? m : (1u << 30);
}

/* --- making --- */

/* Grid cells per h: 1 (the walk: 3 x 3 rows of 3 cells, 27 h^3) or 2 (5 x 5 rows of 5 cells of h/2,
 * 15.6 h^3, fewer candidates for more rows and 8x the cells), by the solver's measured threshold.
 * sim_desc.cells_per_h, else FLUID_SIM_CELL, overrides. */
uint32_t sim_cells_per_h(const sim_solver *solver, uint64_t particles) {
    return solver->half_cells_above && particles > solver->half_cells_above ? 2 : 1;
}

static double _sim_lattice_sum(double dx, double hs) {
    /* sum of W over a cubic lattice of spacing dx around a particle (itself included) */
    int r = (int)ceil(2 * hs / dx);
    double sum = 0;
    for (int z = -r; z <= r; z++)
        for (int y = -r; y <= r; y++)
            for (int x = -r; x <= r; x++) sum += sim_kernel_w(dx * sqrt((double)(x * x + y * y + z * z)), hs);
    return sum;
}

/* The grid of a layout: cells per h (the desc's, else FLUID_SIM_CELL, else the solver's pick), the
 * cell size and the cells along each axis. */
static bool _sim_grid(const sim_layout *lay, const sim_solver *solver, uint32_t cells_per_h, double *cell, uint32_t dims[3],
                      char *err) {
    uint32_t per_h = sim_cells_per_h(solver, lay->count);
    if (cells_per_h > 2) return fail(err, "sim_desc.cells_per_h=%u; choose 1 or 2 (0: the default)", cells_per_h);
    if (cells_per_h) per_h = cells_per_h;
    else if (!env_u32(ENV_SIM_CELL, 1, 2, &per_h, err)) return false;
    *cell = SIM_H_OVER_DX * lay->dx / per_h * SIM_CELL_MARGIN;
    for (int a = 0; a < 3; a++) {
        double d = ceil((lay->hi[a] - lay->lo[a]) / *cell);
        dims[a] = d < 1 ? 1 : (uint32_t)d;
    }
    return true;
}

bool sim_key_bits_for(const char *scene, uint64_t particles, const sim_solver *solver, uint32_t *bits, char *err) {
    const sim_scene *sc = sim_scene_find(scene);
    if (!sc) return fail(err, "unknown scene '%s'", scene);
    sim_layout lay;
    sim_layout_plan(sc, particles, &lay);
    double cell = 0;
    uint32_t dims[3], brick[4];
    if (!_sim_grid(&lay, solver, 0, &cell, dims, err) || !_sim_brick(solver, lay.count, brick, err)) return false;
    *bits = sim_search_key_bits(_sim_grid_keys(dims, brick));
    return true;
}

static bool _sim_params_init(sim *s, uint32_t cells_per_h, char *err) {
    const sim_layout *lay = &s->layout;
    sim_params *p = &s->params;
    memset(p, 0, sizeof *p);
    double cell = 0;
    if (!_sim_grid(lay, s->solver, cells_per_h, &cell, p->dims, err) || !_sim_brick(s->solver, lay->count, p->brick, err))
        return false;
    double h = SIM_H_OVER_DX * lay->dx, hs = h / 2;
    for (int a = 0; a < 3; a++) {
        p->lo[a] = (float)lay->lo[a];
        p->hi[a] = (float)lay->hi[a];
    }
    p->gravity[1] = (float)-SIM_G;
    p->h = (float)h;
    p->cell = (float)cell;
    p->inv_cell = (float)(1.0 / cell);
    p->hs = (float)hs;
    p->rho0 = (float)SIM_RHO0;
    p->mass = (float)(SIM_RHO0 / _sim_lattice_sum(lay->dx, hs));
    double vmax = sqrt(2 * SIM_G * lay->top);
    double c0 = SIM_SOUND_FACTOR * vmax;
    p->c0 = (float)c0;
    p->tait_b = (float)(SIM_RHO0 * c0 * c0 / 7);
    p->alpha = (float)SIM_ALPHA;
    p->dt = (float)(SIM_CFL * hs / (c0 + vmax));
    p->margin = (float)(SIM_MARGIN_OVER_DX * lay->dx);
    p->restitution = (float)SIM_RESTITUTION;
    p->dx = (float)lay->dx;
    /* The kinematic viscosity equivalent to the artificial viscosity (Monaghan 2005, 3D). */
    double nu = p->alpha * c0 * hs / 10;
    p->wall_friction = SIM_NO_SLIP ? (float)nu : 0.0f;
    s->hs = hs;
    s->nu = nu;
    return true;
}

/* Every registered solver's own desc, from the caller's list (a solver not in it: its defaults)
 * and its FLUID_* variables, read once here: a later switch of solver takes the same. */
static bool _sim_solver_descs(sim *s, const sim_solver_desc *given, char *err) {
    for (const sim_solver_desc *g = given; g && g->solver; g++)
        if (sim_solver_index(g->solver) < 0)
            return fail(err, "a solver desc for '%s', which is not in sim_solvers[]", g->solver->name);
    for (int i = 0; sim_solvers[i]; i++) {
        const sim_solver *sv = sim_solvers[i];
        if (i >= SIM_SOLVERS_MAX) return fail(err, "more than %d solvers registered; raise SIM_SOLVERS_MAX", SIM_SOLVERS_MAX);
        if (!sv->desc_size) continue;
        const void *in = NULL;
        for (const sim_solver_desc *g = given; g && g->solver; g++)
            if (g->solver == sv) in = g->desc;
        if (!(s->solver_desc[i] = calloc(1, sv->desc_size))) return fail(err, "out of host memory");
        if (!sv->desc_resolve(in, s->solver_desc[i], err)) return false;
    }
    return true;
}

static void *_sim_solver_make(sim *s, const sim_solver *sv, char *err) {
    return sv->make(&(sim_solver_make_desc){.p = &s->p,
                                            .params = &s->params,
                                            .hs = s->hs,
                                            .nu = s->nu,
                                            .desc = s->solver_desc[sim_solver_index(sv)],
                                            .records = &s->sink,
                                            .caps = s->caps},
                    err);
}

static void _sim_stage_names(sim *s) {
    for (int i = 0; i < SIM_SEARCH_STAGES; i++)
        s->stage_names[i] = s->q ? sim_search_stage_name(s->q, i) : sim_search_stage_names[i];
    for (int i = 0; i < s->solver->stage_count; i++) s->stage_names[SIM_SEARCH_STAGES + i] = s->solver->stages[i];
}

static void _sim_upload_params(sim *s) {
    s->params.n = s->p.n;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glNamedBufferSubData(s->p.params, 0, sizeof s->params, &s->params);
    s->params_dirty = false;
}

/* The neighbour search and the solver's priming, nothing moved: the densities are valid from the
 * start (the initial --dump shows them). */
static void _sim_prime(sim *s) {
    if (s->params_dirty) _sim_upload_params(s);
    s->p.carry_dens = false; /* the solver's prime asks for it again */
    sim_particles_bind(&s->p);
    sim_search_run(s->q, &s->p, NULL, 0, NULL);
    sim_particles_bind(&s->p);
    s->solver->prime(s->impl, &s->p, s->q);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

static void _sim_upload_particles(sim *s, const float *pos4, const float *vel4, uint32_t n) {
    sim_particles *p = &s->p;
    p->n = n;
    p->cur = 0;
    /* Every earlier command done before the uploads. On the H100 (NVIDIA 580) the positions that
     * sim_set_particles gave right after sim_make were lost: pos[0] read back as the scene's
     * initial positions, as if sim_make's upload into the same buffer, still in flight, landed
     * after this one (see gpu_buffer_make for a like reordering of a clear and an upload). Seen
     * every time with 1 lane a particle and the radix or counting sort, whose prime reads nothing
     * back (the cpu sort's read-back waits for the GPU and hid it); tests/test_sim_set.c. Uploads
     * are rare (sim_make, sim_set_particles, reset): a full wait costs nothing that matters. */
    glFinish();
    sim_search_invalidate(s->q); /* a hash the last step made is of the old positions */
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glNamedBufferSubData(p->pos[0], 0, 16ll * n, pos4);
    if (vel4) glNamedBufferSubData(p->vel[0], 0, 16ll * n, vel4);
    else {
        float zero = 0;
        glClearNamedBufferData(p->vel[0], GL_R32F, GL_RED, GL_FLOAT, &zero);
    }
    uint32_t *ids = malloc(4ull * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) ids[i] = i;
    glNamedBufferSubData(p->id[0], 0, 4ll * n, ids);
    free(ids);
    s->params_dirty = true;
    _sim_prime(s);
}

static void _sim_layout_fill(sim *s) { sim_layout_fill(&s->layout, s->solver->layout_g_over_c2(&s->params), s->init_pos); }

sim *sim_make(const sim_desc *desc, const gpu_caps *caps, char *err) {
    const char *scene_name = desc->scene ? desc->scene : sim_scenes[0].name;
    const sort_algo *sort = desc->sort ? desc->sort : sort_algos[0];
    const char *solver_name = desc->solver ? desc->solver : sim_solvers[0]->name;
    const sim_scene *sc = sim_scene_find(scene_name);
    if (!sc) {
        fail(err, "unknown scene '%s'; choose one of: %s", scene_name, _sim_scene_list());
        return NULL;
    }
    const sim_solver *solver = sim_solver_find(solver_name);
    if (!solver) {
        fail(err, "unknown solver '%s'; choose one of: %s", solver_name, sim_solver_names());
        return NULL;
    }
    uint32_t lanes;
    if (!sim_lanes_resolve(desc->lanes, &lanes, err)) return NULL;
    if (desc->fast < -1 || desc->fast > 1) {
        fail(err, "sim_desc.fast=%d; choose 1 (on), -1 (off) or 0 (the default)", desc->fast);
        return NULL;
    }
    sim *s = calloc(1, sizeof *s);
    s->caps = caps;
    s->solver = solver;
    _sim_stage_names(s);
    if (!sim_records_make(s, desc->records, err) || !_sim_solver_descs(s, desc->solver_descs, err)) {
        sim_destroy(s);
        return NULL;
    }
    sim_layout_plan(sc, desc->particles, &s->layout);
    uint64_t max = sim_max_particles(caps);
    if (s->layout.count > max) {
        fail(err, "%llu particles (asked for %u) are more than this GPU can simulate (at most %llu); ask for fewer",
             (unsigned long long)s->layout.count, desc->particles, (unsigned long long)max);
        sim_destroy(s);
        return NULL;
    }
    if (!_sim_params_init(s, desc->cells_per_h, err)) {
        sim_destroy(s);
        return NULL;
    }
    uint64_t cells = _sim_grid_keys(s->params.dims, s->params.brick);
    if (cells > (uint64_t)caps->max_groups_x * SIM_WG || 8 * cells > (uint64_t)caps->max_ssbo_bytes) {
        fail(err, "%llu particles need a grid of %llu cells, more than this GPU can hold; ask for fewer particles",
             (unsigned long long)s->layout.count, (unsigned long long)cells);
        sim_destroy(s);
        return NULL;
    }
    s->params.dims[3] = (uint32_t)cells;
    s->params.n = (uint32_t)s->layout.count;
    s->init_pos = malloc(16 * s->layout.count);
    if (!s->init_pos) {
        fail(err, "out of host memory for %llu particles; ask for fewer", (unsigned long long)s->layout.count);
        sim_destroy(s);
        return NULL;
    }
    _sim_layout_fill(s);
    if (!lanes) lanes = sim_lanes_for((uint32_t)s->layout.count, solver->lanes4_upto, solver->lanes2_upto, caps);
    bool ok =
        sim_particles_make(&s->p, (uint32_t)s->layout.count, lanes, desc->fast, s->solver->fast_kernels, &s->params, caps,
                           err) &&
        (s->q = sim_search_make(&(sim_search_desc){.capacity = (uint32_t)s->layout.count, .cells = (uint32_t)cells, .sort = sort},
                                caps, err)) &&
        (s->impl = _sim_solver_make(s, solver, err)) &&
        (!desc->diffuse.on || (s->diffuse = sim_diffuse_make(&desc->diffuse, (uint32_t)s->layout.count, err)));
    if (!ok) {
        sim_destroy(s);
        return NULL;
    }
    _sim_stage_names(s);
    _sim_upload_particles(s, s->init_pos, NULL, (uint32_t)s->layout.count);
    log_info("SIM",
             "%s: %u particles, dx %.4g m, h %.4g m, %u cell keys (%ux%ux%u%s%s, %u key bits), solver %s, sort %s, %u lane%s a particle",
             sc->name, s->p.n, s->layout.dx, s->params.h, (unsigned)cells, s->params.dims[0], s->params.dims[1],
             s->params.dims[2], sim_bricked(&s->params) ? " in bricks of " : "",
             sim_bricked(&s->params) ? _sim_brick_name(s->params.brick) : "", sim_search_bits(s->q), solver->name, sort->name, s->p.lanes, s->p.lanes == 1 ? "" : "s");
    return s;
}

void sim_destroy(sim *s) {
    if (!s) return;
    if (s->impl) s->solver->destroy(s->impl);
    sim_diffuse_destroy(s->diffuse);
    sim_compare_destroy(s->cmp);
    if (s->q) sim_search_destroy(s->q);
    sim_particles_destroy(&s->p);
    for (int i = 0; i < SIM_SOLVERS_MAX; i++) free(s->solver_desc[i]);
    free(s->rec);
    free(s->init_pos);
    free(s);
}

int sim_catch_up(sim *s, gpu_prof *prof) {
    int taken = 0;
    /* Each catch-up frame sizes its slots by the time owed; a few rounds cover a flow that keeps
     * speeding up. */
    for (int round = 0; round < 4 && s->solver->owed; round++) {
        sim_sync(s);
        double owed = s->solver->owed(s->impl);
        if (owed <= 0) break;
        taken += sim_frame(s, -owed, 0, prof);
    }
    sim_sync(s);
    return taken;
}

/* --- stepping --- */

int sim_frame_begin(sim *s, double seconds, int substeps) {
    if (s->in_frame) sim_frame_end(s);
    if (s->params_dirty) _sim_upload_params(s);
    s->frames_begun++;
    s->tally[s->frames_begun % SIM_TALLY_FRAMES] = (sim_tally){.frame = s->frames_begun, .c.timed = seconds > 0};
    int steps = s->solver->frame_begin(s->impl, seconds, substeps);
    s->frame_seconds = seconds;
    sim_poll(s, false);
    s->in_frame = true;
    s->first_step = 1;
    return steps;
}

void sim_frame_step(sim *s, gpu_prof *prof) {
    if (!s->in_frame) sim_frame_begin(s, 0, 1);
    gpu_prof *timed = s->first_step ? prof : NULL; /* the frame's first step is the sampled one */
    if (s->first_step && s->cmp) sim_compare_arm(s->cmp, s->disp.steps); /* and the compared one */
    s->first_step = 0;
    uint64_t d0 = sim_dispatch_count();
    sim_particles_bind(&s->p);
    sort_gate gate;
    bool gated = s->solver->search_gate && s->solver->search_gate(s->impl, &gate);
    sim_search_run(s->q, &s->p, timed, 0, gated ? &gate : NULL);
    sim_particles_bind(&s->p);
    s->solver->step(s->impl, &s->p, s->q, timed, SIM_SEARCH_STAGES);
    s->disp.last = (uint32_t)(sim_dispatch_count() - d0);
    s->disp.pairs = s->solver->pairs ? s->solver->pairs(s->impl) : 0;
    s->disp.total += s->disp.last;
    s->disp.steps++;
    s->tally[s->frames_begun % SIM_TALLY_FRAMES].c.slots++;
}

void sim_get_dispatches(const sim *s, sim_dispatches *out) { *out = s->disp; }

uint32_t sim_frames_begun(const sim *s) { return s->frames_begun; }

void sim_frame_end(sim *s) {
    if (!s->in_frame) return;
    s->solver->frame_end(s->impl);
    s->in_frame = false;
    sim_diffuse_update(s->diffuse, &s->p, sim_search_ranges(s->q), &s->params, s->frame_seconds); /* once a frame */
    /* Readers of the results: the renderer's vertex pulls and read-backs. */
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (s->params.poke[3] > 0) {
        s->params.poke[3] = 0; /* the poke applies to one frame */
        s->params_dirty = true;
    }
}

int sim_frame(sim *s, double seconds, int substeps, gpu_prof *prof) {
    int steps = sim_frame_begin(s, seconds, substeps);
    for (int k = 0; k < steps; k++) sim_frame_step(s, prof);
    sim_frame_end(s);
    return steps;
}

void sim_step(sim *s, gpu_prof *prof) { sim_frame(s, 0, 1, prof); }

void sim_reset(sim *s) {
    sim_sync(s);
    sim_records_clear(s);
    _sim_layout_fill(s);
    _sim_upload_particles(s, s->init_pos, NULL, (uint32_t)s->layout.count);
    sim_diffuse_clear(s->diffuse);
}

void sim_warm(sim *s) {
    gpu_prof *prof = prof_make(
        &(prof_desc){.names = s->stage_names, .stages = sim_stage_count(s), .no_debug_groups = true},
        s->caps);
    sim_frame(s, 0, 1, NULL);
    sim_frame(s, 0, 1, prof);
    prof_destroy(prof);
    sim_reset(s);
    s->disp = (sim_dispatches){0};
}

bool sim_set_sort(sim *s, const sort_algo *algo, char *err) {
    if (!algo) return fail(err, "no sort given; choose one of: %s", sort_algo_names());
    if (!sim_search_set_sort(s->q, algo, err)) return false;
    sim_search_find(s->q, &s->p); /* the old sorter's buffers may have held the sorted pairs */
    sim_compare_follow_sort(s);
    _sim_stage_names(s);
    return true;
}

bool sim_set_solver(sim *s, const char *name, char *err) {
    const sim_solver *next = sim_solver_find(name);
    if (!next) return fail(err, "unknown solver '%s'; choose one of: %s", name ? name : "(none)", sim_solver_names());
    if (next == s->solver) return true;
    void *impl = _sim_solver_make(s, next, err);
    if (!impl) return false;
    sim_sync(s); /* the old solver's last records count */
    s->solver->destroy(s->impl);
    s->solver = next;
    s->impl = impl;
    s->solver_frame_base = s->frames_begun; /* its records' frames count from its own first */
    sim_records_solver_switched(s);
    _sim_stage_names(s);
    _sim_prime(s);
    return true;
}

void sim_poke(sim *s, const float point[3], float radius, float strength) {
    for (int a = 0; a < 3; a++) s->params.poke[a] = point[a];
    s->params.poke[3] = radius > 0 ? radius : 0;
    s->params.poke_strength = strength;
    s->params_dirty = true;
}

/* --- test hooks --- */

bool sim_set_particles(sim *s, const float *pos4, const float *vel4, uint32_t n, char *err) {
    if (n > s->p.capacity) return fail(err, "%u particles, but this simulation was made for at most %u", n, s->p.capacity);
    sim_sync(s);
    _sim_upload_particles(s, pos4, vel4, n);
    return true;
}

void sim_find_neighbours(sim *s) {
    if (s->params_dirty) _sim_upload_params(s);
    sim_search_find(s->q, &s->p);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}
