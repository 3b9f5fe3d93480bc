/* cmd_run: `fluid [options]`: the fluid in a window (app_window_run, from the renderer), or
 * headless with --headless: N frames of the simulation, then an optional screenshot, the per-step
 * statistics (--stats), the final particles (--dump), a video of every frame (--video, through
 * ffmpeg: app_render.h, video.h) and a timing table on stdout.
 *
 * The options are the table _run_args in run_opts.c: one line per flag gives its parsing and its
 * help (core/args.h). A new flag: a field in run_opts.h and a line in _run_args.
 *
 * Every flag and every output path is checked before the GPU is touched; a bad one is a one-line
 * error and exit 1 with nothing written. The outputs go through core/outfile.h: opened (temporary
 * files made) before the GPU work, committed together at the end, all removed when the run fails,
 * so a failed run leaves no new file. --stats streams: its rows reach the temporary file (or the
 * FIFO, or stdout) every frame, and Ctrl-C (SIGINT, or SIGTERM) stops the run after the step in
 * progress (the frame ends there), puts the stats file in place with every row so far, writes nothing else, and exits 130.
 */
#include "app/window/app_window.h"
#include "app/window/app_recorder.h"
#include "app/cmd/cmd.h"
#include "app/session/session.h"
#include "app/session/video.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/util.h"
#include "sim/search.h"
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The final particles, checked (sim_read_checked): a lost particle or a value not finite is an
 * error, never a dump. */
