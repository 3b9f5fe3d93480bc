/* sim_read: what the simulation shows: its names, its buffers for the renderer, the read-backs
 * (sim_read_particles, sim_read_stats) and the tests' getters (sim_test.h). Nothing here steps it. */
#include "core/err.h"
#include "sim/sim_internal.h"
#include "sim/sim_test.h"
#include "sim/solver_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *sim_sort_name(const sim *s) { return sim_search_sort_name(s->q); }
const sort_algo *sim_sort(const sim *s) { return sim_search_sort(s->q); }
const char *sim_solver_name(const sim *s) { return s->solver->name; }
const char *sim_scene_name(const sim *s) { return s->layout.scene->name; }
uint32_t sim_particle_count(const sim *s) { return s->p.n; }
double sim_time(const sim *s) { return s->sum.time; }
float sim_dt(const sim *s) { return s->sum.steps ? (float)s->sum.dt_last : s->params.dt; }
void sim_domain(const sim *s, float lo[3], float hi[3]) {
    for (int a = 0; a < 3; a++) {
        lo[a] = s->params.lo[a];
        hi[a] = s->params.hi[a];
    }
}
float sim_particle_radius(const sim *s) { return (float)(s->layout.dx / 2); }
float sim_sound_speed(const sim *s) { return s->params.c0; }
int sim_stage_count(const sim *s) { return SIM_SEARCH_STAGES + s->solver->stage_count; }

int sim_phase_count(const sim *s) {
    bool recent = s->sum.phase_steps && s->sum.steps - s->sum.phase_last < SIM_PHASES_RECENT;
    return recent && s->solver->stage_count <= SIM_RECORD_PHASES ? s->solver->stage_count : 0;
}
const char *sim_stage_name(const sim *s, int stage) {
    return stage < 0 || stage >= sim_stage_count(s) ? "?" : s->stage_names[stage];
}
const char *sim_stage_note(const sim *s) { return s->solver->stage_note ? s->solver->stage_note(s->impl) : NULL; }
GLuint sim_positions(const sim *s) { return s->p.pos[s->p.cur]; }
GLuint sim_velocities(const sim *s) { return s->p.vel[s->p.cur]; }
GLuint sim_densities(const sim *s) { return s->p.dens; }
GLuint sim_cell_keys(const sim *s) { return sim_search_cell_keys(s->q); }
void sim_get_grid(const sim *s, sim_grid *g) {
    *g = (sim_grid){.ranges = sim_search_ranges(s->q), .cell = s->params.cell, .keys = s->params.dims[3], .h = s->params.h};
    for (int a = 0; a < 3; a++) g->lo[a] = s->params.lo[a], g->dims[a] = s->params.dims[a];
    memcpy(g->brick, s->params.brick, sizeof g->brick);
}

/* The permutation's ids read back: each below n and none twice (else a particle was lost). */
static bool _sim_ids_valid(const uint32_t *ids, uint32_t n) {
    uint8_t *seen = calloc(n + 1, 1);
    bool ok = seen != NULL;
    for (uint32_t i = 0; ok && i < n; i++) ok = ids[i] < n && !seen[ids[i]]++;
    free(seen);
    return ok;
}

/* Reads a per-particle buffer of `comps` floats and scatters it by original id (ids checked). */
static void _sim_read_by_id(const sim_particles *p, GLuint buf, int comps, const uint32_t *ids, float *out) {
    uint32_t n = p->n;
    float *tmp = malloc(4ull * comps * n + 16);
    glGetNamedBufferSubData(buf, 0, 4ll * comps * n, tmp);
    for (uint32_t i = 0; i < n; i++) memcpy(out + (size_t)comps * ids[i], tmp + (size_t)comps * i, 4ull * comps);
    free(tmp);
}

