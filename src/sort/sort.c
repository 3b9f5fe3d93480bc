#include "sort/sort.h"
#include "sort/sort_layout.h"
#include "core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const sort_algo *const sort_algos[] = {&sort_algo_radix, &sort_algo_onesweep, &sort_algo_counting, &sort_algo_bitonic,
                                       &sort_algo_cpu};
const int sort_algo_count = (int)ARRAY_LEN(sort_algos);

struct sorter {
    const sort_algo *algo;
    void *impl;
    uint32_t capacity;
};

const sort_algo *sort_algo_find(const char *name) {
    for (int i = 0; i < sort_algo_count; i++)
        if (name && strcmp(sort_algos[i]->name, name) == 0) return sort_algos[i];
    return NULL;
}

sorter *sort_make(const char *name, const sort_desc *desc, const gpu_caps *caps, char *err) {
    const sort_algo *algo = sort_algo_find(name);
    if (!algo) {
        fail(err, "unknown sort algorithm '%s'; choose %s", name ? err_esc(name) : "(none)", sort_algo_names());
        return NULL;
    }
    if (desc->key_bits > sort_algo_max_bits(algo)) {
        fail(err, "%s sorts keys of at most %u bits (its count array holds 2^%u keys); these keys need %u bits: use radix",
             algo->name, sort_algo_max_bits(algo), sort_algo_max_bits(algo), desc->key_bits);
        return NULL;
    }
    /* Each key and value buffer is bound whole as a shader storage block (bitonic pads to 2^k). */
    uint64_t need = 4ull * desc->capacity;
    if (need > (uint64_t)caps->max_ssbo_bytes || desc->capacity > (1u << 30)) {
        fail(err, "%u pairs need %llu MiB per buffer, more than this GPU's %lld MiB storage-buffer limit; use fewer",
             desc->capacity, (unsigned long long)(need >> 20), (long long)(caps->max_ssbo_bytes >> 20));
        return NULL;
    }
    sort_desc d = *desc;
    if (!d.label) d.label = algo->name;
    void *impl = algo->make(&d, caps, err);
    if (!impl) return NULL;
    sorter *s = calloc(1, sizeof *s);
    s->algo = algo;
    s->impl = impl;
    s->capacity = desc->capacity;
    return s;
}

void sort_destroy(sorter *s) {
    if (!s) return;
    s->algo->destroy(s->impl);
    free(s);
}

sort_pairs sort_run(sorter *s, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    return sort_run_gated(s, io, n, bits, NULL, trace);
}

sort_pairs sort_run_gated(sorter *s, sort_pairs io, uint32_t n, uint32_t bits, const sort_gate *gate, const sort_trace *trace) {
    if (n > s->capacity) n = s->capacity; /* programmer error; clamp rather than write out of bounds */
    if (bits < 1) bits = 1;
    if (bits > 32) bits = 32;
    bool gated = gate && s->algo->gate;
    /* the gate's buffer, or a stand-in the kernels do not read (u_gate 0) */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SORT_BIND_GATE, gated ? gate->buffer : io.keys);
    if (gated) s->algo->gate(s->impl, gate);
    sort_pairs out = s->algo->run(s->impl, io, n, bits, trace);
    if (gated) s->algo->gate(s->impl, NULL);
    return out;
}

const sort_algo *sort_get_algo(const sorter *s) { return s->algo; }

uint32_t sort_algo_max_bits(const sort_algo *algo) { return algo->max_bits ? algo->max_bits : 32; }

/* "radix, onesweep, ... or cpu", read from sort_algos[] (built once; names are short). */
const char *sort_algo_names(void) {
    static char names[256];
    if (!names[0]) {
        const char *list[ARRAY_LEN(sort_algos)];
        for (int i = 0; i < sort_algo_count; i++) list[i] = sort_algos[i]->name;
        names_join(names, sizeof names, list, 0, sort_algo_count, ", ", " or ");
    }
    return names;
}

GLuint sort_key_starts(const sorter *s) { return s->algo->key_starts ? s->algo->key_starts(s->impl) : 0; }

GLuint sort_producer_buffer(const sorter *s) { return s->algo->producer_buffer ? s->algo->producer_buffer(s->impl) : 0; }

const char *sort_producer_defines(const sorter *s) {
    return s->algo->producer_defines ? s->algo->producer_defines(s->impl) : "#define SORT_PRODUCER_MODE 0\n";
}

