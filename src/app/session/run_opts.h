/* run_opts: what `fluid [options]` was asked to do; parsed by cmd_run.c (one line of its
 * _run_args table per flag), read by the headless runner and the window app. Zero means "default"
 * for every field (but frames and vsync: see below). */
#ifndef FLUID_RUN_OPTS_H
#define FLUID_RUN_OPTS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RUN_DEMO_FRAMES 60               /* a second of simulated time */
#define RUN_DEMO_SOFTWARE_PARTICLES 4096 /* llvmpipe: a second of the dam break in a minute or so */

typedef struct run_opts {
    bool headless;               /* --headless: EGL, no window */
    const char *scene;           /* --scene NAME (NULL: sim_scenes[0], the default) */
    uint32_t particles;          /* --particles N (0: the scene's default) */
    const char *sort;            /* --sort NAME (NULL: sort_algos[0], the default) */
    const char *solver;          /* --solver NAME (NULL: sim_solvers[0], the default) */
    bool strict;                 /* --strict: dfsph's density error 0.01% instead of 0.05% */
    bool no_diffuse;             /* --no-diffuse: no spray, foam or bubbles (sim/diffuse.h) */
    bool compare;                /* --compare: every sort on the same keys, checked and timed (sim/compare.h) */
    int frames;                  /* --frames N: run N frames then exit (-1: until closed); the parser
                                    sets -1 when --frames is not given */
    int substeps;                /* simulation steps per frame (0: default) */
    const char *stats_path;      /* --stats FILE: CSV row per step */
    const char *trace_path;      /* --trace FILE: the frames' timeline, Trace Event Format JSON */
    const char *dump_path;       /* --dump FILE: final state, CSV row per particle */
    const char *screenshot_path; /* --screenshot FILE.png: the last frame's view, HUD included */
    const char *video_path;      /* --video FILE.mp4: every frame's view, through ffmpeg (video.h) */
    union {
        struct {
            int width, height;
        }; /* --size WxH (0: SESSION_WIDTH x SESSION_HEIGHT, session.h) */
        int size[2];
    };
    int style;          /* --style surface|spheres|raster: a render_style (default surface) */
    int vsync;          /* --vsync 1, --no-vsync 0; -1 (the parser's default): the app's choice */
    const char *data;   /* --data DIR: the folder holding shaders/ and assets/ */
    bool debug;         /* --debug: KHR_debug context, GL messages logged */
    bool demo;          /* the run without a display (cmd_run.c): RUN_DEMO_FRAMES frames, and fewer
                                    particles on a software renderer */
    const char *script; /* --script "frames:20;sort:bitonic;...": window app, hidden (tests): steps fed
                                    to app_handle_action (see app_script.h); the app quits at its end */
} run_opts;

/* Parses argv (argv[0] is the program) into o; on a bad flag returns false with err naming it.
 * Sets *help when --help was asked for. Does not touch the GPU or any file. */
bool run_opts_parse(int argc, char **argv, run_opts *o, bool *help, char *err);
/* The help of `fluid`, from the same table. */
void run_opts_usage(FILE *f);

/* The session the options ask for (scene, sort, solver, count, size, style, data, debug, strict,
 * video): the window and the headless run each add their own (headless, render, timing). */
struct session_desc;
void run_opts_session_desc(const run_opts *o, struct session_desc *d);

#endif