bool sim_read_particles(sim *s, float *pos4, float *vel4, float *density) {
    sim_particles *p = &s->p;
    sim_sync(s);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t *ids = malloc(4ull * p->n + 4);
    glGetNamedBufferSubData(p->id[p->cur], 0, 4ll * p->n, ids);
    bool ok = _sim_ids_valid(ids, p->n);
    if (ok && pos4) _sim_read_by_id(p, p->pos[p->cur], 4, ids, pos4);
    if (ok && vel4) _sim_read_by_id(p, p->vel[p->cur], 4, ids, vel4);
    if (ok && density) _sim_read_by_id(p, p->dens, 1, ids, density);
    free(ids);
    return ok;
}

static const float *_sim_stack_pos; /* qsort's context: the positions (4 floats a particle) */
static int _sim_pos_cmp(const void *a, const void *b) {
    return memcmp(_sim_stack_pos + 4ull * *(const uint32_t *)a, _sim_stack_pos + 4ull * *(const uint32_t *)b, 12);
}

/* The particles away from the walls that sit exactly (bit for bit) on another's position. A
 * particle with a coordinate at the extreme of all the particles' on that axis is left out: the
 * hard walls clamp particles there, and a fluid blown up by too long a step (WCSPH with
 * --substeps 2) piles them into edges and corners at the same clamped values. */
static uint32_t _sim_stacked(const float *pos4, uint32_t n) {
    uint32_t *order = malloc(4ull * n + 4), stacked = 0, inner = 0;
    if (!order) return 0;
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) lo[a] = hi[a] = n ? pos4[a] : 0;
    for (uint32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) lo[a] = fminf(lo[a], pos4[4ull * i + a]), hi[a] = fmaxf(hi[a], pos4[4ull * i + a]);
    for (uint32_t i = 0; i < n; i++) {
        bool wall = false;
        for (int a = 0; a < 3; a++) wall = wall || pos4[4ull * i + a] == lo[a] || pos4[4ull * i + a] == hi[a];
        if (!wall) order[inner++] = i;
    }
    _sim_stack_pos = pos4;
    qsort(order, inner, 4, _sim_pos_cmp);
    for (uint32_t i = 0; i < inner; i++)
        stacked += (i > 0 && !_sim_pos_cmp(&order[i - 1], &order[i])) ||
                   (i + 1 < inner && !_sim_pos_cmp(&order[i], &order[i + 1]));
    free(order);
    return stacked;
}

/* The same for an output: a lost particle (its id out of range or repeated), a value that is not
 * finite, or particles stacked on one another (more than 1% of them exactly on another's position,
 * away from the walls: SPH pushes coinciding particles nowhere, so only a corrupt state makes many)
 * is an error in `err` (the fluid blew up or the GPU state is
 * corrupt), never data. */
bool sim_read_checked(sim *s, float *pos4, float *vel4, float *density, char *err) {
    uint32_t n = s->p.n;
    if (!sim_read_particles(s, pos4, vel4, density))
        return fail(err, "the particles read back are corrupt: an id is out of range or repeated (a particle was lost)");
    const char *what[3] = {"position", "velocity", "density"};
    const float *arr[3] = {pos4, vel4, density};
    for (int a = 0; a < 3; a++) {
        int comps = a < 2 ? 3 : 1, stride = a < 2 ? 4 : 1;
        for (uint32_t i = 0; arr[a] && i < n; i++)
            for (int c = 0; c < comps; c++)
                if (!isfinite(arr[a][(size_t)stride * i + c]))
                    return fail(err, "particle %u's %s is not finite (%g): the fluid blew up", i, what[a],
                                (double)arr[a][(size_t)stride * i + c]);
    }
    uint32_t stacked = pos4 ? _sim_stacked(pos4, n) : 0;
    if (stacked > 1 && stacked > n / 100)
        return fail(err, "%u of %u particles sit exactly on another particle's position: the fluid's state is corrupt", stacked, n);
    return true;
}

bool sim_read_pressure(sim *s, float *out) {
    sim_particles *p = &s->p;
    sim_sync(s);
    float *cur = malloc(4ull * p->n + 4);
    const sim_solver_test_hooks *t = s->solver->test; /* NULL: a solver without test hooks */
    bool ok = t && t->read_pressure && t->read_pressure(s->impl, p, cur);
    if (ok) {
        uint32_t *ids = malloc(4ull * p->n + 4);
        glGetNamedBufferSubData(p->id[p->cur], 0, 4ll * p->n, ids);
        ok = _sim_ids_valid(ids, p->n);
        for (uint32_t i = 0; ok && i < p->n; i++) out[ids[i]] = cur[i];
        free(ids);
    }
    free(cur);
    return ok;
}

