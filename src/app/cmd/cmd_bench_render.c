/* cmd_bench_render: `fluid bench --render`: the GPU time of a frame of each style, with and without
 * the HUD, and of each pass (by name, render_passes.h), on a dam break run for a while first, through the
 * same session (session.h) and view drawing (app_render.h) as the window. Output format: one
 * header line, then per style "render NAME  X us with the HUD  Y us without" and its passes. */
#include "app/cmd/cmd.h"
#include "app/session/registry.h"
#include "app/session/session.h"
#include "core/log.h"
#include "core/util.h"
#include "render/render_style.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_SPINUP_S 0.25 /* seconds of rendering before each timed row: the GPU's clocks rise under load */

static void _bench_render_usage(FILE *f) {
    fprintf(f,
            "usage: fluid bench --render [--particles N] [--size WxH] [--scene NAME] [--solver NAME] [--frames F] [--reps R]\n"
            "                            [--data DIR]\n"
            "  the GPU time of one frame of each style, with and without the HUD, and of each pass, after F\n"
            "  frames (1/60 s each) of the scene: --particles 27648, --size " SESSION_SIZE_TEXT ", --scene %s,\n"
            "  --solver %s, --frames 60, --reps 20 by default. Needs GPU timer queries (not llvmpipe).\n"
            "  scenes: %s; solvers: %s\n",
            registry_name(REGISTRY_SCENES, 0), registry_name(REGISTRY_SOLVERS, 0), registry_list(REGISTRY_SCENES),
            registry_list(REGISTRY_SOLVERS));
}

static bool _bench_render_parse(int argc, char **argv, session_desc *o, int *frames, int *reps, char *err) {
    *o = (session_desc){0};
    session_desc_defaults(o);
    *frames = 60, *reps = 20;
    static char name[64]; /* --name of --name=VALUE (the value stays in argv) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL, *eq = strchr(a, '=');
        uint64_t u = 0;
        if (!strcmp(a, "--render")) continue;
        if (eq && !strncmp(a, "--", 2)) { /* --name=VALUE, as the other commands take it */
            snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
            a = name, v = eq + 1;
            if (!*v) return fail(err, "bench --render: %s= needs a value; see fluid bench --render --help", a);
        } else {
            if (!v || !*v || !strncmp(v, "--", 2))
                return fail(err, "bench --render: %s needs a value; see fluid bench --render --help", a);
            i++;
        }
        if (!strcmp(a, "--particles") && parse_u64(v, 1, 100000000, &u)) o->particles = (uint32_t)u;
        else if (!strcmp(a, "--frames") && parse_u64(v, 0, 100000, &u)) *frames = (int)u;
        else if (!strcmp(a, "--reps") && parse_u64(v, 1, 10000, &u)) *reps = (int)u;
        else if (!strcmp(a, "--scene")) o->scene = v;
        else if (!strcmp(a, "--solver")) o->solver = v;
        else if (!strcmp(a, "--data")) o->data = v;
        else if (!strcmp(a, "--size")) {
            char tail = 0;
            if (sscanf(v, "%dx%d%c", &o->width, &o->height, &tail) != 2 || o->width < 16 || o->height < 16 || o->width > 16384 ||
                o->height > 16384)
                return fail(err, "bench --render: --size %s: expected WxH, each from 16 to 16384", v);
        } else return fail(err, "bench --render: %s %s: unknown option or bad value; see fluid bench --render --help", a, v);
    }
    return true;
}

/* The passes of a style: names in the order they ran, mean times. */
typedef struct _bench_passes {
    int n;
    const char *names[RENDER_PASSES_MAX];
    double us[RENDER_PASSES_MAX];
} _bench_passes;

/* Mean GPU time of `reps` frames of v (timer queries; q NULL: the CPU clock around glFinish), after
 * a spin-up; and, with passes (timer queries only), each pass's mean, by name. */
