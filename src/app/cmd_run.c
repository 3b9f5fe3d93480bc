/* cmd_run: `fluid [options]`: the fluid in a window (app_window_run, from the renderer), or
 * headless with --headless: N frames of the simulation, then an optional screenshot, the per-step
 * statistics (--stats), the final particles (--dump), a video of every frame (--video, through
 * ffmpeg: app_render.h, video.h) and a timing table on stdout.
 *
 * The options are the table _run_args below: one line per flag gives its parsing and its help
 * (core/args.h). A new flag: a field in run_opts.h and a line in _run_args.
 *
 * Every flag and every output path is checked before the GPU is touched; a bad one is a one-line
 * error and exit 1 with nothing written. The outputs go through core/outfile.h: opened (temporary
 * files made) before the GPU work, committed together at the end, all removed when the run fails,
 * so a failed run leaves no new file. --stats streams: its rows reach the temporary file (or the
 * FIFO, or stdout) every frame, and Ctrl-C (SIGINT, or SIGTERM) stops the run after the step in
 * progress (the frame ends there), puts the stats file in place with every row so far, writes nothing else, and exits 130.
 */
#include "app/app.h"
#include "app/app_limits.h"
#include "app/app_render.h"
#include "app/cmd.h"
#include "app/video.h"
#include "core/args.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/util.h"
#include "render/render.h"
#include "sort/sort.h"
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_MAX_PARTICLES (1u << 30) /* sim_max_particles' own cap; the GPU may allow fewer */

static bool _run_scene(const args_opt *opt, void *field, const char *v, char *err) {
    char list[256] = "";
    for (int k = 0; sim_scene_names[k]; k++) {
        if (!strcmp(sim_scene_names[k], v)) {
            *(const char **)field = v;
            return true;
        }
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", sim_scene_names[k]);
    }
    return fail(err, "--scene %s: unknown scene; choose one of: %s", v, list);
}