void sort_producer_ready(sorter *s) {
    if (s->algo->producer_ready) s->algo->producer_ready(s->impl);
}

void sort_describe(sorter *s, uint32_t n, uint32_t bits, char *out, size_t len) { s->algo->describe(s->impl, n, bits, out, len); }

void sort_path(sorter *s, uint32_t n, uint32_t bits, char *out, size_t len) {
    if (s->algo->path) s->algo->path(s->impl, n, bits, out, len);
    else snprintf(out, len, "%s", s->algo->name);
}

uint32_t sort_bits_for(uint32_t max_key) {
    uint32_t b = 1;
    while (b < 32 && (max_key >> b)) b++;
    return b;
}

void sort_cpu_stable(uint32_t *keys, uint32_t *vals, uint32_t n) {
    if (n < 2) return;
    /* All four digit histograms in one read; a digit every key shares costs no pass. */
    uint32_t(*count)[257] = calloc(4, sizeof *count);
    for (uint32_t i = 0; i < n; i++)
        for (int d = 0; d < 4; d++) count[d][((keys[i] >> (8 * d)) & 255u) + 1]++;
    uint32_t *k2 = malloc(4ull * n), *v2 = malloc(4ull * n);
    uint32_t *ks = keys, *vs = vals, *kd = k2, *vd = v2;
    for (int d = 0; d < 4; d++) {
        int shift = 8 * d;
        uint32_t *c = count[d];
        if (c[((ks[0] >> shift) & 255u) + 1] == n) continue;
        for (int b = 0; b < 256; b++) c[b + 1] += c[b];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t pos = c[(ks[i] >> shift) & 255u]++;
            kd[pos] = ks[i];
            vd[pos] = vs[i];
        }
        uint32_t *t = ks;
        ks = kd;
        kd = t;
        t = vs;
        vs = vd;
        vd = t;
    }
    if (ks != keys) {
        memcpy(keys, ks, 4ull * n);
        memcpy(vals, vs, 4ull * n);
    }
    free(count);
    free(k2);
    free(v2);
}

void sort_cpu_key_value(uint32_t *keys, uint32_t *vals, uint32_t n) {
    /* Stable by value, then stable by key: ordered by (key, value). */
    sort_cpu_stable(vals, keys, n);
    sort_cpu_stable(keys, vals, n);
}

/* The "cpu" algorithm: read back, sort on the CPU, write back. */
typedef struct _sort_cpu {
    uint32_t *keys, *vals;
} _sort_cpu;

static void *_sort_cpu_make(const sort_desc *desc, const gpu_caps *caps, char *err) {
    _sort_cpu *c = calloc(1, sizeof *c);
    c->keys = malloc(4ull * desc->capacity + 4);
    c->vals = malloc(4ull * desc->capacity + 4);
    if (!c->keys || !c->vals) {
        free(c->keys);
        free(c->vals);
        free(c);
        fail(err, "out of host memory for %u pairs", desc->capacity);
        return NULL;
    }
    return c;
}

static void _sort_cpu_destroy(void *p) {
    _sort_cpu *c = p;
    free(c->keys);
    free(c->vals);
    free(c);
}

static sort_pairs _sort_cpu_run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *trace) {
    _sort_cpu *c = p;
    if (n == 0) return io;
    sort_trace_begin(trace, "cpu.readback");
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(io.keys, 0, 4ll * n, c->keys);
    glGetNamedBufferSubData(io.vals, 0, 4ll * n, c->vals);
    sort_trace_end(trace);
    sort_cpu_stable(c->keys, c->vals, n);
    sort_trace_begin(trace, "cpu.upload");
    glNamedBufferSubData(io.keys, 0, 4ll * n, c->keys);
    glNamedBufferSubData(io.vals, 0, 4ll * n, c->vals);
    sort_trace_end(trace);
    return io;
}

static void _sort_cpu_describe(void *p, uint32_t n, uint32_t bits, char *out, size_t len) {
    snprintf(out, len, "cpu: read back, 8-bit LSD radix sort on the CPU, write back");
}

const sort_algo sort_algo_cpu = {.name = "cpu",
                                 .summary = "CPU radix sort with read-back (reference)",
                                 .make = _sort_cpu_make,
                                 .destroy = _sort_cpu_destroy,
                                 .run = _sort_cpu_run,
                                 .describe = _sort_cpu_describe};
