/* search: hash -> sort -> ranges -> reorder, shared by every solver. */
#include "sim/search.h"
#include "sim/compare.h"
#include "sort/sort_layout.h"
#include "core/env.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sim_search_stage_names[SIM_SEARCH_STAGES] = {"hash", "sort", "ranges", "reorder"};
static const char *const _search_ranges_by_sort = "ranges=sort"; /* the counting sort made the table */

struct sim_search {
    const gpu_caps *caps;
    uint32_t capacity, cells, bits;
    uint32_t range_cells; /* cell-table entries a thread of the ranges pass makes */
    GLuint keys, vals; /* hash output = sort input */
    sort_pairs sorted; /* sort output (the buffers above or the sorter's own) */
    GLuint ranges;     /* the cell table ranges.comp makes: uint start per cell, then n */
    GLuint table;      /* the table of the last search: ranges, or the counting sort's own */
    GLuint cell_keys;  /* per particle, current order: its cell (for the renderer) */
    sorter *sorter;
    sim_compare *cmp; /* the compare mode: takes the pairs before and after the sort (NULL: off) */
    uint32_t serial; /* changes with the sorter (the solvers' hash programs follow it) */
    bool prehashed;  /* the solver's last pass made the next search's hash (sim_search_hashed) */
    uint32_t prehashed_n;
    GLuint hash, range, reorder, merged; /* programs */
};

/* Cell-table entries a thread of the ranges pass makes (SIM_RANGE_CELLS in
 * shaders/sim/search/ranges_fns.glsl; FLUID_SEARCH_RANGE_CELLS sets it): 1 up to
 * SEARCH_RANGE_ONE_UPTO particles, 2 past it. Each thread's first entry is searched from the last
 * table's (a few keys off), each next one galloped to from the one before. Measured on the H100
 * (docs/BENCHMARKS.md, s30), ranges+reorder a step with 1, 2 and 4 entries a thread: at 27,648 (20,736
 * cells) 9.6, 10.6 and 12.9 µs (13.0 before the guesses, with 4); at 109,744 (82,308 cells) 10.2,
 * 11.1 and 13.7 (13.7); at 986,078 WCSPH (h/2 cells, 5.9 M) 2 and 4 took 56.2 and 62.9 (63.2), and
 * DFSPH (h cells, 0.74 M) 1 and 4 took 40.3 and 40.9 (40.7). Short dispatches are latency-bound,
 * each thread's chain of dependent reads what they cost; before the guesses a thread's first
 * search was a binary search of log2 n reads, and at 986,078 on h/2 cells 1, 2, 4, 8 and 32 a
 * thread took 114, 77, 65, 91 and 180 µs (s18). */
#define SEARCH_RANGE_CELLS_SMALL 1
#define SEARCH_RANGE_CELLS_LARGE 2
#define SEARCH_RANGE_ONE_UPTO 262144
#define SIM_LOC_CARRY_DENS 0 /* the reorders' u_carry_dens (carry.glsl) */

static sorter *_search_sorter_make(sim_search *q, const sort_algo *algo, char *err) {
    char label[64], serr[ERR_LEN];
    snprintf(label, sizeof label, "sim.sort.%s", algo->name);
    sorter *t = sort_make(algo->name, &(sort_desc){.capacity = q->capacity, .key_bits = q->bits, .label = label}, q->caps, serr);
    if (!t) fail(err, "sort '%s': %s", algo->name, serr);
    return t;
}

/* The hash program for a sorter: it makes the sorter's producer count where it takes one. */
static GLuint _search_hash_make(sim_search *q, const sorter *t, char *err) {
    char defines[8192];
    snprintf(defines, sizeof defines, "%s#define SORT_PRODUCER_BINDING %d\n#define SIM_KEY_BITS %uu\n", sort_producer_defines(t),
             SIM_B_SORT_FUSED, q->bits);
    return sim_program_make("sim/search/hash.comp", defines, "sim.hash", err);
}

uint32_t sim_search_key_bits(uint64_t cells) {
    return sort_bits_for(cells > UINT32_MAX ? UINT32_MAX : (uint32_t)(cells ? cells - 1 : 0));
}