bool sim_run_coarse(sim *s, float dt, float dt_cfl, const float *in, float *out, float *factor, float *pos4) {
    sim_sync(s);
    const sim_solver_test_hooks *t = s->solver->test;
    if (!t || !t->coarse) return false;
    sim_particles_bind(&s->p);
    return t->coarse(s->impl, &s->p, s->q, dt, dt_cfl, in, out, factor, pos4);
}

void sim_read_stats(sim *s, sim_stats *out) {
    sim_particles *g = &s->p;
    uint32_t n = g->n;
    sim_sync(s);
    memset(out, 0, sizeof *out);
    out->particles = n;
    out->time = s->sum.time;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float *pos = malloc(16ull * n + 16), *vel = malloc(16ull * n + 16), *dens = malloc(4ull * n + 4);
    glGetNamedBufferSubData(g->pos[g->cur], 0, 16ll * n, pos);
    glGetNamedBufferSubData(g->vel[g->cur], 0, 16ll * n, vel);
    glGetNamedBufferSubData(g->dens, 0, 4ll * n, dens);
    const sim_params *p = &s->params;
    double m = p->mass, rho0 = p->rho0, front = -INFINITY, sum_rho = 0, dev = 0, ke = 0, pe = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *x = pos + 4ull * i, *v = vel + 4ull * i;
        bool finite = isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]) && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) &&
                      isfinite(dens[i]);
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

/* --- the tests' getters (sim_test.h) --- */

const sim_particles *sim_get_particles(const sim *s) { return &s->p; }
const sim_search *sim_get_search(const sim *s) { return s->q; }
const sim_params *sim_get_params(const sim *s) { return &s->params; }
void sim_set_forces(sim *s, const float gravity[3], float wall_friction) {
    for (int a = 0; a < 3; a++) s->params.gravity[a] = gravity[a];
    s->params.wall_friction = wall_friction;
    s->params_dirty = true;
}
const void *sim_get_solver_params(const sim *s) {
    const sim_solver_test_hooks *t = s->solver->test;
    return t && t->params ? t->params(s->impl) : NULL;
}
const sim_layout *sim_get_layout(const sim *s) { return &s->layout; }
uint32_t sim_get_cells(const sim *s) { return s->params.dims[3]; }
GLuint sim_get_accel(const sim *s) {
    const sim_solver_test_hooks *t = s->solver->test;
    return t && t->accel ? t->accel(s->impl) : 0;
}
uint32_t sim_read_neighbour_counts(sim *s, uint32_t *out) {
    const sim_solver_test_hooks *t = s->solver->test;
    sim_sync(s);
    return t && t->read_neighbour_counts ? t->read_neighbour_counts(s->impl, &s->p, out) : 0;
}

/* --- the diffuse particles (diffuse.h) --- */

void sim_get_diffuse(const sim *s, sim_diffuse_view *out) { sim_diffuse_get_view(s->diffuse, out); }
bool sim_read_diffuse(const sim *s, sim_diffuse_counts *out, bool wait) { return sim_diffuse_read(s->diffuse, out, wait); }
void sim_set_diffuse_shown(sim *s, bool on) { sim_diffuse_show(s->diffuse, on); }
void sim_get_diffuse_buffers(const sim *s, GLuint out[2], uint32_t *slots) { sim_diffuse_buffers(s->diffuse, out, slots); }
bool sim_read_diffuse_potentials(sim *s, float dt, float *out4, char *err) {
    return sim_diffuse_potentials(s->diffuse, &s->p, sim_search_ranges(s->q), &s->params, dt, out4, err);
}
void sim_advect_diffuse(sim *s, float dt) { sim_diffuse_advect(s->diffuse, &s->p, sim_search_ranges(s->q), &s->params, dt); }
