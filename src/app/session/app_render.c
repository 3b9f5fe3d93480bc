/* app_render: the fluid view (scene, particles, tank, HUD) drawn from a live sim (see app_render.h). */
#include "app/session/app_render.h"
#include "core/util.h"
#include "render/image.h"
#include "sim/compare.h"
#include "sim/search.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_view_init(app_view *v, const sim *s) {
    memset(v, 0, sizeof *v);
    float lo[3], hi[3];
    sim_domain(s, lo, hi);
    app_view_frame(&v->cam, lo, hi);
    v->color = RENDER_COLOR_SPEED;
    v->style = RENDER_STYLE_SURFACE;
    v->show_hud = true;
    v->steps_per_frame = v->slots_per_frame = 0; /* none yet (the HUD then says nothing of them) */
    v->frame_seconds = 1.0 / 60;
    v->realtime = -1;
}

void app_view_frame(camera *c, const float lo[3], const float hi[3]) {
    /* NDC: the stats panel and the graph take the left ~450 of 1280 pixels, the legend the top
     * right ~90 of 720 */
    camera_frame(c, lo, hi, 16.0f / 9.0f, (const float[4]){-0.27f, -0.95f, 0.97f, 0.74f});
}

void app_view_push_frame_time(app_view *v, float ms) {
    if (v->frame_hist_count == APP_FRAME_HISTORY) {
        memmove(v->frame_hist, v->frame_hist + 1, sizeof(float) * (APP_FRAME_HISTORY - 1));
        v->frame_hist_count--;
    }
    v->frame_hist[v->frame_hist_count++] = ms;
}

void app_overlay_info(const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px, overlay_info *out) {
    sim_summary sum;
    sim_get_summary(s, &sum);
    sim_diffuse_counts dc;
    sim_diffuse_view dv;
    sim_get_diffuse(s, &dv);
    sim_read_diffuse(s, &dc, v->headless); /* the window: the newest the GPU finished, no wait */
    *out = (overlay_info){.width = w,
                          .height = h_px,
                          .fps = v->fps,
                          .frame_ms = v->frame_ms,
                          .particles = sim_particle_count(s),
                          .scene = sim_scene_name(s),
                          .sort = sim_sort_name(s),
                          .sim_time = sim_time(s),
                          .steps_per_frame = v->steps_per_frame,
                          .slots_per_frame = v->slots_per_frame,
                          .realtime = v->realtime,
                          .paused = v->paused,
                          .solver = sim_solver_name(s),
                          .search_stages = SIM_SEARCH_STAGES,
                          .step_note = sim_stage_note(s),
                          .dt = sum.dt_last,
                          .step_stages = sim_stage_count(s),
                          .vsync = v->vsync,
                          .headless = v->headless,
                          .color = v->color,
                          .style = v->style,
                          .prof = prof,
                          .frame_ms_history = v->frame_hist,
                          .frame_history_count = v->frame_hist_count,
                          .message = v->message,
                          .help = v->help,
                          .show_help = v->show_help,
                          .diffuse_shown = dv.shown,
                          .spray = dc.spray,
                          .foam = dc.foam,
                          .bubbles = dc.bubble,
                          .diffuse_dropped = dc.dropped_total};
    out->phases = sim_phase_count(s) <= OVERLAY_MAX_PHASES ? sim_phase_count(s) : 0;
    for (int k = 0; k < out->phases; k++) out->phase_cycles[k] = sum.phase_cycles[k];
    out->phase_mhz = v->phase_mhz;
    for (int c = 0; c < sim_counter_count(s) && c < OVERLAY_MAX_COUNTERS; c++) {
        out->counter_names[c] = sim_counter_name(s, c);
        out->counter_means[c] = sum.it_mean[c];
        out->counters = c + 1;
    }
    sim_compare *cmp = sim_get_compare(s);
    static sim_compare_report cr; /* the HUD points into it until the next frame */
    if (cmp) {
        sim_compare_get(cmp, &cr);
        out->compare_clock = cr.clock;
        out->compare_warning = cr.warning;
        for (int i = 0; i < cr.rows && i < OVERLAY_MAX_COMPARE; i++) {
            const sim_compare_row *row = &cr.row[i];
            out->compare[i] = (overlay_compare_row){.name = row->name,
                                                    .same = row->same,
                                                    .drives = row->drives,
                                                    .timed = row->timed,
                                                    .median_us = row->median_us,
                                                    .p95_us = row->p95_us,
                                                    .ratio = row->ratio,
                                                    .mismatches = row->mismatches};
            out->compare_rows = i + 1;
        }
    }
}

render_particles app_render_particles(const sim *s) {
    render_particles p = {.positions = sim_positions(s),
                          .velocities = sim_velocities(s),
                          .densities = sim_densities(s),
                          .cell_keys = sim_cell_keys(s),
                          .count = sim_particle_count(s),
                          .radius = sim_particle_radius(s)};
    sim_domain(s, p.lo, p.hi);
    sim_grid g;
    sim_get_grid(s, &g);
    p.ranges = g.ranges, p.cell = g.cell, p.h = g.h, p.keys = g.keys;
    memcpy(p.grid_lo, g.lo, sizeof p.grid_lo);
    memcpy(p.dims, g.dims, sizeof p.dims);
    memcpy(p.brick, g.brick, sizeof p.brick);
    sim_diffuse_view dv;
    sim_get_diffuse(s, &dv);
    if (dv.shown) p.diffuse = dv.particles, p.diffuse_state = dv.state, p.diffuse_capacity = dv.capacity;
    return p;
}

void app_render_frame(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, const render_target *target,
                      int w, int h_px, overlay_layout *layout) {
    GLuint fbo = target ? target->fbo : 0;
    if (layout) memset(layout, 0, sizeof *layout);
    if (w <= 0 || h_px <= 0) return;
    render_particles p = app_render_particles(s);
    render_view rv = {.framebuffer = fbo,
                      .color_texture = target ? target->color : 0,
                      .width = w,
                      .height = h_px,
                      .color = v->color,
                      .style = v->style,
                      .backdrop = v->backdrop};
    memcpy(rv.poke, v->poke, sizeof rv.poke);
    camera_matrices(&v->cam, w, h_px, rv.view, rv.proj);
    render_scene(r, &p, &rv);
    if (!v->show_hud) return;
    overlay_info info;
    app_overlay_info(s, prof, v, w, h_px, &info);
    overlay_draw(h, &info, layout);
    hud_draw(h, fbo);
}

/* The view rendered offscreen, top row first (malloc'd), or NULL with err. */
static uint8_t *_app_render_rgba(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px,
                                 overlay_layout *layout, char *err) {
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

bool app_render_png(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px, const char *path,
                    overlay_layout *layout, char *err) {
    uint8_t *rgba = _app_render_rgba(r, h, s, prof, v, w, h_px, layout, err);
    if (!rgba) return false;
    bool ok = image_write_png(path, rgba, w, h_px, err);
    free(rgba);
    return ok;
}

bool app_render_png_to(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px, outfile *out,
                       overlay_layout *layout, char *err) {
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
    render_view rv = {.framebuffer = t->fbo,
                      .color_texture = t->color,
                      .width = t->width,
                      .height = t->height,
                      .color = v->color,
                      .style = v->style,
                      .backdrop = v->backdrop};
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
