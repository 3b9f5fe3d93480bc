/* fluid bench: GPU time per sort for each algorithm, size and key width, against the CPU.
 *
 * For every (bits, size): random keys masked to `bits`, values 0..n-1 (as the fluid gives them);
 * every algorithm is timed on them by bench_run_group (bench_run.c: the repetitions interleave the
 * algorithms, GPU timer queries or the CPU clock where they read zero, each result checked against
 * the CPU's). Any mismatch fails the run (exit 1, and no --csv file). The CPU baseline is
 * sort_cpu_stable on the same data. A row whose min-max spread passes 20% of its median is
 * flagged ("noisy"), with a note under the table.
 *
 * The options are the table _bench_args (core/args.h): a new flag is a line there. Every flag, the
 * --csv path and every size against the GPU's buffer limit are checked before any data is made.
 *
 * --detail adds, per dispatch, its mean GPU time over separate reps (sort_trace) and the bytes a
 * pass of the radix sort moves at that rate.
 *
 * --reference FILE reads a CSV of a reference run on the same GPU (bench_ref.h: rows matched by
 * algorithm, bits and pairs) and adds each row's ratio to the reference's median: "x_ref" above 1
 * is slower than the reference. A row the file has no figure for shows "-", and the rows matched
 * on neither side are listed under the table.
 */
#include "app/cmd/bench_ref.h"
#include "app/cmd/bench_run.h"
#include "app/cmd/cmd.h"
#include "app/session/registry.h"
#include "core/env.h"
#include "core/args.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "sort/sort.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_LIST 16
/* The GPU sorts, radix on both of its paths: the bench's own choice, checked against the registry. */
#define BENCH_DEFAULT_ALGOS "radix,radix-rts,onesweep,counting,bitonic"

typedef struct _bench_list {
    uint64_t v[BENCH_MAX_LIST];
    int count;
} _bench_list;

typedef struct _bench_opts {
    const char *algos; /* comma list, checked by the parser */
    _bench_list sizes, bits;
    uint64_t reps, warmup, seed;
    const char *csv_path;
    const char *data;
    const char *reference; /* --reference FILE, or NULL */
    bool detail;
    FILE *table; /* where the table goes: stdout, or stderr when the CSV is on stdout */
} _bench_opts;

/* A comma list of numbers, each in [lo, hi]. */
static bool _bench_list_set(const args_opt *opt, void *field, const char *v, char *err) {
    _bench_list *l = field;
    char buf[512];
    if (strlen(v) >= sizeof buf) return fail(err, "%s: the list is too long", opt->name);
    snprintf(buf, sizeof buf, "%s", v);
    l->count = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (l->count == BENCH_MAX_LIST) return fail(err, "%s %s: at most %d values", opt->name, v, BENCH_MAX_LIST);
        if (!parse_u64(tok, opt->lo, opt->hi, &l->v[l->count]))
            return fail(err, "%s %s: '%s' is not a whole number from %llu to %llu; give a comma list", opt->name, v, tok,
                        (unsigned long long)opt->lo, (unsigned long long)opt->hi);
        l->count++;
    }
    if (!l->count) return fail(err, "%s %s: give a comma list of numbers", opt->name, v);
    return true;
}

/* NAME-shared: radix, radix-rts or onesweep forced onto shared-memory ranking; radix-rts: radix
 * forced onto reduce-then-scan. */
static const char *const _bench_extra[] = {"radix-shared", "radix-rts", "radix-rts-shared", "onesweep-shared"};
static bool _bench_algo_known(const char *tok) {
    const char *const *extra = _bench_extra;
    for (size_t i = 0; i < ARRAY_LEN(_bench_extra); i++)
        if (strcmp(tok, extra[i]) == 0) return true;
    return sort_algo_find(tok) != NULL;
}

