/* cmd_run: `fluid [options]`: the fluid in a window (app_window_run, from the renderer), or
 * headless with --headless: N frames of the simulation, then an optional screenshot, the per-step
 * statistics (--stats), the final particles (--dump) and a timing table on stdout.
 *
 * Every flag is checked before the GPU is touched; a bad one is a one-line error and exit 1 with
 * nothing written. Files are built in memory and written atomically at the end.
 */
#include "app/app.h"
#include "app/app_render.h"
#include "app/cmd.h"
#include "app/video.h"
#include "core/log.h"
#include "core/util.h"
#include "render/render.h"
#include "sort/sort.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *_run_usage =
    "usage:\n"
    "  fluid [options]             the fluid in a window\n"
    "  fluid --headless [options]  the fluid without a window: run, then write the files asked for\n"
    "  fluid sort ...              sort a file of (key, value) pairs on the GPU (fluid sort --help)\n"
    "  fluid bench ...             time the GPU sorts against the CPU (fluid bench --help)\n"
    "\n"
    "options of the fluid:\n"
    "  --headless          no window (EGL); runs --frames frames (default 1) and exits\n"
    "  --scene NAME        dambreak (default), drop, double-dambreak, pool (still water)\n"
    "  --particles N       about N particles (default 27648); the scene keeps its size in metres and\n"
    "                      the spacing changes; the count is rounded to whole blocks (printed)\n"
    "  --sort NAME         radix (default), bitonic, or cpu (read back, sort on the CPU)\n"
    "  --solver NAME       dfsph (default: incompressible, large steps) or wcsph (weakly compressible)\n"
    "  --strict            dfsph: mean density error 0.01% (default 0.05%)\n"
    "  --frames N          run N frames of 1/60 s of fluid each, then exit (0: none; the initial state)\n"
    "  --substeps K        exactly K steps a frame (default: as many as the solver needs for 1/60 s)\n"
    "  --stats FILE        CSV, a row per step: time, dt, iterations, errors; the fluid's front,\n"
    "                      density and energies on each frame's last step; stage times on its first\n"
    "  --dump FILE         CSV, a row per particle of the final state: id,x,y,z,vx,vy,vz,density\n"
    "  --screenshot FILE   PNG of the last frame (needs the renderer)\n"
    "  --video FILE        MP4 of every frame (60 fps; needs ffmpeg); in the window, from the start\n"
    "                      until G stops it\n"
    "  --style NAME        surface (default), spheres or raster (the spheres through the graphics\n"
    "                      pipeline): how the window starts, the screenshot and video are drawn\n"
    "  --size WxH          window or screenshot size (default 1280x720)\n"
    "  --vsync, --no-vsync wait for the display's refresh or not\n"
    "  --data DIR          the folder holding shaders/ and assets/\n"
    "  --debug             GL debug context; GL messages are logged\n"
    "  --help              this text\n";

static bool _run_value(int argc, char **argv, int *i, const char **out, char *err) {
    if (*i + 1 >= argc || !argv[*i + 1][0]) return fail(err, "%s needs a value; see fluid --help", argv[*i]);
    *out = argv[++*i];
    return true;
}

static bool _run_int(int argc, char **argv, int *i, uint64_t lo, uint64_t hi, uint64_t *out, char *err) {
    const char *name = argv[*i], *v = NULL;
    if (!_run_value(argc, argv, i, &v, err)) return false;
    if (!parse_u64(v, lo, hi, out))
        return fail(err, "%s %s: not a whole number from %llu to %llu", name, v, (unsigned long long)lo,
                    (unsigned long long)hi);
    return true;
}

static bool _run_scene_known(const char *name) {
    for (int k = 0; sim_scene_names[k]; k++)
        if (!strcmp(sim_scene_names[k], name)) return true;
    return false;
}