sim_search *sim_search_make(const sim_search_desc *desc, const gpu_caps *caps, char *err) {
    sim_search *q = calloc(1, sizeof *q);
    q->caps = caps;
    q->capacity = desc->capacity;
    q->cells = desc->cells;
    q->bits = sim_search_key_bits(desc->cells);
    q->range_cells = desc->capacity <= SEARCH_RANGE_ONE_UPTO ? SEARCH_RANGE_CELLS_SMALL : SEARCH_RANGE_CELLS_LARGE;
    if (!env_u32(ENV_SEARCH_RANGE_CELLS, 1, 32, &q->range_cells, err)) {
        free(q);
        return NULL;
    }
    char range_defines[64], merged_defines[sizeof SORT_LAYOUT_GLSL_TEXT + 64];
    snprintf(range_defines, sizeof range_defines, "#define SIM_RANGE_CELLS %u\n", q->range_cells);
    snprintf(merged_defines, sizeof merged_defines, "%s%s", SORT_LAYOUT_GLSL_TEXT, range_defines);
    size_t n = desc->capacity ? desc->capacity : 1;
    bool ok = (q->keys = gpu_buffer_make(4 * n, NULL, "sim.keys", err)) &&
              (q->vals = gpu_buffer_make(4 * n, NULL, "sim.vals", err)) &&
              (q->ranges = gpu_buffer_make(4 * ((size_t)desc->cells + 1), NULL, "sim.ranges", err)) &&
              (q->cell_keys = gpu_buffer_make(4 * n, NULL, "sim.cell_keys", err)) &&
              (q->range = sim_program_make("sim/search/ranges.comp", range_defines, "sim.ranges", err)) &&
              /* the reorders read the search's gate as the sorts do (sort_gate.glsl, the sort's constants) */
              (q->reorder = sim_program_make("sim/search/reorder.comp", SORT_LAYOUT_GLSL_TEXT, "sim.reorder", err)) &&
              (q->merged = sim_program_make("sim/search/ranges_reorder.comp", merged_defines,
                                            "sim.ranges_reorder", err)) &&
              (q->sorter = _search_sorter_make(q, desc->sort ? desc->sort : sort_algos[0], err)) &&
              (q->hash = _search_hash_make(q, q->sorter, err));
    if (!ok) {
        sim_search_destroy(q);
        return NULL;
    }
    q->sorted = (sort_pairs){q->keys, q->vals};
    q->table = q->ranges;
    return q;
}

void sim_search_destroy(sim_search *q) {
    if (!q) return;
    shader_destroy(&q->hash);
    shader_destroy(&q->range);
    shader_destroy(&q->reorder);
    shader_destroy(&q->merged);
    if (q->sorter) sort_destroy(q->sorter);
    GLuint *all[] = {&q->keys, &q->vals, &q->ranges, &q->cell_keys};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) gpu_buffer_destroy(all[i]);
    free(q);
}

/* --- the next step's hash in the solver's last pass --- */

void sim_search_hash_defines(const sim_search *q, char *out, size_t len) {
    snprintf(out, len, "#define SIM_HASH_EMIT 1\n%s#define SORT_PRODUCER_BINDING %d\n#define SIM_KEY_BITS %uu\n",
             sort_producer_defines(q->sorter), SIM_B_SORT_FUSED, q->bits);
}

uint32_t sim_search_serial(const sim_search *q) { return q->serial; }

GLuint sim_search_hash_pass(sim_hash_pass *h, const sim_search *q, const char *path, const char *defines, const char *label) {
    if (h->serial == q->serial && (h->prog || h->failed)) return h->prog; /* a failed build is not tried again each step */
    shader_destroy(&h->prog);
    h->serial = q->serial;
    char all[8192], err[ERR_LEN];
    size_t used = (size_t)snprintf(all, sizeof all, "%s", defines);
    sim_search_hash_defines(q, all + used, sizeof all - used);
    h->prog = sim_program_make(path, all, label, err);
    if (!h->prog && !h->failed)
        log_error("SIM", "%s: %s (the pass runs without the next step's hash; the search hashes)", label, err);
    h->failed = !h->prog;
    return h->prog;
}

void sim_search_hash_bind(sim_search *q) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, q->keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VALS, q->vals);
    GLuint fused = sort_producer_buffer(q->sorter);
    if (fused) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_SORT_FUSED, fused);
}

void sim_search_hashed(sim_search *q, uint32_t n) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (sort_producer_buffer(q->sorter)) sort_producer_ready(q->sorter);
    q->prehashed = true;
    q->prehashed_n = n;
}

/* A producer count made for pairs that will not be sorted is consumed by a sort of them, so that the
 * sorter's count starts again from nothing. */
void sim_search_invalidate(sim_search *q) {
    if (!q->prehashed) return;
    q->prehashed = false;
    if (sort_producer_buffer(q->sorter)) sort_run(q->sorter, (sort_pairs){q->keys, q->vals}, q->prehashed_n, q->bits, NULL);
}

/* The sort's dispatches, counted through its trace (its CPU reference's read-back and upload are
 * traced too, but they are no dispatches). */
static void _search_count_begin(void *user, const char *dispatch) {
    (void)user;
    if (strncmp(dispatch, "cpu.", 4)) sim_dispatch_count_add(1);
}
static void _search_count_end(void *user) { (void)user; }
static const sort_trace _search_counter = {.begin = _search_count_begin, .end = _search_count_end};

/* The ranges pass's threads: range_cells entries each, cells + 1 in all. */
static uint32_t _search_range_threads(const sim_search *q) { return q->cells / q->range_cells + 1; }

/* hash: (cell key, index) per particle, and the sort's first count where it takes a fused one.
 * ranges: the start of every cell in the sorted keys (skipped where the counting sort made it;
 * left to the caller where `ranges` is false). */
