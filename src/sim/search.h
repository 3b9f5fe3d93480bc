/* search: the neighbour search every solver shares: hash -> sort -> ranges -> reorder.
 *
 *   sim_search *q = sim_search_make(&(sim_search_desc){ .capacity = n, .cells = c, .sort = &sort_algo_radix }, caps, err);
 *   each step:  sim_search_run(q, &particles, prof, first_stage, gate);
 *   afterwards: the particles are in cell order (particles.cur flipped) and sim_search_ranges(q)
 *               is the cell table of that order: starts[c] for every cell c and starts[cells] = n,
 *               so cell c holds [starts[c], starts[c + 1]); neighbour passes walk the 27 cells
 *               around a particle through it (125 with h/2 cells; shaders/sim/neighbours.glsl).
 *
 * The counting sort's scanned counts are that table already: with it the ranges stage is skipped
 * (its stage name reads "ranges=sort"). A sorter that takes a fused first count (sort.h) gets it
 * from the hash pass, which saves the sort a dispatch.
 *   sim_search_destroy(q);
 *
 * It owns the (cell key, particle index) pairs, the sorter, the cell ranges and the sorted keys
 * kept for the renderer. With a profiler its four stages are timed as first_stage + 0..3
 * (names: sim_search_stage_names). Errors: make returns NULL with err for an unknown sort or a
 * shader that fails to build.
 */
#ifndef FLUID_SIM_SEARCH_H
#define FLUID_SIM_SEARCH_H
#include "gpu/prof.h"
#include "sim/particles.h"
#include "sort/sort.h"

#define SIM_SEARCH_STAGES 4
extern const char *const sim_search_stage_names[SIM_SEARCH_STAGES]; /* hash, sort, ranges, reorder */

typedef struct sim_search_desc {
    uint32_t capacity;     /* particles */
    uint32_t cells;        /* grid cells: keys are below this */
    const sort_algo *sort; /* one of sort_algos[] (sort.h); NULL: the first */
} sim_search_desc;

typedef struct sim_search sim_search;

sim_search *sim_search_make(const sim_search_desc *desc, const gpu_caps *caps, char *err);
/* The width in bits of the cell keys of a grid of `cells` cells (what a search of it sorts). */
uint32_t sim_search_key_bits(uint64_t cells);
void sim_search_destroy(sim_search *q);
/* hash, sort, ranges and reorder the particles p (bound by the caller with sim_particles_bind).
 * gate (NULL: none): a word on the GPU that, where it is not 0 when the search gets there, says the
 * particles are where the last search left them, in its order: the sort may skip its work (sort.h,
 * "Gate"), the ranges stay, and the reorder copies each particle to its own place (the particle
 * buffers swap all the same). The same particles, table and cell keys as a search in full of
 * sorted keys (a stable sort of them moves nothing). */
void sim_search_run(sim_search *q, sim_particles *p, gpu_prof *prof, int first_stage, const sort_gate *gate);
/* hash, sort and ranges only: nothing moves (tests; the first state; after a sort switch). */
void sim_search_find(sim_search *q, const sim_particles *p);
bool sim_search_set_sort(sim_search *q, const sort_algo *algo, char *err);

/* The next step's hash in the solver's last pass (DFSPH's integrate, WCSPH's forces), which saves
 * the search its hash dispatch: the pass is built with sim_search_hash_defines (the sorter's
 * fused-count defines; sim_search_hash_pass builds it so, again after a sort switch) and includes
 * shaders/sim/search/hash_emit.glsl; before its dispatch sim_search_hash_bind binds the pairs and
 * the fused count, after it sim_search_hashed(q, n) tells the search, whose next run then skips its
 * hash. Anything else that moves the particles (an upload) must call sim_search_invalidate. */
void sim_search_hash_defines(const sim_search *q, char *out, size_t len);
uint32_t sim_search_serial(const sim_search *q);
/* Such a pass's program, kept for the sorter it was built for. */
typedef struct sim_hash_pass {
    GLuint prog;     /* 0: none (not built yet, or it did not build) */
    uint32_t serial; /* the search's sorter it was built for */
    bool failed;     /* its last build failed (said once; not tried again for the same sorter) */
} sim_hash_pass;
/* The program of shaders/PATH with `defines` and the hash's, for q's sorter (built again after a
 * sort switch); 0 where it does not build (logged once: the pass then runs without it and the
 * search hashes). */
GLuint sim_search_hash_pass(sim_hash_pass *h, const sim_search *q, const char *path, const char *defines, const char *label);
void sim_search_hash_bind(sim_search *q);
void sim_search_hashed(sim_search *q, uint32_t n);
void sim_search_invalidate(sim_search *q);
/* The compare mode (compare.h): given the pairs before and after the sort of an armed step. */
struct sim_compare;
void sim_search_set_compare(sim_search *q, struct sim_compare *c);
void sim_search_path(const sim_search *q, char *out, size_t len); /* the sorter's sort_path */
const char *sim_search_sort_name(const sim_search *q);
const sort_algo *sim_search_sort(const sim_search *q);
GLuint sim_search_ranges(const sim_search *q);                     /* the cell table: cells + 1 uints */
const char *sim_search_stage_name(const sim_search *q, int stage); /* the names, as the sort makes them */
GLuint sim_search_cell_keys(const sim_search *q);                  /* uint per particle, current order */
sort_pairs sim_search_sorted(const sim_search *q);                 /* the last sort's output (tests) */
uint32_t sim_search_bits(const sim_search *q);

#endif