static bool _run_dump(sim *s, outfile *f, char *err) {
    uint32_t n = sim_particle_count(s);
    float *pos = malloc(16ull * n + 16), *vel = malloc(16ull * n + 16), *dens = malloc(4ull * n + 4);
    bool ok = pos && vel && dens ? sim_read_checked(s, pos, vel, dens, err) : fail(err, "out of host memory");
    if (ok) outfile_printf(f, "id,x,y,z,vx,vy,vz,density\n");
    for (uint32_t i = 0; ok && i < n; i++) {
        const float *x = pos + 4ull * i, *v = vel + 4ull * i;
        outfile_printf(f, "%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, x[0], x[1], x[2], v[0], v[1], v[2], dens[i]);
    }
    free(pos);
    free(vel);
    free(dens);
    return ok;
}

/* Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) during a headless run: the first stops it after the step in
 * progress, or before the outputs are committed if the frames are done; a second one ends the
 * process at once, as the first would have ended it: ffmpeg stopped, the temporary files removed,
 * the --stats rows flushed so far put in place (outfile_emergency), exit 130. */
static volatile sig_atomic_t _run_stop;
static void _run_on_signal(int sig) {
    if (!_run_stop) {
        _run_stop = sig;
        return;
    }
    outfile_emergency(); /* ffmpeg stopped first, then the temporaries; 130 as the first would (README) */
    _exit(130);
}

/* The outputs of a headless run, in the order they are checked, opened and committed. */
enum { RUN_OUT_STATS, RUN_OUT_DUMP, RUN_OUT_SHOT, RUN_OUT_VIDEO, RUN_OUT_TRACE, RUN_OUTS };

/* Interrupted (a signal's first arrival, also during the final writes): the stats so far are kept,
 * nothing else is written; 130 whichever signal it was (README). */
static int _run_interrupted(outfile **out, const char *stats_path, long long steps) {
    char err[ERR_LEN], shown[PATH_MAX];
    for (int k = 0; k < RUN_OUTS; k++)
        if (k != RUN_OUT_STATS) {
            outfile_abort(out[k]);
            out[k] = NULL;
        }
    if (!out[RUN_OUT_STATS]) log_error("CLI", "interrupted after %lld steps; no output written", steps);
    else if (outfile_commit(out[RUN_OUT_STATS], err))
        log_error("CLI", "interrupted after %lld steps: the stats rows so far are in %s; nothing else written", steps,
                  outfile_printable(stats_path, shown, sizeof shown));
    else log_error("CLI", "%s", err);
    out[RUN_OUT_STATS] = NULL;
    return 130;
}

static const char *const _run_out_flags[RUN_OUTS] = {"--stats", "--dump", "--screenshot", "--video", "--trace"};
static const unsigned _run_out_modes[RUN_OUTS] = {OUTFILE_DASH | OUTFILE_KEEP, OUTFILE_DASH, 0, 0, OUTFILE_DASH};

static void _run_outs_abort(outfile **out) {
    for (int k = 0; k < RUN_OUTS; k++) {
        outfile_abort(out[k]);
        out[k] = NULL;
    }
}

/* Checks every output path (no side effects), and that no two outputs name the same file. */
static bool _run_outs_check(const char *const *paths, char *err) {
    for (int k = 0; k < RUN_OUTS; k++) {
        if (!paths[k]) continue;
        if (!outfile_check(_run_out_flags[k], paths[k], _run_out_modes[k], err)) return false;
    }
    int dashes = 0;
    for (int k = 0; k < RUN_OUTS; k++) dashes += paths[k] && strcmp(paths[k], "-") == 0;
    if (dashes > 1) return fail(err, "only one output can go to stdout (-); give the others file names");
    return outfile_check_distinct(RUN_OUTS, _run_out_flags, paths, err); /* by device and inode */
}

/* The --screenshot and --video of a headless run, drawn by the session's renderer: the picture
 * into the screenshot's outfile, and ffmpeg finished; the video's outfile comes back uncommitted
 * in *video_done (the run commits every output at once). */
static bool _run_pictures_finish(session *ss, app_recorder *rec, outfile *shot, outfile **video_done, char *err) {
    *video_done = NULL;
    if (shot) session_clock_rate(ss, 0); /* the HUD's fused phases in µs where the GPU measures them */
    if (shot && !app_render_png_to(ss->r, ss->h, ss->s, ss->prof, &ss->view, ss->desc.width, ss->desc.height, shot, NULL, err))
        return false;
    return !rec->video || (*video_done = app_recorder_finish(rec, err)) != NULL;
}

/* The --stats header and a frame's rows: one per step; the fluid's state on the frame's last step,
 * the stage times on its first (the sampled one); each solver stage's cycles inside a one-dispatch
 * step (NAME_fused_cycles: sim_step_record.phase_cycles, the shader clock; empty where the step was
 * not measured so). */
/* The solver's stages (after the search's) that have a phase column: at most SIM_RECORD_PHASES. */
static int _run_phases(const session *ss) {
    int n = ss->stages - SIM_SEARCH_STAGES;
    return n < 0 ? 0 : n > SIM_RECORD_PHASES ? SIM_RECORD_PHASES : n;
}

static void _run_stats_header(outfile *stats, const session *ss) {
    outfile_printf(stats, "step,time,dt,dt_cfl,cfl,it_div,it_density,err_div,err_density,capped,particles,front_x,density_ratio,"
                          "density_max_dev,kinetic_energy,potential_energy");
    for (int st = 0; st < ss->stages; st++) outfile_printf(stats, ",%s_%s_us", ss->stage_names[st], prof_clock_name(ss->prof));
    for (int k = 0; k < _run_phases(ss); k++) outfile_printf(stats, ",%s_fused_cycles", ss->stage_names[SIM_SEARCH_STAGES + k]);
    outfile_printf(stats, ",spray,foam,bubbles,diffuse_alive,diffuse_dropped\n"); /* empty: --no-diffuse */
    outfile_flush(stats);
}

/* The frame's rows: every step record read (fewer than the slots where dfsph's spare slots ran
 * empty); returns how many. */
static int _run_stats_rows(outfile *stats, const session *ss, long long steps) {
    sim_stats st;
    sim_read_stats(ss->s, &st); /* waits: every record of the frame is in */
    sim_diffuse_counts dc;
    bool diffuse = sim_read_diffuse(ss->s, &dc, true);
    sim_step_record rec[2];
    int have = sim_records(ss->s, rec, 1), i = 0;
    for (; have; i++) {
        sim_step_record r = rec[0];
        have = sim_records(ss->s, rec, 1); /* the next, so the frame's last row is known */
        outfile_printf(stats, "%lld,%.9g,%.9g,%.6g,%.4g,%u,%u,%.4g,%.4g,%u", steps + i + 1, r.time, r.dt, r.dt_cfl, r.cfl,
                       r.it[0], r.it[1], r.err_div, r.err_density, r.capped);
        if (!have)
            outfile_printf(stats, ",%u,%.9g,%.9g,%.9g,%.9g,%.9g", st.particles, st.front_x, st.density_ratio, st.density_max_dev,
                           st.kinetic_energy, st.potential_energy);
        else outfile_printf(stats, ",,,,,,");
        for (int j = 0; j < ss->stages; j++)
            if (i == 0 && prof_timed(ss->prof, j))
                outfile_printf(stats, ",%.3f", prof_last_us(ss->prof, j)); /* empty: not timed */
            else outfile_printf(stats, ",");
        for (int k = 0; k < _run_phases(ss); k++)
            if (sim_record_phased(&r)) outfile_printf(stats, ",%u", r.phase_cycles[k]);
            else outfile_printf(stats, ",");
        if (!have && diffuse) /* after the frame's diffuse update; dropped: since the start */
            outfile_printf(stats, ",%u,%u,%u,%u,%llu", dc.spray, dc.foam, dc.bubble, dc.alive,
                           (unsigned long long)dc.dropped_total);
        else outfile_printf(stats, ",,,,,");
        outfile_printf(stats, "\n");
    }
    outfile_flush(stats); /* a frame's rows reach the temporary file (or the stream) as the run goes */
    return i;
}

/* The timing table at the end of a headless run. */
static void _run_table(FILE *table, const session *ss, int done, long long steps, const double *sum_us, const int *timed_frames,
                       double frame_us_max, double wall) {
    const char *clock = prof_clock_name(ss->prof);
    int nst = ss->stages;
    sim_summary sum;
    sim_get_summary(ss->s, &sum);
    steps = (long long)sum.steps; /* the steps taken (dfsph's empty slots are not steps) */
    fprintf(table, "%s, %u particles, solver %s, sort %s: %d frames, %lld steps (%.1f a frame), %.9g s simulated\n",
            sim_scene_name(ss->s), sim_particle_count(ss->s), sim_solver_name(ss->s), sim_sort_name(ss->s), done, steps,
            done ? (double)steps / done : 0.0, sum.time);
    sim_dispatches disp;
    sim_get_dispatches(ss->s, &disp);
    if (disp.steps > sum.steps)
        fprintf(table, "%llu step slots, %llu of them spare ones that ran empty (the frame's time was used)\n",
                (unsigned long long)disp.steps, (unsigned long long)(disp.steps - sum.steps));
    if (sum.frames_short)
        fprintf(table,
                "%llu frames ran out of step slots before their 1/60 s (the rest carried to the next, caught up at the end)\n",
                (unsigned long long)sum.frames_short);
    if (sum.it_mean[1] + sum.it_mean[0] > 0)
        fprintf(
            table,
            "iterations a step: %.2f divergence, %.2f pressure; density error %.4f%% mean, %.4f%% worst; largest v dt / dx %.3f; "
            "%llu capped solves, %llu neighbours dropped, %llu particle speeds limited\n",
            sum.it_mean[0], sum.it_mean[1], 100 * sum.err_density_mean, 100 * sum.err_density_max, sum.cfl_max,
            (unsigned long long)sum.capped, (unsigned long long)sum.dropped, (unsigned long long)sum.limited);
    fprintf(table, "%-12s %12s\n", "stage", done ? (strcmp(clock, "gpu") ? "mean us cpu" : "mean us gpu") : "mean us");
    double total = 0;
    for (int st = 0; st < nst; st++) {
        double m = timed_frames[st] ? sum_us[st] / timed_frames[st] : 0;
        total += m;
        if (!timed_frames[st]) fprintf(table, "%-12s %12s   (not timed: no work of its own)\n", ss->stage_names[st], "-");
        else if (timed_frames[st] == done) fprintf(table, "%-12s %12.1f\n", ss->stage_names[st], m);
        else fprintf(table, "%-12s %12.1f   (%d of %d frames timed it)\n", ss->stage_names[st], m, timed_frames[st], done);
    }
    const char *note = sim_stage_note(ss->s);
    fprintf(table, "%-12s %12.1f   (one step: the first of each frame%s%s)\n", "step", total, note ? ", " : ", timed",
            note ? note : "");
    if (done) {
        double mean_ms = sum_us[nst] / done / 1e3;
        fprintf(table, "%-12s %12.1f   (a whole frame of %.1f steps; worst %.1f us)\n", "frame", sum_us[nst] / done,
                (double)steps / done, frame_us_max);
        if (sum.time > 0)
            fprintf(table, "%s time per simulated 1/60 s: %.3f ms; real-time factor %.2f\n",
                    strcmp(clock, "gpu") ? "CPU clock" : "GPU", mean_ms * (1.0 / 60) / (sum.time / done),
                    (sum.time / done) / (mean_ms / 1e3));
        fprintf(table, "wall clock: %.3f ms per frame (%s)\n", wall * 1e3 / done,
                strcmp(clock, "gpu") ? "stage clocks wait for the GPU" : "timer queries read each frame");
    }
}

static int _run_headless(const run_opts *o) {
    char err[ERR_LEN];
    const char *paths[RUN_OUTS] = {o->stats_path, o->dump_path, o->screenshot_path, o->video_path, o->trace_path};
    outfile *out[RUN_OUTS] = {0};
    /* Every output checked and opened before the GPU is touched. */
    if (!_run_outs_check(paths, err) || (o->video_path && !video_check(o->video_path, err)) || !data_dir_init(o->data, err)) {
        log_error("CLI", "%s", err);
        return 1;
    }
    char shown[PATH_MAX];
    if (o->video_path && o->frames == 0) {
        log_error("CLI", "--video %s with --frames 0: a video needs at least one frame",
                  outfile_printable(o->video_path, shown, sizeof shown));
        return 1;
    }
    struct sigaction sa = {.sa_handler = _run_on_signal}; /* stays installed: the second one ends the run */
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    sigemptyset(&sa.sa_mask); /* the others wait while one is handled: no cleanup runs inside another */
    for (int i = 0; i < 4; i++) sigaddset(&sa.sa_mask, sigs[i]);
    for (int i = 0; i < 4; i++) sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a pipe's reader quitting is a write error: the run stops and cleans up */
    for (int k = 0; k < RUN_OUTS; k++)
        if (paths[k] && !(out[k] = outfile_open(_run_out_flags[k], paths[k], _run_out_modes[k], err))) {
            _run_outs_abort(out);
            if (_run_stop) { /* Ctrl-C while a FIFO waited for its reader (open returned EINTR) */
                log_error("CLI", "interrupted before the run; no output written");
                return 130;
            }
            log_error("CLI", "%s", err);
            return 1;
        }
    /* The table goes to stderr when an output streams to stdout. */
    bool out_stdout = false;
    for (int k = 0; k < RUN_OUTS; k++) out_stdout |= out[k] && !outfile_write_path(out[k]);
    FILE *table = out_stdout ? stderr : stdout;

    session ss;
    session_desc sd;
    run_opts_session_desc(o, &sd);
    sd.headless = true;
    sd.software_particles = o->demo ? RUN_DEMO_SOFTWARE_PARTICLES : 0;
    sd.render = o->screenshot_path || o->video_path;
    if (o->stats_path && sd.diffuse == 0) sd.diffuse = 1; /* the stats' diffuse columns */
    sd.prof_cpu_fallback = sd.prof_sync = true;
    if (!session_make(&ss, &sd, err)) {
        log_error(ss.fail_tag, "%s", err);
        _run_outs_abort(out);
        return 1;
    }
    int frames = o->frames < 0 ? (o->demo ? RUN_DEMO_FRAMES : 1) : o->frames;
    /* The video takes its outfile. */
    app_recorder rec = {0};
    if (out[RUN_OUT_VIDEO]) {
        outfile *video_out = out[RUN_OUT_VIDEO];
        out[RUN_OUT_VIDEO] = NULL;
        if (!app_recorder_start(&rec, video_out, o->video_path, ss.desc.width, ss.desc.height, APP_VIDEO_FPS, err)) {
            log_error("CLI", "%s", err);
            _run_outs_abort(out);
            session_destroy(&ss);
            return 1;
        }
    }
    const char *clock = prof_clock_name(ss.prof);
    int nst = ss.stages;
    log_info("CLI", "%s: %u particles, %d frames of 1/60 s%s, solver %s, sort %s, stage times by the %s clock",
             sim_scene_name(ss.s), sim_particle_count(ss.s), frames, o->substeps ? " (fixed steps a frame)" : "",
             sim_solver_name(ss.s), sim_sort_name(ss.s), clock);
    outfile *stats = out[RUN_OUT_STATS];
    if (stats) _run_stats_header(stats, &ss);
    gpu_trace *trace = out[RUN_OUT_TRACE] ? trace_make(out[RUN_OUT_TRACE], ss.prof, &(trace_desc){0}) : NULL;
    trace_counters tc;
    double sum_us[PROF_MAX_STAGES] = {0}, frame_us_max = 0;
    int timed_frames[PROF_MAX_STAGES] = {0};
    long long steps = 0;
    int done = 0, rc = 0; /* frames run (fewer than asked when interrupted) */
    double t0 = now_seconds(), render_s = 0;
    for (int f = 0; f < frames && !_run_stop && !rc; f++, done++) {
        int k = session_simulate(&ss, SESSION_FRAME_SECONDS, o->substeps, SESSION_TIME_FRAME | SESSION_TIME_STAGES_SAMPLED,
                                 &_run_stop);
        session_frame_end(&ss);
        if (trace) {
            session_clock_rate(&ss, SESSION_CLOCK_ONCE); /* when the first phases come: the counters in µs */
            session_trace_counters(&ss, &tc), trace_frames(trace, ss.prof, nst, &tc);
        }
        for (int st = 0; st <= nst; st++) /* a stage's mean is over the frames that timed it (a fused step's samples) */
            if (prof_timed(ss.prof, st)) sum_us[st] += prof_last_us(ss.prof, st), timed_frames[st]++;
        if (prof_last_us(ss.prof, nst) > frame_us_max) frame_us_max = prof_last_us(ss.prof, nst);
        if (stats) k = _run_stats_rows(stats, &ss, steps);
        if (stats && outfile_failed(stats, err)) { /* a full disk, a reader that quit: stop now */
            log_error("CLI", "%s; nothing else written", err);
            rc = 1;
        }
        steps += k;
        double r0 = now_seconds(); /* the video's frame, outside the simulation's clocks */
        if (rec.video && !app_recorder_frame(&rec, ss.r, ss.h, ss.s, ss.prof, &ss.view, err)) {
            log_error("CLI", "%s", err);
            rc = 1;
        }
        render_s += now_seconds() - r0;
    }
    if (!_run_stop && !rc) { /* what frames could not finish (their slots ran out), so the run is N/60 s */
        prof_begin(ss.prof, nst);
        int k = sim_catch_up(ss.s, ss.prof);
        prof_end(ss.prof, nst);
        if (k) {
            session_frame_end(&ss);
            if (stats) k = _run_stats_rows(stats, &ss, steps);
            steps += k;
            log_info("CLI", "caught up %d steps that frames could not finish", k);
        }
    }
    sim_sync(ss.s);
    glFinish();
    if (trace) session_trace_counters(&ss, &tc), trace_finish(trace, &tc); /* committed with the others */
    double wall = now_seconds() - t0 - render_s;

    if (_run_stop) rc = _run_interrupted(out, o->stats_path, steps);
    /* The picture goes to the screenshot's temporary file (or straight to its device); ffmpeg
     * finishes the video's, which comes back uncommitted. */
    if (!rc && ss.r && !_run_pictures_finish(&ss, &rec, out[RUN_OUT_SHOT], &out[RUN_OUT_VIDEO], err)) {
        log_error("CLI", "%s", err);
        rc = 1;
    }
    app_recorder_abort(&rec); /* an unfinished video is removed */
    if (!rc && out[RUN_OUT_DUMP] && !_run_dump(ss.s, out[RUN_OUT_DUMP], err)) {
        log_error("CLI", "--dump: %s; no output written", err);
        rc = 1;
    }
    /* A signal during those final writes still interrupts (its failures, ffmpeg's included, are the
     * signal's): the stats so far kept, nothing else written. */
    if (rc != 130 && _run_stop) rc = _run_interrupted(out, o->stats_path, steps);
    /* One transaction: every output finished and checked (the video's trailer read back), then all
     * renamed into place, or none (the old files are put back). */
    if (!rc && !outfile_commit_all(out, RUN_OUTS, err)) {
        log_error("CLI", "%s; no output replaced", err);
        rc = 1;
    } else if (!rc) {
        int w = ss.desc.width, h = ss.desc.height;
        if (o->screenshot_path)
            log_info("APP", "screenshot %dx%d written to %s", w, h, outfile_printable(o->screenshot_path, shown, sizeof shown));
        if (o->video_path)
            log_info("APP", "video %dx%d, %d frames at %d fps (%.2f s), written to %s", w, h, done, APP_VIDEO_FPS,
                     (double)done / APP_VIDEO_FPS, outfile_printable(o->video_path, shown, sizeof shown));
    }
    _run_outs_abort(out);
    _run_table(table, &ss, done, steps, sum_us, timed_frames, frame_us_max, wall);
    session_compare_print(&ss, table);
    session_destroy(&ss);
    return rc;
}

int cmd_run(int argc, char **argv) {
    run_opts o;
    bool help;
    char err[ERR_LEN];
    if (!run_opts_parse(argc, argv, &o, &help, err)) {
        log_error("CLI", "%s", err);
        return 1;
    }
    if (help) {
        run_opts_usage(stdout);
        return 0;
    }
    if (!o.headless && !o.script && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
        /* No display to open a window on. Outputs named: the run they ask for, as --headless runs
         * it, nothing else. None: what a headless run can show, the fluid in motion (a second of
         * it, as a video where ffmpeg is installed), the last frame and the times. */
        o.headless = true;
        o.demo = !o.stats_path && !o.dump_path && !o.trace_path && !o.screenshot_path && !o.video_path;
        if (o.demo) {
            if (video_check("fluid-headless.mp4", err)) o.video_path = "fluid-headless.mp4";
            else log_info("CLI", "no video: %s", err);
            o.screenshot_path = "fluid-headless.png";
        }
        log_info("CLI",
                 "no display (DISPLAY and WAYLAND_DISPLAY are unset): running %s%s%s (a window needs a display, or xvfb-run)",
                 o.demo ? "headless; " : "as with --headless, writing only the outputs asked for",
                 o.demo && o.video_path ? "the video goes to fluid-headless.mp4, " : "",
                 o.demo ? "the last frame to fluid-headless.png" : "");
    }
    if (o.headless) return _run_headless(&o);
    /* The window: --stats and --dump are for headless runs; --screenshot is checked now. */
    if (o.stats_path || o.dump_path || o.trace_path) {
        log_error("CLI", "%s is written by headless runs only; add --headless (with --frames N), or leave it out",
                  o.stats_path  ? "--stats"
                  : o.dump_path ? "--dump"
                                : "--trace");
        return 1;
    }
    if (o.video_path && o.frames == 0) {
        log_error("CLI", "--video with --frames 0: a video needs at least one frame");
        return 1;
    }
    const char *win_flags[] = {"--screenshot", "--video"}, *win_paths[] = {o.screenshot_path, o.video_path};
    if ((o.screenshot_path && !outfile_check("--screenshot", o.screenshot_path, 0, err)) ||
        (o.video_path && !video_check(o.video_path, err)) || !outfile_check_distinct(2, win_flags, win_paths, err)) {
        log_error("CLI", "%s", err);
        return 1;
    }
    outfile_guard_signals(); /* an interrupt at any moment: a recording's temporary removed, exit 130 (README) */
    return app_window_run(&o);
}
