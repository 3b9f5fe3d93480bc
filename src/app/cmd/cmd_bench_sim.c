/* fluid bench --sim: the simulation's cost per displayed frame, for each solver, sort and particle
 * count: the dam break from t = 0 for --seconds (default 1) of fluid in frames of 1/60 s, headless.
 *
 * The whole frame's simulation is timed with one pair of GPU timestamps (no per-stage queries
 * inside it, so nothing distorts it); every fourth frame instead times the stages of its first
 * step, and those frames are left out of the frame statistics. Where timer queries read zero
 * (llvmpipe) the CPU clock around a finished GPU queue stands in, and the table says so.
 * Each row starts after a quarter second of the same simulation, untimed, so the clocks are up.
 * Per row: GPU ms per simulated 1/60 s (mean, worst frame), steps per 1/60 s, mean divergence and
 * pressure iterations, mean and largest density error, the real-time factor (simulated seconds per
 * second of GPU time), and each stage's time in one step. --csv writes the same rows.
 */
#include "app/cmd/cmd.h"
#include "app/session/registry.h"
#include "app/session/session.h"
#include "core/args.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "gpu/prof.h"
#include "sim/compare.h"
#include "sim/sim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BSIM_MAX 8
#define BSIM_STAGE_EVERY 4 /* every Nth frame times its first step's stages instead of the frame */
#define BSIM_SPINUP_S 0.25 /* seconds of untimed simulation before each row */

typedef struct _bsim_opts {
    const char *solvers, *sorts, *counts_text, *seconds_text, *scene, *csv_path, *data, *trace_path;
    gpu_trace *trace; /* --trace's writer, during the run */
    bool sim, compare;
    char solver[BSIM_MAX][16], sort[BSIM_MAX][32];
    int nsolvers, nsorts, ncounts;
    uint64_t counts[BSIM_MAX];
    double seconds;
} _bsim_opts;

static args_opt _bsim_args[] = {
    {"--sim", NULL, ARGS_AT(_bsim_opts, sim), args_flag, 0, 0, "time the simulation (this command)"},
    {"--solvers", "LIST", ARGS_AT(_bsim_opts, solvers), args_string, 0, 0, NULL}, /* help: _bsim_usage, from the registries */
    {"--sorts", "LIST", ARGS_AT(_bsim_opts, sorts), args_string, 0, 0, NULL},
    {"--particles", "LIST", ARGS_AT(_bsim_opts, counts_text), args_string, 0, 0,
     "comma list of counts (default 27648,110592,442368,1000000; 4096 where GPU\ntimer queries read zero)"},
    {"--seconds", "S", ARGS_AT(_bsim_opts, seconds_text), args_string, 0, 0, "seconds of fluid from t = 0, 0 to 60 (default 1)"},
    {"--scene", "NAME", ARGS_AT(_bsim_opts, scene), args_string, 0, 0, NULL},
    {"--csv", "FILE", ARGS_AT(_bsim_opts, csv_path), args_string, 0, 0,
     "also write the rows to FILE (- for stdout); a failed run leaves no file"},
    {"--trace", "FILE", ARGS_AT(_bsim_opts, trace_path), args_string, 0, 0,
     "every row's frames as one timeline (Trace Event Format JSON: ui.perfetto.dev)"},
    {"--compare", NULL, ARGS_AT(_bsim_opts, compare), args_flag, 0, 0,
     "the first run at each count also sorts each frame's first step's keys with every\nsort path here: a table of each sort's median, p95, ratio to the fastest and\nmismatches (the compare runs outside the frame's timing)"},
    {"--data", "DIR", ARGS_AT(_bsim_opts, data), args_string, 0, 0, "the folder holding shaders/"},
};

