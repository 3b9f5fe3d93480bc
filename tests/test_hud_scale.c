/* The HUD against the window's size: at 640x360 its panels must not hide the fluid (most of the
 * pixels the fluid and tank cover without a HUD stay uncovered with it), the text stays legible,
 * and it scales with the window (half the panel at half the size, up to 2x on a large one). The
 * graph's axis: a start-up frame 100 times the others no longer sets it.
 * Renders headless on GL 4.5; skips (77) without it. */
#include "check.h"
#include "app/session/app_render.h"
#include "render/graph.h"
#include "render/image.h"
#include "render/image_test.h"
#include <math.h>
#include <string.h>

static void test_graph_top(void) {
    enum { F = 300 };
    static float v[2 * F];
    for (int f = 0; f < F; f++) v[f] = 6, v[F + f] = 4; /* two stages, 10 a frame */
    CHECK(graph_scale_top(v, 2, F) == 10, "steady 10: top %g", graph_scale_top(v, 2, F));
    v[0] = 1000; /* the start-up frame */
    CHECK(graph_scale_top(v, 2, F) == 10, "one start-up spike of 1000 among 10s sets the top to %g", graph_scale_top(v, 2, F));
    for (int f = F - 30; f < F; f++) v[f] = 46; /* the last 30 frames really are slower: shown whole */
    CHECK(graph_scale_top(v, 2, F) == 50, "30 frames of 50 give a top of %g", graph_scale_top(v, 2, F));
    for (int f = 0; f < 2 * F; f++) v[f] = NAN;
    CHECK(graph_scale_top(v, 2, F) == 1, "no frames: top %g", graph_scale_top(v, 2, F));
}

/* Share of the view's drawn pixels (without a HUD) that the HUD's panels cover. */
static double _covered(renderer *r, hud *h, sim *s, const gpu_prof *prof, app_view *v, int w, int hh, overlay_layout *lay) {
    render_target t;
    char err[ERR_LEN];
    if (!render_target_make(&t, w, hh, "hud-scale", err)) {
        CHECK(false, "%s", err);
        return 1;
    }
    uint8_t *rgba = malloc((size_t)w * hh * 4);
    v->show_hud = false;
    app_render_frame(r, h, s, prof, v, &t, w, hh, NULL);
    render_target_read(&t, rgba);
    v->show_hud = true;
    app_render_frame(r, h, s, prof, v, &t, w, hh, lay);
    long drawn = 0, hidden = 0;
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < w; x++) {
            if (image_is_background(rgba + 4 * ((size_t)y * w + x))) continue;
            drawn++;
            bool in = false;
            for (int k = 0; k < OVERLAY_PANELS && !in; k++) {
                const float *q = lay->rect[k];
                in = x >= q[0] && x < q[2] && y >= q[1] && y < q[3];
            }
            hidden += in;
        }
    free(rgba);
    render_target_destroy(&t);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return drawn ? (double)hidden / (double)drawn : 1;
}

static float _panel_h(const overlay_layout *l) { return l->rect[OVERLAY_STATS][3] - l->rect[OVERLAY_STATS][1]; }

static void test_hud_scales(const gpu_caps *caps) {
    char err[ERR_LEN] = "";
    sim *s = sim_make(&(sim_desc){.scene = "dambreak", .particles = 4096}, caps, err);
    renderer *r = s ? render_make(err) : NULL;
    hud *h = r ? hud_make(&(hud_desc){0}, err) : NULL;
    CHECK(h, "setup: %s", err);
    gpu_prof *prof = NULL;
    if (h) {
        /* The window's profiler, with every stage's line (CPU clock here, so llvmpipe shows them
         * all as a GPU with timers does), filled by two frames. */
        const char *names[PROF_MAX_STAGES];
        int n = sim_stage_count(s);
        for (int i = 0; i < n; i++) names[i] = sim_stage_name(s, i);
        names[n] = "simulation";
        names[n + 1] = "render";
        prof = prof_make(&(prof_desc){.names = names, .stages = n + 2, .cpu_fallback = true}, caps);
        for (int f = 0; f < 2; f++) {
            prof_begin(prof, n);
            sim_frame(s, 1.0 / 60, 0, prof);
            prof_end(prof, n);
            prof_frame(prof);
        }
        app_view v;
        app_view_init(&v, s);
        v.backdrop = RENDER_BACKDROP_PLAIN; /* the fluid's pixels are those unlike the flat background */
        overlay_layout small, big, large;
        double hid_small = _covered(r, h, s, prof, &v, 640, 360, &small);
        float lh_small = hud_line_height(h);
        double hid_big = _covered(r, h, s, prof, &v, 1280, 720, &big);
        _covered(r, h, s, prof, &v, 2560, 1440, &large);
        printf("HUD covers %.1f%% of the fluid's pixels at 640x360, %.1f%% at 1280x720; stats panel %g, %g, %g px high\n",
               100 * hid_small, 100 * hid_big, _panel_h(&small), _panel_h(&big), _panel_h(&large));
        CHECK(hid_small < 0.15, "at 640x360 the HUD hides %.1f%% of the fluid's pixels (15%% at most)", 100 * hid_small);
        CHECK(hid_big < 0.15, "at 1280x720 the HUD hides %.1f%% of the fluid's pixels", 100 * hid_big);
        CHECK(lh_small >= 8, "at 640x360 a line of text is %g px: not legible", lh_small);
        CHECK(_panel_h(&small) < 0.7f * _panel_h(&big),
              "the stats panel does not shrink with the window: %g px at 640x360, %g at 1280x720", _panel_h(&small),
              _panel_h(&big));
        CHECK(_panel_h(&large) > 1.5f * _panel_h(&big),
              "the stats panel does not grow with the window: %g px at 2560x1440, %g at 1280x720", _panel_h(&large),
              _panel_h(&big));
    }
    prof_destroy(prof);
    hud_destroy(h);
    render_destroy(r);
    sim_destroy(s);
}

int main(void) {
    test_graph_top();
    gpu_ctx *gpu = check_gpu();
    test_hud_scales(gpu_get_caps(gpu));
    gpu_destroy(gpu);
    return check_done();
}
