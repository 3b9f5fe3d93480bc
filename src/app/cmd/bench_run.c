/* bench_run: a group of sorts timed on the same keys, repetitions interleaved (bench_run.h). */
#include "app/cmd/bench_run.h"
#include "core/log.h"
#include "core/util.h"
#include "sort/sort.h"
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_DISPATCH_NAMES 32
#define BENCH_SPINUP_S 0.25 /* seconds of sorting before the timed reps: an idle GPU clocks down */

static int _bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Per-dispatch timing for --detail: one query per dispatch, summed by name. */
typedef struct _bench_detail {
    const char *names[BENCH_MAX_DISPATCH_NAMES];
    double total_us[BENCH_MAX_DISPATCH_NAMES];
    int calls[BENCH_MAX_DISPATCH_NAMES];
    int count;
    GLuint queries[256];
    int query_name[256];
    int used;
    int dispatches; /* traced dispatches in one sort */
} _bench_detail;

static void _bench_detail_begin(void *user, const char *name) {
    _bench_detail *d = user;
    int k = 0;
    while (k < d->count && strcmp(d->names[k], name) != 0) k++;
    if (k == d->count && d->count < BENCH_MAX_DISPATCH_NAMES) d->names[d->count++] = name;
    if (d->used == 256 || k == BENCH_MAX_DISPATCH_NAMES) return;
    d->query_name[d->used] = k;
    glBeginQuery(GL_TIME_ELAPSED, d->queries[d->used]);
}

static void _bench_detail_end(void *user) {
    _bench_detail *d = user;
    if (d->used == 256) return;
    glEndQuery(GL_TIME_ELAPSED);
    d->used++;
}

static void _bench_detail_collect(_bench_detail *d) {
    for (int i = 0; i < d->used; i++) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(d->queries[i], GL_QUERY_RESULT, &ns);
        d->total_us[d->query_name[i]] += (double)ns * 1e-3;
        d->calls[d->query_name[i]]++;
    }
    d->dispatches = d->used;
    d->used = 0;
}

/* One algorithm of the group: its sorter, its input copies and its reps' times. */
typedef struct _bench_slot {
    sorter *s;
    GLuint src_k, src_v, io_k, io_v;
    sort_pairs out;
    double *t;
} _bench_slot;

static bool _bench_slot_make(_bench_slot *sl, bench_row *row, const bench_case *c, int reps, const gpu_caps *caps) {
    char err[ERR_LEN], base[32];
    uint32_t n = c->n;
    snprintf(base, sizeof base, "%s", row->algo);
    bool shared_path = strstr(base, "-shared") != NULL;
    if (shared_path) *strstr(base, "-shared") = 0;
    bool rts = strcmp(base, "radix-rts") == 0;
    if (rts) base[5] = 0;
    sl->s = sort_make(base,
                      &(sort_desc){.capacity = n,
                                   .key_bits = c->bits,
                                   .no_subgroup = shared_path,
                                   .radix_path = rts ? SORT_RADIX_REDUCE_THEN_SCAN : SORT_RADIX_AUTO},
                      caps, err);
    sl->src_k = sl->s ? gpu_buffer_make(4ull * n, c->keys, "bench-src-keys", err) : 0;
    sl->src_v = sl->src_k ? gpu_buffer_make(4ull * n, c->vals, "bench-src-vals", err) : 0;
    sl->io_k = sl->src_v ? gpu_buffer_make(4ull * n, NULL, "bench-keys", err) : 0;
    sl->io_v = sl->io_k ? gpu_buffer_make(4ull * n, NULL, "bench-vals", err) : 0;
    if (!sl->io_v) {
        log_error("BENCH", "%s at %u pairs: %s", row->algo, n, err);
        return false;
    }
    sort_describe(sl->s, n, c->bits, row->path, sizeof row->path);
    /* The cpu algorithm works on the host: a GPU timer would measure an idle GPU. */
    row->gpu_clock = caps->timer_queries && strcmp(base, "cpu") != 0;
    sl->t = calloc((size_t)reps, sizeof *sl->t);
    return row->made = true;
}

static void _bench_slot_destroy(_bench_slot *sl) {
    gpu_buffer_destroy(&sl->src_k);
    gpu_buffer_destroy(&sl->src_v);
    gpu_buffer_destroy(&sl->io_k);
    gpu_buffer_destroy(&sl->io_v);
    if (sl->s) sort_destroy(sl->s);
    free(sl->t);
}

/* Fresh input, then one sort (traced by tr, or NULL). */
static void _bench_slot_sort(_bench_slot *sl, const bench_case *c, const sort_trace *tr) {
    glCopyNamedBufferSubData(sl->src_k, sl->io_k, 0, 0, 4ll * c->n);
    glCopyNamedBufferSubData(sl->src_v, sl->io_v, 0, 0, 4ll * c->n);
    sl->out = sort_run(sl->s, (sort_pairs){sl->io_k, sl->io_v}, c->n, c->bits, tr);
}