static void _bsim_usage(FILE *f) {
    static char help[3][512];
    if (!help[0][0]) {
        char all[256], names[256];
        snprintf(help[0], sizeof help[0], "comma list of %s (default %s)",
                 registry_join(REGISTRY_SOLVERS, ", ", names, sizeof names),
                 registry_join(REGISTRY_SOLVERS, ",", all, sizeof all));
        snprintf(help[1], sizeof help[1], "comma list of %s (default %s)",
                 registry_join(REGISTRY_SORTS, ", ", names, sizeof names), registry_name(REGISTRY_SORTS, 0));
        snprintf(help[2], sizeof help[2], "%s", registry_list(REGISTRY_SCENES));
        for (size_t i = 0; i < ARRAY_LEN(_bsim_args); i++) {
            if (!strcmp(_bsim_args[i].name, "--solvers")) _bsim_args[i].help = help[0];
            if (!strcmp(_bsim_args[i].name, "--sorts")) _bsim_args[i].help = help[1];
            if (!strcmp(_bsim_args[i].name, "--scene")) _bsim_args[i].help = help[2];
        }
    }
    fprintf(f, "usage: fluid bench --sim [options]\n"
               "  the default scene (or --scene) from t = 0 for S seconds of fluid in frames of 1/60 s, headless, for each\n"
               "  solver, sort and particle count: GPU ms per simulated 1/60 s (mean, worst), steps, iterations,\n"
               "  density error, real-time factor and the time of each stage\n");
    args_help(f, _bsim_args, ARRAY_LEN(_bsim_args));
}

/* Splits a comma list into out (each shorter than width); false if empty, too long or too many. */
static bool _bsim_split(const char *v, char *out, size_t width, int *n) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == BSIM_MAX || strlen(tok) >= width) return false;
        snprintf(out + width * (size_t)(*n)++, width, "%s", tok);
    }
    return *n > 0;
}

/* The lists and numbers of the table's strings, checked. */
static bool _bsim_check(_bsim_opts *o, char *err) {
    char all[256];
    if (!_bsim_split(o->solvers ? o->solvers : registry_join(REGISTRY_SOLVERS, ",", all, sizeof all), &o->solver[0][0], 16,
                     &o->nsolvers))
        return fail(err, "--solvers %s: expected a comma list of %s", o->solvers, registry_list(REGISTRY_SOLVERS));
    for (int k = 0; k < o->nsolvers; k++)
        if (registry_find(REGISTRY_SOLVERS, o->solver[k]) < 0)
            return fail(err, "--solvers: unknown solver '%s'; choose %s", o->solver[k], registry_list(REGISTRY_SOLVERS));
    if (!_bsim_split(o->sorts ? o->sorts : registry_name(REGISTRY_SORTS, 0), &o->sort[0][0], 32, &o->nsorts))
        return fail(err, "--sorts %s: expected a comma list of sorts", o->sorts);
    for (int k = 0; k < o->nsorts; k++)
        if (registry_find(REGISTRY_SORTS, o->sort[k]) < 0)
            return fail(err, "--sorts: unknown sort '%s'; choose %s", o->sort[k], registry_list(REGISTRY_SORTS));
    if (o->counts_text) {
        char names[BSIM_MAX][32];
        if (!_bsim_split(o->counts_text, &names[0][0], 32, &o->ncounts))
            return fail(err, "--particles %s: expected up to %d counts", o->counts_text, BSIM_MAX);
        for (int k = 0; k < o->ncounts; k++)
            if (!parse_u64(names[k], 1, 1u << 30, &o->counts[k]))
                return fail(err, "--particles: '%s' is not a whole number from 1 to %u", names[k], 1u << 30);
    }
    o->seconds = 1;
    if (o->seconds_text) {
        char *end;
        o->seconds = strtod(o->seconds_text, &end);
        if (*end || !(o->seconds > 0 && o->seconds <= 60))
            return fail(err, "--seconds %s: expected a number above 0, at most 60", o->seconds_text);
    }
    if (o->scene && !strcmp(o->scene, "")) return fail(err, "--scene needs a name");
    return true;
}

