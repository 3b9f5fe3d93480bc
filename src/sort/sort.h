/* sort: sorting (key, value) pairs of uint32 held in GL buffers, by key, on the GPU.
 *
 * One interface, several algorithms chosen by value (by name, from sort_algos[]):
 *   radix    LSD radix sort, reduce-then-scan, stable; subgroup path where the driver has
 *            GL_KHR_shader_subgroup, shared-memory path elsewhere (sort_radix.c)
 *   bitonic  bitonic network with shared-memory stages; orders by (key, value), so for distinct
 *            values in ascending input order it gives exactly the stable radix result (sort_bitonic.c)
 *   cpu      reads the pairs back, sorts them on the CPU (sort_cpu_stable), writes them back; the
 *            reference and the baseline (sort.c)
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
 * Errors: sort_make returns NULL with err when the algorithm is unknown, the capacity is more than
 * the GPU can hold, or a shader fails to build.
 */
#ifndef FLUID_SORT_H
#define FLUID_SORT_H
#include "gpu/gpu.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sort_pairs {
    GLuint keys, vals;
} sort_pairs;

typedef struct sort_desc {
    uint32_t capacity;  /* the largest n this sorter will be given */
    bool no_subgroup;   /* radix: take the shared-memory path even where subgroups exist (tests) */
    const char *label;  /* prefix of the sorter's GL object labels (default: the algorithm name) */
} sort_desc;

/* Optional per-dispatch tracing (fluid bench --detail): begin/end bracket each dispatch. */
typedef struct sort_trace {
    void (*begin)(void *user, const char *dispatch);
    void (*end)(void *user);
    void *user;
} sort_trace;

static inline void sort_trace_begin(const sort_trace *t, const char *name) { if (t) t->begin(t->user, name); }
static inline void sort_trace_end(const sort_trace *t) { if (t) t->end(t->user); }

typedef struct sort_algo {
    const char *name;
    const char *summary;
    void *(*make)(const sort_desc *desc, const gpu_caps *caps, char *err);
    void (*destroy)(void *impl);
    sort_pairs (*run)(void *impl, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace);
    /* A line describing the path taken (for example "radix: 2 passes of 8 bits, subgroup path"). */
    void (*describe)(void *impl, uint32_t n, uint32_t bits, char *out, size_t len);
} sort_algo;

extern const sort_algo sort_algo_radix;
extern const sort_algo sort_algo_bitonic;
extern const sort_algo sort_algo_cpu;
extern const sort_algo *const sort_algos[];
extern const int sort_algo_count;
const sort_algo *sort_algo_find(const char *name); /* NULL if unknown */

typedef struct sorter sorter;
sorter *sort_make(const char *algo, const sort_desc *desc, const gpu_caps *caps, char *err);
void sort_destroy(sorter *s);
sort_pairs sort_run(sorter *s, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace);
const sort_algo *sort_get_algo(const sorter *s);
uint32_t sort_capacity(const sorter *s);
void sort_describe(sorter *s, uint32_t n, uint32_t bits, char *out, size_t len);

/* The bits needed to hold max_key (at least 1). */
uint32_t sort_bits_for(uint32_t max_key);

/* CPU references. Stable by key (an LSD radix sort with 8-bit digits); by (key, value). */
void sort_cpu_stable(uint32_t *keys, uint32_t *vals, uint32_t n);
void sort_cpu_key_value(uint32_t *keys, uint32_t *vals, uint32_t n);

#endif
