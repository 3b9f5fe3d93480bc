#include "app/app_render.h"
#include "app/cmd.h"
#include "app/app.h"
#include "core/log.h"
#include "core/outfile.h"
#include <limits.h>
#include "core/util.h"
#include "render/image.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_view_init(app_view *v, const sim *s) {
    memset(v, 0, sizeof *v);
    float lo[3], hi[3];
    sim_domain(s, lo, hi);
    camera_fit(&v->cam, lo, hi);
    v->color = RENDER_COLOR_SPEED;
    v->style = RENDER_STYLE_SURFACE;
    v->show_hud = true;
    v->steps_per_frame = 1;
    v->frame_seconds = 1.0 / 60;
    v->realtime = -1;
}

void app_view_push_frame_time(app_view *v, float ms) {
    if (v->frame_hist_count == APP_FRAME_HISTORY) {
        memmove(v->frame_hist, v->frame_hist + 1, sizeof(float) * (APP_FRAME_HISTORY - 1));
        v->frame_hist_count--;
    }
    v->frame_hist[v->frame_hist_count++] = ms;
}

void app_render_frame(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v,
                      const render_target *target, int w, int h_px, overlay_layout *layout) {
    GLuint fbo = target ? target->fbo : 0;
    if (layout) memset(layout, 0, sizeof *layout);
    if (w <= 0 || h_px <= 0) return;
    render_particles p = {.positions = sim_positions(s), .velocities = sim_velocities(s), .densities = sim_densities(s),
                          .cell_keys = sim_cell_keys(s), .count = sim_particle_count(s), .radius = sim_particle_radius(s)};
    sim_domain(s, p.lo, p.hi);
    render_view rv = {.framebuffer = fbo, .color_texture = target ? target->color : 0, .width = w, .height = h_px,
                      .color = v->color, .style = v->style, .backdrop = v->backdrop};
    memcpy(rv.poke, v->poke, sizeof rv.poke);
    camera_matrices(&v->cam, w, h_px, rv.view, rv.proj);
    render_scene(r, &p, &rv);
    if (!v->show_hud) return;
    sim_summary sum;
    sim_get_summary(s, &sum);
    overlay_info info = {.width = w, .height = h_px, .fps = v->fps, .frame_ms = v->frame_ms,
                         .particles = sim_particle_count(s), .scene = sim_scene_name(s), .sort = sim_sort_name(s),
                         .sim_time = sim_time(s), .steps_per_frame = v->steps_per_frame, .realtime = v->realtime, .paused = v->paused,
                         .solver = sim_solver_name(s), .it_div = sum.it_div_mean, .it_density = sum.it_density_mean, .dt = sum.dt_last,
                         .step_stages = sim_stage_count(s),
                         .vsync = v->vsync, .headless = v->headless, .color = v->color, .style = v->style,
                         .prof = prof, .frame_ms_history = v->frame_hist, .frame_history_count = v->frame_hist_count,
                         .message = v->message, .help = v->help, .show_help = v->show_help};
    overlay_draw(h, &info, layout);
    hud_draw(h, fbo);
}