static bool _run_sort(const args_opt *opt, void *field, const char *v, char *err) {
    char list[256] = "";
    for (int k = 0; k < sort_algo_count; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", sort_algos[k]->name);
    if (!sort_algo_find(v)) return fail(err, "--sort %s: unknown sort; choose one of: %s", v, list);
    *(const char **)field = v;
    return true;
}

static bool _run_solver(const args_opt *opt, void *field, const char *v, char *err) {
    for (int k = 0; sim_solver_names[k]; k++)
        if (!strcmp(sim_solver_names[k], v)) {
            *(const char **)field = v;
            return true;
        }
    return fail(err, "--solver %s: unknown solver; choose dfsph or wcsph", v);
}

static bool _run_style(const args_opt *opt, void *field, const char *v, char *err) {
    for (int k = 0; k < RENDER_STYLE_COUNT; k++)
        if (!strcmp(v, render_style_keys[k])) {
            *(int *)field = k;
            return true;
        }
    return fail(err, "--style %s: unknown style; choose surface, spheres or raster", v);
}

static bool _run_on(const args_opt *opt, void *field, const char *v, char *err) { return *(int *)field = 1, true; }
static bool _run_off(const args_opt *opt, void *field, const char *v, char *err) { return *(int *)field = 0, true; }

/* The options of `fluid`: parsing and help. Add a flag by adding a line. */
static const args_opt _run_args[] = {
    {"--headless", NULL, ARGS_AT(run_opts, headless), args_flag, 0, 0, "no window (EGL); runs --frames frames (default 1) and exits"},
    {"--scene", "NAME", ARGS_AT(run_opts, scene), _run_scene, 0, 0, "dambreak (default), drop, double-dambreak, pool (still water)"},
    {"--particles", "N", ARGS_AT(run_opts, particles), args_u32, 1, RUN_MAX_PARTICLES,
     "about N particles (default 27648; k and M multiply by 1024 and 1048576); the scene\nkeeps its size in metres and the spacing changes; the count is rounded to whole\nblocks (printed); the GPU may hold fewer"},
    {"--sort", "NAME", ARGS_AT(run_opts, sort), _run_sort, 0, 0, "radix (default), onesweep, counting, bitonic, or cpu (read back, sort on the CPU)"},
    {"--solver", "NAME", ARGS_AT(run_opts, solver), _run_solver, 0, 0, "dfsph (default: incompressible, large steps) or wcsph (weakly compressible)"},
    {"--strict", NULL, ARGS_AT(run_opts, strict), args_flag, 0, 0, "dfsph: mean density error 0.01% (default 0.05%)"},
    {"--frames", "N", ARGS_AT(run_opts, frames), args_int, 0, 1000000000, "run N frames of 1/60 s of fluid each, then exit (0: none; the initial state)"},
    {"--substeps", "K", ARGS_AT(run_opts, substeps), args_int, 1, 100000, "exactly K steps a frame (default: as many as the solver needs for 1/60 s)"},
    {"--stats", "FILE", ARGS_AT(run_opts, stats_path), args_string, 0, 0,
     "headless: CSV, a row per step: time, dt, iterations, errors; the fluid's front,\ndensity and energies on each frame's last step; stage times on its first;\nflushed every frame, in place at the end and on Ctrl-C (a FIFO or - as it runs)"},
    {"--dump", "FILE", ARGS_AT(run_opts, dump_path), args_string, 0, 0, "headless: CSV, a row per particle of the final state: id,x,y,z,vx,vy,vz,density;\n- for stdout"},
    {"--screenshot", "FILE", ARGS_AT(run_opts, screenshot_path), args_string, 0, 0, "PNG of the last frame, HUD included"},
    {"--video", "FILE", ARGS_AT(run_opts, video_path), args_string, 0, 0,
     "MP4 of every frame (60 fps; needs ffmpeg); headless a frame is 1/60 s of\nfluid, so it plays in real time; in the window from the start until G"},
    {"--style", "NAME", ARGS_AT(run_opts, style), _run_style, 0, 0,
     "surface (default: the water), spheres or raster (the spheres through the\ngraphics pipeline): how the window starts, the screenshot and video are drawn"},
    {"--size", "WxH", ARGS_AT(run_opts, size), args_size, 16, 16384, "window or screenshot size (default 1280x720), each side"},
    {"--vsync", NULL, ARGS_AT(run_opts, vsync), _run_on, 0, 0, "wait for the display's refresh (the window's default)"},
    {"--no-vsync", NULL, ARGS_AT(run_opts, vsync), _run_off, 0, 0, "do not wait for it"},
    {"--data", "DIR", ARGS_AT(run_opts, data), args_string, 0, 0, "the folder holding shaders/ and assets/"},
    {"--debug", NULL, ARGS_AT(run_opts, debug), args_flag, 0, 0, "GL debug context; GL messages are logged"},
    {"--script", "STEPS", ARGS_AT(run_opts, script), args_string, 0, 0, NULL}, /* the tests' window driver */
};

void run_opts_usage(FILE *f) {
    fputs("usage:\n"
          "  fluid [options]             the fluid in a window\n"
          "  fluid --headless [options]  the fluid without a window: run, then write the files asked for\n"
          "  fluid sort ...              sort a file of (key, value) pairs on the GPU (fluid sort --help)\n"
          "  fluid bench ...             time the GPU sorts against the CPU (fluid bench --help)\n"
          "\n"
          "options of the fluid:\n",
          f);
    args_help(f, _run_args, ARRAY_LEN(_run_args));
    fputs("  --help                this text\n"
          "\n"
          "Every user error (a bad flag or value, an output that cannot be written) is one line on\n"
          "stderr and exit status 1, with nothing written.\n",
          f);
}

bool run_opts_parse(int argc, char **argv, run_opts *o, bool *help, char *err) {
    memset(o, 0, sizeof *o);
    o->frames = -1;
    o->vsync = -1;
    return args_parse("fluid", _run_args, ARRAY_LEN(_run_args), o, argc, argv, help, err);
}

static void _run_dump(sim *s, outfile *f) {
    uint32_t n = sim_particle_count(s);
    float *pos = malloc(16ull * n + 16), *vel = malloc(16ull * n + 16), *dens = malloc(4ull * n + 4);
    sim_read_particles(s, pos, vel, dens);
    outfile_printf(f, "id,x,y,z,vx,vy,vz,density\n");
    for (uint32_t i = 0; i < n; i++) {
        const float *x = pos + 4ull * i, *v = vel + 4ull * i;
        outfile_printf(f, "%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, x[0], x[1], x[2], v[0], v[1], v[2], dens[i]);
    }
    free(pos);
    free(vel);
    free(dens);
}

/* Ctrl-C (or SIGTERM) during a headless run: the first stops it after the step in progress; a
 * second one ends the process at once, as the first would have ended it: the temporary files
 * removed, the --stats rows flushed so far put in place (outfile_emergency). */
static volatile sig_atomic_t _run_stop;
static void _run_on_signal(int sig) {
    if (!_run_stop) {
        _run_stop = sig;
        return;
    }
    outfile_emergency_exit(sig);
}

/* The outputs of a headless run, in the order they are checked, opened and committed. */
enum { RUN_OUT_STATS, RUN_OUT_DUMP, RUN_OUT_SHOT, RUN_OUT_VIDEO, RUN_OUTS };
static const char *const _run_out_flags[RUN_OUTS] = {"--stats", "--dump", "--screenshot", "--video"};
static const unsigned _run_out_modes[RUN_OUTS] = {OUTFILE_DASH | OUTFILE_KEEP, OUTFILE_DASH, 0, 0};

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

static int _run_headless(const run_opts *o) {
    char err[ERR_LEN];
    const char *paths[RUN_OUTS] = {o->stats_path, o->dump_path, o->screenshot_path, o->video_path};
    outfile *out[RUN_OUTS] = {0};
    /* Every output checked and opened before the GPU is touched. */
    if (!_run_outs_check(paths, err) || (o->video_path && !video_check(o->video_path, err)) || !data_dir_init(o->data, err)) {
        log_error("CLI", "%s", err);
        return 1;
    }
    char shown[PATH_MAX];
    if (o->video_path && o->frames == 0) {
        log_error("CLI", "--video %s with --frames 0: a video needs at least one frame", outfile_printable(o->video_path, shown, sizeof shown));
        return 1;
    }
    struct sigaction sa = {.sa_handler = _run_on_signal}; /* stays installed: the second one ends the run */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a pipe's reader quitting is a write error: the run stops and cleans up */
    for (int k = 0; k < RUN_OUTS; k++)
        if (paths[k] && !(out[k] = outfile_open(_run_out_flags[k], paths[k], _run_out_modes[k], err))) {
            log_error("CLI", "%s", err);
            _run_outs_abort(out);
            return 1;
        }
    /* The table goes to stderr when an output streams to stdout. */
    bool out_stdout = false;
    for (int k = 0; k < RUN_OUTS; k++) out_stdout |= out[k] && !outfile_write_path(out[k]);
    FILE *table = out_stdout ? stderr : stdout;

    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true, .debug = o->debug, .width = o->width, .height = o->height}, err);
    if (!gpu) {
        log_error("GPU", "%s", err);
        _run_outs_abort(out);
        return 1;
    }
    const gpu_caps *caps = gpu_get_caps(gpu);
    if ((o->screenshot_path || o->video_path) && !app_size_check(o->width > 0 ? o->width : 1280, o->height > 0 ? o->height : 720,
                                                                 o->video_path != NULL, err)) {
        log_error("CLI", "%s", err);
        _run_outs_abort(out);
        gpu_destroy(gpu);
        return 1;
    }
    uint32_t particles = o->particles;
    if (o->demo && !particles && caps->llvmpipe) {
        particles = RUN_DEMO_SOFTWARE_PARTICLES;
        log_info("CLI", "%s is a software renderer: %u particles, so that a second of the dam break takes minutes, not hours "
                        "(--particles N to choose)", caps->renderer, particles);
    }
    sim *s = sim_make(&(sim_desc){.scene = o->scene, .particles = particles, .sort = o->sort, .solver = o->solver, .strict = o->strict},
                      caps, err);
    if (!s) {
        log_error("SIM", "%s", err);
        _run_outs_abort(out);
        gpu_destroy(gpu);
        return 1;
    }
    int frames = o->frames < 0 ? (o->demo ? RUN_DEMO_FRAMES : 1) : o->frames;
    /* The pictures: a renderer and HUD for the screenshot and the video (which takes its outfile). */
    app_headless *show = NULL;
    if (o->screenshot_path || o->video_path) {
        outfile *video_out = out[RUN_OUT_VIDEO];
        out[RUN_OUT_VIDEO] = NULL;
        if (!(show = app_headless_make(o, s, gpu, video_out, err))) {
            log_error("CLI", "%s", err);
            _run_outs_abort(out);
            sim_destroy(s);
            gpu_destroy(gpu);
            return 1;
        }
    }
    /* The profiler: the stages of each frame's first step, then the frame's whole simulation. */
    int nst = sim_stage_count(s);
    const char *names[PROF_MAX_STAGES];
    for (int st = 0; st < nst; st++) names[st] = sim_stage_name(s, st);
    names[nst] = "simulation";
    gpu_prof *prof = prof_make(&(prof_desc){.names = names, .stages = nst + 1, .cpu_fallback = true, .sync = true}, caps);
    const char *clock = prof_clock_name(prof);
    log_info("CLI", "%s: %u particles, %d frames of 1/60 s%s, solver %s, sort %s, stage times by the %s clock", sim_scene_name(s),
             sim_particle_count(s), frames, o->substeps ? " (fixed steps a frame)" : "", sim_solver_name(s), sim_sort_name(s), clock);

    outfile *stats = out[RUN_OUT_STATS];
    if (stats) {
        outfile_printf(stats, "step,time,dt,dt_cfl,cfl,it_div,it_density,err_div,err_density,capped,particles,front_x,density_ratio,"
                              "density_max_dev,kinetic_energy,potential_energy");
        for (int st = 0; st < nst; st++) outfile_printf(stats, ",%s_%s_us", names[st], clock);
        outfile_printf(stats, "\n");
        outfile_flush(stats);
    }
    double sum_us[PROF_MAX_STAGES] = {0}, frame_us_max = 0;
    long long steps = 0;
    int done = 0, rc = 0; /* frames run (fewer than asked when interrupted) */
    double t0 = now_seconds(), render_s = 0;
    for (int f = 0; f < frames && !_run_stop && !rc; f++, done++) {
        prof_begin(prof, nst);
        /* Step by step, so Ctrl-C stops a long frame (a big fluid on a CPU rasteriser) after the
         * step in progress; the frame then ends with the steps it took. */
        int k = sim_frame_begin(s, 1.0 / 60, o->substeps), taken = 0;
        for (; taken < k && !_run_stop; taken++) sim_frame_step(s, prof);
        sim_frame_end(s);
        k = taken;
        prof_end(prof, nst);
        prof_frame(prof);
        for (int st = 0; st <= nst; st++) sum_us[st] += prof_last_us(prof, st);
        if (prof_last_us(prof, nst) > frame_us_max) frame_us_max = prof_last_us(prof, nst);
        if (stats) {
            /* The frame's steps, one row each; the fluid's state on its last step, the stage times
             * on its first (the sampled one). */
            sim_stats ss;
            sim_read_stats(s, &ss); /* waits: every record of the frame is in */
            sim_step_record r;
            for (int i = 0; i < k && sim_records(s, &r, 1) == 1; i++) {
                outfile_printf(stats, "%lld,%.9g,%.6g,%.6g,%.4g,%u,%u,%.4g,%.4g,%u", steps + i + 1, r.time, r.dt, r.dt_cfl, r.cfl,
                               r.it_div, r.it_density, r.err_div, r.err_density, r.capped);
                if (i == k - 1)
                    outfile_printf(stats, ",%u,%.9g,%.9g,%.9g,%.9g,%.9g", ss.particles, ss.front_x, ss.density_ratio,
                                   ss.density_max_dev, ss.kinetic_energy, ss.potential_energy);
                else
                    outfile_printf(stats, ",,,,,,");
                for (int st = 0; st < nst; st++)
                    if (i == 0) outfile_printf(stats, ",%.3f", prof_last_us(prof, st));
                    else outfile_printf(stats, ",");
                outfile_printf(stats, "\n");
            }
            outfile_flush(stats); /* a frame's rows reach the temporary file (or the stream) as the run goes */
            if (outfile_failed(stats, err)) { /* a full disk, a reader that quit: stop now */
                log_error("CLI", "%s; nothing else written", err);
                rc = 1;
            }
        }
        steps += k;
        double r0 = now_seconds(); /* the video's frame, outside the simulation's clocks */
        if (show && !app_headless_frame(show, s, prof, k, err)) {
            log_error("CLI", "%s", err);
            rc = 1;
        }
        render_s += now_seconds() - r0;
    }
    sim_sync(s);
    glFinish();
    double wall = now_seconds() - t0 - render_s;

    if (_run_stop) {
        /* Interrupted: the stats so far are kept, nothing else is written. */
        for (int k = 0; k < RUN_OUTS; k++)
            if (k != RUN_OUT_STATS) {
                outfile_abort(out[k]);
                out[k] = NULL;
            }
        rc = 130;
        if (!stats)
            log_error("CLI", "interrupted after %lld steps; no output written", steps);
        else if (outfile_commit(stats, err))
            log_error("CLI", "interrupted after %lld steps: the stats rows so far are in %s; nothing else written", steps,
                      outfile_printable(o->stats_path, shown, sizeof shown));
        else
            log_error("CLI", "%s", err);
        out[RUN_OUT_STATS] = NULL;
    }
    /* The picture goes to the screenshot's temporary file (or straight to its device); ffmpeg
     * finishes the video's, which comes back uncommitted. */
    if (!rc && show && !app_headless_finish(show, s, prof, out[RUN_OUT_SHOT], &out[RUN_OUT_VIDEO], err)) {
        log_error("CLI", "%s", err);
        rc = 1;
    }
    app_headless_destroy(show); /* an unfinished video is removed */
    if (!rc && out[RUN_OUT_DUMP]) _run_dump(s, out[RUN_OUT_DUMP]);
    /* One transaction: every output finished and checked (the video's trailer read back), then all
     * renamed into place, or none (the old files are put back). */
    if (!rc && !outfile_commit_all(out, RUN_OUTS, err)) {
        log_error("CLI", "%s; no output replaced", err);
        rc = 1;
    } else if (!rc) {
        int w = o->width > 0 ? o->width : 1280, h = o->height > 0 ? o->height : 720;
        if (o->screenshot_path)
            log_info("APP", "screenshot %dx%d written to %s", w, h, outfile_printable(o->screenshot_path, shown, sizeof shown));
        if (o->video_path)
            log_info("APP", "video %dx%d, %d frames at 60 fps (%.2f s), written to %s", w, h, done, done / 60.0,
                     outfile_printable(o->video_path, shown, sizeof shown));
    }
    _run_outs_abort(out);

    sim_summary sum;
    sim_get_summary(s, &sum);
    fprintf(table, "%s, %u particles, solver %s, sort %s: %d frames, %lld steps (%.1f a frame), %.4g s simulated\n",
            sim_scene_name(s), sim_particle_count(s), sim_solver_name(s), sim_sort_name(s), done, steps,
            done ? (double)steps / done : 0.0, sum.time);
    if (sum.it_density_mean + sum.it_div_mean > 0)
        fprintf(table,
                "iterations a step: %.2f divergence, %.2f pressure; density error %.4f%% mean, %.4f%% worst; largest v dt / dx %.3f; "
                "%llu capped solves, %llu neighbours dropped, %llu particle speeds limited\n",
                sum.it_div_mean, sum.it_density_mean, 100 * sum.err_density_mean, 100 * sum.err_density_max, sum.cfl_max,
                (unsigned long long)sum.capped, (unsigned long long)sum.dropped, (unsigned long long)sum.limited);
    fprintf(table, "%-12s %12s\n", "stage", done ? (strcmp(clock, "gpu") ? "mean us cpu" : "mean us gpu") : "mean us");
    double total = 0;
    for (int st = 0; st < nst; st++) {
        double m = done ? sum_us[st] / done : NAN;
        total += m;
        fprintf(table, "%-12s %12.1f\n", names[st], m);
    }
    fprintf(table, "%-12s %12.1f   (one step: the first of each frame, timed)\n", "step", total);
    if (done) {
        double mean_ms = sum_us[nst] / done / 1e3;
        fprintf(table, "%-12s %12.1f   (a whole frame of %.1f steps; worst %.1f us)\n", "frame", sum_us[nst] / done,
                (double)steps / done, frame_us_max);
        if (sum.time > 0)
            fprintf(table, "%s time per simulated 1/60 s: %.3f ms; real-time factor %.2f\n", strcmp(clock, "gpu") ? "CPU clock" : "GPU",
                    mean_ms * (1.0 / 60) / (sum.time / done), (sum.time / done) / (mean_ms / 1e3));
        fprintf(table, "wall clock: %.3f ms per frame (%s)\n", wall * 1e3 / done,
                strcmp(clock, "gpu") ? "stage clocks wait for the GPU" : "timer queries read each frame");
    }
    prof_destroy(prof);
    sim_destroy(s);
    gpu_destroy(gpu);
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
        /* No display to open a window on: show what a headless run can, the fluid in motion (a
         * second of it, as a video where ffmpeg is installed), the last frame and the times. */
        o.headless = true;
        o.demo = true;
        if (!o.screenshot_path) o.screenshot_path = "fluid-headless.png";
        if (!o.video_path && video_check("fluid-headless.mp4", err)) o.video_path = "fluid-headless.mp4";
        else if (!o.video_path) log_info("CLI", "no video: %s", err);
        log_info("CLI", "no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless; %s%s%s the last frame "
                        "to %s (a window needs a display, or xvfb-run)", o.video_path ? "the video goes to " : "",
                 o.video_path ? o.video_path : "", o.video_path ? "," : "", o.screenshot_path);
    }
    if (o.headless) return _run_headless(&o);
    /* The window: --stats and --dump are for headless runs; --screenshot is checked now. */
    if (o.stats_path || o.dump_path) {
        log_error("CLI", "%s is written by headless runs only; add --headless (with --frames N), or leave it out",
                  o.stats_path ? "--stats" : "--dump");
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
    return app_window_run(&o);
}