static bool _bench_algos_set(const args_opt *opt, void *field, const char *v, char *err) {
    char buf[512];
    if (strlen(v) >= sizeof buf) return fail(err, "--algos: the list is too long");
    snprintf(buf, sizeof buf, "%s", v);
    int n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), n++) {
        if (!_bench_algo_known(tok)) {
            char extra[128] = "";
            for (size_t i = 0; i < ARRAY_LEN(_bench_extra); i++)
                snprintf(extra + strlen(extra), sizeof extra - strlen(extra), "%s%s", i ? ", " : "", _bench_extra[i]);
            return fail(err, "--algos: unknown algorithm '%s'; choose from %s (the sort library's), or %s", tok,
                        registry_list(REGISTRY_SORTS), extra);
        }
        if (n == BENCH_MAX_LIST) return fail(err, "--algos: at most %d algorithms", BENCH_MAX_LIST);
    }
    if (!n) return fail(err, "--algos %s: give a comma list of algorithms", v);
    *(const char **)field = v;
    return true;
}

/* The options of `fluid bench`: parsing and help. Add a flag by adding a line. */
static args_opt _bench_args[] = {
    {"--algos", "LIST", ARGS_AT(_bench_opts, algos), _bench_algos_set, 0, 0, NULL}, /* help: _bench_usage, from the registry */
    {"--sizes", "LIST", ARGS_AT(_bench_opts, sizes), _bench_list_set, 0, 1u << 28,
     "comma list of pair counts (default 27648,65536,262144,1048576,4194304,16777216;\nup to 262144 where GPU timer queries read zero, as on llvmpipe); each"},
    {"--bits", "LIST", ARGS_AT(_bench_opts, bits), _bench_list_set, 1, 32, "comma list of key widths (default 16,32); each"},
    {"--reps", "R", ARGS_AT(_bench_opts, reps), args_u64, 1, 100000,
     "timed sorts per row after the warm-up (default 50; 5 without GPU timers)"},
    {"--warmup", "W", ARGS_AT(_bench_opts, warmup), args_u64, 0, 1000, "untimed sorts before them (default 5)"},
    {"--seed", "S", ARGS_AT(_bench_opts, seed), args_u64, 1, UINT32_MAX, "seed of the random keys (default 12345)"},
    {"--csv", "FILE", ARGS_AT(_bench_opts, csv_path), args_string, 0, 0,
     "also write the rows to FILE, streamed as they come (- for stdout: the table\nthen goes to stderr); a failed run leaves no file"},
    {"--detail", NULL, ARGS_AT(_bench_opts, detail), args_flag, 0, 0, "time every dispatch of each sort (GPU timers only)"},
    {"--reference", "FILE", ARGS_AT(_bench_opts, reference), args_string, 0, 0,
     "a CSV of a reference run on the same GPU (columns bits, pairs, median_us; e.g.\nfrom tools/cub-bench.cu): adds each row's ratio to it"},
    {"--data", "DIR", ARGS_AT(_bench_opts, data), args_string, 0, 0, "the folder holding shaders/"},
};

static void _bench_usage(FILE *f) {
    static char help[512];
    if (!help[0]) {
        char names[256];
        snprintf(help, sizeof help,
                 "comma list of %s (the sort library's), radix-rts (radix forced onto\nreduce-then-scan); NAME-shared "
                 "forces shared-memory ranking; a sort skips the key widths\nit cannot take (default %s)",
                 registry_join(REGISTRY_SORTS, ", ", names, sizeof names), BENCH_DEFAULT_ALGOS);
        for (size_t i = 0; i < ARRAY_LEN(_bench_args); i++)
            if (!strcmp(_bench_args[i].name, "--algos")) _bench_args[i].help = help;
    }
    fprintf(f, "usage: fluid bench [--algos LIST] [--sizes LIST] [--bits LIST] [--reps R] [--warmup W]\n"
               "                   [--seed S] [--csv FILE] [--detail] [--reference FILE] [--data DIR]\n"
               "       fluid bench --sim ...      the simulation instead (fluid bench --sim --help)\n"
               "       fluid bench --render ...   the renderer instead (fluid bench --render --help)\n");
    args_help(f, _bench_args, ARRAY_LEN(_bench_args));
    fprintf(f, "Every user error is one line on stderr and exit status 1, with nothing written.\n");
}

