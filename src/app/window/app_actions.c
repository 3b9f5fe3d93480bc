/* The window's controls: one table (app_bindings) that gives the key handling, the help overlay's
 * lines and the --script names, and app_handle_action, which carries every action out. README.md
 * and docs/CONTROLS.md list the same rows, key column and action text alike, and the rows that
 * switch a family (Tab: sort_algos[], M: sim_solvers[], F1-F3: sim_scenes[]) name its entries in
 * its order (tests/test_controls.c). A new key is a line here (and an app_action, a case in
 * app_handle_action, the row in both documents). */
#include "app/window/app_actions.h"
#include "app/window/app_io.h"
#include "app/window/app_state.h"
#include "app/session/registry.h"
#include "core/log.h"
#include "core/util.h"
#include "sim/dfsph/dfsph.h" /* dfsph_desc: --strict */
#include "sim/scene.h"
#include <stdio.h>
#include <string.h>

#define APP_PAN_STEP 6.0f  /* pixels a frame a pan key moves, */
#define APP_PAN_REF_PX 720 /* as if the window were this tall */
#define APP_ZOOM_STEP 0.15f

/* The particle counts + and - step through. */
static const uint32_t _app_counts[] = {4096, 8192, 13824, 27648, 55296, 110592, 221184, 442368, 884736};

const app_binding app_bindings[] = {
    {"left drag", "orbit the camera", 0, {{0}}},
    {"wheel, `Q` / `E`",
     "zoom out / in",
     APP_HELD,
     {{APP_ZOOM_OUT, "zoom-out", {GLFW_KEY_Q}}, {APP_ZOOM_IN, "zoom-in", {GLFW_KEY_E}}}},
    {"right drag, `W` `A` `S` `D`, arrows",
     "pan",
     APP_HELD,
     {{APP_PAN_LEFT, "pan-left", {GLFW_KEY_A, GLFW_KEY_LEFT}},
      {APP_PAN_RIGHT, "pan-right", {GLFW_KEY_D, GLFW_KEY_RIGHT}},
      {APP_PAN_UP, "pan-up", {GLFW_KEY_W, GLFW_KEY_UP}},
      {APP_PAN_DOWN, "pan-down", {GLFW_KEY_S, GLFW_KEY_DOWN}}}},
    {"`Shift` + left drag", "push the fluid", 0, {{0}}},
    {"`Ctrl` + left drag", "pull the fluid", 0, {{0}}},
    {"`Space`", "pause / resume", 0, {{APP_PAUSE, "pause", {GLFW_KEY_SPACE}}}},
    {"`N` or `.`", "one step (pauses)", APP_REPEAT, {{APP_STEP, "step", {GLFW_KEY_N, GLFW_KEY_PERIOD}}}},
    {"`R` or `Backspace`", "reset the scene", 0, {{APP_RESET, "reset", {GLFW_KEY_R, GLFW_KEY_BACKSPACE}}}},
    {"`Tab`",
     "switch sort: radix -> onesweep -> counting -> bitonic -> cpu (live; skips any that cannot run)",
     0,
     {{APP_SORT_NEXT, "sort-next", {GLFW_KEY_TAB}}}},
    {"`K`",
     "compare mode on / off: every other sort on the same keys, checked and timed (HUD panel)",
     0,
     {{APP_COMPARE, "compare", {GLFW_KEY_K}}}},
    {"`M`", "switch solver: dfsph -> wcsph (live)", 0, {{APP_SOLVER_NEXT, "solver-next", {GLFW_KEY_M}}}},
    {"`1` / `2`",
     "sort: radix / bitonic",
     0,
     {{APP_SORT_RADIX, "sort-radix", {GLFW_KEY_1}}, {APP_SORT_BITONIC, "sort-bitonic", {GLFW_KEY_2}}}},
    {"`F1` `F2` `F3` or `3` `4` `5`",
     "scene: dambreak, drop, double-dambreak",
     0,
     {{APP_SCENE_1, "scene-1", {GLFW_KEY_F1, GLFW_KEY_3}},
      {APP_SCENE_2, "scene-2", {GLFW_KEY_F2, GLFW_KEY_4}},
      {APP_SCENE_3, "scene-3", {GLFW_KEY_F3, GLFW_KEY_5}}}},
    {"`+` / `-`",
     "more / fewer particles (4,096 ... 884,736)",
     0,
     {{APP_MORE, "more", {GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD}}, {APP_FEWER, "fewer", {GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT}}}},
    {"`C`", "colour: speed, density, cell hash (from the water: spheres by cell hash)", 0, {{APP_COLOR, "color", {GLFW_KEY_C}}}},
    {"`F`", "style: water surface -> spheres -> raster spheres -> isotropic surface", 0, {{APP_STYLE, "style", {GLFW_KEY_F}}}},
    {"`G`", "start / stop a video: fluid-YYYYMMDD-HHMMSS.mp4", 0, {{APP_RECORD, "record", {GLFW_KEY_G}}}},
    {"`T`", "save the next 120 frames' timeline: fluid-YYYYMMDD-HHMMSS.json (Perfetto)", 0, {{APP_TRACE, "trace", {GLFW_KEY_T}}}},
    {"`V`", "vsync on / off", 0, {{APP_VSYNC, "vsync", {GLFW_KEY_V}}}},
    {"`F12` or `P`", "screenshot: fluid-YYYYMMDD-HHMMSS.png", 0, {{APP_SCREENSHOT, "screenshot", {GLFW_KEY_F12, GLFW_KEY_P}}}},
    {"`B`", "spray, foam and bubbles on / off (their counts on the HUD)", 0, {{APP_DIFFUSE, "diffuse", {GLFW_KEY_B}}}},
    {"`U`", "hide / show the HUD", 0, {{APP_HUD, "hud", {GLFW_KEY_U}}}},
    {"`0` or `Home`", "reset the camera", 0, {{APP_CAMERA_RESET, "camera-reset", {GLFW_KEY_0, GLFW_KEY_HOME}}}},
    {"`H`", "help on screen", 0, {{APP_HELP, "help", {GLFW_KEY_H}}}},
    {"`Esc`", "quit", 0, {{APP_QUIT, "quit", {GLFW_KEY_ESCAPE}}}},
};
const int app_binding_count = (int)ARRAY_LEN(app_bindings);

