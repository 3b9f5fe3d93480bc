/* sort: sorting (key, value) pairs of uint32 held in GL buffers, by key, on the GPU.
 *
 * One interface, several algorithms chosen by value (by name, from sort_algos[]):
 *   radix     LSD radix sort, stable, 8-bit digits (9 where onesweep saves a pass). Two ways through:
 *               onesweep          one histogram dispatch for every digit, then one scatter per
 *                                 digit whose tile offsets come from a chained scan with
 *                                 decoupled look-back (a work group reads earlier ones' counts);
 *               reduce-then-scan  count, scan, scatter per digit: no group ever waits on another.
 *             Onesweep by default on every driver and at every size (the faster of the two at
 *             every size benchmarked, docs/BENCHMARKS.md). GL promises no forward progress
 *             between work groups, so its look-back waits without bound only on drivers known to
 *             give it (GL_VENDOR NVIDIA, AMD, ATI or Intel); elsewhere (Mesa llvmpipe) it waits a
 *             bounded time, then counts the late tile's digits itself (Decoupled Fallback), which
 *             ends whatever the other groups do. sort_desc.radix_path or the tuning's path
 *             (sort_radix_desc, FLUID_RADIX_PATH) forces a path, its lookback a look-back.
 *             Subgroup ranking where the driver has GL_KHR_shader_subgroup, shared memory elsewhere.
 *   onesweep  the radix sort forced onto its onesweep path (sort_radix.c)
 *   counting  counting sort for dense keys: count per key with atomics keeping each key's slot,
 *             scan the counts (one dispatch, many groups), scatter by slot, then order each key's
 *             run by value (sort_counting.c). Orders by
 *             (key, value): deterministic, and for distinct values given in ascending order (the
 *             fluid's particle indices) exactly the stable radix result. Keys of at most
 *             SORT_COUNTING_MAX_BITS bits; its scanned counts are the key ranges (sort_key_starts).
 *   bitonic   bitonic network with shared-memory stages; orders by (key, value), so for distinct
 *             values in ascending input order it gives exactly the stable radix result (sort_bitonic.c)
 *   cpu       reads the pairs back, sorts them on the CPU (sort_cpu_stable), writes them back; the
 *             reference and the baseline (sort.c)
 *
 *   sorter *s = sort_make("radix", &(sort_desc){ .capacity = n }, caps, err);
 *   sort_pairs out = sort_run(s, (sort_pairs){ keys, vals }, n, bits, NULL);
 *   // out.keys / out.vals: either the buffers passed in or the sorter's own (valid until the
 *   // next sort_run or sort_destroy); the other pair's contents are undefined afterwards.
 *   sort_destroy(s);
 *
 * Keys must fit in `bits` (1..32): bits above are not looked at. n may be 0 .. capacity. The
 * buffers must hold at least n uint32 each. sort_run issues GL commands and returns without
 * waiting; a memory barrier for shader-storage reads is issued before it returns.
 *
 * Key ranges (counting only): after sort_run, sort_key_starts(s) is a buffer of 2^bits + 1 uints,
 * starts[k] = the first sorted index of key k (keys looked at through the low `bits`), so the
 * pairs of key k are [starts[k], starts[k + 1]) and starts[2^bits] = n. It is the cell-ranges
 * table a neighbour search needs, made by the sort itself. 0 for the other algorithms.
 *
 * Producer count: a producer shader (the one writing the keys) can make the sort's first count
 * itself, so that sort_run skips that dispatch. Where sort_producer_buffer(s) is not 0:
 *   - build the producer with sort_producer_defines(s) among its defines, plus
 *     "#define SORT_PRODUCER_BINDING b" (a free storage-buffer binding of the producer's), and
 *     #include "sort/sort_producer_count.glsl" after its layout(local_size_x = ...) in;
 *   - in its main(): sort_producer_begin() first and sort_producer_end() last, both in uniform control
 *     flow (no early return before them), and sort_producer_add(key, bits) once for each of the n
 *     keys it writes (any control flow);
 *   - before each dispatch of the producer bind sort_producer_buffer(s) (call it each time: the
 *     buffer changes from sort to sort) at binding b; after it, issue the storage barrier the keys
 *     need anyway, call sort_producer_ready(s), then sort_run with the same n and bits.
 * sort_producer_buffer is 0 (and sort_producer_defines gives SORT_PRODUCER_MODE 0, where the include's
 * functions do nothing) for a sorter that takes no producer count: radix unless it takes onesweep
 * for every n up to its capacity (the default; not where reduce-then-scan is forced or
 * FLUID_ONESWEEP_MAX is below the capacity), bitonic, cpu. Radix then skips its histogram
 * dispatch; counting its count dispatch (its scatter then takes slots with atomics). The counted
 * buffer is consumed by the next sort_run only.
 *
 * Gate: sort_run_gated takes a word on the GPU (gate->buffer's uint at index gate->word) that the
 * run reads when the GPU gets to it: where it is not 0 the run skips its work. Its dispatches are
 * issued all the same and return at once (shaders/sort/sort_gate.glsl), but for what the next run
 * needs: the onesweep scatter's housekeeping, the counting scatter's cleared counts. Both pairs are
 * then left as they were, a producer count made for the run is consumed, and the counting sort's
 * key ranges stay those of the last run it made. The cpu sort has no gate: it sorts in full. For a
 * caller that learns only on the GPU that it will not read the result (the neighbour search's
 * empty step slots, search.h).
 *
 * Errors: sort_make returns NULL with err when the algorithm is unknown, the capacity is more than
 * the GPU can hold, key_bits is more than the algorithm takes (counting), a sort_radix_desc field
 * is out of its range, or a shader fails to build. sort_radix_desc_from_env returns false with err
 * when a variable is malformed. sort_run cannot fail: give it n <= capacity and bits <=
 * the sorter's key_bits.
 */