static int _bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

/* One row of the table (and the CSV); returns 1 when its spread flags it. The path goes whole on
 * its own line, and whole in the CSV. Rows without a reference row are added to unmatched. */
static int _bench_print_row(FILE *tab, outfile *csv, int aw, const bench_row *r, bench_ref *ref, char *unmatched, size_t len) {
    int ri = bench_ref_match(ref, r->algo, r->bits, r->n);
    double ref_us = ri >= 0 ? ref->med[ri] : 0.0, spread = bench_row_spread(r);
    bool flag = spread > BENCH_NOISY_SPREAD;
    if (ref && ri < 0)
        snprintf(unmatched + strlen(unmatched), len - strlen(unmatched), "%s%s %u bits %u pairs", unmatched[0] ? ", " : "",
                 r->algo, r->bits, r->n);
    fprintf(tab, "%-*s %4u %10u %5s %10.1f %10.1f %10.1f %9.1f %11.1f %6.1fx %5.0f%%%s %5s", aw, r->algo, r->bits, r->n,
            r->gpu_clock ? "gpu" : "cpu", r->med, r->min, r->max, r->med > 0 ? r->n / r->med : 0.0, r->cpu_us,
            r->med > 0 ? r->cpu_us / r->med : 0.0, spread * 100, flag ? "!" : " ", r->ok ? "ok" : "FAIL");
    if (ref && ri >= 0) fprintf(tab, " %9.1f %6.2f", ref_us, r->med / ref_us);
    if (ref && ri < 0) fprintf(tab, " %9s %6s", "-", "-");
    fprintf(tab, "\n    %s\n", r->path);
    fflush(tab);
    if (csv) {
        outfile_printf(csv, "%s,%u,%u,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%s,%.1f,%s,\"%s\"", r->algo, r->bits, r->n,
                       r->gpu_clock ? "gpu" : "cpu", r->med, r->min, r->max, r->med > 0 ? r->n / r->med : 0.0, r->cpu_us,
                       r->ok ? "ok" : "FAIL", spread * 100, flag ? "yes" : "no", r->path);
        if (ref && ri >= 0) outfile_printf(csv, ",%s,%.2f,%.3f", ref->algo[ri], ref_us, r->med / ref_us);
        if (ref && ri < 0) outfile_printf(csv, ",,,");
        outfile_printf(csv, "\n");
        outfile_flush(csv);
    }
    return flag;
}