static double _bench_render_time(renderer *r, hud *h, const sim *s, const app_view *v, const render_target *t, int reps,
                                 GLuint *q, _bench_passes *passes) {
    double t0 = now_seconds();
    do {
        app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
        glFinish();
    } while (now_seconds() - t0 < RENDER_SPINUP_S);
    if (passes) *passes = (_bench_passes){0};
    if (!q) {
        t0 = now_seconds();
        for (int k = 0; k < reps; k++) {
            app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
            glFinish();
        }
        return (now_seconds() - t0) / reps * 1e6;
    }
    double sum = 0;
    for (int k = 0; k < reps; k++) {
        glBeginQuery(GL_TIME_ELAPSED, q[k]);
        app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
        glEndQuery(GL_TIME_ELAPSED);
    }
    for (int k = 0; k < reps; k++) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q[k], GL_QUERY_RESULT, &ns);
        sum += (double)ns;
    }
    if (passes) {
        render_time_passes(r, true);
        for (int k = 0; k < reps; k++) {
            app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
            const char *names[RENDER_PASSES_MAX];
            double us[RENDER_PASSES_MAX];
            int n = render_pass_times(r, names, us, RENDER_PASSES_MAX);
            if (k == 0) {
                passes->n = n;
                for (int p = 0; p < n; p++) passes->names[p] = names[p];
            }
            for (int p = 0; p < n && p < passes->n; p++) passes->us[p] += us[p] / reps;
        }
        render_time_passes(r, false);
    }
    return sum / reps / 1e3;
}

int cmd_bench_render(int argc, char **argv) {
    char err[ERR_LEN];
    session_desc o;
    int frames, reps;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            _bench_render_usage(stdout);
            return 0;
        }
    if (!_bench_render_parse(argc, argv, &o, &frames, &reps, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    o.headless = o.render = true;
    session ss;
    render_target t = {0};
    if (!session_make(&ss, &o, err)) {
        log_error(ss.fail_tag, "%s", err);
        return 1;
    }
    const gpu_caps *caps = ss.caps;
    bool gpu_clock = caps->timer_queries;
    if (!gpu_clock) log_info("BENCH", "timer queries read 0 on %s: the CPU clock around glFinish, no pass times", caps->renderer);
    if (!render_target_make(&t, o.width, o.height, "bench-render", err)) {
        log_error("BENCH", "%s", err);
        session_destroy(&ss);
        return 1;
    }
    sim *s = ss.s;
    renderer *r = ss.r;
    hud *h = ss.h;
    for (int f = 0; f < frames; f++) session_simulate(&ss, SESSION_FRAME_SECONDS, 0, 0, NULL);
    sim_sync(s);
    glFinish();
    printf("render, %s, %u particles (%s), %.3f s simulated, %dx%d, %s, %s clock, mean of %d frames after %.2f s of spin-up\n",
           sim_scene_name(s), sim_particle_count(s), sim_solver_name(s), sim_time(s), o.width, o.height, caps->renderer,
           gpu_clock ? "gpu" : "cpu", reps, RENDER_SPINUP_S);
    app_view v = ss.view; /* with the steps and slots of the last frames (session_simulate) */
    /* The HUD as the window draws it: its diffuse counts the newest the GPU finished, not read back
     * at once (a headless screenshot's exact counts stall the GPU mid-frame: that wait, not the HUD's
     * draw, took 70-110 us of the surface's frame on the H100, docs/BENCHMARKS.md). */
    v.headless = false;
    GLuint *q = gpu_clock ? malloc(sizeof *q * (size_t)reps) : NULL;
    if (q) glGenQueries(reps, q);
    for (int style = 0; style < RENDER_STYLE_COUNT; style++) {
        v.style = (render_style)style;
        _bench_passes pass;
        v.show_hud = true;
        double with = _bench_render_time(r, h, s, &v, &t, reps, q, NULL);
        v.show_hud = false;
        double bare = _bench_render_time(r, h, s, &v, &t, reps, q, render_styles[style]->compute ? &pass : NULL);
        printf("render %-14s %9.1f us with the HUD %9.1f us without\n", render_styles[style]->name, with, bare);
        if (!render_styles[style]->compute || !q) continue;
        double total = 0;
        for (int p = 0; p < pass.n; p++) total += pass.us[p];
        printf("  passes (GL timestamps, no HUD):");
        for (int p = 0; p < pass.n; p++)
            if (pass.us[p] > 0.05)
                printf(" %s %.1f us (%.0f%%)", pass.names[p], pass.us[p], total > 0 ? 100 * pass.us[p] / total : 0);
        printf("\n");
    }
    if (q) glDeleteQueries(reps, q);
    free(q);
    render_target_destroy(&t);
    return session_destroy(&ss) ? 0 : 1;
}