static const app_binding_act *_app_act_find(bool (*match)(const app_binding_act *, const void *), const void *what,
                                            unsigned *flags) {
    for (int r = 0; r < app_binding_count; r++)
        for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++)
            if (match(&app_bindings[r].acts[k], what)) {
                if (flags) *flags = app_bindings[r].flags;
                return &app_bindings[r].acts[k];
            }
    return NULL;
}

static bool _app_match_key(const app_binding_act *a, const void *what) {
    for (int i = 0; i < APP_BINDING_KEYS; i++)
        if (a->keys[i] && a->keys[i] == *(const int *)what) return true;
    return false;
}
static bool _app_match_name(const app_binding_act *a, const void *what) { return strcmp(a->name, what) == 0; }
static bool _app_match_action(const app_binding_act *a, const void *what) { return a->action == *(const app_action *)what; }

bool app_key_action(int key, app_action *out, unsigned *flags) {
    const app_binding_act *a = _app_act_find(_app_match_key, &key, flags);
    if (a) *out = a->action;
    return a != NULL;
}

bool app_action_by_name(const char *name, app_action *out) {
    const app_binding_act *a = _app_act_find(_app_match_name, name, NULL);
    if (a) *out = a->action;
    return a != NULL;
}

const char *app_action_name(app_action act) {
    const app_binding_act *a = _app_act_find(_app_match_action, &act, NULL);
    return a ? a->name : "?";
}

const char *const *app_help_lines(void) {
    static char text[ARRAY_LEN(app_bindings)][128];
    static const char *lines[ARRAY_LEN(app_bindings) + 2];
    if (lines[0]) return lines;
    lines[0] = "Keys (H closes this)";
    for (int r = 0; r < app_binding_count; r++) {
        char keys[64];
        int n = 0;
        for (const char *p = app_bindings[r].keys; *p && n < (int)sizeof keys - 1; p++)
            if (*p != '`') keys[n++] = *p; /* the docs' Markdown off */
        keys[n] = 0;
        snprintf(text[r], sizeof text[r], "%-30s %s", keys, app_bindings[r].help);
        lines[r + 1] = text[r];
    }
    return lines;
}

/* ---- carrying actions out ---- */

/* The one helper that switches the sort or the solver live (the fluid kept); quiet: no message on
 * failure (Tab tries the next). */