/* The view rendered offscreen, top row first (malloc'd), or NULL with err. */
static uint8_t *_app_render_rgba(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w,
                                 int h_px, overlay_layout *layout, char *err) {
    render_target t;
    if (!render_target_make(&t, w, h_px, "screenshot", err)) return NULL;
    app_render_frame(r, h, s, prof, v, &t, w, h_px, layout);
    uint8_t *rgba = malloc((size_t)w * (size_t)h_px * 4);
    if (rgba) render_target_read(&t, rgba);
    else fail(err, "out of host memory for a %dx%d picture", w, h_px);
    render_target_destroy(&t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return rgba;
}

bool app_render_png(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px,
                    const char *path, overlay_layout *layout, char *err) {
    uint8_t *rgba = _app_render_rgba(r, h, s, prof, v, w, h_px, layout, err);
    if (!rgba) return false;
    bool ok = image_write_png(path, rgba, w, h_px, err);
    free(rgba);
    return ok;
}

bool app_render_png_to(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px,
                       outfile *out, overlay_layout *layout, char *err) {
    uint8_t *rgba = _app_render_rgba(r, h, s, prof, v, w, h_px, layout, err);
    if (!rgba) return false;
    size_t len = 0;
    uint8_t *png = image_encode_png(rgba, w, h_px, &len);
    free(rgba);
    if (!png) return fail(err, "cannot encode a %dx%d picture as PNG", w, h_px);
    outfile_write(out, png, len);
    free(png);
    return !outfile_failed(out, err);
}

/* The view with no particles and no HUD: what render_image_check compares a shot with. */
static void _app_render_empty(renderer *r, const sim *s, const app_view *v, const render_target *t) {
    render_particles p = {.count = 0, .radius = sim_particle_radius(s)};
    sim_domain(s, p.lo, p.hi);
    render_view rv = {.framebuffer = t->fbo, .color_texture = t->color, .width = t->width, .height = t->height,
                      .color = v->color, .style = v->style, .backdrop = v->backdrop};
    camera_matrices(&v->cam, t->width, t->height, rv.view, rv.proj);
    render_scene(r, &p, &rv);
}

bool app_render_check(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, const char *path,
                      const overlay_layout *layout, char *why) {
    int w = 0, h_px = 0;
    uint8_t *rgba = image_read_png(path, &w, &h_px, why);
    if (!rgba) return false;
    render_target t;
    if (!render_target_make(&t, w, h_px, "check-empty", why)) {
        free(rgba);
        return false;
    }
    _app_render_empty(r, s, v, &t);
    uint8_t *empty = malloc((size_t)w * (size_t)h_px * 4);
    render_target_read(&t, empty);
    render_target_destroy(&t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    bool ok = render_image_check(rgba, empty, w, h_px, layout, why);
    free(rgba);
    free(empty);
    return ok;
}

/* ---- video ---- */

bool app_recorder_start(app_recorder *rec, outfile *out, const char *path, int w, int h_px, int fps, char *err) {
    *rec = (app_recorder){.width = w, .height = h_px};
    if (!out) out = outfile_open("--video", path, 0, err);
    if (!out) return false;
    if (!render_target_make(&rec->target, w, h_px, "video", err)) {
        outfile_abort(out);
        return false;
    }
    rec->rgba = malloc((size_t)w * (size_t)h_px * 4);
    rec->video = rec->rgba ? video_open(outfile_write_path(out), path, w, h_px, fps, err) : NULL;
    if (!rec->video) {
        if (!rec->rgba) fail(err, "--video %s: out of host memory for %dx%d frames", path, w, h_px);
        render_target_destroy(&rec->target);
        free(rec->rgba);
        outfile_abort(out);
        *rec = (app_recorder){0};
        return false;
    }
    rec->out = out;
    outfile_set_check(out, video_file_check); /* the MP4's trailer, read back at the commit */
    return true;
}

bool app_recorder_frame(app_recorder *rec, renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v,
                        char *err) {
    if (!rec->video) return true;
    app_render_frame(r, h, s, prof, v, &rec->target, rec->width, rec->height, NULL);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    size_t bytes = (size_t)rec->width * (size_t)rec->height * 4;
    glGetTextureImage(rec->target.color, 0, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)bytes, rec->rgba); /* bottom row first */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return video_frame(rec->video, rec->rgba, err);
}

static void _app_recorder_free(app_recorder *rec) {
    render_target_destroy(&rec->target);
    free(rec->rgba);
    *rec = (app_recorder){0};
}

outfile *app_recorder_finish(app_recorder *rec, char *err) {
    if (!rec->video) return NULL;
    outfile *out = rec->out;
    if (!video_close(rec->video, err)) {
        outfile_abort(out);
        out = NULL;
    }
    _app_recorder_free(rec);
    return out;
}

bool app_recorder_stop(app_recorder *rec, char *saved, size_t saved_len, char *err) {
    if (!rec->video) return true;
    outfile *out = app_recorder_finish(rec, err);
    return out && outfile_commit_named(out, saved, saved_len, err);
}

void app_recorder_abort(app_recorder *rec) {
    if (rec->video) video_abort(rec->video);
    outfile_abort(rec->out);
    _app_recorder_free(rec);
}

/* ---- the headless run ---- */

#define APP_VIDEO_FPS 60 /* a headless frame is 1/60 s of simulated time (sim_frame) */

struct app_headless {
    renderer *r;
    hud *h;
    app_view view;
    app_recorder rec;
    const run_opts *o;
    int w, h_px;
};

void app_headless_destroy(app_headless *a) {
    if (!a) return;
    app_recorder_abort(&a->rec);
    hud_destroy(a->h);
    render_destroy(a->r);
    free(a);
}

app_headless *app_headless_make(const run_opts *o, const sim *s, const gpu_ctx *gpu, outfile *video_out, char *err) {
    app_headless *a = calloc(1, sizeof *a);
    a->o = o;
    a->w = o->width > 0 ? o->width : 1280, a->h_px = o->height > 0 ? o->height : 720;
    a->r = render_make(err);
    if (a->r) a->h = hud_make(&(hud_desc){0}, err);
    if (!a->h) {
        outfile_abort(video_out);
        app_headless_destroy(a);
        return NULL;
    }
    app_view_init(&a->view, s);
    a->view.style = (render_style)o->style;
    a->view.headless = gpu_is_headless(gpu);
    if (video_out && !app_recorder_start(&a->rec, video_out, o->video_path, a->w, a->h_px, APP_VIDEO_FPS, err)) {
        app_headless_destroy(a);
        return NULL;
    }
    return a;
}

bool app_headless_frame(app_headless *a, const sim *s, const gpu_prof *prof, int steps, char *err) {
    a->view.steps_per_frame = steps;
    return app_recorder_frame(&a->rec, a->r, a->h, s, prof, &a->view, err);
}

bool app_headless_finish(app_headless *a, const sim *s, const gpu_prof *prof, outfile *shot, outfile **video_done, char *err) {
    *video_done = NULL;
    if (shot && !app_render_png_to(a->r, a->h, s, prof, &a->view, a->w, a->h_px, shot, NULL, err)) return false;
    if (a->rec.video && !(*video_done = app_recorder_finish(&a->rec, err))) return false;
    return true;
}

/* ---- fluid bench --render ---- */

#define RENDER_SPINUP_S 0.25 /* seconds of rendering before each timed row: the GPU's clocks rise under load */

static const char *_bench_render_usage =
    "usage: fluid bench --render [--particles N] [--size WxH] [--scene NAME] [--solver NAME] [--frames F] [--reps R]\n"
    "                            [--data DIR]\n"
    "  the GPU time of one frame of each style, with and without the HUD, and of each pass, after F\n"
    "  frames (1/60 s each) of the scene: --particles 27648, --size 1280x720, --scene dambreak,\n"
    "  --frames 60, --reps 20 by default. Needs GPU timer queries (not llvmpipe).\n";

static bool _bench_render_parse(int argc, char **argv, run_opts *o, int *frames, int *reps, char *err) {
    *o = (run_opts){.width = 1280, .height = 720};
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
            if (!v || !*v || !strncmp(v, "--", 2)) return fail(err, "bench --render: %s needs a value; see fluid bench --render --help", a);
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
            if (sscanf(v, "%dx%d%c", &o->width, &o->height, &tail) != 2 || o->width < 16 || o->height < 16 ||
                o->width > 16384 || o->height > 16384)
                return fail(err, "bench --render: --size %s: expected WxH, each from 16 to 16384", v);
        } else
            return fail(err, "bench --render: %s %s: unknown option or bad value; see fluid bench --render --help", a, v);
    }
    return true;
}

