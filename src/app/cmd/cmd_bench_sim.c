/* fluid bench --sim: the simulation's cost per displayed frame, for each solver, sort and particle
 * count: the scene (--scene, default the dam break) from t = --warmup (default 0; the warm-up
 * simulated untimed) for --seconds (default 1) of fluid in frames of 1/60 s, headless.
 *
 * The whole frame's simulation is timed with one pair of GPU timestamps (no per-stage queries
 * inside it, so nothing distorts it); every fourth frame also times the stages of its first step,
 * and those frames are left out of the frame statistics (their timestamp pair only places them on
 * --trace's timeline, so that a frame there spans its whole simulation). Where timer queries read zero
 * (llvmpipe) the CPU clock around a finished GPU queue stands in, and the table says so.
 * Each row starts after a quarter second of the same simulation, untimed, so the clocks are up.
 * Per row: GPU ms per simulated 1/60 s (mean, worst frame, and the ratio to the fastest row at its
 * count), steps and step slots per 1/60 s, the solver's own iteration counters a step, mean and
 * largest density error, the real-time factor (simulated seconds per second of GPU time), each
 * stage's time in one step, and the worst frame's steps, slots and dispatches, all over the timed
 * window only (its records). The rows are one table, grouped by count
 * (bench_sim_table.c); --csv writes the same rows.
 */
#include "app/cmd/bench_sim_table.h"
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
#include "sim/solver.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BSIM_MAX 8
#define BSIM_STAGE_EVERY 4 /* every Nth frame times its first step's stages, and is left out of the frame figures */
#define BSIM_SPINUP_S 0.25 /* seconds of untimed simulation before each row */

typedef struct _bsim_opts {
    const char *solvers, *sorts, *counts_text, *seconds_text, *warmup_text, *scene, *csv_path, *data, *trace_path;
    gpu_trace *trace; /* --trace's writer, during the run */
    bool sim, compare, no_groups, diffuse;
    char solver[BSIM_MAX][16], sort[BSIM_MAX][32];
    int nsolvers, nsorts, ncounts;
    uint64_t counts[BSIM_MAX];
    double seconds, warmup;
} _bsim_opts;

static args_opt _bsim_args[] = {
    {"--sim", NULL, ARGS_AT(_bsim_opts, sim), args_flag, 0, 0, "time the simulation (this command)"},
    {"--solvers", "LIST", ARGS_AT(_bsim_opts, solvers), args_string, 0, 0, NULL}, /* help: _bsim_usage, from the registries */
    {"--sorts", "LIST", ARGS_AT(_bsim_opts, sorts), args_string, 0, 0, NULL},
    {"--particles", "LIST", ARGS_AT(_bsim_opts, counts_text), args_string, 0, 0,
     "comma list of counts (default 27648,110592,442368,1000000; 4096 where GPU\ntimer queries read zero)"},
    {"--seconds", "S", ARGS_AT(_bsim_opts, seconds_text), args_string, 0, 0,
     "seconds of fluid timed, above 0, at most 60 (default 1)"},
    {"--warmup", "S", ARGS_AT(_bsim_opts, warmup_text), args_string, 0, 0,
     "seconds of fluid simulated untimed first, 0 to 60 (default 0): the timed window\nstarts at t = S (a settled pool: --scene dambreak --warmup 3 --seconds 2)"},
    {"--scene", "NAME", ARGS_AT(_bsim_opts, scene), args_string, 0, 0, NULL},
    {"--csv", "FILE", ARGS_AT(_bsim_opts, csv_path), args_string, 0, 0,
     "also write the rows to FILE (- for stdout); a failed run leaves no file"},
    {"--trace", "FILE", ARGS_AT(_bsim_opts, trace_path), args_string, 0, 0,
     "every row's frames as one timeline (Trace Event Format JSON: ui.perfetto.dev)"},
    {"--compare", NULL, ARGS_AT(_bsim_opts, compare), args_flag, 0, 0,
     "the first run at each count also sorts each frame's first step's keys with every\nsort path here: a table of each sort's median, p95, ratio to the fastest and\nmismatches (the compare runs outside the frame's timing)"},
    {"--diffuse", NULL, ARGS_AT(_bsim_opts, diffuse), args_flag, 0, 0,
     "also the spray, foam and bubbles (sim/diffuse.h), once a frame inside its timing:\ntheir cost is the difference to a run without"},
    {"--no-debug-groups", NULL, ARGS_AT(_bsim_opts, no_groups), args_flag, 0, 0,
     "no KHR_debug groups around the stages (what they cost: docs/BENCHMARKS.md)"},
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
               "  the default scene (or --scene) from t = 0 (or --warmup's seconds later) for S seconds of fluid in\n"
               "  frames of 1/60 s, headless, for each solver, sort and particle count, as one table by count:\n"
               "  GPU ms per simulated 1/60 s (mean, worst, ratio to the fastest), steps, the solver's iterations,\n"
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
    if (o->warmup_text) {
        char *end;
        o->warmup = strtod(o->warmup_text, &end);
        if (end == o->warmup_text || *end || !(o->warmup >= 0 && o->warmup <= 60))
            return fail(err, "--warmup %s: expected seconds from 0 to 60", o->warmup_text);
    }
    if (o->scene && !strcmp(o->scene, "")) return fail(err, "--scene needs a name");
    return true;
}