static bool _app_switch(app *a, bool solver, const char *name, bool quiet) {
    char err[ERR_LEN];
    const char *what = solver ? "solver" : "sort";
    char was[32], was_path[128] = "";
    snprintf(was, sizeof was, "%s", solver ? sim_solver_name(a->ss.s) : sim_sort_name(a->ss.s));
    if (!solver) sim_sort_path(a->ss.s, was_path, sizeof was_path);
    if (!(solver ? session_set_solver : session_set_sort)(&a->ss, name, err)) {
        if (quiet) {
            log_info("APP", "%s %s skipped: %s", what, name, err);
        } else {
            log_error("APP", "%s", err);
            app_message(a, "%s %s: %.200s", what, name, err);
        }
        return false;
    }
    const char *now = solver ? sim_solver_name(a->ss.s) : sim_sort_name(a->ss.s);
    char now_path[128] = "";
    if (!solver) sim_sort_path(a->ss.s, now_path, sizeof now_path);
    if (!solver && strcmp(was, now) && !strcmp(was_path, now_path)) /* radix -> onesweep where radix takes onesweep */
        app_message(a, "sort: %s (the same path as %s here; the fluid is kept)", now, was);
    else app_message(a, "%s: %s (the fluid is kept)", what, now);
    log_info("APP", "%s switched to %s at t = %.3f s", what, now, sim_time(a->ss.s));
    return true;
}

/* The entry after `current` in the family's registry, skipping those that cannot be made here
 * (onesweep on llvmpipe without LP_NUM_THREADS=1). */
static bool _app_cycle(app *a, registry_family f, const char *current) {
    bool solver = f == REGISTRY_SOLVERS;
    int n = registry_count(f), i = registry_find(f, current);
    for (int k = 1; k < n; k++)
        if (_app_switch(a, solver, registry_name(f, (i + k) % n), true)) return true;
    app_message(a, "no other %s runs here", solver ? "solver" : "sort");
    return false;
}

/* A new sim (scene or particle count); on failure the previous one is made again. */
static bool _app_rebuild(app *a, const char *scene, uint32_t particles) {
    char err[ERR_LEN];
    session *ss = &a->ss;
    uint32_t old_count = sim_particle_count(ss->s);
    char old_scene[64], sort[32], solver[16];
    snprintf(old_scene, sizeof old_scene, "%s", a->scene);
    snprintf(sort, sizeof sort, "%s", sim_sort_name(ss->s));
    snprintf(solver, sizeof solver, "%s", sim_solver_name(ss->s));
    sim_diffuse_view diffuse; /* kept: made or not (--no-diffuse), shown or not (B) */
    sim_get_diffuse(ss->s, &diffuse);
    sim_desc d = {.scene = scene,
                  .particles = particles,
                  .sort = sort_algo_find(sort), /* the sort the sim had */
                  .solver = solver,
                  .diffuse = {.on = diffuse.capacity > 0},
                  .solver_descs = (const sim_solver_desc[]){{&sim_solver_dfsph, &(dfsph_desc){.strict = a->o->strict}}, {0}}};
    if (!session_sim_make(ss, &d, err)) {
        log_error("APP", "%s", err);
        app_message(a, "could not rebuild: %.200s", err);
        d.scene = old_scene, d.particles = old_count;
        if (!session_sim_make(ss, &d, err)) {
            log_error("APP", "cannot restore the previous fluid either: %s", err);
            a->status = 1;
            a->quit = true;
        }
        return false;
    }
    sim_set_diffuse_shown(ss->s, diffuse.shown);
    snprintf(a->scene, sizeof a->scene, "%s", sim_scene_name(ss->s));
    return true;
}

static uint32_t _app_next_count(uint32_t n, int dir) {
    int k = (int)ARRAY_LEN(_app_counts);
    if (dir > 0) {
        for (int i = 0; i < k; i++)
            if (_app_counts[i] > n) return _app_counts[i];
        return 0;
    }
    for (int i = k - 1; i >= 0; i--)
        if (_app_counts[i] < n) return _app_counts[i];
    return 0;
}