int cmd_bench(int argc, char **argv) {
    outfile_guard_signals(); /* an interrupt at any moment: the temporaries removed, exit 130 (README) */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sim")) return cmd_bench_sim(argc, argv);
        if (!strcmp(argv[i], "--render")) return cmd_bench_render(argc, argv); /* cmd_bench_render.c */
    }
    _bench_opts o = {.algos = BENCH_DEFAULT_ALGOS, .warmup = 5, .seed = 12345};
    bool help = false;
    char err[ERR_LEN];
    if (!args_parse("fluid bench", _bench_args, ARRAY_LEN(_bench_args), &o, argc, argv, &help, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    if (help) {
        _bench_usage(stdout);
        return 0;
    }
    char algos[BENCH_MAX_LIST][32];
    int algo_count = 0;
    char abuf[512];
    snprintf(abuf, sizeof abuf, "%s", o.algos);
    for (char *tok = strtok(abuf, ","); tok && algo_count < BENCH_MAX_LIST; tok = strtok(NULL, ","))
        snprintf(algos[algo_count++], sizeof algos[0], "%s", tok);
    /* The CSV path is checked, and its temporary file made, before the GPU is touched. */
    outfile *csv = NULL;
    if (o.csv_path && !outfile_check("--csv", o.csv_path, OUTFILE_DASH, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    bench_ref ref_store, *ref = NULL;
    if (o.reference) {
        if (!bench_ref_load(o.reference, &ref_store, err)) {
            log_error("BENCH", "%s", err);
            return 1;
        }
        ref = &ref_store;
        const char *names[BENCH_MAX_LIST];
        for (int a = 0; a < algo_count; a++) names[a] = algos[a];
        bench_ref_against(ref, names, algo_count);
    }
    gpu_ctx *gpu = cmd_gpu_headless(o.data, "BENCH");
    if (!gpu) return 1;
    const gpu_caps *caps = gpu_get_caps(gpu);
    /* Sizes the GPU cannot hold are refused now, before any data is made. */
    for (int i = 0; i < o.sizes.count; i++)
        if (4 * o.sizes.v[i] > (uint64_t)caps->max_ssbo_bytes) {
            log_error("BENCH",
                      "--sizes %llu: %llu pairs need %llu MiB per buffer, more than this GPU's %lld MiB storage-buffer "
                      "limit; use at most %lld",
                      (unsigned long long)o.sizes.v[i], (unsigned long long)o.sizes.v[i],
                      (unsigned long long)((4 * o.sizes.v[i]) >> 20), (long long)(caps->max_ssbo_bytes >> 20),
                      (long long)(caps->max_ssbo_bytes / 4));
            gpu_destroy(gpu);
            return 1;
        }
    if (o.csv_path && !(csv = outfile_open("--csv", o.csv_path, OUTFILE_DASH, err))) {
        log_error("BENCH", "%s", err);
        gpu_destroy(gpu);
        return 1;
    }
    FILE *tab = o.table = csv && !outfile_write_path(csv) ? stderr : stdout;
    if (!o.sizes.count) {
        const uint64_t all[] = {27648, 65536, 262144, 1048576, 4194304, 16777216};
        for (size_t i = 0; i < ARRAY_LEN(all); i++)
            if (caps->timer_queries || all[i] <= 262144) o.sizes.v[o.sizes.count++] = all[i];
    }
    if (!o.bits.count) {
        o.bits.v[0] = 16;
        o.bits.v[1] = 32;
        o.bits.count = 2;
    }
    if (!o.reps) o.reps = caps->timer_queries ? 50 : 5;

    const char *clock = caps->timer_queries ? "GPU timer queries (GL_TIME_ELAPSED)"
                                            : "CPU clock around a finished GPU queue (timer queries read zero here)";
    fprintf(tab, "fluid bench: %s | %s\n", caps->renderer, caps->version);
    fprintf(tab, "subgroups: %s | timing: %s | %llu reps after %llu warm-up, median (min-max)\n", caps->subgroup ? "yes" : "no",
            clock, (unsigned long long)o.reps, (unsigned long long)o.warmup);
    if (!caps->subgroup)
        fprintf(tab, "note: no GL_KHR_shader_subgroup here, so radix and radix-shared both take the shared-memory path\n");
    fprintf(tab, "clock: gpu = GL timer query, cpu = CPU clock around glFinish; cpu_sort_us = sort_cpu_stable alone\n");
    if (ref)
        fprintf(tab, "reference: %s (%d rows, %s): ref_us its median, x_ref ours / its (above 1: slower)\n", o.reference,
                ref->count, bench_ref_mode(ref));
    int aw = 9; /* the algorithm column: as wide as the longest name */
    for (int a = 0; a < algo_count; a++) aw = (int)strlen(algos[a]) > aw ? (int)strlen(algos[a]) : aw;
    fprintf(tab, "\n%-*s %4s %10s %5s %10s %10s %10s %9s %11s %7s %6s %5s", aw, "algorithm", "bits", "pairs", "clock",
            "median_us", "min_us", "max_us", "Mpairs/s", "cpu_sort_us", "vs_cpu", "spread", "check");
    if (ref) fprintf(tab, " %9s %6s", "ref_us", "x_ref");
    fprintf(tab, "\n");
    if (csv) {
        outfile_printf(
            csv, "algorithm,bits,pairs,clock,median_us,min_us,max_us,mpairs_per_s,cpu_sort_us,check,spread_pct,noisy,path%s\n",
            ref ? ",ref_algorithm,ref_median_us,ratio_to_ref" : "");
        outfile_flush(csv);
    }

    int failures = 0, noisy = 0;
    char unmatched[2048] = "";
    for (int b = 0; b < o.bits.count; b++) {
        for (int si = 0; si < o.sizes.count; si++) {
            uint32_t n = (uint32_t)o.sizes.v[si], bits = (uint32_t)o.bits.v[b];
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
            bench_row rows[BENCH_MAX_LIST];
            int nrows = 0;
            for (int a = 0; a < algo_count; a++) {
                const sort_algo *sa = sort_algo_find(strncmp(algos[a], "counting", 8) == 0 ? "counting" : "radix");
                if (bits > sort_algo_max_bits(sa)) { /* counting's count array: not a failure */
                    fprintf(tab, "%-*s %4u %10u  (skipped: keys of at most %u bits)\n", aw, algos[a], bits, n,
                            sort_algo_max_bits(sa));
                    continue;
                }
                const char *lp = getenv("LP_NUM_THREADS"), *lb = env_str(ENV_ONESWEEP_LOOKBACK); /* LP_: Mesa's */
                if (caps->llvmpipe && strncmp(algos[a], "onesweep", 8) == 0 && lb && strcmp(lb, "wait") == 0 &&
                    !(lp && strcmp(lp, "1") == 0)) {
                    fprintf(tab, "%-*s %4u %10u  (skipped: onesweep's waiting look-back on llvmpipe needs LP_NUM_THREADS=1)\n",
                            aw, algos[a], bits, n);
                    continue;
                }
                rows[nrows++] = (bench_row){.algo = algos[a], .cpu_us = cpu_us};
            }
            bench_case bc = {keys, vals, rk, rv, n, bits};
            bench_run_group(rows, nrows, &bc, &(bench_run_opts){(int)o.reps, (int)o.warmup, o.detail, tab}, caps);
            for (int a = 0; a < nrows; a++) {
                bench_row *r = &rows[a];
                failures += !r->made || !r->ok;
                if (r->made) noisy += _bench_print_row(tab, csv, aw, r, ref, unmatched, sizeof unmatched);
            }
            free(keys);
            free(vals);
            free(rk);
            free(rv);
        }
    }
    if (noisy)
        fprintf(tab,
                "\nnote: %d row(s) marked ! in the spread column: their min-max spread passes %.0f%% of the median; "
                "give more --reps or a quieter machine before trusting them\n",
                noisy, BENCH_NOISY_SPREAD * 100);
    if (ref) {
        char unused[2048] = "";
        for (int i = 0; i < ref->count; i++)
            if (!ref->used[i])
                snprintf(unused + strlen(unused), sizeof unused - strlen(unused), "%s%s %u bits %u pairs", unused[0] ? ", " : "",
                         ref->algo[i], ref->bits[i], ref->pairs[i]);
        if (unmatched[0]) fprintf(tab, "reference: no reference row for: %s\n", unmatched);
        if (unused[0]) fprintf(tab, "reference: rows of the reference no row here matched: %s\n", unused);
    }
    gpu_destroy(gpu);
    if (failures) {
        log_error("BENCH", "%d row(s) failed: a GPU result differed from the CPU reference or a sorter could not be made%s",
                  failures, csv && !outfile_is_direct(csv) ? "; no CSV written" : "");
        outfile_abort(csv);
        return 1;
    }
    if (csv && !outfile_commit(csv, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    return 0;
}