/* The records read so far (sim_records) into the row's window statistics; into frame_steps (NULL:
 * not counted), the steps each timed frame's slots ran: by the record's frame where the solver says
 * it (dfsph: a frame whose slots ran out leaves the rest of its time to the next frame's, whose GPU
 * time pays for them), else the steps whose end falls in the frame's 1/60 s from row->t_start
 * (wcsph, whose frames carry nothing). frame0: sim_frames_begun before the first timed frame. */
static void _bsim_take(sim *s, bsim_row *row, double it_sum[SIM_RECORD_COUNTERS], double *err_sum, int *frame_steps, int frames,
                       uint32_t frame0) {
    sim_step_record rec[256];
    for (int n; (n = sim_records(s, rec, (int)ARRAY_LEN(rec))) > 0;)
        for (int i = 0; i < n; i++) {
            const sim_step_record *r = &rec[i];
            row->steps++;
            if (frame_steps) {
                int f = r->frame ? (int)((int64_t)r->frame - frame0 - 1) : (int)floor((r->time - row->t_start) * 60 - 1e-6);
                frame_steps[f < 0 ? 0 : f >= frames ? frames - 1 : f]++;
            }
            if (sim_record_phased(r)) { /* phase_cycles: the sum here, the mean at the run's end */
                for (int k = 0; k < SIM_RECORD_PHASES; k++) row->phase_cycles[k] += r->phase_cycles[k];
                row->phase_steps++;
            }
            for (int k = 0; k < SIM_RECORD_COUNTERS; k++) it_sum[k] += r->it[k];
            *err_sum += r->err_density;
            if (r->err_density > row->err_max) row->err_max = r->err_density;
            if (r->cfl > row->cfl_max) row->cfl_max = r->cfl;
            if (!isnan(r->cfl)) row->has_cfl = true;
            row->capped += r->capped;
            row->dropped += r->dropped;
        }
}

static void _bsim_line(void *user, const char *text) { fprintf(user, "%s\n", text); }