/* One timed sort, in microseconds. */
static double _bench_slot_time(_bench_slot *sl, const bench_row *row, const bench_case *c, GLuint q) {
    if (row->gpu_clock) {
        glCopyNamedBufferSubData(sl->src_k, sl->io_k, 0, 0, 4ll * c->n);
        glCopyNamedBufferSubData(sl->src_v, sl->io_v, 0, 0, 4ll * c->n);
        glBeginQuery(GL_TIME_ELAPSED, q);
        sl->out = sort_run(sl->s, (sort_pairs){sl->io_k, sl->io_v}, c->n, c->bits, NULL);
        glEndQuery(GL_TIME_ELAPSED);
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        return (double)ns * 1e-3;
    }
    glCopyNamedBufferSubData(sl->src_k, sl->io_k, 0, 0, 4ll * c->n);
    glCopyNamedBufferSubData(sl->src_v, sl->io_v, 0, 0, 4ll * c->n);
    glFinish();
    double t0 = now_seconds();
    sl->out = sort_run(sl->s, (sort_pairs){sl->io_k, sl->io_v}, c->n, c->bits, NULL);
    glFinish();
    return (now_seconds() - t0) * 1e6;
}

/* The last rep's result against the CPU's. */
static bool _bench_slot_check(const _bench_slot *sl, const bench_case *c) {
    uint32_t *gk = malloc(4ull * c->n + 4), *gv = malloc(4ull * c->n + 4);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(sl->out.keys, 0, 4ll * c->n, gk);
    glGetNamedBufferSubData(sl->out.vals, 0, 4ll * c->n, gv);
    bool ok = memcmp(gk, c->ref_keys, 4ull * c->n) == 0 && memcmp(gv, c->ref_vals, 4ull * c->n) == 0;
    free(gk);
    free(gv);
    return ok;
}

/* --detail: each dispatch's mean time over separate reps, and the bytes a call moves at that rate. */
static void _bench_slot_detail(_bench_slot *sl, const bench_row *row, const bench_case *c, int reps, FILE *table) {
    _bench_detail d = {0};
    glGenQueries(256, d.queries);
    sort_trace tr = {_bench_detail_begin, _bench_detail_end, &d};
    for (int r = 0; r < reps; r++) {
        _bench_slot_sort(sl, c, &tr);
        _bench_detail_collect(&d);
    }
    glDeleteQueries(256, d.queries);
    uint32_t n = c->n;
    fprintf(table, "    %s, %u bits, %u pairs: %d dispatches per sort\n", row->algo, c->bits, n, d.dispatches);
    for (int k = 0; k < d.count; k++) {
        double per_call = d.calls[k] ? d.total_us[k] / d.calls[k] : 0.0;
        /* Bytes a call must move at least: a scatter reads and writes every pair (16 bytes a
         * pair), a count or histogram reads every key (4); others (scans, orders): not shown. */
        double bytes = strstr(d.names[k], "scatter") || strstr(d.names[k], "onesweep")  ? 16.0 * n
                       : strstr(d.names[k], "count") || strstr(d.names[k], "histogram") ? 4.0 * n
                                                                                        : 0.0;
        char bw[32] = "";
        if (bytes > 0 && per_call > 0) snprintf(bw, sizeof bw, "  %7.0f GB/s", bytes / (per_call * 1e3));
        fprintf(table, "      %-28s %4d calls/sort  %9.2f us/sort  %8.2f us/call%s\n", d.names[k], d.calls[k] / reps,
                d.total_us[k] / reps, per_call, bw);
    }
}

bool bench_run_group(bench_row *rows, int count, const bench_case *c, const bench_run_opts *o, const gpu_caps *caps) {
    _bench_slot *slots = calloc((size_t)count, sizeof *slots);
    bool all_ok = true, any_gpu = false;
    for (int a = 0; a < count; a++) {
        rows[a].n = c->n, rows[a].bits = c->bits;
        all_ok &= _bench_slot_make(&slots[a], &rows[a], c, o->reps, caps);
        any_gpu |= rows[a].made && rows[a].gpu_clock;
    }
    /* A GPU that idled (through the CPU rows, say) clocks down and takes a while to come back, so
     * the group sorts for BENCH_SPINUP_S before the warm-up. */
    if (any_gpu) {
        double t0 = now_seconds();
        do {
            for (int a = 0; a < count; a++)
                if (rows[a].made && rows[a].gpu_clock) _bench_slot_sort(&slots[a], c, NULL);
            glFinish();
        } while (now_seconds() - t0 < BENCH_SPINUP_S);
    }
    GLuint q;
    glGenQueries(1, &q);
    for (int r = 0; r < o->warmup + o->reps; r++)
        for (int k = 0; k < count; k++) {
            int a = (k + r) % count; /* each rep starts one algorithm further along */
            if (!rows[a].made) continue;
            double us = _bench_slot_time(&slots[a], &rows[a], c, q);
            if (r >= o->warmup) slots[a].t[r - o->warmup] = us;
        }
    glDeleteQueries(1, &q);
    for (int a = 0; a < count; a++) {
        bench_row *row = &rows[a];
        if (!row->made) continue;
        double *t = slots[a].t;
        int reps = o->reps;
        qsort(t, (size_t)reps, sizeof *t, _bench_cmp_double);
        row->med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
        row->min = t[0];
        row->max = t[reps - 1];
        row->ok = _bench_slot_check(&slots[a], c);
        all_ok &= row->ok;
        if (o->detail && row->gpu_clock) _bench_slot_detail(&slots[a], row, c, reps, o->table);
    }
    for (int a = 0; a < count; a++) _bench_slot_destroy(&slots[a]);
    free(slots);
    return all_ok;
}

double bench_row_spread(const bench_row *r) { return r->med > 0 ? (r->max - r->min) / r->med : 0.0; }
