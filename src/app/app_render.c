#include "app/app_render.h"
#include "app/app.h"
#include "core/log.h"
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
    v->style = RENDER_STYLE_SPHERES;
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
                      .color = v->color, .style = v->style};
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

bool app_render_png(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px,
                    const char *path, overlay_layout *layout, char *err) {
    render_target t;
    if (!render_target_make(&t, w, h_px, "screenshot", err)) return false;
    app_render_frame(r, h, s, prof, v, &t, w, h_px, layout);
    uint8_t *rgba = malloc((size_t)w * (size_t)h_px * 4);
    render_target_read(&t, rgba);
    render_target_destroy(&t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    bool ok = image_write_png(path, rgba, w, h_px, err);
    free(rgba);
    return ok;
}

/* GPU time of one frame of the view, each style, with and without the HUD: the mean of 20 after
 * RENDER_SPINUP_S of rendering (the GPU's clocks rise under load), then the spheres style's passes;
 * printed on stdout beside the headless run's stage table. Needs working timer queries. */
#define RENDER_SPINUP_S 0.25
static void _app_time_render(renderer *r, hud *h, const sim *s, const gpu_prof *prof, app_view *v, int w, int h_px) {
    enum { REPS = 20 };
    char err[ERR_LEN];
    render_target t;
    if (!render_target_make(&t, w, h_px, "render timing", err)) return;
    GLuint q[REPS];
    glGenQueries(REPS, q);
    for (int run = 0; run < 2 * RENDER_STYLE_COUNT; run++) {
        int style = run / 2;
        v->style = (render_style)style;
        v->show_hud = run % 2 == 0;
        double t0 = now_seconds();
        do {
            app_render_frame(r, h, s, prof, v, &t, w, h_px, NULL);
            glFinish();
        } while (now_seconds() - t0 < RENDER_SPINUP_S);
        t0 = now_seconds();
        for (int k = 0; k < REPS; k++) {
            glBeginQuery(GL_TIME_ELAPSED, q[k]);
            app_render_frame(r, h, s, prof, v, &t, w, h_px, NULL);
            glEndQuery(GL_TIME_ELAPSED);
        }
        glFinish();
        double wall_us = (now_seconds() - t0) * 1e6 / REPS, sum = 0;
        for (int k = 0; k < REPS; k++) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(q[k], GL_QUERY_RESULT, &ns);
            sum += (double)ns;
        }
        printf("render %-14s %9.1f us gpu %9.1f us wall (%dx%d, %s, mean of %d)\n", render_style_names[style],
               sum / REPS / 1e3, wall_us, w, h_px, v->show_hud ? "HUD included" : "no HUD", REPS);
    }
    /* Where the spheres style's time goes. */
    v->style = RENDER_STYLE_SPHERES;
    v->show_hud = false;
    render_time_passes(r, true);
    double sum[RENDER_PASSES] = {0}, us[RENDER_PASSES];
    for (int k = 0; k < REPS; k++) {
        app_render_frame(r, h, s, prof, v, &t, w, h_px, NULL);
        render_pass_times(r, us);
        for (int p = 0; p < RENDER_PASSES; p++) sum[p] += us[p];
    }
    render_time_passes(r, false);
    printf("render spheres passes:");
    for (int p = 0; p < RENDER_PASSES; p++) printf(" %s %.1f us%s", render_pass_names[p], sum[p] / REPS, p + 1 < RENDER_PASSES ? "," : "\n");
    glDeleteQueries(REPS, q);
    render_target_destroy(&t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

bool app_render_screenshot(const run_opts *o, sim *s, gpu_prof *prof, const gpu_ctx *gpu, char *err) {
    const gpu_caps *caps = gpu_get_caps(gpu);
    if (!o->screenshot_path) return fail(err, "no screenshot path given; pass --screenshot FILE.png");
    int w = o->width > 0 ? o->width : 1280, h_px = o->height > 0 ? o->height : 720;
    renderer *r = render_make(err);
    if (!r) return false;
    hud *h = hud_make(&(hud_desc){0}, err);
    if (!h) {
        render_destroy(r);
        return false;
    }
    app_view v;
    app_view_init(&v, s);
    v.style = (render_style)o->style;
    v.headless = gpu_is_headless(gpu);
    bool ok = app_render_png(r, h, s, prof, &v, w, h_px, o->screenshot_path, NULL, err);
    if (ok) log_info("APP", "screenshot %dx%d written to %s", w, h_px, o->screenshot_path);
    if (ok && caps->timer_queries) _app_time_render(r, h, s, prof, &v, w, h_px);
    hud_destroy(h);
    render_destroy(r);
    return ok;
}
