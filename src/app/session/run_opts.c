/* run_opts: the options of `fluid` (see run_opts.h): one line of _run_args per flag gives its
 * parsing and its help (core/args.h); the flags that take a family's name read its registry
 * (registry.h) for both. */
#include "app/session/run_opts.h"
#include "app/session/registry.h"
#include "app/session/session.h"
#include "core/args.h"
#include "core/util.h"
#include "sim/sim.h" /* SIM_MAX_SUBSTEPS */
#include <stdio.h>
#include <string.h>

#define RUN_MAX_PARTICLES (1u << 30) /* sim_max_particles' own cap; the GPU may allow fewer */

/* --scene, --sort, --solver: a name from the family's registry (registry.h). */
static bool _run_name(const char *flag, registry_family f, const char *what, void *field, const char *v, char *err) {
    if (registry_find(f, v) < 0) return fail(err, "%s %s: unknown %s; choose %s", flag, v, what, registry_list(f));
    *(const char **)field = v;
    return true;
}
static bool _run_scene(const args_opt *opt, void *field, const char *v, char *err) {
    return _run_name(opt->name, REGISTRY_SCENES, "scene", field, v, err);
}
static bool _run_sort(const args_opt *opt, void *field, const char *v, char *err) {
    return _run_name(opt->name, REGISTRY_SORTS, "sort", field, v, err);
}
static bool _run_solver(const args_opt *opt, void *field, const char *v, char *err) {
    return _run_name(opt->name, REGISTRY_SOLVERS, "solver", field, v, err);
}
static bool _run_style(const args_opt *opt, void *field, const char *v, char *err) {
    int k = registry_find(REGISTRY_STYLES, v);
    if (k < 0) return fail(err, "--style %s: unknown style; choose %s", v, registry_list(REGISTRY_STYLES));
    *(int *)field = k;
    return true;
}

/* --script: at least one step (an empty or ';'-only script never ended a session: issue 25);
 * the steps themselves are parsed where the window starts (app_script_parse). */
static bool _run_script(const args_opt *opt, void *field, const char *v, char *err) {
    if (!v[strspn(v, "; \t")])
        return fail(err, "--script '%s' has no step; give at least one, e.g. --script 'frames:60' (docs/CONTROLS.md)", v);
    return args_string(opt, field, v, err);
}

static bool _run_on(const args_opt *opt, void *field, const char *v, char *err) { return *(int *)field = 1, true; }
static bool _run_off(const args_opt *opt, void *field, const char *v, char *err) { return *(int *)field = 0, true; }