typedef struct _bsim_row {
    char solver[16], sort[32];
    uint32_t particles;
    int frames, timed;
    double ms_mean, ms_worst, steps_per_frame, it_div, it_density, err_mean, err_max, cfl_max, realtime;
    uint64_t capped, dropped;
    double disp_mean;  /* dispatches recorded per step (sim_get_dispatches) */
    uint32_t disp_1_4; /* dispatches of a step whose solves record 1 divergence and 4 pressure iterations */
    int worst_steps;   /* the worst frame's steps and dispatches: where its time went */
    uint64_t worst_disp;
    int nst;
    char stage_names[16][16];
    double stage_us[16];
    bool compared; /* --compare's table, for this row */
    sim_compare_report cmp;
} _bsim_row;

static void _bsim_line(void *user, const char *text) { fprintf(user, "%s\n", text); }

static bool _bsim_run(const _bsim_opts *o, session *ss, const char *solver, const char *sort, uint32_t count, _bsim_row *row,
                      char *err) {
    /* Spin-up: a quarter second of the same simulation, thrown away, so that the GPU's clocks are
     * up when the timed run starts (an idle H100 sits at 360 MHz); the timed run is a fresh sim. */
    const sim_desc sd = {
        .scene = o->scene, .particles = count, .sort = sort_algo_find(sort), .solver = solver}; /* checked by --sorts */
    if (!session_sim_make(ss, &sd, err)) return false;
    for (double t0 = now_seconds(); now_seconds() - t0 < BSIM_SPINUP_S;) {
        session_simulate(ss, SESSION_FRAME_SECONDS, 0, 0, NULL);
        glFinish();
    }
    if (!session_sim_make(ss, &sd, err)) return false;
    sim *s = ss->s;
    gpu_prof *prof = ss->prof;
    memset(row, 0, sizeof *row);
    snprintf(row->solver, sizeof row->solver, "%s", solver);
    snprintf(row->sort, sizeof row->sort, "%s", sort);
    row->particles = sim_particle_count(s);
    int nst = ss->stages;
    const char *const *names = ss->stage_names;
    int frames = (int)lround(o->seconds * 60);
    double stage_sum[PROF_MAX_STAGES] = {0};
    int stage_frames[PROF_MAX_STAGES] = {0}; /* the frames that timed each (a fused step's samples) */
    for (int f = 0; f < frames; f++) {
        bool stages = f % BSIM_STAGE_EVERY == BSIM_STAGE_EVERY - 1;
        sim_dispatches d0, d1;
        sim_get_dispatches(s, &d0);
        int frame_steps = session_simulate(ss, SESSION_FRAME_SECONDS, 0, stages ? SESSION_TIME_STAGES : SESSION_TIME_FRAME, NULL);
        sim_get_dispatches(s, &d1);
        session_frame_end(ss);
        trace_counters tc;
        if (o->trace) session_trace_counters(ss, &tc), trace_frames(o->trace, ss->prof, ss->stages, &tc);
        if (stages) {
            for (int i = 0; i < nst; i++)
                if (prof_timed(prof, i)) stage_sum[i] += prof_last_us(prof, i), stage_frames[i]++;
        } else {
            double ms = prof_last_us(prof, nst) / 1e3;
            row->ms_mean += ms;
            if (ms > row->ms_worst) {
                row->ms_worst = ms;
                row->worst_steps = frame_steps;
                row->worst_disp = d1.total - d0.total;
            }
            row->timed++;
        }
        fprintf(stderr, "\rbench --sim: %s %s %u particles: frame %d of %d (t = %.3f s)   ", solver, sort, row->particles, f + 1,
                frames, sim_time(s));
    }
    sim_sync(s);
    fprintf(stderr, "\r%*s\r", 90, "");
    if (sim_get_compare(s)) {
        sim_compare_sync(sim_get_compare(s));
        sim_compare_get(sim_get_compare(s), &row->cmp);
        row->compared = true;
    }
    sim_summary sum;
    sim_get_summary(s, &sum);
    sim_dispatches disp;
    sim_get_dispatches(s, &disp);
    row->disp_mean = disp.steps ? (double)disp.total / disp.steps : 0;
    row->disp_1_4 = disp.pairs ? disp.last - 2 * disp.pairs + 2 * (1 + 4) : disp.last;
    row->frames = frames;
    row->ms_mean = row->timed ? row->ms_mean / row->timed : NAN;
    row->steps_per_frame = frames ? (double)sum.steps / frames : 0; /* steps taken (dfsph's empty spare slots are not) */
    row->it_div = sum.it_mean[0];
    row->it_density = sum.it_mean[1];
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
        row->stage_us[i] = stage_frames[i] ? stage_sum[i] / stage_frames[i] : NAN;
    }
    session_sim_destroy(ss);
    return true;
}

