/* fluid bench --sim: the simulation's cost per displayed frame, for each solver, sort and particle
 * count: the dam break from t = 0 for --seconds (default 1) of fluid in frames of 1/60 s, headless.
 *
 * The whole frame's simulation is timed with one pair of GPU timestamps (no per-stage queries
 * inside it, so nothing distorts it); every fourth frame instead times the stages of its first
 * step, and those frames are left out of the frame statistics. Where timer queries read zero
 * (llvmpipe) the CPU clock around a finished GPU queue stands in, and the table says so.
 * Per row: GPU ms per simulated 1/60 s (mean, worst frame), steps per 1/60 s, mean divergence and
 * pressure iterations, mean and largest density error, the real-time factor (simulated seconds per
 * second of GPU time), and each stage's time in one step. --csv writes the same rows.
 */
#include "app/cmd.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "gpu/prof.h"
#include "sim/sim.h"
#include "sort/sort.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BSIM_MAX 8
#define BSIM_STAGE_EVERY 4 /* every Nth frame times its first step's stages instead of the frame */

typedef struct _bsim_opts {
    char solvers[BSIM_MAX][16], sorts[BSIM_MAX][32];
    int nsolvers, nsorts, ncounts;
    uint64_t counts[BSIM_MAX];
    double seconds;
    const char *scene, *csv_path, *data;
} _bsim_opts;

static void _bsim_usage(FILE *f) {
    fprintf(f, "usage: fluid bench --sim [--solvers LIST] [--sorts LIST] [--particles LIST] [--seconds S] [--scene NAME]\n"
               "                         [--csv FILE] [--data DIR]\n"
               "  the dam break (or --scene) from t = 0 for S seconds of fluid (default 1) in frames of 1/60 s\n"
               "  --solvers   comma list of dfsph, wcsph (default dfsph,wcsph)\n"
               "  --sorts     comma list of sorts (default radix)\n"
               "  --particles comma list (default 27648,110592,442368,1000000; 4096 where GPU timers read zero)\n");
}

static bool _bsim_names(const char *v, char (*out)[32], int *n, size_t width) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    *n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (*n == BSIM_MAX || strlen(tok) >= width) return false;
        snprintf(out[(*n)++], width, "%s", tok);
    }
    return *n > 0;
}

static bool _bsim_parse(int argc, char **argv, _bsim_opts *o, bool *help, char *err) {
    char solvers[BSIM_MAX][32];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sim")) continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *help = true;
            return true;
        }
        if (!v || !strncmp(v, "--", 2)) return fail(err, "%s needs a value; see fluid bench --sim --help", a);
        i++;
        if (!strcmp(a, "--solvers")) {
            if (!_bsim_names(v, solvers, &o->nsolvers, 16)) return fail(err, "--solvers %s: expected a comma list of dfsph, wcsph", v);
            for (int k = 0; k < o->nsolvers; k++) {
                bool known = false;
                for (int q = 0; sim_solver_names[q]; q++) known = known || !strcmp(sim_solver_names[q], solvers[k]);
                if (!known) return fail(err, "--solvers: unknown solver '%s'; choose dfsph or wcsph", solvers[k]);
                snprintf(o->solvers[k], sizeof o->solvers[k], "%s", solvers[k]);
            }
        } else if (!strcmp(a, "--sorts")) {
            if (!_bsim_names(v, o->sorts, &o->nsorts, 32)) return fail(err, "--sorts %s: expected a comma list of sorts", v);
            for (int k = 0; k < o->nsorts; k++)
                if (!sort_algo_find(o->sorts[k])) return fail(err, "--sorts: unknown sort '%s'", o->sorts[k]);
        } else if (!strcmp(a, "--particles")) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            o->ncounts = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
                if (o->ncounts == BSIM_MAX || !parse_u64(tok, 1, 1u << 30, &o->counts[o->ncounts++]))
                    return fail(err, "--particles %s: expected up to %d counts from 1 to %u", v, BSIM_MAX, 1u << 30);
        } else if (!strcmp(a, "--seconds")) {
            char *end;
            o->seconds = strtod(v, &end);
            if (*end || !(o->seconds > 0 && o->seconds <= 60)) return fail(err, "--seconds %s: expected a number from 0 to 60", v);
        } else if (!strcmp(a, "--scene")) {
            o->scene = v;
        } else if (!strcmp(a, "--csv")) {
            o->csv_path = v;
        } else if (!strcmp(a, "--data")) {
            o->data = v;
        } else {
            return fail(err, "unknown option '%s'; see fluid bench --sim --help", a);
        }
    }
    return true;
}