static bool _bsim_run(const _bsim_opts *o, session *ss, const char *solver, const char *sort, uint32_t count, bsim_row *row,
                      char *err) {
    /* Spin-up: a quarter second of the same simulation, thrown away, so that the GPU's clocks are
     * up when the timed run starts (an idle H100 sits at 360 MHz); the timed run is a fresh sim. */
    const sim_desc sd = {.scene = o->scene,
                         .particles = count,
                         .sort = sort_algo_find(sort),
                         .solver = solver,
                         .diffuse = {.on = o->diffuse}}; /* the sort: checked by --sorts */
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
    /* --warmup: its frames untimed and untraced, then every record so far read and left out. */
    int warm = (int)lround(o->warmup * 60);
    double it_sum[SIM_RECORD_COUNTERS] = {0}, err_sum = 0;
    bsim_row skip = {0};
    for (int f = 0; f < warm; f++) {
        session_simulate(ss, SESSION_FRAME_SECONDS, 0, 0, NULL);
        _bsim_take(s, &skip, it_sum, &err_sum, NULL, 0, 0); /* every frame: the ring never fills (wcsph: 100+ steps a frame) */
        fprintf(stderr, "\rbench --sim: %s %s %u particles: warm-up frame %d of %d (t = %.3f s)   ", solver, sort, row->particles,
                f + 1, warm, sim_time(s));
    }
    if (warm) {
        sim_sync(s);
        glFinish();
        _bsim_take(s, &skip, it_sum, &err_sum, NULL, 0, 0);
        memset(it_sum, 0, sizeof it_sum), err_sum = 0;
    }
    row->t_start = sim_time(s);
    uint32_t frame0 = sim_frames_begun(s);
    session_frames_untraced(ss); /* the warm-up's frames are no traced frame's */
    int nst = ss->stages;
    const char *const *names = ss->stage_names;
    int frames = (int)lround(o->seconds * 60);
    int *frame_steps = calloc(frames > 0 ? (size_t)frames : 1, sizeof *frame_steps);
    if (!frame_steps) return fail(err, "out of host memory for %d frames' step counts", frames);
    double stage_sum[PROF_MAX_STAGES] = {0};
    int stage_frames[PROF_MAX_STAGES] = {0}; /* the frames that timed each (a fused step's samples) */
    for (int f = 0; f < frames; f++) {
        bool stages = f % BSIM_STAGE_EVERY == BSIM_STAGE_EVERY - 1;
        sim_dispatches d0, d1;
        sim_get_dispatches(s, &d0);
        /* A sampled frame's timestamps too, for --trace (the frame around its first step's stages,
         * "other steps" after them); it stays out of the figures below. Until session 36 it timed the
         * stages alone, and the trace drew it as a frame of one step (2 ms among 150 at 986,078). */
        unsigned timing = SESSION_TIME_FRAME | (stages ? SESSION_TIME_STAGES : 0);
        int frame_slots = session_simulate(ss, SESSION_FRAME_SECONDS, 0, timing, NULL);
        sim_get_dispatches(s, &d1);
        row->slots += frame_slots;
        session_frame_end(ss);
        trace_counters tc;
        if (o->trace) {
            session_clock_rate(ss, SESSION_CLOCK_ONCE); /* when the first phases come: the counters in µs */
            session_trace_counters(ss, &tc), trace_frames(o->trace, ss->prof, ss->stages, &tc);
        }
        _bsim_take(s, row, it_sum, &err_sum, frame_steps, frames, frame0); /* every frame: the ring never fills */
        if (stages) {
            for (int i = 0; i < nst; i++)
                if (prof_timed(prof, i)) stage_sum[i] += prof_last_us(prof, i), stage_frames[i]++;
        } else {
            double ms = prof_last_us(prof, nst) / 1e3;
            row->ms_frame += ms;
            if (ms > row->ms_worst) {
                row->ms_worst = ms;
                row->worst_slots = frame_slots;
                row->worst_frame = f;
                row->worst_disp = d1.total - d0.total;
            }
            row->timed++;
        }
        fprintf(stderr, "\rbench --sim: %s %s %u particles: frame %d of %d (t = %.3f s)   ", solver, sort, row->particles, f + 1,
                frames, sim_time(s));
    }
    sim_sync(s);
    _bsim_take(s, row, it_sum, &err_sum, frame_steps, frames, frame0);
    if (o->trace) { /* the row's last frames' steps, now that their records are in (its sim goes next) */
        trace_counters tc;
        session_trace_counters(ss, &tc), trace_flush(o->trace, &tc);
    }
    row->worst_steps = frame_steps[row->worst_frame];
    free(frame_steps);
    fprintf(stderr, "\r%*s\r", 90, "");
    if (sim_get_compare(s)) {
        sim_compare_sync(sim_get_compare(s));
        sim_compare_get(sim_get_compare(s), &row->cmp);
        row->compared = true;
    }
    sim_summary sum;
    sim_get_summary(s, &sum);
    if (sum.records_dropped) return fail(err, "%llu step records were dropped", (unsigned long long)sum.records_dropped);
    row->t_end = sim_time(s);
    sim_dispatches disp;
    sim_get_dispatches(s, &disp);
    row->disp_mean = disp.steps ? (double)disp.total / disp.steps : 0;
    row->disp_1_4 = disp.pairs ? disp.last - 2 * disp.pairs + 2 * (1 + 4) : disp.last;
    row->frames = frames;
    row->ms_frame = row->timed ? row->ms_frame / row->timed : NAN;
    /* per simulated 1/60 s: a window that ends behind its frames' time (their slots ran out, the rest
     * carried over) left work to later frames (bsim_row) */
    row->ms_mean = row->t_end > row->t_start ? row->ms_frame * frames / 60.0 / (row->t_end - row->t_start) : NAN;
    row->steps_per_frame = frames ? (double)row->steps / frames : 0; /* steps taken (dfsph's empty spare slots are not) */
    row->slots_per_frame = frames ? (double)row->slots / frames : 0;
    row->ncounters = sim_counter_count(s) < BSIM_COUNTERS ? sim_counter_count(s) : BSIM_COUNTERS;
    for (int k = 0; k < row->ncounters; k++) {
        snprintf(row->counter[k], sizeof row->counter[k], "%s", sim_counter_name(s, k));
        row->it_mean[k] = row->steps ? it_sum[k] / (double)row->steps : 0;
    }
    row->has_err = row->ncounters > 0; /* a solver with a pressure solve measures the error; wcsph records none */
    row->err_mean = row->steps ? err_sum / (double)row->steps : 0;
    /* simulated seconds per second of GPU time, from the mean frame and the mean frame's fluid time */
    row->realtime = (row->t_end - row->t_start) / frames / (row->ms_frame / 1e3);
    /* The phases' mean cycles a step, and the clock's rate now, with the GPU's clocks still up. */
    row->nphase = row->phase_steps ? sim_phase_count(s) : 0; /* the timed window's steps measured them */
    for (int k = 0; k < SIM_RECORD_PHASES; k++) row->phase_cycles[k] = row->nphase ? row->phase_cycles[k] / row->phase_steps : 0;
    row->phase_mhz = row->nphase ? gpu_shader_clock_mhz(ss->caps) : 0;
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
    if (!session_make(&ss,
                      &(session_desc){.headless = true,
                                      .data = o.data,
                                      .no_sim = true,
                                      .prof_cpu_fallback = true,
                                      .prof_sync = true,
                                      .no_debug_groups = o.no_groups},
                      err)) {
        log_error(ss.fail_tag, "%s", err);
        outfile_abort(trace_out);
        return 1;
    }
    const gpu_caps *caps = ss.caps;
    if (!o.ncounts) {
        const uint64_t all[] = {27648, 110592, 442368, 1000000};
        if (caps->timer_queries)
            for (size_t i = 0; i < ARRAY_LEN(all); i++) o.counts[o.ncounts++] = all[i];
        else o.counts[o.ncounts++] = 4096;
    }
    /* Every row's sort must take its grid's keys (the counting sort: 22 bits): checked for all
     * rows here, so that a bad pair fails before the first row runs, not after the rows before it. */
    for (int c = 0; c < o.ncounts; c++)
        for (int q = 0; q < o.nsolvers; q++) {
            uint32_t bits;
            bool ok = sim_key_bits_for(o.scene, o.counts[c], sim_solver_find(o.solver[q]), &bits, err);
            for (int k = 0; ok && k < o.nsorts; k++) {
                uint32_t most = sort_algo_max_bits(sort_algo_find(o.sort[k]));
                if (bits > most)
                    ok = fail(
                        err,
                        "--sorts %s: %s at %llu particles sorts cell keys of %u bits, and %s takes at most %u; use radix or fewer particles",
                        o.sort[k], o.solver[q], (unsigned long long)o.counts[c], bits, o.sort[k], most);
            }
            if (!ok) {
                log_error("BENCH", "%s", err);
                outfile_abort(trace_out);
                session_destroy(&ss);
                return 1;
            }
        }
    if (trace_out) o.trace = trace_make(trace_out, ss.prof, &(trace_desc){0});
    const char *clock = caps->timer_queries ? "gpu" : "cpu";
    printf("fluid bench --sim: %s | %s | %s, t = %.3g to %.3g s of fluid in frames of 1/60 s | clock: %s\n", caps->renderer,
           caps->version, o.scene, o.warmup, o.warmup + o.seconds,
           caps->timer_queries ? "GPU timestamps around each frame's simulation" : "CPU clock around a finished GPU queue");
    printf("frames: one timestamp pair around each frame; every %dth frame also times its first step's stages and is\n"
           "left out of the frame figures\n\n",
           BSIM_STAGE_EVERY);
    printf("a row a solver and sort, grouped by count; t_start, t_end: the timed window's simulated start (after --warmup)\n"
           "and end (behind its frames' time where a frame ran out of step slots and carried its rest over);\n"
           "ms_per_60th: GPU ms per simulated 1/60 s (the mean frame's over the fluid's time a frame); worst_ms: the worst\n"
           "frame's; x_fastest: ms per 1/60 s over the fastest row's at that count; it_NAME: the solver's own iterations a step\n"
           "(- where it has none); err, cfl: density error, largest v dt/dx (- where the solver measures none)\n"
           "steps: steps taken a frame; slots: step slots issued a frame (dfsph's past the frame's time run empty)\n"
           "disp: dispatches recorded per slot (mean); disp14: those of a step whose solves record 1 divergence and 4 pressure\n"
           "iterations (dfsph; wcsph: its step's); worst frame: the steps its slots ran (with a frame's rest that ran out of\n"
           "slots before it), its slots and dispatches\n\n");
    bsim_columns cols = {0};
    for (int q = 0; q < registry_count(REGISTRY_SOLVERS); q++) /* every solver's: the same columns whatever --solvers */
        bsim_columns_add(&cols, registry_name(REGISTRY_SOLVERS, q));
    bsim_table_header(stdout, &cols);
    bsim_row *rows = calloc((size_t)o.nsolvers * o.nsorts * o.ncounts, sizeof *rows);
    int nrows = 0, rc = 0;
    for (int c = 0; c < o.ncounts; c++) {
        int first = nrows;
        for (int q = 0; q < o.nsolvers; q++)
            for (int k = 0; k < o.nsorts; k++) {
                bsim_row *r = &rows[nrows];
                ss.desc.compare = o.compare && q == 0 && k == 0; /* one run at each count */
                if (!_bsim_run(&o, &ss, o.solver[q], o.sort[k], (uint32_t)o.counts[c], r, err)) {
                    log_error("BENCH", "%s %s %llu: %s", o.solver[q], o.sort[k], (unsigned long long)o.counts[c], err);
                    rc = 1;
                    continue;
                }
                nrows++;
            }
        bsim_table_group(stdout, &rows[first], nrows - first, &cols, clock);
        for (int i = first; i < nrows; i++) /* --compare: the sort paths on that run's keys */
            if (rows[i].compared) {
                printf("%s %s, %u particles: ", rows[i].solver, rows[i].sort, rows[i].particles);
                sim_compare_print(&rows[i].cmp, _bsim_line, stdout);
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
            bsim_csv(f, rows, nrows, &cols, clock);
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