#ifndef FLUID_SORT_H
#define FLUID_SORT_H
#include "gpu/gpu.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sort_pairs {
    GLuint keys, vals;
} sort_pairs;

/* The radix sort's way through (sort_desc.radix_path; FLUID_RADIX_PATH=auto|onesweep|reduce-then-scan
 * overrides it when set). */
typedef enum sort_radix_path {
    SORT_RADIX_AUTO = 0,         /* onesweep (up to a size set by measurement: today every size) */
    SORT_RADIX_ONESWEEP,         /* onesweep everywhere (the "onesweep" algorithm) */
    SORT_RADIX_REDUCE_THEN_SCAN, /* reduce-then-scan everywhere */
} sort_radix_path;

/* The widest keys the counting sort takes: its count array has 2^bits entries. */
#define SORT_COUNTING_MAX_BITS 22

/* The radix sort's tuning (radix and onesweep only; the other algorithms ignore it). Zero means
 * the default in every field (filled by one function, _radix_desc_defaults in sort_radix.c); a
 * count whose meaningful value is 0 takes SORT_RADIX_NONE for it. The program reads it from the
 * environment once, at its edge (sort_radix_desc_from_env, the FLUID_RADIX_* and FLUID_ONESWEEP_*
 * rows of docs/ENVIRONMENT.md); tests set its fields. */
#define SORT_RADIX_NONE 0xFFFFFFFFu /* "0" in a field where 0 means the default */

typedef enum sort_radix_lookback {
    SORT_LOOKBACK_AUTO = 0, /* wait where the driver makes forward progress (gpu_forward_progress), else fallback */
    SORT_LOOKBACK_WAIT,     /* waits without bound (forward-progress drivers; llvmpipe on one thread) */
    SORT_LOOKBACK_FALLBACK, /* a bounded wait, then the group counts the late tile itself */
} sort_radix_lookback;

typedef struct sort_radix_desc {
    bool force_path;              /* path replaces sort_desc.radix_path (FLUID_RADIX_PATH) */
    sort_radix_path path;         /* with force_path */
    uint32_t count_ahead_tiles;   /* the most tiles of RADIX_TILE keys the count-ahead path takes
                                     (0: 16; SORT_RADIX_NONE: off; at most 64) */
    uint32_t onegroup_max;        /* the most pairs the one-group kernel takes (0: off; at most 32,768) */
    uint32_t emulate_subgroup;    /* 32, 64 or 128: the subgroup code on emulated subgroups of that size (tests); 0: off */
    uint32_t os_kpt;              /* onesweep keys per invocation, large sorts (0: 12; 1..24) */
    uint32_t os_small_kpt;        /* the same up to os_small_max pairs (0: 4; 1..24) */
    uint32_t os_small_max;        /* (0: 131,072; SORT_RADIX_NONE: none; at most 2^30) */
    uint32_t os_max;              /* the most pairs sorted by onesweep (0: every n; SORT_RADIX_NONE: none; at most 2^30) */
    uint32_t os_window;           /* look-back words read at a time (0: 1; 1..32) */
    sort_radix_lookback lookback; /* see sort_radix_lookback */
    uint32_t os_spin;             /* the fallback look-back's reads of an unpublished word (0: 64; 1..256) */
    uint32_t test_agg_only;       /* tests: 1, only tile 0 publishes an inclusive count; 2, no tile but 0
                                     publishes anything (with the fallback look-back only); 0: off */
} sort_radix_desc;

/* Fills *d (zeroed first) from the FLUID_RADIX_* and FLUID_ONESWEEP_* variables (through core/env's
 * table); false with a one-line err naming the variable and its range when one is malformed. */
bool sort_radix_desc_from_env(sort_radix_desc *d, char *err);

typedef struct sort_desc {
    uint32_t capacity;            /* the largest n this sorter will be given */
    uint32_t key_bits;            /* the widest `bits` sort_run will be given (counting sizes its count array
                           by it, 2 x 4 x 2^key_bits bytes, 0: SORT_COUNTING_MAX_BITS; radix its
                           histograms and whether it builds 9-bit digits, 0: 32; a wider `bits` is
                           an error logged, sorted by the low key_bits; bitonic takes any width) */
    bool no_subgroup;             /* radix: take the shared-memory path even where subgroups exist (tests) */
    sort_radix_path radix_path;   /* radix: see sort_radix_path */
    const char *label;            /* prefix of the sorter's GL object labels (default: the algorithm name) */
    const sort_radix_desc *radix; /* radix, onesweep: the tuning (NULL: the one given to sort_radix_tuning_set, else
                                     every default) */
} sort_desc;