/* Mean GPU time of `reps` frames of v (timer queries; q NULL: the CPU clock around glFinish), after
 * a spin-up; and, with passes (timer queries only), each pass's mean. */
static double _bench_render_time(renderer *r, hud *h, const sim *s, const app_view *v, const render_target *t, int reps,
                                 GLuint *q, double pass_us[RENDER_PASSES]) {
    double t0 = now_seconds();
    do {
        app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
        glFinish();
    } while (now_seconds() - t0 < RENDER_SPINUP_S);
    if (!q) {
        t0 = now_seconds();
        for (int k = 0; k < reps; k++) {
            app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
            glFinish();
        }
        for (int p = 0; pass_us && p < RENDER_PASSES; p++) pass_us[p] = 0;
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
    if (pass_us) {
        render_time_passes(r, true);
        double us[RENDER_PASSES];
        for (int p = 0; p < RENDER_PASSES; p++) pass_us[p] = 0;
        for (int k = 0; k < reps; k++) {
            app_render_frame(r, h, s, NULL, v, t, t->width, t->height, NULL);
            render_pass_times(r, us);
            for (int p = 0; p < RENDER_PASSES; p++) pass_us[p] += us[p] / reps;
        }
        render_time_passes(r, false);
    }
    return sum / reps / 1e3;
}

int app_render_bench(int argc, char **argv) {
    char err[ERR_LEN];
    run_opts o;
    int frames, reps;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(_bench_render_usage, stdout);
            return 0;
        }
    if (!_bench_render_parse(argc, argv, &o, &frames, &reps, err)) {
        log_error("BENCH", "%s", err);
        return 1;
    }
    gpu_ctx *gpu = cmd_gpu_headless(o.data, "BENCH");
    if (!gpu) return 1;
    const gpu_caps *caps = gpu_get_caps(gpu);
    bool gpu_clock = caps->timer_queries;
    if (!gpu_clock) log_info("BENCH", "timer queries read 0 on %s: the CPU clock around glFinish, no pass times", caps->renderer);
    sim *s = sim_make(&(sim_desc){.scene = o.scene, .particles = o.particles, .solver = o.solver}, caps, err);
    renderer *r = s ? render_make(err) : NULL;
    hud *h = r ? hud_make(&(hud_desc){0}, err) : NULL;
    render_target t = {0};
    if (!h || !render_target_make(&t, o.width, o.height, "bench-render", err)) {
        log_error("BENCH", "%s", err);
        hud_destroy(h), render_destroy(r), sim_destroy(s), gpu_destroy(gpu);
        return 1;
    }
    int steps = 0;
    for (int f = 0; f < frames; f++) steps = sim_frame(s, 1.0 / 60, 0, NULL);
    sim_sync(s);
    glFinish();
    printf("render, %s, %u particles (%s), %.3f s simulated, %dx%d, %s, %s clock, mean of %d frames after %.2f s of spin-up\n",
           sim_scene_name(s), sim_particle_count(s), sim_solver_name(s), sim_time(s), o.width, o.height, caps->renderer,
           gpu_clock ? "gpu" : "cpu", reps, RENDER_SPINUP_S);
    app_view v;
    app_view_init(&v, s);
    v.headless = true;
    v.steps_per_frame = steps;
    GLuint *q = gpu_clock ? malloc(sizeof *q * (size_t)reps) : NULL;
    if (q) glGenQueries(reps, q);
    for (int style = 0; style < RENDER_STYLE_COUNT; style++) {
        v.style = (render_style)style;
        double pass[RENDER_PASSES];
        v.show_hud = true;
        double with = _bench_render_time(r, h, s, &v, &t, reps, q, NULL);
        v.show_hud = false;
        double bare = _bench_render_time(r, h, s, &v, &t, reps, q, style == RENDER_STYLE_RASTER ? NULL : pass);
        printf("render %-14s %9.1f us with the HUD %9.1f us without\n", render_style_names[style], with, bare);
        if (style == RENDER_STYLE_RASTER || !q) continue;
        double total = 0;
        for (int p = 0; p < RENDER_PASSES; p++) total += pass[p];
        printf("  passes (GL timestamps, no HUD):");
        for (int p = 0; p < RENDER_PASSES; p++)
            if (pass[p] > 0.05) printf(" %s %.1f us (%.0f%%)", render_pass_names[p], pass[p], total > 0 ? 100 * pass[p] / total : 0);
        printf("\n");
    }
    if (q) glDeleteQueries(reps, q);
    free(q);
    render_target_destroy(&t);
    hud_destroy(h);
    render_destroy(r);
    sim_destroy(s);
    gpu_destroy(gpu);
    return 0;
}
