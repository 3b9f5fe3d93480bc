/* sim: the simulation object: the scene's particles in GL buffers, the stage modules, the sorter,
 * and one step as the list of stages it runs. The physics is described in docs/SPH.md. */
#include "sim/sim_internal.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/kernel.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model's constants (docs/SPH.md explains each). */
#define SIM_H_OVER_DX 2.0      /* kernel support radius h (= cell size) per particle spacing */
#define SIM_RHO0 1000.0        /* kg/m^3, water */
#define SIM_G 9.81             /* m/s^2 */
#define SIM_SOUND_FACTOR 10.0  /* c0 = this * sqrt(2 g H), H the highest fluid at the start */
#define SIM_CFL 0.25           /* dt = SIM_CFL * hs / (c0 + v_max) */
#define SIM_ALPHA 0.1          /* Monaghan's artificial viscosity */
#define SIM_MARGIN_OVER_DX 0.25 /* the hard clamp keeps centres this far (in dx) inside the walls */
#define SIM_RESTITUTION 0.0     /* normal velocity kept (reversed) by the hard clamp */
#define SIM_NO_SLIP 1           /* walls are no-slip, with the fluid's (artificial) viscosity */

const char *const sim_stage_names[SIM_STAGE_COUNT] = {"hash", "sort", "ranges", "reorder", "density", "forces", "integrate"};

struct sim {
    sim_layout layout;
    float *init_pos;        /* the scene's initial positions (count vec4s) */
    sim_params params;
    bool params_dirty;
    sim_gpu g;
    sorter *sorter;
    const gpu_caps *caps;
    double time;
    uint64_t steps;
    GLuint hash, ranges, reorder, density, forces, integrate; /* the stages' programs */
};

/* --- shared by the stage modules --- */

GLuint sim_program_make(const char *path, const char *label, char *err) {
    GLuint p = shader_make_compute(path, NULL, err);
    if (p) glObjectLabel(GL_PROGRAM, p, -1, label);
    return p;
}