/* The tuning taken by sorters whose desc has no `radix` (copied; NULL: the defaults again). The
 * program's edge (main) sets it once from sort_radix_desc_from_env, so that sorters made deep in the
 * simulation take the user's tuning without the environment being read there. */
void sort_radix_tuning_set(const sort_radix_desc *d);

/* Optional per-dispatch tracing (fluid bench --detail): begin/end bracket each dispatch. */
typedef struct sort_trace {
    void (*begin)(void *user, const char *dispatch);
    void (*end)(void *user);
    void *user;
} sort_trace;

static inline void sort_trace_begin(const sort_trace *t, const char *name) {
    if (t) t->begin(t->user, name);
}
static inline void sort_trace_end(const sort_trace *t) {
    if (t) t->end(t->user);
}

typedef struct sort_gate {
    GLuint buffer; /* a storage buffer of uints */
    uint32_t word; /* the index of the gate word in it */
} sort_gate;

typedef struct sort_algo {
    const char *name;
    const char *summary;
    void *(*make)(const sort_desc *desc, const gpu_caps *caps, char *err);
    void (*destroy)(void *impl);
    sort_pairs (*run)(void *impl, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace);
    /* A line describing the path taken (for example "radix: 2 passes of 8 bits, subgroup path"). */
    void (*describe)(void *impl, uint32_t n, uint32_t bits, char *out, size_t len);
    /* Optional: the path taken, without why (sort_path); NULL: the algorithm's name. */
    void (*path)(void *impl, uint32_t n, uint32_t bits, char *out, size_t len);
    uint32_t max_bits; /* the widest keys it sorts (0: 32) */
    /* Optional (NULL where the algorithm has none): see "Key ranges" and "Producer count". */
    GLuint (*key_starts)(void *impl);
    GLuint (*producer_buffer)(void *impl);
    const char *(*producer_defines)(void *impl);
    void (*producer_ready)(void *impl);
    /* Optional: the gate of the runs that follow (NULL: none); see "Gate". */
    void (*gate)(void *impl, const sort_gate *gate);
} sort_algo;

extern const sort_algo sort_algo_radix;
extern const sort_algo sort_algo_onesweep;
extern const sort_algo sort_algo_counting;
extern const sort_algo sort_algo_bitonic;
extern const sort_algo sort_algo_cpu;
extern const sort_algo *const sort_algos[];
extern const int sort_algo_count;
const sort_algo *sort_algo_find(const char *name); /* NULL if unknown */

typedef struct sorter sorter;
sorter *sort_make(const char *algo, const sort_desc *desc, const gpu_caps *caps, char *err);
void sort_destroy(sorter *s);
sort_pairs sort_run(sorter *s, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace);
/* sort_run, skipped where the gate word is not 0 (NULL: sort_run); see "Gate". */
/* The value of a kernel's u_gate for `gate` (shaders/sort/sort_gate.glsl): 0 (NULL: none), or 1 + its word. */
static inline uint32_t sort_gate_value(const sort_gate *gate) { return gate ? gate->word + 1 : 0; }
sort_pairs sort_run_gated(sorter *s, sort_pairs io, uint32_t n, uint32_t bits, const sort_gate *gate, const sort_trace *trace);
const sort_algo *sort_get_algo(const sorter *s);
void sort_describe(sorter *s, uint32_t n, uint32_t bits, char *out, size_t len);
/* The path a sort of n pairs of `bits` takes, as a string that two sorters share exactly when they
 * run the same dispatches (radix where its auto choice is onesweep, and onesweep); the algorithm's
 * name for those with one path. */
void sort_path(sorter *s, uint32_t n, uint32_t bits, char *out, size_t len);
/* The widest keys the algorithm sorts (32 but for counting). */
uint32_t sort_algo_max_bits(const sort_algo *algo);
/* "radix, onesweep, counting, bitonic or cpu", from sort_algos[], for error messages. */
const char *sort_algo_names(void);

/* Key ranges: counting's scanned counts after sort_run (see the top); 0 for the others. */
GLuint sort_key_starts(const sorter *s);

/* Producer count (see the top). */
GLuint sort_producer_buffer(const sorter *s);
const char *sort_producer_defines(const sorter *s);
void sort_producer_ready(sorter *s);

/* The bits needed to hold max_key (at least 1). */
uint32_t sort_bits_for(uint32_t max_key);

/* CPU references. Stable by key (an LSD radix sort with 8-bit digits); by (key, value). */
void sort_cpu_stable(uint32_t *keys, uint32_t *vals, uint32_t n);
void sort_cpu_key_value(uint32_t *keys, uint32_t *vals, uint32_t n);

#endif
