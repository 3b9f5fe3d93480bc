/* fluid bench: GPU time per sort for each algorithm, size and key width, against the CPU.
 *
 * For every (algorithm, bits, size): random keys masked to `bits`, values 0..n-1 (as the fluid
 * gives them), copied fresh into the sorter's input before every rep (outside the timed region).
 * The sort is timed with a GL_TIME_ELAPSED query around sort_run; where timer queries read zero
 * (llvmpipe) it is timed with the CPU clock around a finished GPU queue, and the table says so.
 * After the reps, the GPU result is read back and compared with the CPU reference: any mismatch
 * fails the run (exit 1). The CPU baseline is sort_cpu_stable on the same data.
 *
 * --detail adds, per dispatch, its mean GPU time over separate reps (sort_trace).
 */
#include "app/app_render.h"
#include "app/cmd.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "sort/sort.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_LIST 16
#define BENCH_MAX_DISPATCH_NAMES 32

#define BENCH_SPINUP_S 0.25 /* seconds of sorting before each GPU-timed row */

typedef struct _bench_opts {
    char algos[BENCH_MAX_LIST][32];
    int algo_count;
    uint64_t sizes[BENCH_MAX_LIST];
    int size_count;
    uint64_t bits[BENCH_MAX_LIST];
    int bits_count;
    uint64_t reps, warmup, seed;
    const char *csv_path;
    const char *data;
    bool detail;
} _bench_opts;

static void _bench_usage(FILE *f) {
    fprintf(f,
            "usage: fluid bench [--algos LIST] [--sizes LIST] [--bits LIST] [--reps R] [--warmup W]\n"
            "                   [--seed S] [--csv FILE] [--detail] [--data DIR]\n"
            "       fluid bench --render [options]   the renderer instead (fluid bench --render --help)\n"
            "  --algos   comma list of radix, radix-shared (radix forced onto its shared-memory path),\n"
            "            bitonic, cpu (default radix,radix-shared,bitonic)\n"
            "  --sizes   comma list of pair counts (default 27648,65536,262144,1048576,4194304,16777216;\n"
            "            up to 262144 where GPU timer queries read zero, as on llvmpipe)\n"
            "  --bits    comma list of key widths 1..32 (default 16,32)\n"
            "  --reps    timed sorts per row after the warm-up (default 50; 5 without GPU timers)\n"
            "  --csv     also write the rows to FILE\n"
            "  --detail  time every dispatch of each sort (GPU timers only)\n");
}

/* Splits a comma list of numbers into out; false if any is not in [lo, hi]. */
static bool _bench_parse_list(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, int *count) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    *count = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (*count == BENCH_MAX_LIST || !parse_u64(tok, lo, hi, &out[*count])) return false;
        (*count)++;
    }
    return *count > 0;
}

static bool _bench_parse(int argc, char **argv, _bench_opts *o, bool *help) {
    const char *algos = "radix,radix-shared,bitonic";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            *help = true;
            return true;
        } else if (strcmp(a, "--detail") == 0) {
            o->detail = true;
            continue;
        }
        if (!v) {
            log_error("BENCH", "%s needs a value; see fluid bench --help", a);
            return false;
        }
        i++;
        if (strcmp(a, "--algos") == 0) algos = v;
        else if (strcmp(a, "--sizes") == 0) {
            if (!_bench_parse_list(v, 0, 1u << 28, o->sizes, &o->size_count)) {
                log_error("BENCH", "--sizes %s: give a comma list of pair counts from 0 to 268435456", v);
                return false;
            }
        } else if (strcmp(a, "--bits") == 0) {
            if (!_bench_parse_list(v, 1, 32, o->bits, &o->bits_count)) {
                log_error("BENCH", "--bits %s: give a comma list of key widths from 1 to 32", v);
                return false;
            }
        } else if (strcmp(a, "--reps") == 0) {
            if (!parse_u64(v, 1, 100000, &o->reps)) {
                log_error("BENCH", "--reps %s: give a number from 1 to 100000", v);
                return false;
            }
        } else if (strcmp(a, "--warmup") == 0) {
            if (!parse_u64(v, 0, 1000, &o->warmup)) {
                log_error("BENCH", "--warmup %s: give a number from 0 to 1000", v);
                return false;
            }
        } else if (strcmp(a, "--seed") == 0) {
            if (!parse_u64(v, 1, UINT32_MAX, &o->seed)) {
                log_error("BENCH", "--seed %s: give a number from 1 to 4294967295", v);
                return false;
            }
        } else if (strcmp(a, "--csv") == 0) o->csv_path = v;
        else if (strcmp(a, "--data") == 0) o->data = v;
        else {
            log_error("BENCH", "unknown option %s; see fluid bench --help", a);
            return false;
        }
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", algos);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char base[32];
        snprintf(base, sizeof base, "%s", tok);
        char *dash = strstr(base, "-shared");
        if (dash && strcmp(dash, "-shared") == 0 && dash != base) *dash = 0;
        if (!sort_algo_find(base) || (dash && strcmp(base, "radix") != 0)) {
            log_error("BENCH", "--algos: unknown algorithm '%s'; choose from radix, radix-shared, bitonic, cpu", tok);
            return false;
        }
        if (o->algo_count == BENCH_MAX_LIST) {
            log_error("BENCH", "--algos: at most %d algorithms", BENCH_MAX_LIST);
            return false;
        }
        snprintf(o->algos[o->algo_count++], sizeof o->algos[0], "%s", tok);
    }
    return true;
}

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