bool run_opts_parse(int argc, char **argv, run_opts *o, bool *help, char *err) {
    memset(o, 0, sizeof *o);
    o->frames = -1;
    *help = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        uint64_t u;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *help = true;
        } else if (!strcmp(a, "--headless")) {
            o->headless = true;
        } else if (!strcmp(a, "--debug")) {
            o->debug = true;
        } else if (!strcmp(a, "--vsync") || !strcmp(a, "--no-vsync")) {
            o->vsync = !strcmp(a, "--vsync");
            o->vsync_given = true;
        } else if (!strcmp(a, "--scene")) {
            if (!_run_value(argc, argv, &i, &v, err)) return false;
            if (!_run_scene_known(v)) {
                char list[256] = "";
                for (int k = 0; sim_scene_names[k]; k++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", sim_scene_names[k]);
                return fail(err, "--scene %s: unknown scene; choose one of: %s", v, list);
            }
            o->scene = v;
        } else if (!strcmp(a, "--particles")) {
            if (!_run_value(argc, argv, &i, &v, err)) return false;
            if (!parse_u64(v, 0, UINT32_MAX, &u))
                return fail(err, "--particles %s: not a whole number from 1 to %u", v, UINT32_MAX);
            if (u == 0) return fail(err, "--particles 0: the fluid needs at least 1 particle");
            o->particles = (uint32_t)u;
        } else if (!strcmp(a, "--sort")) {
            if (!_run_value(argc, argv, &i, &v, err)) return false;
            if (!sort_algo_find(v)) return fail(err, "--sort %s: unknown sort; choose radix, bitonic or cpu", v);
            o->sort = v;
        } else if (!strcmp(a, "--solver")) {
            if (!_run_value(argc, argv, &i, &v, err)) return false;
            bool known = false;
            for (int k = 0; sim_solver_names[k]; k++) known = known || !strcmp(sim_solver_names[k], v);
            if (!known) return fail(err, "--solver %s: unknown solver; choose dfsph or wcsph", v);
            o->solver = v;
        } else if (!strcmp(a, "--strict")) {
            o->strict = true;
        } else if (!strcmp(a, "--frames")) {
            if (!_run_int(argc, argv, &i, 0, 1000000000, &u, err)) return false;
            o->frames = (int)u;
        } else if (!strcmp(a, "--substeps")) {
            if (!_run_int(argc, argv, &i, 1, 100000, &u, err)) return false;
            o->substeps = (int)u;
        } else if (!strcmp(a, "--stats")) {
            if (!_run_value(argc, argv, &i, &o->stats_path, err)) return false;
        } else if (!strcmp(a, "--dump")) {
            if (!_run_value(argc, argv, &i, &o->dump_path, err)) return false;
        } else if (!strcmp(a, "--screenshot")) {
            if (!_run_value(argc, argv, &i, &o->screenshot_path, err)) return false;
        } else if (!strcmp(a, "--video")) {
            if (!_run_value(argc, argv, &i, &o->video_path, err)) return false;
        } else if (!strcmp(a, "--style")) {
            if (!_run_value(argc, argv, &i, &v, err)) return false;
            int st = -1;
            for (int k = 0; k < RENDER_STYLE_COUNT; k++)
                if (!strcmp(v, render_style_keys[k])) st = k;
            if (st < 0) return fail(err, "--style %s: unknown style; choose surface, spheres or raster", v);
            o->style = st;
        } else if (!strcmp(a, "--script")) {
            if (!_run_value(argc, argv, &i, &o->script, err)) return false;
        } else if (!strcmp(a, "--data")) {
            if (!_run_value(argc, argv, &i, &o->data, err)) return false;
        } else if (!strcmp(a, "--size")) {
            if (!_run_value(argc, argv, &i, &v, err)) return false;
            int w = 0, h = 0;
            char tail = 0;
            if (sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 16384 || h > 16384)
                return fail(err, "--size %s: expected WxH, each from 16 to 16384 (like 1280x720)", v);
            o->width = w;
            o->height = h;
        } else {
            return fail(err, "unknown option '%s'; see fluid --help", a);
        }
    }
    return true;
}

/* A growing text buffer. */
typedef struct _run_text {
    char *p;
    size_t len, cap;
} _run_text;