/* The options of `fluid`: parsing and help. Add a flag by adding a line. */
static args_opt _run_args[] = {
    {"--headless", NULL, ARGS_AT(run_opts, headless), args_flag, 0, 0,
     "no window (EGL); runs --frames frames (default 1) and exits"},
    {"--scene", "NAME", ARGS_AT(run_opts, scene), _run_scene, 0, 0, NULL}, /* help: _run_args_help */
    {"--particles", "N", ARGS_AT(run_opts, particles), args_u32, 1, RUN_MAX_PARTICLES,
     "about N particles (default 27648; k and M multiply by 1024 and 1048576); the scene\nkeeps its size in metres and the spacing changes; the count is rounded to whole\nblocks (printed); the GPU may hold fewer"},
    {"--sort", "NAME", ARGS_AT(run_opts, sort), _run_sort, 0, 0, NULL},
    {"--solver", "NAME", ARGS_AT(run_opts, solver), _run_solver, 0, 0, NULL},
    {"--strict", NULL, ARGS_AT(run_opts, strict), args_flag, 0, 0, "dfsph: mean density error 0.01% (default 0.05%)"},
    {"--no-diffuse", NULL, ARGS_AT(run_opts, no_diffuse), args_flag, 0, 0,
     "no spray, foam or bubbles (simulated once a frame and drawn over the surface where\nthe run draws pictures or writes --stats; the window's B key)"},
    {"--compare", NULL, ARGS_AT(run_opts, compare), args_flag, 0, 0,
     "also sort each frame's first step's keys with every other sort, check each result\nagainst the driving sort's and time it (the fluid is unchanged); headless: a table\nat the end (median, p95, ratio to the fastest, mismatches); window: the K key"},
    {"--frames", "N", ARGS_AT(run_opts, frames), args_int, 0, 1000000000,
     "run N frames of 1/60 s of fluid each, then exit (0: none; the initial state)"},
    {"--substeps", "K", ARGS_AT(run_opts, substeps), args_int, 1, SIM_MAX_SUBSTEPS,
     "every frame exactly K equal steps of 1/(60 K) s, both solvers; the solver's own\nstep bound is not asked (default: as many steps as it needs: dfsph's CFL limit,\nwcsph's stable step)"},
    {"--stats", "FILE", ARGS_AT(run_opts, stats_path), args_string, 0, 0,
     "headless: CSV, a row per step: time, dt, iterations, errors; the fluid's front,\ndensity and energies on each frame's last step; stage times on its first;\nflushed every frame, in place at the end and on Ctrl-C (a FIFO or - as it runs)"},
    {"--dump", "FILE", ARGS_AT(run_opts, dump_path), args_string, 0, 0,
     "headless: CSV, a row per particle of the final state: id,x,y,z,vx,vy,vz,density;\n- for stdout"},
    {"--trace", "FILE", ARGS_AT(run_opts, trace_path), args_string, 0, 0,
     "headless: the frames' GPU timeline as JSON (Trace Event Format: open it in\nui.perfetto.dev): frame, its stages, counters; - for stdout; in the window the\nT key saves the next 120 frames to fluid-YYYYMMDD-HHMMSS.json"},
    {"--screenshot", "FILE", ARGS_AT(run_opts, screenshot_path), args_string, 0, 0, "PNG of the last frame, HUD included"},
    {"--video", "FILE", ARGS_AT(run_opts, video_path), args_string, 0, 0,
     "MP4 of every frame (60 fps; needs ffmpeg); headless a frame is 1/60 s of\nfluid, so it plays in real time; in the window from the start until G"},
    {"--style", "NAME", ARGS_AT(run_opts, style), _run_style, 0, 0, NULL},
    {"--size", "WxH", ARGS_AT(run_opts, size), args_size, 16, 16384,
     "window or screenshot size (default " SESSION_SIZE_TEXT "), each side"},
    {"--vsync", NULL, ARGS_AT(run_opts, vsync), _run_on, 0, 0, "wait for the display's refresh (the window's default)"},
    {"--no-vsync", NULL, ARGS_AT(run_opts, vsync), _run_off, 0, 0, "do not wait for it"},
    {"--data", "DIR", ARGS_AT(run_opts, data), args_string, 0, 0, "the folder holding shaders/ and assets/"},
    {"--debug", NULL, ARGS_AT(run_opts, debug), args_flag, 0, 0, "GL debug context; GL messages are logged"},
    {"--script", "STEPS", ARGS_AT(run_opts, script), _run_script, 0, 0,
     "window: run ';'-separated steps (frames:N, an action's name, sort:NAME, resize:WxH,\nshot:FILE, check:FILE, expect-sort:NAME, expect-message:TEXT), then quit; the tests' driver\n(docs/CONTROLS.md)"},
};

/* The help of the flags that take a registry's name, from the registry. */
static void _run_args_help(void) {
    static char text[4][512];
    if (text[0][0]) return;
    snprintf(text[0], sizeof text[0], "%s", registry_list(REGISTRY_SCENES));
    snprintf(text[1], sizeof text[1], "%s (cpu: read back, sort on the CPU)", registry_list(REGISTRY_SORTS));
    snprintf(text[2], sizeof text[2], "%s", registry_list(REGISTRY_SOLVERS));
    snprintf(text[3], sizeof text[3], "%s: how the window starts, the screenshot and\nvideo are drawn",
             registry_list(REGISTRY_STYLES));
    const char *flags[4] = {"--scene", "--sort", "--solver", "--style"};
    for (size_t i = 0; i < ARRAY_LEN(_run_args); i++)
        for (int k = 0; k < 4; k++)
            if (!strcmp(_run_args[i].name, flags[k])) _run_args[i].help = text[k];
}

void run_opts_usage(FILE *f) {
    _run_args_help();
    fputs("usage:\n"
          "  fluid [options]             the fluid in a window\n"
          "  fluid --headless [options]  the fluid without a window: run, then write the files asked for\n"
          "  fluid sort ...              sort a file of (key, value) pairs on the GPU (fluid sort --help)\n"
          "  fluid bench ...             time the GPU sorts against the CPU (fluid bench --help)\n"
          "  fluid bench --sim ...       time the simulation per frame, per stage, the solvers side by side in one\n"
          "                              table; --scene NAME, --warmup S (time from t = S: a settled pool)\n"
          "                              (fluid bench --sim --help)\n"
          "  fluid bench --render ...    time a frame of each render style (fluid bench --render --help)\n"
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

void run_opts_session_desc(const run_opts *o, session_desc *d) {
    *d = (session_desc){.debug = o->debug,
                        .data = o->data,
                        .width = o->width,
                        .height = o->height,
                        .scene = o->scene,
                        .sort = o->sort,
                        .solver = o->solver,
                        .particles = o->particles,
                        .strict = o->strict,
                        .compare = o->compare,
                        .diffuse = o->no_diffuse ? -1 : 0,
                        .video = o->video_path != NULL,
                        .style = o->style};
}