typedef struct _bench_row {
    const char *algo;
    uint32_t bits, n;
    double med, min, max, cpu_us;
    bool ok, gpu_clock;
    char path[160];
} _bench_row;

/* Times one algorithm at one size; fills row. Returns false on a setup error (already logged). */
static bool _bench_one(const char *algo_name, uint32_t n, uint32_t bits, const _bench_opts *o, const gpu_caps *caps,
                       const uint32_t *keys_in, const uint32_t *vals_in, const uint32_t *ref_keys,
                       const uint32_t *ref_vals, _bench_row *row) {
    char err[ERR_LEN], base[32];
    snprintf(base, sizeof base, "%s", algo_name);
    bool shared_path = strstr(base, "-shared") != NULL;
    if (shared_path) *strstr(base, "-shared") = 0;
    sorter *s = sort_make(base, &(sort_desc){.capacity = n, .no_subgroup = shared_path}, caps, err);
    if (!s) {
        log_error("BENCH", "%s at %u pairs: %s", algo_name, n, err);
        return false;
    }
    GLuint src_k = gpu_buffer_make(4ull * n, keys_in, "bench-src-keys", err);
    GLuint src_v = src_k ? gpu_buffer_make(4ull * n, vals_in, "bench-src-vals", err) : 0;
    GLuint io_k = src_v ? gpu_buffer_make(4ull * n, NULL, "bench-keys", err) : 0;
    GLuint io_v = io_k ? gpu_buffer_make(4ull * n, NULL, "bench-vals", err) : 0;
    if (!io_v) {
        log_error("BENCH", "%s at %u pairs: %s", algo_name, n, err);
        gpu_buffer_destroy(&src_k);
        gpu_buffer_destroy(&src_v);
        gpu_buffer_destroy(&io_k);
        sort_destroy(s);
        return false;
    }
    sort_describe(s, n, bits, row->path, sizeof row->path);
    /* The cpu algorithm works on the host: a GPU timer would measure an idle GPU. */
    bool gpu_clock = caps->timer_queries && strcmp(base, "cpu") != 0;
    row->gpu_clock = gpu_clock;
    int reps = (int)o->reps, total = (int)(o->warmup + o->reps);
    double *t = calloc((size_t)reps, sizeof *t);
    GLuint q;
    glGenQueries(1, &q);
    sort_pairs out = {io_k, io_v};
    /* A GPU that idled (through the CPU rows, say) clocks down and takes a while to come back:
     * measured on the H100, a row timed after a long CPU row ran up to 3x slow despite 5 warm-up
     * sorts. So keep it sorting for BENCH_SPINUP_S first. */
    if (gpu_clock) {
        double t0 = now_seconds();
        do {
            for (int k = 0; k < 4; k++) {
                glCopyNamedBufferSubData(src_k, io_k, 0, 0, 4ll * n);
                glCopyNamedBufferSubData(src_v, io_v, 0, 0, 4ll * n);
                sort_run(s, (sort_pairs){io_k, io_v}, n, bits, NULL);
            }
            glFinish();
        } while (now_seconds() - t0 < BENCH_SPINUP_S);
    }
    for (int r = 0; r < total; r++) {
        glCopyNamedBufferSubData(src_k, io_k, 0, 0, 4ll * n);
        glCopyNamedBufferSubData(src_v, io_v, 0, 0, 4ll * n);
        double us;
        if (gpu_clock) {
            glBeginQuery(GL_TIME_ELAPSED, q);
            out = sort_run(s, (sort_pairs){io_k, io_v}, n, bits, NULL);
            glEndQuery(GL_TIME_ELAPSED);
            GLuint64 ns = 0;
            glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
            us = (double)ns * 1e-3;
        } else {
            glFinish();
            double t0 = now_seconds();
            out = sort_run(s, (sort_pairs){io_k, io_v}, n, bits, NULL);
            glFinish();
            us = (now_seconds() - t0) * 1e6;
        }
        if (r >= (int)o->warmup) t[r - (int)o->warmup] = us;
    }
    glDeleteQueries(1, &q);
    qsort(t, (size_t)reps, sizeof *t, _bench_cmp_double);
    row->med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    row->min = t[0];
    row->max = t[reps - 1];
    free(t);

    /* The result of the last rep against the CPU reference. */
    uint32_t *gk = malloc(4ull * n + 4), *gv = malloc(4ull * n + 4);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(out.keys, 0, 4ll * n, gk);
    glGetNamedBufferSubData(out.vals, 0, 4ll * n, gv);
    row->ok = memcmp(gk, ref_keys, 4ull * n) == 0 && memcmp(gv, ref_vals, 4ull * n) == 0;
    free(gk);
    free(gv);

    if (o->detail && gpu_clock) {
        _bench_detail d = {0};
        glGenQueries(256, d.queries);
        sort_trace tr = {_bench_detail_begin, _bench_detail_end, &d};
        for (int r = 0; r < reps; r++) {
            glCopyNamedBufferSubData(src_k, io_k, 0, 0, 4ll * n);
            glCopyNamedBufferSubData(src_v, io_v, 0, 0, 4ll * n);
            sort_run(s, (sort_pairs){io_k, io_v}, n, bits, &tr);
            _bench_detail_collect(&d);
        }
        glDeleteQueries(256, d.queries);
        printf("    %s, %u bits, %u pairs: %d dispatches per sort\n", algo_name, bits, n, d.dispatches);
        for (int k = 0; k < d.count; k++)
            printf("      %-28s %4d calls/sort  %9.2f us/sort  %8.2f us/call\n", d.names[k], d.calls[k] / reps,
                   d.total_us[k] / reps, d.calls[k] ? d.total_us[k] / d.calls[k] : 0.0);
    }
    gpu_buffer_destroy(&src_k);
    gpu_buffer_destroy(&src_v);
    gpu_buffer_destroy(&io_k);
    gpu_buffer_destroy(&io_v);
    sort_destroy(s);
    return true;
}