typedef struct _bsim_row {
    char solver[16], sort[32];
    uint32_t particles;
    int frames, timed;
    double ms_mean, ms_worst, steps_per_frame, it_div, it_density, err_mean, err_max, cfl_max, realtime;
    uint64_t capped, dropped;
    int nst;
    char stage_names[16][16];
    double stage_us[16];
} _bsim_row;

static bool _bsim_run(const _bsim_opts *o, const char *solver, const char *sort, uint32_t count, const gpu_caps *caps,
                      _bsim_row *row, char *err) {
    sim *s = sim_make(&(sim_desc){.scene = o->scene, .particles = count, .sort = sort, .solver = solver}, caps, err);
    if (!s) return false;
    memset(row, 0, sizeof *row);
    snprintf(row->solver, sizeof row->solver, "%s", solver);
    snprintf(row->sort, sizeof row->sort, "%s", sort);
    row->particles = sim_particle_count(s);
    int nst = sim_stage_count(s);
    const char *names[PROF_MAX_STAGES];
    for (int i = 0; i < nst; i++) names[i] = sim_stage_name(s, i);
    names[nst] = "frame";
    gpu_prof *prof = prof_make(&(prof_desc){.names = names, .stages = nst + 1, .cpu_fallback = true, .sync = true}, caps);
    int frames = (int)lround(o->seconds * 60);
    double stage_sum[PROF_MAX_STAGES] = {0};
    int sampled = 0;
    long long steps = 0;
    for (int f = 0; f < frames; f++) {
        bool stages = f % BSIM_STAGE_EVERY == BSIM_STAGE_EVERY - 1;
        if (!stages) prof_begin(prof, nst);
        steps += sim_frame(s, 1.0 / 60, 0, stages ? prof : NULL);
        if (!stages) prof_end(prof, nst);
        prof_frame(prof);
        if (stages) {
            for (int i = 0; i < nst; i++) stage_sum[i] += prof_last_us(prof, i);
            sampled++;
        } else {
            double ms = prof_last_us(prof, nst) / 1e3;
            row->ms_mean += ms;
            if (ms > row->ms_worst) row->ms_worst = ms;
            row->timed++;
        }
        fprintf(stderr, "\rbench --sim: %s %s %u particles: frame %d of %d (t = %.3f s)   ", solver, sort, row->particles, f + 1,
                frames, sim_time(s));
    }
    sim_sync(s);
    fprintf(stderr, "\r%*s\r", 90, "");
    sim_summary sum;
    sim_get_summary(s, &sum);
    row->frames = frames;
    row->ms_mean = row->timed ? row->ms_mean / row->timed : NAN;
    row->steps_per_frame = frames ? (double)steps / frames : 0;
    row->it_div = sum.it_div_mean;
    row->it_density = sum.it_density_mean;
    row->err_mean = sum.err_density_mean;
    row->err_max = sum.err_density_max;
    row->cfl_max = sum.cfl_max;
    row->capped = sum.capped;
    row->dropped = sum.dropped;
    /* simulated seconds per second of GPU time, from the mean frame and the mean frame's fluid time */
    row->realtime = sum.time / frames / (row->ms_mean / 1e3);
    row->nst = nst < 16 ? nst : 16;
    for (int i = 0; i < row->nst; i++) {
        snprintf(row->stage_names[i], sizeof row->stage_names[i], "%s", names[i]);
        row->stage_us[i] = sampled ? stage_sum[i] / sampled : NAN;
    }
    prof_destroy(prof);
    sim_destroy(s);
    return true;
}