static void _search_find(sim_search *q, const sim_particles *p, gpu_prof *prof, int first, bool ranges, const sort_gate *gate) {
    glBindBufferBase(GL_UNIFORM_BUFFER, SIM_UBO_PARAMS, p->params);
    prof_begin(prof, first + 0);
    if (q->prehashed && q->prehashed_n == p->n) {
        q->prehashed = false; /* the solver's last pass made the pairs and the producer count */
    } else {
        sim_search_invalidate(q);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, p->pos[p->cur]);
        sim_search_hash_bind(q);
        sim_dispatch(q->hash, p->n);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        if (sort_producer_buffer(q->sorter)) sort_producer_ready(q->sorter);
    }
    prof_end(prof, first + 0);
    if (q->cmp) sim_compare_take_input(q->cmp, (sort_pairs){q->keys, q->vals}, p->n); /* outside the stages */
    prof_begin(prof, first + 1);
    q->sorted = sort_run_gated(q->sorter, (sort_pairs){q->keys, q->vals}, p->n, q->bits, gate, &_search_counter);
    prof_end(prof, first + 1);
    if (q->cmp) sim_compare_take_output(q->cmp, q->sorted, p->n);
    q->table = sort_key_starts(q->sorter);
    if (!ranges) return;
    prof_begin(prof, first + 2);
    if (!q->table) {
        q->table = q->ranges;
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, q->sorted.keys);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, q->ranges);
        sim_dispatch(q->range, _search_range_threads(q));
    }
    prof_end(prof, first + 2);
}

void sim_search_find(sim_search *q, const sim_particles *p) { _search_find(q, p, NULL, 0, true, NULL); }

/* reorder: copies position, velocity and original id of every particle into its sorted place
 * (the other buffer of each pair) and keeps its cell key for the renderer. Where the search makes
 * the cell table itself, one dispatch makes the table and the copy: the merged pass
 * (ranges_reorder.comp; "fused" is the DFSPH step's word only). */
void sim_search_run(sim_search *q, sim_particles *p, gpu_prof *prof, int first, const sort_gate *gate) {
    bool merged = !sort_key_starts(q->sorter); /* the merged pass: ranges and reorder in one dispatch */
    _search_find(q, p, prof, first, !merged, gate);
    if (merged) prof_begin(prof, first + 2);
    else prof_begin(prof, first + 3);
    int a = p->cur, b = 1 - p->cur;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, p->pos[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, p->vel[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_IN, p->id[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_OUT, p->pos[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_OUT, p->vel[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_OUT, p->id[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, q->sorted.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VALS, q->sorted.vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_CELL_KEYS, q->cell_keys);
    /* the densities' carry (carry.glsl): bound here, the sort's own buffers having taken those points */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS, p->dens);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS_PREV, p->dens_prev);
    /* the gate, as the sort's (sort_gate.glsl; no gate: the keys stand in at its binding, unread) */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SORT_BIND_GATE, gate ? gate->buffer : q->keys);
    glProgramUniform1ui(merged ? q->merged : q->reorder, SORT_LOC_GATE, sort_gate_value(gate));
    glProgramUniform1ui(merged ? q->merged : q->reorder, SIM_LOC_CARRY_DENS, p->carry_dens); /* carry.glsl */
    if (merged) {
        q->table = q->ranges;
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, q->ranges);
        uint32_t t = _search_range_threads(q);
        sim_dispatch(q->merged, p->n > t ? p->n : t);
        prof_end(prof, first + 2);
        prof_begin(prof, first + 3); /* nothing left to time: done in the merged pass */
        prof_untimed(prof, first + 3);
    } else sim_dispatch(q->reorder, p->n);
    p->cur = b;
    prof_end(prof, first + 3);
}

bool sim_search_set_sort(sim_search *q, const sort_algo *algo, char *err) {
    sorter *next = _search_sorter_make(q, algo, err);
    if (!next) return false;
    GLuint hash = _search_hash_make(q, next, err);
    if (!hash) {
        sort_destroy(next);
        return false;
    }
    sim_search_invalidate(q);
    sort_destroy(q->sorter);
    shader_destroy(&q->hash);
    q->serial++;
    q->sorter = next;
    q->hash = hash;
    q->sorted = (sort_pairs){q->keys, q->vals};
    return true;
}

void sim_search_path(const sim_search *q, char *out, size_t len) { sort_path(q->sorter, q->capacity, q->bits, out, len); }

void sim_search_set_compare(sim_search *q, struct sim_compare *c) { q->cmp = c; }

const char *sim_search_sort_name(const sim_search *q) { return sort_get_algo(q->sorter)->name; }
const sort_algo *sim_search_sort(const sim_search *q) { return sort_get_algo(q->sorter); }
GLuint sim_search_ranges(const sim_search *q) { return q->table; }
const char *sim_search_stage_name(const sim_search *q, int stage) {
    if (stage == 2) return sort_key_starts(q->sorter) ? _search_ranges_by_sort : "ranges+reorder";
    if (stage == 3 && !sort_key_starts(q->sorter)) return "reorder=ranges";
    return stage >= 0 && stage < SIM_SEARCH_STAGES ? sim_search_stage_names[stage] : "?";
}
GLuint sim_search_cell_keys(const sim_search *q) { return q->cell_keys; }
sort_pairs sim_search_sorted(const sim_search *q) { return q->sorted; }
uint32_t sim_search_bits(const sim_search *q) { return q->bits; }