int cmd_bench_sim(int argc, char **argv) {
    _bsim_opts o = {.scene = registry_name(REGISTRY_SCENES, 0)}; /* the registries' first: the defaults */
    bool help = false;
    char err[ERR_LEN];
    if (!args_parse("fluid bench --sim", _bsim_args, ARRAY_LEN(_bsim_args), &o, argc, argv, &help, err) ||
        (!help && !_bsim_check(&o, err))) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    if (help) {
        _bsim_usage(stdout);
        return 0;
    }
    if (registry_find(REGISTRY_SCENES, o.scene) < 0) {
        log_error("BENCH", "--scene %s: unknown scene; choose %s", o.scene, registry_list(REGISTRY_SCENES));
        return 1;
    }
    /* Every output is checked before the GPU is touched. */
    const char *out_flags[2] = {"--csv", "--trace"}, *out_paths[2] = {o.csv_path, o.trace_path};
    outfile *trace_out = NULL;
    if ((o.csv_path && !outfile_check("--csv", o.csv_path, OUTFILE_DASH, err)) ||
        (o.trace_path && !outfile_check("--trace", o.trace_path, 0, err)) ||
        !outfile_check_distinct(2, out_flags, out_paths, err) ||
        (o.trace_path && !(trace_out = outfile_open("--trace", o.trace_path, 0, err)))) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    session ss;
    if (!session_make(
            &ss, &(session_desc){.headless = true, .data = o.data, .no_sim = true, .prof_cpu_fallback = true, .prof_sync = true},
            err)) {
        log_error(ss.fail_tag, "%s", err);
        outfile_abort(trace_out);
        return 1;
    }
    if (trace_out) o.trace = trace_make(trace_out, ss.prof, &(trace_desc){0});
    const gpu_caps *caps = ss.caps;
    if (!o.ncounts) {
        const uint64_t all[] = {27648, 110592, 442368, 1000000};
        if (caps->timer_queries)
            for (size_t i = 0; i < ARRAY_LEN(all); i++) o.counts[o.ncounts++] = all[i];
        else o.counts[o.ncounts++] = 4096;
    }
    const char *clock = caps->timer_queries ? "gpu" : "cpu";
    printf("fluid bench --sim: %s | %s | %s, %.3g s of fluid in frames of 1/60 s | clock: %s\n", caps->renderer, caps->version,
           o.scene, o.seconds,
           caps->timer_queries ? "GPU timestamps around each frame's simulation" : "CPU clock around a finished GPU queue");
    printf("frames: one timestamp pair around each frame; every %dth frame times its first step's stages instead\n\n",
           BSIM_STAGE_EVERY);
    printf("disp: dispatches recorded per step (mean); disp14: those of a step whose solves record 1 divergence and 4 pressure\n"
           "iterations (dfsph; wcsph: its step's)\n\n");
    printf("%-6s %-8s %9s %5s %10s %10s %8s %7s %7s %9s %9s %7s %7s %6s %6s %s\n", "solver", "sort", "particles", "clock",
           "ms_per_60th", "worst_ms", "steps", "it_div", "it_dens", "err_mean%", "err_max%", "cfl", "rt", "disp", "disp14",
           "stages (us, one step)");
    _bsim_row *rows = calloc((size_t)o.nsolvers * o.nsorts * o.ncounts, sizeof *rows);
    int nrows = 0, rc = 0;
    for (int c = 0; c < o.ncounts; c++)
        for (int q = 0; q < o.nsolvers; q++)
            for (int k = 0; k < o.nsorts; k++) {
                _bsim_row *r = &rows[nrows];
                ss.desc.compare = o.compare && q == 0 && k == 0; /* one run at each count */
                if (!_bsim_run(&o, &ss, o.solver[q], o.sort[k], (uint32_t)o.counts[c], r, err)) {
                    log_error("BENCH", "%s %s %llu: %s", o.solver[q], o.sort[k], (unsigned long long)o.counts[c], err);
                    rc = 1;
                    continue;
                }
                nrows++;
                printf("%-6s %-8s %9u %5s %10.3f %10.3f %8.1f %7.2f %7.2f %9.4f %9.4f %7.3f %7.2f %6.1f %6u ", r->solver, r->sort,
                       r->particles, clock, r->ms_mean, r->ms_worst, r->steps_per_frame, r->it_div, r->it_density,
                       100 * r->err_mean, 100 * r->err_max, r->cfl_max, r->realtime, r->disp_mean, r->disp_1_4);
                for (int i = 0; i < r->nst; i++) printf("%s%s %.1f", i ? ", " : "", r->stage_names[i], r->stage_us[i]);
                printf(" | worst frame: %d steps, %llu dispatches\n", r->worst_steps, (unsigned long long)r->worst_disp);
                if (r->compared) {
                    printf("\n%s %s, %u particles: ", r->solver, r->sort, r->particles);
                    sim_compare_print(&r->cmp, _bsim_line, stdout);
                    printf("\n");
                }
                fflush(stdout);
            }
    trace_finish(o.trace, NULL);
    if (o.csv_path && !rc) {
        outfile *f = outfile_open("--csv", o.csv_path, OUTFILE_DASH, err);
        if (!f) {
            log_error("BENCH", "%s", err);
            rc = 1;
        } else {
            outfile_printf(
                f,
                "solver,sort,particles,clock,ms_per_60th_mean,ms_per_60th_worst,steps_per_60th,it_div,it_density,"
                "err_density_mean,err_density_max,cfl_max,capped,dropped,realtime,dispatches_per_step,dispatches_1div_4dens,stages\n");
            for (int i = 0; i < nrows; i++) {
                _bsim_row *r = &rows[i];
                outfile_printf(f, "%s,%s,%u,%s,%.4f,%.4f,%.2f,%.3f,%.3f,%.6g,%.6g,%.4f,%llu,%llu,%.4f,%.2f,%u,", r->solver,
                               r->sort, r->particles, clock, r->ms_mean, r->ms_worst, r->steps_per_frame, r->it_div,
                               r->it_density, r->err_mean, r->err_max, r->cfl_max, (unsigned long long)r->capped,
                               (unsigned long long)r->dropped, r->realtime, r->disp_mean, r->disp_1_4);
                for (int k = 0; k < r->nst; k++) outfile_printf(f, "%s%s=%.2f", k ? ";" : "", r->stage_names[k], r->stage_us[k]);
                outfile_printf(f, "\n");
            }
            outfile *both[2] = {f, trace_out}; /* one transaction: both or neither */
            trace_out = NULL;
            if (!outfile_commit_all(both, 2, err)) {
                log_error("BENCH", "%s", err);
                rc = 1;
            }
            outfile_abort(both[0]), outfile_abort(both[1]);
        }
    }
    if (trace_out && !rc && !outfile_commit(trace_out, err)) log_error("BENCH", "%s", err), rc = 1;
    else if (trace_out && rc) outfile_abort(trace_out);
    free(rows);
    session_destroy(&ss);
    return rc;
}