bool app_handle_action(app *a, app_action act) {
    app_view *v = &a->ss.view;
    sim *s = a->ss.s;
    float lo[3], hi[3];
    switch (act) {
    case APP_QUIT: a->quit = true; return true;
    case APP_HELP: v->show_help = !v->show_help; return true;
    case APP_PAUSE:
        v->paused = !v->paused;
        app_message(a, v->paused ? "paused (N: one step)" : "running");
        return true;
    case APP_STEP:
        v->paused = true;
        a->step_once = true;
        return true;
    case APP_RESET:
        sim_reset(s);
        app_message(a, "scene %s reset", a->scene);
        return true;
    case APP_SORT_NEXT: return _app_cycle(a, REGISTRY_SORTS, sim_sort_name(s));
    case APP_SORT_RADIX: return _app_switch(a, false, "radix", false);
    case APP_SORT_BITONIC: return _app_switch(a, false, "bitonic", false);
    case APP_SCENE_1:
    case APP_SCENE_2:
    case APP_SCENE_3: {
        int k = (int)(act - APP_SCENE_1);
        if (k >= sim_scene_count) {
            app_message(a, "no scene %d (there are %d)", k + 1, sim_scene_count);
            return false;
        }
        bool ok = _app_rebuild(a, sim_scenes[k].name, a->ss.particles);
        if (ok) app_message(a, "scene %s, %u particles", a->scene, sim_particle_count(a->ss.s));
        return ok;
    }
    case APP_MORE:
    case APP_FEWER: {
        /* The ladder steps from the count asked for (the sim rounds it to whole blocks: 4,096
         * asked gives 4,394, and stepping down from 4,394 would rebuild 4,096 again). */
        uint32_t asked = a->ss.particles ? a->ss.particles : sim_particle_count(s);
        uint32_t n = _app_next_count(asked, act == APP_MORE ? 1 : -1);
        if (!n) {
            app_message(a, "already at the %s particle count (%u); the fluid is kept", act == APP_MORE ? "largest" : "smallest",
                        sim_particle_count(s));
            log_info("APP", "%s: already at the %s particle count; nothing rebuilt", app_action_name(act),
                     act == APP_MORE ? "largest" : "smallest");
            return false;
        }
        bool ok = _app_rebuild(a, a->scene, n);
        if (ok) app_message(a, "%u particles", sim_particle_count(a->ss.s));
        return ok;
    }
    case APP_COLOR:
        if (v->style == RENDER_STYLE_SURFACE) { /* the water has no colour map: the sort's view, one key away */
            v->style = RENDER_STYLE_SPHERES;
            v->color = RENDER_COLOR_CELL;
            app_message(a, "spheres coloured by cell hash (F: back to the water)");
            return true;
        }
        v->color = (render_color)((v->color + 1) % RENDER_COLOR_COUNT);
        return true;
    case APP_STYLE: v->style = (render_style)((v->style + 1) % RENDER_STYLE_COUNT); return true;
    case APP_VSYNC:
        v->vsync = !v->vsync;
        glfwSwapInterval(v->vsync ? 1 : 0);
        app_message(a, "vsync %s", v->vsync ? "on" : "off");
        return true;
    case APP_SCREENSHOT: return app_screenshot(a, NULL);
    case APP_HUD: v->show_hud = !v->show_hud; return true;
    case APP_CAMERA_RESET:
        sim_domain(s, lo, hi);
        app_view_frame(&v->cam, lo, hi);
        return true;
    case APP_PAN_LEFT: camera_pan(&v->cam, -APP_PAN_STEP, 0, APP_PAN_REF_PX); return true;
    case APP_PAN_RIGHT: camera_pan(&v->cam, APP_PAN_STEP, 0, APP_PAN_REF_PX); return true;
    case APP_PAN_UP: camera_pan(&v->cam, 0, -APP_PAN_STEP, APP_PAN_REF_PX); return true;
    case APP_PAN_DOWN: camera_pan(&v->cam, 0, APP_PAN_STEP, APP_PAN_REF_PX); return true;
    case APP_ZOOM_IN: camera_zoom(&v->cam, APP_ZOOM_STEP); return true;
    case APP_ZOOM_OUT: camera_zoom(&v->cam, -APP_ZOOM_STEP); return true;
    case APP_SOLVER_NEXT: return _app_cycle(a, REGISTRY_SOLVERS, sim_solver_name(s));
    case APP_RECORD: return app_record(a, NULL);
    case APP_TRACE: return app_trace(a);
    case APP_COMPARE: {
        char err[ERR_LEN];
        bool on = !sim_get_compare(s);
        if (!session_set_compare(&a->ss, on, err)) {
            log_error("APP", "%s", err);
            app_message(a, "compare mode: %.200s", err);
            return false;
        }
        app_message(a, on ? "compare mode on: every other sort on the same keys (K: off)" : "compare mode off");
        return true;
    }
    case APP_DIFFUSE: {
        sim_diffuse_view dv;
        sim_get_diffuse(s, &dv);
        if (!dv.capacity) {
            app_message(a, "no spray, foam or bubbles in this run (--no-diffuse)");
            return false;
        }
        sim_set_diffuse_shown(s, !dv.shown);
        app_message(a, dv.shown ? "spray, foam and bubbles off (B: on)" : "spray, foam and bubbles on");
        return true;
    }
    case APP_ACTION_COUNT: break;
    }
    return false;
}