void sim_dispatch(GLuint program, uint32_t threads) {
    if (!threads) return;
    glUseProgram(program);
    glDispatchCompute(gpu_groups(threads, SIM_WG), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void sim_cell_of(const sim_params *p, const float pos[3], int cell[3]) {
    for (int a = 0; a < 3; a++) {
        int c = (int)floorf((pos[a] - p->lo[a]) * p->inv_cell);
        cell[a] = c < 0 ? 0 : c > (int)p->dims[a] - 1 ? (int)p->dims[a] - 1 : c;
    }
}

/* --- limits --- */

uint64_t sim_max_particles(const gpu_caps *caps) {
    uint64_t by_groups = (uint64_t)caps->max_groups_x * SIM_WG;
    uint64_t by_ssbo = (uint64_t)caps->max_ssbo_bytes / 16; /* a vec4 per particle */
    uint64_t m = by_groups < by_ssbo ? by_groups : by_ssbo;
    return m < (1u << 30) ? m : (1u << 30);
}

/* --- making --- */

static double _sim_lattice_sum(double dx, double hs) {
    /* sum of W over a cubic lattice of spacing dx around a particle (itself included) */
    int r = (int)ceil(2 * hs / dx);
    double sum = 0;
    for (int z = -r; z <= r; z++)
        for (int y = -r; y <= r; y++)
            for (int x = -r; x <= r; x++) sum += sim_kernel_w(dx * sqrt((double)(x * x + y * y + z * z)), hs);
    return sum;
}

static void _sim_params_init(sim *s) {
    const sim_layout *lay = &s->layout;
    sim_params *p = &s->params;
    memset(p, 0, sizeof *p);
    double h = SIM_H_OVER_DX * lay->dx, cell = h * SIM_CELL_MARGIN;
    for (int a = 0; a < 3; a++) {
        p->lo[a] = (float)lay->lo[a];
        p->hi[a] = (float)lay->hi[a];
        double d = ceil((lay->hi[a] - lay->lo[a]) / cell);
        p->dims[a] = d < 1 ? 1 : (uint32_t)d;
    }
    p->gravity[1] = (float)-SIM_G;
    p->h = (float)h;
    p->cell = (float)cell;
    p->inv_cell = (float)(1.0 / cell);
    p->hs = (float)(h / 2);
    p->rho0 = (float)SIM_RHO0;
    p->mass = (float)(SIM_RHO0 / _sim_lattice_sum(lay->dx, h / 2));
    double vmax = sqrt(2 * SIM_G * lay->top);
    double c0 = SIM_SOUND_FACTOR * vmax;
    p->c0 = (float)c0;
    p->tait_b = (float)(SIM_RHO0 * c0 * c0 / 7);
    p->alpha = (float)SIM_ALPHA;
    p->dt = (float)(SIM_CFL * (h / 2) / (c0 + vmax));
    p->margin = (float)(SIM_MARGIN_OVER_DX * lay->dx);
    p->restitution = (float)SIM_RESTITUTION;
    p->dx = (float)lay->dx;
    /* The kinematic viscosity equivalent to the artificial viscosity (Monaghan 2005, 3D). */
    p->wall_friction = SIM_NO_SLIP ? (float)(p->alpha * c0 * (h / 2) / 10) : 0.0f;
}

static bool _sim_buffer(GLuint *b, size_t size, const void *data, const char *label, char *err) {
    *b = gpu_buffer_make(size, data, label, err);
    return *b != 0;
}

static bool _sim_buffers_make(sim *s, char *err) {
    sim_gpu *g = &s->g;
    size_t n = g->capacity;
    return _sim_buffer(&g->params, sizeof(sim_params), &s->params, "sim.params", err) &&
           _sim_buffer(&g->pos[0], 16 * n, NULL, "sim.pos0", err) && _sim_buffer(&g->pos[1], 16 * n, NULL, "sim.pos1", err) &&
           _sim_buffer(&g->vel[0], 16 * n, NULL, "sim.vel0", err) && _sim_buffer(&g->vel[1], 16 * n, NULL, "sim.vel1", err) &&
           _sim_buffer(&g->id[0], 4 * n, NULL, "sim.id0", err) && _sim_buffer(&g->id[1], 4 * n, NULL, "sim.id1", err) &&
           _sim_buffer(&g->keys, 4 * n, NULL, "sim.keys", err) && _sim_buffer(&g->vals, 4 * n, NULL, "sim.vals", err) &&
           _sim_buffer(&g->ranges, 8 * (size_t)g->cells, NULL, "sim.ranges", err) &&
           _sim_buffer(&g->dens, 4 * n, NULL, "sim.density", err) && _sim_buffer(&g->pterm, 4 * n, NULL, "sim.pterm", err) &&
           _sim_buffer(&g->accel, 16 * n, NULL, "sim.accel", err) &&
           _sim_buffer(&g->cell_keys, 4 * n, NULL, "sim.cell_keys", err);
}

static void _sim_buffers_destroy(sim_gpu *g) {
    GLuint *all[] = {&g->params, &g->pos[0], &g->pos[1], &g->vel[0], &g->vel[1], &g->id[0], &g->id[1], &g->keys,
                     &g->vals, &g->ranges, &g->dens, &g->pterm, &g->accel, &g->cell_keys};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) gpu_buffer_destroy(all[i]);
}

static sorter *_sim_sorter_make(sim *s, const char *algo, char *err) {
    char label[64];
    snprintf(label, sizeof label, "sim.sort.%s", algo ? algo : "?");
    char serr[ERR_LEN];
    sorter *t = sort_make(algo, &(sort_desc){.capacity = s->g.capacity, .label = label}, s->caps, serr);
    if (!t) fail(err, "sort '%s': %s", algo, serr);
    return t;
}

static void _sim_upload_params(sim *s) {
    s->params.n = s->g.n;
    s->params.dims[3] = s->g.cells;
    glNamedBufferSubData(s->g.params, 0, sizeof s->params, &s->params);
    s->params_dirty = false;
}

/* hash -> sort -> ranges (the neighbour search), with the optional profiler. */
static void _sim_search(sim *s, gpu_prof *prof) {
    sim_gpu *g = &s->g;
    if (s->params_dirty) _sim_upload_params(s);
    glBindBufferBase(GL_UNIFORM_BUFFER, SIM_UBO_PARAMS, g->params);
    if (prof) prof_begin(prof, SIM_STAGE_HASH);
    sim_hash_run(s->hash, g);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (prof) prof_end(prof, SIM_STAGE_HASH);
    if (prof) prof_begin(prof, SIM_STAGE_SORT);
    g->sorted = sort_run(s->sorter, (sort_pairs){g->keys, g->vals}, g->n, g->bits, NULL);
    if (prof) prof_end(prof, SIM_STAGE_SORT);
    if (prof) prof_begin(prof, SIM_STAGE_RANGES);
    sim_ranges_run(s->ranges, g);
    if (prof) prof_end(prof, SIM_STAGE_RANGES);
}

/* The neighbour search, reorder and density without moving anything: the state's densities are
 * valid from the start (the initial --dump shows them). */
static void _sim_prime(sim *s) {
    _sim_search(s, NULL);
    sim_reorder_run(s->reorder, &s->g);
    sim_density_run(s->density, &s->g);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

static void _sim_upload_particles(sim *s, const float *pos4, const float *vel4, uint32_t n) {
    sim_gpu *g = &s->g;
    g->n = n;
    g->cur = 0;
    glNamedBufferSubData(g->pos[0], 0, 16ll * n, pos4);
    if (vel4)
        glNamedBufferSubData(g->vel[0], 0, 16ll * n, vel4);
    else {
        float zero = 0;
        glClearNamedBufferData(g->vel[0], GL_R32F, GL_RED, GL_FLOAT, &zero);
    }
    uint32_t *ids = malloc(4ull * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) ids[i] = i;
    glNamedBufferSubData(g->id[0], 0, 4ll * n, ids);
    free(ids);
    s->params_dirty = true;
    _sim_prime(s);
}

sim *sim_make(const sim_desc *desc, const gpu_caps *caps, char *err) {
    const char *scene_name = desc->scene ? desc->scene : "dambreak";
    const char *sort_name = desc->sort ? desc->sort : "radix";
    const sim_scene *sc = sim_scene_find(scene_name);
    if (!sc) {
        fail(err, "unknown scene '%s'; choose dambreak, drop, double-dambreak or pool", scene_name);
        return NULL;
    }
    if (!sort_algo_find(sort_name)) {
        fail(err, "unknown sort '%s'; choose radix, bitonic or cpu", sort_name);
        return NULL;
    }
    sim *s = calloc(1, sizeof *s);
    s->caps = caps;
    sim_layout_plan(sc, desc->particles, &s->layout);
    uint64_t max = sim_max_particles(caps);
    if (s->layout.count > max) {
        fail(err, "%llu particles (asked for %u) are more than this GPU can simulate (at most %llu); ask for fewer",
             (unsigned long long)s->layout.count, desc->particles, (unsigned long long)max);
        free(s);
        return NULL;
    }
    _sim_params_init(s);
    uint64_t cells = (uint64_t)s->params.dims[0] * s->params.dims[1] * s->params.dims[2];
    if (cells > (uint64_t)caps->max_groups_x * SIM_WG || 8 * cells > (uint64_t)caps->max_ssbo_bytes) {
        fail(err, "%llu particles need a grid of %llu cells, more than this GPU can hold; ask for fewer particles",
             (unsigned long long)s->layout.count, (unsigned long long)cells);
        free(s);
        return NULL;
    }
    s->g.capacity = (uint32_t)s->layout.count;
    s->g.cells = (uint32_t)cells;
    s->g.bits = sort_bits_for(s->g.cells - 1);
    s->init_pos = malloc(16 * s->layout.count);
    if (!s->init_pos) {
        fail(err, "out of host memory for %llu particles; ask for fewer", (unsigned long long)s->layout.count);
        free(s);
        return NULL;
    }
    sim_layout_fill(&s->layout, SIM_G / ((double)s->params.c0 * s->params.c0), s->init_pos);
    s->params.n = s->g.capacity;
    s->params.dims[3] = s->g.cells;
    bool ok = _sim_buffers_make(s, err) && (s->hash = sim_program_make("sim/hash.comp", "sim.hash", err)) && (s->ranges = sim_program_make("sim/ranges.comp", "sim.ranges", err)) &&
              (s->reorder = sim_program_make("sim/reorder.comp", "sim.reorder", err)) && (s->density = sim_program_make("sim/density.comp", "sim.density", err)) &&
              (s->forces = sim_program_make("sim/forces.comp", "sim.forces", err)) && (s->integrate = sim_program_make("sim/integrate.comp", "sim.integrate", err)) &&
              (s->sorter = _sim_sorter_make(s, sort_name, err));
    if (!ok) {
        sim_destroy(s);
        return NULL;
    }
    _sim_upload_particles(s, s->init_pos, NULL, s->g.capacity);
    log_info("SIM", "%s: %u particles, dx %.4g m, h %.4g m, %u cells (%ux%ux%u, %u key bits), c0 %.3g m/s, dt %.3g s, sort %s",
             sc->name, s->g.n, s->layout.dx, s->params.h, s->g.cells, s->params.dims[0], s->params.dims[1],
             s->params.dims[2], s->g.bits, s->params.c0, s->params.dt, sort_name);
    return s;
}

void sim_destroy(sim *s) {
    if (!s) return;
    shader_destroy(&s->hash);
    shader_destroy(&s->ranges);
    shader_destroy(&s->reorder);
    shader_destroy(&s->density);
    shader_destroy(&s->forces);
    shader_destroy(&s->integrate);
    if (s->sorter) sort_destroy(s->sorter);
    _sim_buffers_destroy(&s->g);
    free(s->init_pos);
    free(s);
}

/* --- stepping --- */

void sim_step(sim *s, gpu_prof *prof) {
    sim_gpu *g = &s->g;
    _sim_search(s, prof);
    if (prof) prof_begin(prof, SIM_STAGE_REORDER);
    sim_reorder_run(s->reorder, g);
    if (prof) prof_end(prof, SIM_STAGE_REORDER);
    if (prof) prof_begin(prof, SIM_STAGE_DENSITY);
    sim_density_run(s->density, g);
    if (prof) prof_end(prof, SIM_STAGE_DENSITY);
    if (prof) prof_begin(prof, SIM_STAGE_FORCES);
    sim_forces_run(s->forces, g);
    if (prof) prof_end(prof, SIM_STAGE_FORCES);
    if (prof) prof_begin(prof, SIM_STAGE_INTEGRATE);
    sim_integrate_run(s->integrate, g);
    if (prof) prof_end(prof, SIM_STAGE_INTEGRATE);
    /* Readers of the results: the next step's shaders, the renderer's vertex pulls, read-backs. */
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    if (s->params.poke[3] > 0) {
        s->params.poke[3] = 0; /* the poke applies to one step */
        s->params_dirty = true;
    }
    s->time += s->params.dt;
    s->steps++;
}

void sim_reset(sim *s) {
    s->time = 0;
    s->steps = 0;
    _sim_upload_particles(s, s->init_pos, NULL, s->g.capacity);
}

bool sim_set_sort(sim *s, const char *algo, char *err) {
    if (!sort_algo_find(algo)) return fail(err, "unknown sort '%s'; choose radix, bitonic or cpu", algo ? algo : "(none)");
    sorter *next = _sim_sorter_make(s, algo, err);
    if (!next) return false;
    sort_destroy(s->sorter);
    s->sorter = next;
    /* The old sorter's buffers may have held the sorted pairs; search again with the new one. */
    _sim_search(s, NULL);
    return true;
}

void sim_poke(sim *s, const float point[3], float radius, float strength) {
    for (int a = 0; a < 3; a++) s->params.poke[a] = point[a];
    s->params.poke[3] = radius > 0 ? radius : 0;
    s->params.poke_strength = strength;
    s->params_dirty = true;
}

/* --- reading --- */

const char *sim_sort_name(const sim *s) { return sort_get_algo(s->sorter)->name; }
const char *sim_scene_name(const sim *s) { return s->layout.scene->name; }
uint32_t sim_particle_count(const sim *s) { return s->g.n; }
double sim_time(const sim *s) { return s->time; }
float sim_dt(const sim *s) { return s->params.dt; }
void sim_domain(const sim *s, float lo[3], float hi[3]) {
    for (int a = 0; a < 3; a++) {
        lo[a] = s->params.lo[a];
        hi[a] = s->params.hi[a];
    }
}
float sim_particle_radius(const sim *s) { return (float)(s->layout.dx / 2); }
uint32_t sim_cell_count(const sim *s) { return s->g.cells; }
GLuint sim_positions(const sim *s) { return s->g.pos[s->g.cur]; }
GLuint sim_velocities(const sim *s) { return s->g.vel[s->g.cur]; }
GLuint sim_densities(const sim *s) { return s->g.dens; }
GLuint sim_cell_keys(const sim *s) { return s->g.cell_keys; }
GLuint sim_ids(const sim *s) { return s->g.id[s->g.cur]; }
float sim_particle_mass(const sim *s) { return s->params.mass; }
float sim_rest_density(const sim *s) { return s->params.rho0; }
float sim_support_radius(const sim *s) { return s->params.h; }
float sim_sound_speed(const sim *s) { return s->params.c0; }
int sim_steps_per_frame(const sim *s) {
    double k = ceil((1.0 / 60.0) / s->params.dt - 1e-9);
    return k < 1 ? 1 : (int)k;
}

void sim_read_particles(sim *s, float *pos4, float *vel4, float *density) {
    sim_gpu *g = &s->g;
    uint32_t n = g->n;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t *ids = malloc(4ull * n + 4);
    float *tmp = malloc(16ull * n + 16);
    glGetNamedBufferSubData(g->id[g->cur], 0, 4ll * n, ids);
    if (pos4) {
        glGetNamedBufferSubData(g->pos[g->cur], 0, 16ll * n, tmp);
        for (uint32_t i = 0; i < n; i++) memcpy(pos4 + 4ull * ids[i], tmp + 4ull * i, 16);
    }
    if (vel4) {
        glGetNamedBufferSubData(g->vel[g->cur], 0, 16ll * n, tmp);
        for (uint32_t i = 0; i < n; i++) memcpy(vel4 + 4ull * ids[i], tmp + 4ull * i, 16);
    }
    if (density) {
        glGetNamedBufferSubData(g->dens, 0, 4ll * n, tmp);
        for (uint32_t i = 0; i < n; i++) density[ids[i]] = tmp[i];
    }
    free(tmp);
    free(ids);
}

void sim_read_stats(sim *s, sim_stats *out) {
    sim_gpu *g = &s->g;
    uint32_t n = g->n;
    memset(out, 0, sizeof *out);
    out->particles = n;
    out->time = s->time;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float *pos = malloc(16ull * n + 16), *vel = malloc(16ull * n + 16), *dens = malloc(4ull * n + 4);
    glGetNamedBufferSubData(g->pos[g->cur], 0, 16ll * n, pos);
    glGetNamedBufferSubData(g->vel[g->cur], 0, 16ll * n, vel);
    glGetNamedBufferSubData(g->dens, 0, 4ll * n, dens);
    const sim_params *p = &s->params;
    double m = p->mass, rho0 = p->rho0, front = -INFINITY, sum_rho = 0, dev = 0, ke = 0, pe = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *x = pos + 4ull * i, *v = vel + 4ull * i;
        bool finite = isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]) && isfinite(v[0]) && isfinite(v[1]) &&
                      isfinite(v[2]) && isfinite(dens[i]);
        if (!finite) {
            out->non_finite++;
            continue;
        }
        for (int a = 0; a < 3; a++)
            if (x[a] < p->lo[a] || x[a] > p->hi[a]) {
                out->outside++;
                break;
            }
        if (x[0] > front) front = x[0];
        sum_rho += dens[i];
        double d = fabs(dens[i] / rho0 - 1);
        if (d > dev) dev = d;
        ke += 0.5 * m * ((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
        pe += m * SIM_G * (x[1] - p->lo[1]);
    }
    uint32_t ok = n - out->non_finite;
    out->front_x = ok ? front + s->layout.dx / 2 : NAN;
    out->density_ratio = ok ? sum_rho / ok / rho0 : NAN;
    out->density_max_dev = dev;
    out->kinetic_energy = ke;
    out->potential_energy = pe;
    out->mass = m * n;
    free(pos);
    free(vel);
    free(dens);
}

/* --- test hooks --- */

bool sim_set_particles(sim *s, const float *pos4, const float *vel4, uint32_t n, char *err) {
    if (n > s->g.capacity) return fail(err, "%u particles, but this simulation was made for at most %u", n, s->g.capacity);
    _sim_upload_particles(s, pos4, vel4, n);
    return true;
}

void sim_find_neighbours(sim *s) {
    _sim_search(s, NULL);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

const sim_gpu *sim_get_gpu(const sim *s) { return &s->g; }
const sim_params *sim_get_params(const sim *s) { return &s->params; }
const sim_layout *sim_get_layout(const sim *s) { return &s->layout; }