/* Median CPU time of sort_cpu_stable on a copy of the input (fewer reps for large n). */
static double _bench_cpu(const uint32_t *keys, const uint32_t *vals, uint32_t n) {
    int reps = n > 4000000 ? 1 : n > 300000 ? 3 : 7;
    double t[7];
    uint32_t *k = malloc(4ull * n + 4), *v = malloc(4ull * n + 4);
    for (int r = 0; r < reps; r++) {
        memcpy(k, keys, 4ull * n);
        memcpy(v, vals, 4ull * n);
        double t0 = now_seconds();
        sort_cpu_stable(k, v, n);
        t[r] = (now_seconds() - t0) * 1e6;
    }
    free(k);
    free(v);
    qsort(t, (size_t)reps, sizeof t[0], _bench_cmp_double);
    return t[reps / 2];
}

int cmd_bench(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--render")) return app_render_bench(argc - 1, argv + 1); /* app_render.c */
    _bench_opts o = {.reps = 0, .warmup = 5, .seed = 12345};
    bool help = false;
    if (!_bench_parse(argc, argv, &o, &help)) return 2;
    if (help) {
        _bench_usage(stdout);
        return 0;
    }
    char err[ERR_LEN];
    if (!data_dir_init(o.data, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true}, err);
    if (!gpu) {
        log_error("GPU", "%s", err);
        return 1;
    }
    const gpu_caps *caps = gpu_get_caps(gpu);
    if (!o.size_count) {
        const uint64_t all[] = {27648, 65536, 262144, 1048576, 4194304, 16777216};
        for (size_t i = 0; i < ARRAY_LEN(all); i++)
            if (caps->timer_queries || all[i] <= 262144) o.sizes[o.size_count++] = all[i];
    }
    if (!o.bits_count) {
        o.bits[0] = 16;
        o.bits[1] = 32;
        o.bits_count = 2;
    }
    if (!o.reps) o.reps = caps->timer_queries ? 50 : 5;

    const char *clock = caps->timer_queries ? "GPU timer queries (GL_TIME_ELAPSED)"
                                            : "CPU clock around a finished GPU queue (timer queries read zero here)";
    printf("fluid bench: %s | %s\n", caps->renderer, caps->version);
    printf("subgroups: %s | timing: %s | %llu reps after %llu warm-up, median (min-max)\n",
           caps->subgroup ? "yes" : "no", clock, (unsigned long long)o.reps, (unsigned long long)o.warmup);
    if (!caps->subgroup)
        printf("note: no GL_KHR_shader_subgroup here, so radix and radix-shared both take the shared-memory path\n");
    printf("clock: gpu = GL timer query, cpu = CPU clock around glFinish; cpu_sort_us = sort_cpu_stable alone\n");
    printf("\n%-13s %4s %10s %5s %10s %10s %10s %9s %11s %7s %5s\n", "algorithm", "bits", "pairs", "clock",
           "median_us", "min_us", "max_us", "Mpairs/s", "cpu_sort_us", "vs_cpu", "check");

    size_t cap_rows = (size_t)o.algo_count * (size_t)o.size_count * (size_t)o.bits_count;
    _bench_row *rows = calloc(cap_rows, sizeof *rows);
    int nrows = 0, failures = 0;
    for (int b = 0; b < o.bits_count; b++) {
        for (int si = 0; si < o.size_count; si++) {
            uint32_t n = (uint32_t)o.sizes[si], bits = (uint32_t)o.bits[b];
            uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
            uint32_t *keys = malloc(4ull * n + 4), *vals = malloc(4ull * n + 4);
            uint32_t *rk = malloc(4ull * n + 4), *rv = malloc(4ull * n + 4);
            uint32_t st = (uint32_t)o.seed ^ (n * 2654435761u) ^ bits;
            if (!st) st = 1;
            for (uint32_t i = 0; i < n; i++) {
                st ^= st << 13;
                st ^= st >> 17;
                st ^= st << 5;
                keys[i] = st & mask;
                vals[i] = i;
            }
            memcpy(rk, keys, 4ull * n);
            memcpy(rv, vals, 4ull * n);
            double cpu_us = _bench_cpu(keys, vals, n);
            sort_cpu_stable(rk, rv, n);
            for (int a = 0; a < o.algo_count; a++) {
                _bench_row *r = &rows[nrows];
                r->algo = o.algos[a];
                r->bits = bits;
                r->n = n;
                r->cpu_us = cpu_us;
                if (!_bench_one(o.algos[a], n, bits, &o, caps, keys, vals, rk, rv, r)) {
                    failures++;
                    continue;
                }
                failures += !r->ok;
                printf("%-13s %4u %10u %5s %10.1f %10.1f %10.1f %9.1f %11.1f %6.1fx %5s\n", r->algo, bits, n,
                       r->gpu_clock ? "gpu" : "cpu", r->med, r->min, r->max, r->med > 0 ? n / r->med : 0.0, cpu_us, r->med > 0 ? cpu_us / r->med : 0.0,
                       r->ok ? "ok" : "FAIL");
                printf("    %s\n", r->path);
                fflush(stdout);
                nrows++;
            }
            free(keys);
            free(vals);
            free(rk);
            free(rv);
        }
    }
    if (o.csv_path) {
        size_t cap = 256 + (size_t)nrows * 320;
        char *csv = malloc(cap);
        size_t len = (size_t)snprintf(csv, cap, "algorithm,bits,pairs,clock,median_us,min_us,max_us,mpairs_per_s,cpu_sort_us,check,path\n");
        for (int i = 0; i < nrows; i++) {
            _bench_row *r = &rows[i];
            len += (size_t)snprintf(csv + len, cap - len, "%s,%u,%u,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%s,\"%s\"\n", r->algo,
                                    r->bits, r->n, r->gpu_clock ? "gpu" : "cpu", r->med, r->min, r->max,
                                    r->med > 0 ? r->n / r->med : 0.0, r->cpu_us, r->ok ? "ok" : "FAIL", r->path);
        }
        if (!file_write_atomic(o.csv_path, csv, len, err)) {
            log_error("BENCH", "%s", err);
            failures++;
        }
        free(csv);
    }
    free(rows);
    gpu_destroy(gpu);
    if (failures) log_error("BENCH", "%d row(s) failed: a GPU result differed from the CPU reference or a sorter could not be made", failures);
    return failures ? 1 : 0;
}