static void _run_printf(_run_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void _run_printf(_run_text *t, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (t->p && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
    }
}

static void _run_dump(sim *s, _run_text *t) {
    uint32_t n = sim_particle_count(s);
    float *pos = malloc(16ull * n + 16), *vel = malloc(16ull * n + 16), *dens = malloc(4ull * n + 4);
    sim_read_particles(s, pos, vel, dens);
    _run_printf(t, "id,x,y,z,vx,vy,vz,density\n");
    for (uint32_t i = 0; i < n; i++) {
        const float *x = pos + 4ull * i, *v = vel + 4ull * i;
        _run_printf(t, "%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, x[0], x[1], x[2], v[0], v[1], v[2], dens[i]);
    }
    free(pos);
    free(vel);
    free(dens);
}

static int _run_headless(const run_opts *o) {
    char err[ERR_LEN];
    if (!data_dir_init(o->data, err)) {
        log_error("CLI", "%s", err);
        return 1;
    }
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true, .debug = o->debug, .width = o->width, .height = o->height}, err);
    if (!gpu) {
        log_error("GPU", "%s", err);
        return 1;
    }
    const gpu_caps *caps = gpu_get_caps(gpu);
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
        gpu_destroy(gpu);
        return 1;
    }
    int frames = o->frames < 0 ? (o->demo ? RUN_DEMO_FRAMES : 1) : o->frames;
    app_headless *show = NULL;
    if ((o->screenshot_path || o->video_path) && !(show = app_headless_make(o, s, gpu, err))) {
        log_error("CLI", "%s", err);
        sim_destroy(s);
        gpu_destroy(gpu);
        return 1;
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

    _run_text stats = {0};
    if (o->stats_path) {
        _run_printf(&stats, "step,time,dt,dt_cfl,cfl,it_div,it_density,err_div,err_density,capped,particles,front_x,density_ratio,"
                            "density_max_dev,kinetic_energy,potential_energy");
        for (int st = 0; st < nst; st++) _run_printf(&stats, ",%s_%s_us", names[st], clock);
        _run_printf(&stats, "\n");
    }
    double sum_us[PROF_MAX_STAGES] = {0}, frame_us_max = 0;
    long long steps = 0;
    double t0 = now_seconds(), render_s = 0;
    int rc = 0;
    for (int f = 0; f < frames && !rc; f++) {
        prof_begin(prof, nst);
        int k = sim_frame(s, 1.0 / 60, o->substeps, prof);
        prof_end(prof, nst);
        prof_frame(prof);
        for (int st = 0; st <= nst; st++) sum_us[st] += prof_last_us(prof, st);
        if (prof_last_us(prof, nst) > frame_us_max) frame_us_max = prof_last_us(prof, nst);
        if (o->stats_path) {
            /* The frame's steps, one row each; the fluid's state on its last step, the stage times
             * on its first (the sampled one). */
            sim_stats ss;
            sim_read_stats(s, &ss); /* waits: every record of the frame is in */
            sim_step_record r;
            for (int i = 0; i < k && sim_records(s, &r, 1) == 1; i++) {
                _run_printf(&stats, "%lld,%.9g,%.6g,%.6g,%.4g,%u,%u,%.4g,%.4g,%u", steps + i + 1, r.time, r.dt, r.dt_cfl, r.cfl, r.it_div,
                            r.it_density, r.err_div, r.err_density, r.capped);
                if (i == k - 1)
                    _run_printf(&stats, ",%u,%.9g,%.9g,%.9g,%.9g,%.9g", ss.particles, ss.front_x, ss.density_ratio,
                                ss.density_max_dev, ss.kinetic_energy, ss.potential_energy);
                else
                    _run_printf(&stats, ",,,,,,");
                for (int st = 0; st < nst; st++)
                    if (i == 0) _run_printf(&stats, ",%.3f", prof_last_us(prof, st));
                    else _run_printf(&stats, ",");
                _run_printf(&stats, "\n");
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

    if (!rc && show && !app_headless_finish(show, s, prof, err)) {
        log_error("CLI", "%s", err);
        rc = 1;
    }
    app_headless_destroy(show);
    if (!rc && o->dump_path) {
        _run_text dump = {0};
        _run_dump(s, &dump);
        if (!file_write_atomic(o->dump_path, dump.p, dump.len, err)) {
            log_error("CLI", "%s", err);
            rc = 1;
        }
        free(dump.p);
    }
    if (!rc && o->stats_path && !file_write_atomic(o->stats_path, stats.p ? stats.p : "", stats.len, err)) {
        log_error("CLI", "%s", err);
        rc = 1;
    }
    free(stats.p);

    sim_summary sum;
    sim_get_summary(s, &sum);
    printf("%s, %u particles, solver %s, sort %s: %d frames, %lld steps (%.1f a frame), %.4g s simulated\n", sim_scene_name(s),
           sim_particle_count(s), sim_solver_name(s), sim_sort_name(s), frames, steps, frames ? (double)steps / frames : 0.0, sum.time);
    if (sum.it_density_mean + sum.it_div_mean > 0)
        printf("iterations a step: %.2f divergence, %.2f pressure; density error %.4f%% mean, %.4f%% worst; largest v dt / dx %.3f; "
               "%llu capped solves\n",
               sum.it_div_mean, sum.it_density_mean, 100 * sum.err_density_mean, 100 * sum.err_density_max, sum.cfl_max,
               (unsigned long long)sum.capped);
    printf("%-12s %12s\n", "stage", frames ? (strcmp(clock, "gpu") ? "mean us cpu" : "mean us gpu") : "mean us");
    double total = 0;
    for (int st = 0; st < nst; st++) {
        double m = frames ? sum_us[st] / frames : NAN;
        total += m;
        printf("%-12s %12.1f\n", names[st], m);
    }
    printf("%-12s %12.1f   (one step: the first of each frame, timed)\n", "step", total);
    if (frames) {
        double mean_ms = sum_us[nst] / frames / 1e3;
        printf("%-12s %12.1f   (a whole frame of %.1f steps; worst %.1f us)\n", "frame", sum_us[nst] / frames, (double)steps / frames,
               frame_us_max);
        if (sum.time > 0)
            printf("%s time per simulated 1/60 s: %.3f ms; real-time factor %.2f\n", strcmp(clock, "gpu") ? "CPU clock" : "GPU",
                   mean_ms * (1.0 / 60) / (sum.time / frames), (sum.time / frames) / (mean_ms / 1e3));
        printf("wall clock: %.3f ms per frame (%s)\n", wall * 1e3 / frames,
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
        fputs(_run_usage, stdout);
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
    if (o.video_path && o.headless && o.frames == 0) {
        log_error("CLI", "--video %s with --frames 0: a video needs at least one frame", o.video_path);
        return 1;
    }
    if (o.video_path && !video_check(o.video_path, err)) {
        log_error("CLI", "%s", err);
        return 1;
    }
    if (!o.headless) return app_window_run(&o);
    return _run_headless(&o);
}