int cmd_bench_sim(int argc, char **argv) {
    _bsim_opts o = {.seconds = 1.0, .scene = "dambreak"};
    bool help = false;
    char err[ERR_LEN];
    if (!_bsim_parse(argc, argv, &o, &help, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    if (help) {
        _bsim_usage(stdout);
        return 0;
    }
    if (!o.nsolvers) {
        for (int q = 0; sim_solver_names[q] && q < BSIM_MAX; q++) snprintf(o.solvers[o.nsolvers++], 16, "%s", sim_solver_names[q]);
    }
    if (!o.nsorts) snprintf(o.sorts[o.nsorts++], 32, "radix");
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
    if (!o.ncounts) {
        const uint64_t all[] = {27648, 110592, 442368, 1000000};
        if (caps->timer_queries)
            for (size_t i = 0; i < ARRAY_LEN(all); i++) o.counts[o.ncounts++] = all[i];
        else
            o.counts[o.ncounts++] = 4096;
    }
    const char *clock = caps->timer_queries ? "gpu" : "cpu";
    printf("fluid bench --sim: %s | %s | %s, %.3g s of fluid in frames of 1/60 s | clock: %s\n", caps->renderer, caps->version, o.scene,
           o.seconds, caps->timer_queries ? "GPU timestamps around each frame's simulation" : "CPU clock around a finished GPU queue");
    printf("frames: one timestamp pair around each frame; every %dth frame times its first step's stages instead\n\n", BSIM_STAGE_EVERY);
    printf("%-6s %-8s %9s %5s %10s %10s %8s %7s %7s %9s %9s %7s %7s %s\n", "solver", "sort", "particles", "clock", "ms_per_60th",
           "worst_ms", "steps", "it_div", "it_dens", "err_mean%", "err_max%", "cfl", "rt", "stages (us, one step)");
    _bsim_row *rows = calloc((size_t)o.nsolvers * o.nsorts * o.ncounts, sizeof *rows);
    int nrows = 0, rc = 0;
    for (int c = 0; c < o.ncounts; c++)
        for (int q = 0; q < o.nsolvers; q++)
            for (int k = 0; k < o.nsorts; k++) {
                _bsim_row *r = &rows[nrows];
                if (!_bsim_run(&o, o.solvers[q], o.sorts[k], (uint32_t)o.counts[c], caps, r, err)) {
                    log_error("BENCH", "%s %s %llu: %s", o.solvers[q], o.sorts[k], (unsigned long long)o.counts[c], err);
                    rc = 1;
                    continue;
                }
                nrows++;
                printf("%-6s %-8s %9u %5s %10.3f %10.3f %8.1f %7.2f %7.2f %9.4f %9.4f %7.3f %7.2f ", r->solver, r->sort, r->particles, clock,
                       r->ms_mean, r->ms_worst, r->steps_per_frame, r->it_div, r->it_density, 100 * r->err_mean, 100 * r->err_max,
                       r->cfl_max, r->realtime);
                for (int i = 0; i < r->nst; i++) printf("%s%s %.1f", i ? ", " : "", r->stage_names[i], r->stage_us[i]);
                printf("\n");
                fflush(stdout);
            }
    if (o.csv_path) {
        size_t cap = 4096 + (size_t)nrows * 1024, len = 0;
        char *csv = malloc(cap);
        len += (size_t)snprintf(csv + len, cap - len, "solver,sort,particles,clock,ms_per_60th_mean,ms_per_60th_worst,steps_per_60th,"
                                                      "it_div,it_density,err_density_mean,err_density_max,cfl_max,capped,dropped,realtime,stages\n");
        for (int i = 0; i < nrows; i++) {
            _bsim_row *r = &rows[i];
            len += (size_t)snprintf(csv + len, cap - len, "%s,%s,%u,%s,%.4f,%.4f,%.2f,%.3f,%.3f,%.6g,%.6g,%.4f,%llu,%llu,%.4f,", r->solver,
                                    r->sort, r->particles, clock, r->ms_mean, r->ms_worst, r->steps_per_frame, r->it_div, r->it_density,
                                    r->err_mean, r->err_max, r->cfl_max, (unsigned long long)r->capped, (unsigned long long)r->dropped, r->realtime);
            for (int k = 0; k < r->nst; k++) len += (size_t)snprintf(csv + len, cap - len, "%s%s=%.2f", k ? ";" : "", r->stage_names[k], r->stage_us[k]);
            len += (size_t)snprintf(csv + len, cap - len, "\n");
        }
        if (!file_write_atomic(o.csv_path, csv, len, err)) {
            log_error("BENCH", "%s", err);
            rc = 1;
        }
        free(csv);
    }
    free(rows);
    gpu_destroy(gpu);
    return rc;
}
