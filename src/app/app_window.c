/* The interactive window: the frame loop (script, events, sim steps, render, HUD, swap), the key
 * and mouse bindings, and app_handle_action, through which every key and script step goes. */
#include "app/app_window.h"
#include "app/app.h"
#include "app/app_limits.h"
#include "app/app_render.h"
#include "app/pacing.h"
#include "core/log.h"
#include "core/util.h"
#include "render/image.h"
#include <GLFW/glfw3.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define APP_POKE_RADIUS 0.08f        /* of the tank's diagonal */
#define APP_POKE_STRENGTH 60.0f      /* passed to sim_poke, + push, - pull */
#define APP_MESSAGE_SECONDS 4.0

static const char *const _app_sorts[] = {"radix", "bitonic", "counting"}; /* Tab's cycle */
static const uint32_t _app_counts[] = {4096, 8192, 13824, 27648, 55296, 110592, 221184, 442368, 884736};

typedef enum _script_kind { SCRIPT_ACTION, SCRIPT_FRAMES, SCRIPT_RESIZE, SCRIPT_SHOT, SCRIPT_CHECK, SCRIPT_EXPECT_SORT } _script_kind;
typedef struct _script_step {
    _script_kind kind;
    app_action action;
    int a, b;
    char text[PATH_MAX];
} _script_step;

struct app {
    const run_opts *o;
    gpu_ctx *gpu;
    GLFWwindow *win;
    const gpu_caps *caps;
    sim *s;
    gpu_prof *prof;
    renderer *r;
    hud *h;
    app_view view;
    const char *stage_names[PROF_MAX_STAGES];
    int stage_sim, stage_render; /* the profiler's whole-frame entries, after the step's stages */
    char scene[64], sort[32], solver[16];
    double rt_sim0, rt_wall0;    /* the last real-time measurement: simulated and wall seconds */
    uint32_t particles;      /* asked for; 0: the scene's default */
    int sim_objects;         /* GL objects the sim holds (gpu_live_objects deltas of its calls) */
    bool quit, step_once;
    int status;              /* exit status */
    double message_until;
    /* mouse */
    bool orbiting, panning;
    int poke_sign;
    double mx, my;
    /* script */
    _script_step *steps;
    int nsteps, next_step, frames_left;
    bool iconified;
    /* the last screenshot, for check: */
    char shot_path[PATH_MAX];
    overlay_layout shot_layout;
    app_recorder rec;        /* G or --video */
    app_pacing pacing;       /* the time policy (pacing.h) */
    double sim_before;       /* simulated seconds of fluids rebuilt or reset, for the exit summary */
};

static void _app_message(app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void _app_message(app *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->view.message, sizeof a->view.message, fmt, ap);
    va_end(ap);
    a->message_until = now_seconds() + APP_MESSAGE_SECONDS;
}

/* ---- the simulation, made and remade ---- */

static sim *_app_sim_make(app *a, const char *scene, uint32_t particles, const char *sort, char *err) {
    int before = gpu_live_objects();
    sim *s = sim_make(&(sim_desc){.scene = scene, .particles = particles, .sort = sort, .solver = a->solver, .strict = a->o->strict},
                      a->caps, err);
    if (s) a->sim_objects = gpu_live_objects() - before;
    return s;
}

/* Destroys the sim and checks that every GL object it held went with it. */
static void _app_sim_destroy(app *a) {
    if (!a->s) return;
    int before = gpu_live_objects();
    sim_destroy(a->s);
    a->s = NULL;
    int freed = before - gpu_live_objects();
    if (freed != a->sim_objects) {
        log_error("APP", "GL object leak: sim_destroy freed %d objects, the sim had made %d", freed, a->sim_objects);
        a->status = 1;
    }
    a->sim_objects = 0;
}

static bool _app_rebuild(app *a, const char *scene, uint32_t particles) {
    char err[ERR_LEN];
    uint32_t old_count = sim_particle_count(a->s);
    char old_scene[64];
    snprintf(old_scene, sizeof old_scene, "%s", a->scene);
    sim_sync(a->s);
    a->sim_before += sim_time(a->s);
    _app_sim_destroy(a);
    a->s = _app_sim_make(a, scene, particles, a->sort, err);
    if (!a->s) {
        log_error("APP", "%s", err);
        _app_message(a, "could not rebuild: %.200s", err);
        a->s = _app_sim_make(a, old_scene, old_count, a->sort, err);
        if (!a->s) {
            log_error("APP", "cannot restore the previous fluid either: %s", err);
            a->status = 1;
            a->quit = true;
        }
        return false;
    }
    snprintf(a->scene, sizeof a->scene, "%s", sim_scene_name(a->s));
    a->particles = particles;
    float lo[3], hi[3];
    sim_domain(a->s, lo, hi);
    camera cam = a->view.cam;
    camera_fit(&a->view.cam, lo, hi);
    /* Keep the user's orbit and zoom if the tank is the same. */
    if (fabsf(cam.size - a->view.cam.size) < 1e-6f) a->view.cam = cam;
    return true;
}

static void _app_prof_remake(app *a);

static bool _app_set_sort(app *a, const char *name) {
    char err[ERR_LEN];
    int before = gpu_live_objects();
    if (!sim_set_sort(a->s, name, err)) {
        log_error("APP", "%s", err);
        _app_message(a, "sort %s: %.200s", name, err);
        return false;
    }
    a->sim_objects += gpu_live_objects() - before;
    snprintf(a->sort, sizeof a->sort, "%s", sim_sort_name(a->s));
    _app_prof_remake(a); /* the stage names follow the sort (counting: ranges=sort) */
    _app_message(a, "sort: %s (the fluid is kept)", a->sort);
    log_info("APP", "sort switched to %s at t = %.3f s", a->sort, sim_time(a->s));
    return true;
}

/* The profiler times the stages of one step a frame (the sim's names) and two whole-frame entries,
 * the simulation and the render; remade when the solver or the sort (and so the stages) changes. */
static void _app_prof_remake(app *a) {
    prof_destroy(a->prof);
    int n = sim_stage_count(a->s);
    if (n > PROF_MAX_STAGES - 2) n = PROF_MAX_STAGES - 2;
    for (int i = 0; i < n; i++) a->stage_names[i] = sim_stage_name(a->s, i);
    a->stage_sim = n;
    a->stage_render = n + 1;
    a->stage_names[a->stage_sim] = "simulation";
    a->stage_names[a->stage_render] = "render";
    a->prof = prof_make(&(prof_desc){.names = a->stage_names, .stages = n + 2}, a->caps);
}

static bool _app_set_solver(app *a, const char *name) {
    char err[ERR_LEN];
    int before = gpu_live_objects();
    if (!sim_set_solver(a->s, name, err)) {
        log_error("APP", "%s", err);
        _app_message(a, "solver %s: %.200s", name, err);
        return false;
    }
    a->sim_objects += gpu_live_objects() - before;
    snprintf(a->solver, sizeof a->solver, "%s", sim_solver_name(a->s));
    _app_prof_remake(a);
    _app_message(a, "solver: %s (the fluid is kept)", a->solver);
    log_info("APP", "solver switched to %s at t = %.3f s", a->solver, sim_time(a->s));
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

/* ---- screenshots ---- */

static void _app_size(app *a, int *w, int *h) {
    glfwGetFramebufferSize(a->win, w, h);
    if (a->iconified || glfwGetWindowAttrib(a->win, GLFW_ICONIFIED)) *w = *h = 0;
}

static bool _app_screenshot(app *a, const char *path_in) {
    char name[PATH_MAX], err[ERR_LEN];
    /* fluid-YYYYMMDD-HHMMSS.png, else -2, -3, ... within the same second, chosen when the file is
     * linked in place (outfile's OUTFILE_NEW): never overwritten, even by another window. */
    if (path_in) snprintf(name, sizeof name, "%s", path_in);
    else image_timestamp_name(name, sizeof name);
    int w, h;
    _app_size(a, &w, &h);
    if (w <= 0 || h <= 0) { /* minimised: the size it was asked to open at */
        w = a->o->width > 0 ? a->o->width : 1280;
        h = a->o->height > 0 ? a->o->height : 720;
    }
    app_view v = a->view;
    v.message[0] = 0;
    outfile *out = outfile_open("screenshot", name, path_in ? 0 : OUTFILE_NEW, err);
    if (out && !app_render_png_to(a->r, a->h, a->s, a->prof, &v, w, h, out, &a->shot_layout, err)) outfile_abort(out), out = NULL;
    if (!out || !outfile_commit_named(out, name, sizeof name, err)) {
        log_error("APP", "screenshot: %s", err);
        _app_message(a, "screenshot failed: %.200s", err);
        return false;
    }
    snprintf(a->shot_path, sizeof a->shot_path, "%s", path_in ? path_in : name);
    log_info("APP", "screenshot %dx%d written to %s", w, h, name);
    _app_message(a, "screenshot: %s", name);
    return true;
}

/* ---- video ---- */

/* Starts recording into path (NULL: a timestamped name) at the window's size, or stops. */
static bool _app_record(app *a, const char *path_in) {
    char err[ERR_LEN], name[PATH_MAX];
    if (a->rec.video) {
        snprintf(name, sizeof name, "%s", video_path(a->rec.video));
        int frames = video_frame_count(a->rec.video);
        if (!app_recorder_stop(&a->rec, name, sizeof name, err)) {
            log_error("APP", "%s", err);
            _app_message(a, "video failed: %.200s", err);
            return false;
        }
        log_info("APP", "video of %d frames written to %s", frames, name);
        _app_message(a, "video: %s (%d frames)", name, frames);
        return true;
    }
    if (path_in) {
        snprintf(name, sizeof name, "%s", path_in);
    } else {
        /* fluid-YYYYMMDD-HHMMSS.mp4, else -2, -3, ... chosen at the end (OUTFILE_NEW), as screenshots. */
        image_timestamp_name(name, sizeof name);
        char *dot = strrchr(name, '.');
        if (dot) snprintf(dot, sizeof name - (size_t)(dot - name), ".mp4");
    }
    int w, h;
    _app_size(a, &w, &h);
    if (w <= 0 || h <= 0) w = a->o->width > 0 ? a->o->width : 1280, h = a->o->height > 0 ? a->o->height : 720;
    outfile *out = outfile_open("--video", name, path_in ? 0 : OUTFILE_NEW, err);
    if (!out || !app_recorder_start(&a->rec, out, name, w, h, 60, err)) {
        log_error("APP", "%s", err);
        _app_message(a, "no video: %.200s", err);
        return false;
    }
    char shown[PATH_MAX];
    outfile_printable(name, shown, sizeof shown);
    log_info("APP", "recording %dx%d to %s (G stops)", w, h, shown);
    _app_message(a, "recording %s (G stops)", shown);
    return true;
}

/* ---- actions ---- */

bool app_handle_action(app *a, app_action act) {
    float lo[3], hi[3];
    switch (act) {
    case APP_QUIT: a->quit = true; return true;
    case APP_HELP: a->view.show_help = !a->view.show_help; return true;
    case APP_PAUSE:
        a->view.paused = !a->view.paused;
        _app_message(a, a->view.paused ? "paused (N: one step)" : "running");
        return true;
    case APP_STEP:
        a->view.paused = true;
        a->step_once = true;
        return true;
    case APP_RESET:
        sim_sync(a->s);
        a->sim_before += sim_time(a->s);
        sim_reset(a->s);
        _app_message(a, "scene %s reset", a->scene);
        return true;
    case APP_SORT_NEXT: {
        size_t i = 0;
        while (i < ARRAY_LEN(_app_sorts) && strcmp(a->sort, _app_sorts[i])) i++;
        return _app_set_sort(a, _app_sorts[(i + 1) % ARRAY_LEN(_app_sorts)]);
    }
    case APP_SORT_RADIX: return _app_set_sort(a, "radix");
    case APP_SORT_BITONIC: return _app_set_sort(a, "bitonic");
    case APP_SCENE_1:
    case APP_SCENE_2:
    case APP_SCENE_3: {
        int k = (int)(act - APP_SCENE_1), n = 0;
        while (sim_scene_names[n]) n++;
        if (k >= n) {
            _app_message(a, "no scene %d (there are %d)", k + 1, n);
            return false;
        }
        bool ok = _app_rebuild(a, sim_scene_names[k], a->particles);
        if (ok) _app_message(a, "scene %s, %u particles", a->scene, sim_particle_count(a->s));
        return ok;
    }
    case APP_MORE:
    case APP_FEWER: {
        /* The ladder steps from the count asked for (the sim rounds it to whole blocks: 4,096
         * asked gives 4,394, and stepping down from 4,394 would rebuild 4,096 again). */
        uint32_t asked = a->particles ? a->particles : sim_particle_count(a->s);
        uint32_t n = _app_next_count(asked, act == APP_MORE ? 1 : -1);
        if (!n) {
            _app_message(a, "already at the %s particle count (%u); the fluid is kept", act == APP_MORE ? "largest" : "smallest",
                         sim_particle_count(a->s));
            log_info("APP", "%s: already at the %s particle count; nothing rebuilt", app_action_name(act),
                     act == APP_MORE ? "largest" : "smallest");
            return false;
        }
        bool ok = _app_rebuild(a, a->scene, n);
        if (ok) _app_message(a, "%u particles", sim_particle_count(a->s));
        return ok;
    }
    case APP_COLOR:
        if (a->view.style == RENDER_STYLE_SURFACE) { /* the water has no colour map: the sort's view, one key away */
            a->view.style = RENDER_STYLE_SPHERES;
            a->view.color = RENDER_COLOR_CELL;
            _app_message(a, "spheres coloured by cell hash (F: back to the water)");
            return true;
        }
        a->view.color = (render_color)((a->view.color + 1) % RENDER_COLOR_COUNT);
        return true;
    case APP_STYLE: a->view.style = (render_style)((a->view.style + 1) % RENDER_STYLE_COUNT); return true;
    case APP_VSYNC:
        a->view.vsync = !a->view.vsync;
        glfwSwapInterval(a->view.vsync ? 1 : 0);
        _app_message(a, "vsync %s", a->view.vsync ? "on" : "off");
        return true;
    case APP_SCREENSHOT: return _app_screenshot(a, NULL);
    case APP_HUD: a->view.show_hud = !a->view.show_hud; return true;
    case APP_CAMERA_RESET:
        sim_domain(a->s, lo, hi);
        camera_fit(&a->view.cam, lo, hi);
        return true;
    case APP_PAN_LEFT: camera_pan(&a->view.cam, -6, 0, 720); return true;
    case APP_PAN_RIGHT: camera_pan(&a->view.cam, 6, 0, 720); return true;
    case APP_PAN_UP: camera_pan(&a->view.cam, 0, -6, 720); return true;
    case APP_PAN_DOWN: camera_pan(&a->view.cam, 0, 6, 720); return true;
    case APP_ZOOM_IN: camera_zoom(&a->view.cam, 0.15f); return true;
    case APP_ZOOM_OUT: camera_zoom(&a->view.cam, -0.15f); return true;
    case APP_SOLVER_NEXT: return _app_set_solver(a, strcmp(a->solver, "dfsph") == 0 ? "wcsph" : "dfsph");
    case APP_RECORD: return _app_record(a, NULL);
    case APP_ACTION_COUNT: break;
    }
    return false;
}

/* ---- input ---- */

static void _app_on_key(GLFWwindow *w, int key, int scancode, int action, int mods) {
    app *a = glfwGetWindowUserPointer(w);
    app_action act;
    unsigned flags = 0;
    if (!app_key_action(key, &act, &flags) || (flags & APP_HELD)) return; /* held keys: _app_held_keys */
    if (action == GLFW_PRESS || (action == GLFW_REPEAT && (flags & APP_REPEAT))) app_handle_action(a, act);
}

/* Keys held down act every frame (pan, zoom: the table's APP_HELD rows); each goes through
 * app_handle_action too. */
static void _app_held_keys(app *a) {
    for (int r = 0; r < app_binding_count; r++) {
        if (!(app_bindings[r].flags & APP_HELD)) continue;
        for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++) {
            const app_binding_act *b = &app_bindings[r].acts[k];
            bool down = false;
            for (int i = 0; i < APP_BINDING_KEYS && b->keys[i]; i++) down |= glfwGetKey(a->win, b->keys[i]) == GLFW_PRESS;
            if (down) app_handle_action(a, b->action);
        }
    }
}

static void _app_on_button(GLFWwindow *w, int button, int action, int mods) {
    app *a = glfwGetWindowUserPointer(w);
    glfwGetCursorPos(w, &a->mx, &a->my);
    bool press = action == GLFW_PRESS;
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        a->orbiting = false;
        a->poke_sign = 0;
        if (press && (mods & GLFW_MOD_SHIFT)) a->poke_sign = 1;
        else if (press && (mods & GLFW_MOD_CONTROL)) a->poke_sign = -1;
        else a->orbiting = press;
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
        a->panning = press;
    }
}

static void _app_on_cursor(GLFWwindow *w, double x, double y) {
    app *a = glfwGetWindowUserPointer(w);
    float dx = (float)(x - a->mx), dy = (float)(y - a->my);
    a->mx = x, a->my = y;
    int ww, wh;
    glfwGetWindowSize(w, &ww, &wh);
    if (a->orbiting) camera_orbit(&a->view.cam, dx, dy);
    if (a->panning) camera_pan(&a->view.cam, dx, dy, wh);
}

static void _app_on_scroll(GLFWwindow *w, double xoff, double yoff) {
    app *a = glfwGetWindowUserPointer(w);
    camera_zoom(&a->view.cam, (float)yoff);
}

/* The push/pull point under the cursor, on the plane through the tank's centre facing the camera. */
static void _app_poke(app *a) {
    a->view.poke[3] = 0;
    if (!a->poke_sign) return;
    int ww, wh;
    glfwGetWindowSize(a->win, &ww, &wh);
    vec3 p;
    if (!camera_pick_plane(&a->view.cam, ww, wh, (float)a->mx, (float)a->my, p)) return;
    float radius = APP_POKE_RADIUS * a->view.cam.size;
    sim_poke(a->s, p, radius, (float)a->poke_sign * APP_POKE_STRENGTH);
    memcpy(a->view.poke, p, sizeof(float) * 3);
    a->view.poke[3] = radius;
}

/* ---- script ---- */

/* "pause, step, reset, ...": every action's script name, from the table. */
static void _app_action_list(char *out, size_t len) {
    out[0] = 0;
    for (int r = 0; r < app_binding_count; r++)
        for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? ", " : "", app_bindings[r].acts[k].name);
}

static bool _app_script_parse(app *a, const char *text, char *err) {
    char *copy = strdup(text), *save = NULL;
    int cap = 16;
    a->steps = calloc((size_t)cap, sizeof *a->steps);
    bool ok = true;
    for (char *tok = strtok_r(copy, ";", &save); tok && ok; tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ') tok++;
        if (!*tok) continue;
        if (a->nsteps == cap) a->steps = realloc(a->steps, sizeof *a->steps * (size_t)(cap *= 2));
        _script_step *st = &a->steps[a->nsteps];
        memset(st, 0, sizeof *st);
        char *arg = strchr(tok, ':');
        if (arg) *arg++ = 0;
        char name[64];
        uint64_t n = 0;
        if (!arg) {
            st->kind = SCRIPT_ACTION;
            char list[512];
            _app_action_list(list, sizeof list);
            ok = app_action_by_name(tok, &st->action) || fail(err, "--script: unknown action '%s'; actions: %s", tok, list);
        } else if (strcmp(tok, "frames") == 0) {
            st->kind = SCRIPT_FRAMES;
            ok = parse_u64(arg, 0, 1000000, &n) || fail(err, "--script: frames:%s is not a count of frames", arg);
            st->a = (int)n;
        } else if (strcmp(tok, "sort") == 0 || strcmp(tok, "scene") == 0) {
            st->kind = SCRIPT_ACTION;
            snprintf(name, sizeof name, "%s-%s", tok, arg);
            ok = app_action_by_name(name, &st->action) || fail(err, "--script: no action %s (sort:radix, sort:bitonic, scene:1..3)", name);
        } else if (strcmp(tok, "resize") == 0) {
            st->kind = SCRIPT_RESIZE;
            ok = sscanf(arg, "%dx%d", &st->a, &st->b) == 2 && st->a >= 0 && st->b >= 0 && st->a <= 16384 && st->b <= 16384;
            if (!ok) fail(err, "--script: resize:%s is not WIDTHxHEIGHT (0x0 minimises)", arg);
        } else if (strcmp(tok, "shot") == 0 || strcmp(tok, "check") == 0 || strcmp(tok, "expect-sort") == 0) {
            st->kind = tok[0] == 's' ? SCRIPT_SHOT : tok[0] == 'c' ? SCRIPT_CHECK : SCRIPT_EXPECT_SORT;
            snprintf(st->text, sizeof st->text, "%s", arg);
            ok = arg[0] || fail(err, "--script: %s: needs a value", tok);
        } else {
            ok = fail(err, "--script: unknown step '%s:%s'; steps: ACTION, frames:N, sort:NAME, scene:K, resize:WxH, shot:FILE, check:FILE, expect-sort:NAME", tok, arg);
        }
        if (ok) a->nsteps++;
    }
    free(copy);
    return ok;
}

static void _app_resize(app *a, int w, int h) {
    if (w == 0 || h == 0) {
        glfwIconifyWindow(a->win);
        a->iconified = true;
    } else {
        if (a->iconified) glfwRestoreWindow(a->win);
        a->iconified = false;
        glfwSetWindowSize(a->win, w, h);
    }
    /* Let the window system answer (it may take a few round trips). */
    for (int i = 0; i < 5; i++) glfwPollEvents();
}

static void _app_check(app *a, const char *path) {
    char why[ERR_LEN];
    if (strcmp(path, a->shot_path) != 0) {
        log_error("APP", "check %s: not the last screenshot taken (%s); take it with shot:%s first", path,
                  a->shot_path[0] ? a->shot_path : "none", path);
        a->status = 1;
    } else if (!app_render_check(a->r, a->h, a->s, a->prof, &a->view, path, &a->shot_layout, why)) {
        log_error("APP", "check %s: %s", path, why);
        a->status = 1;
    } else {
        log_info("APP", "check %s: not blank, HUD text and particles present", path);
    }
}

/* Runs script steps until one asks for frames; false when the script is over. */
static bool _app_script_advance(app *a) {
    while (a->frames_left == 0) {
        if (a->next_step == a->nsteps) return false;
        _script_step *st = &a->steps[a->next_step++];
        switch (st->kind) {
        case SCRIPT_ACTION: app_handle_action(a, st->action); break;
        case SCRIPT_FRAMES: a->frames_left = st->a; break;
        case SCRIPT_RESIZE: _app_resize(a, st->a, st->b); break;
        case SCRIPT_SHOT:
            if (!_app_screenshot(a, st->text)) a->status = 1;
            break;
        case SCRIPT_CHECK: _app_check(a, st->text); break;
        case SCRIPT_EXPECT_SORT:
            if (strcmp(sim_sort_name(a->s), st->text) != 0) {
                log_error("APP", "expect-sort: the sim sorts with %s, expected %s", sim_sort_name(a->s), st->text);
                a->status = 1;
            }
            break;
        }
        if (a->quit) return false;
    }
    a->frames_left--;
    return true;
}

/* ---- the window ---- */

static void _app_destroy(app *a) {
    app_recorder_abort(&a->rec);
    _app_sim_destroy(a);
    hud_destroy(a->h);
    render_destroy(a->r);
    prof_destroy(a->prof);
    free(a->steps);
}

/* Without --substeps the window aims at real time (1/60 s of fluid a frame) but keeps its frame
 * rate: the time policy (pacing.h) gives the simulation its own budget, what the render leaves of
 * the frame's and never less than half of it, and asks each frame for as much fluid time as fits,
 * never less than one solver step. With GPU timers the budget is 1/APP_GPU_FPS of GPU time (the
 * simulation and the render, one query pair each, read a few frames late); without them (a
 * software renderer) 1/APP_MIN_FPS of wall time, each part finished (glFinish) and timed. The HUD
 * shows the measured ratio of simulated to wall time. */
#define APP_GPU_FPS 120.0
#define APP_MIN_FPS 30.0
static void _app_pace(app *a, bool timers, double sim_ms, double render_ms, double simulated) {
    double budget_ms = 1e3 / APP_MIN_FPS;
    if (timers) {
        budget_ms = 1e3 / APP_GPU_FPS;
        sim_ms = prof_last_us(a->prof, a->stage_sim) / 1e3;
        render_ms = prof_last_us(a->prof, a->stage_render) / 1e3;
        if (isnan(sim_ms)) sim_ms = -1;
        if (isnan(render_ms)) render_ms = -1;
    }
    a->view.frame_seconds = app_pacing_next(&a->pacing, &(app_pacing_in){.sim_ms = sim_ms, .render_ms = render_ms,
                                                                          .simulated = simulated, .step_seconds = sim_dt(a->s),
                                                                          .budget_ms = budget_ms});
}

static void _app_frame_time(app *a, double *last, double *fps_t0, int *fps_frames) {
    double t = now_seconds();
    app_view_push_frame_time(&a->view, (float)((t - *last) * 1e3));
    *last = t;
    (*fps_frames)++;
    if (t - *fps_t0 >= 0.25) {
        a->view.fps = *fps_frames / (t - *fps_t0);
        /* Real time, measured: simulated seconds over wall seconds (the records arrive a few
         * frames late, which a 0.25 s window hardly notices). */
        double st = sim_time(a->s);
        a->view.realtime = a->view.paused || st < a->rt_sim0 ? -1 : (st - a->rt_sim0) / (t - a->rt_wall0);
        a->rt_sim0 = st;
        a->rt_wall0 = t;
        a->view.frame_ms = 1e3 / a->view.fps;
        *fps_t0 = t;
        *fps_frames = 0;
        char title[160];
        snprintf(title, sizeof title, "fluid - %s - %u particles - %s - sort %s - %.0f fps", a->scene, sim_particle_count(a->s),
                 a->solver, a->sort, a->view.fps);
        glfwSetWindowTitle(a->win, title);
    }
    if (a->view.message[0] && t > a->message_until) a->view.message[0] = 0;
}

int app_window_run(const run_opts *o) {
    char err[ERR_LEN];
    app *a = calloc(1, sizeof *a);
    a->o = o;
    if (o->script && !_app_script_parse(a, o->script, err)) {
        log_error("CLI", "%s", err);
        free(a->steps);
        free(a);
        return 1;
    }
    if (!data_dir_init(o->data, err)) {
        log_error("APP", "%s", err);
        free(a->steps);
        free(a);
        return 1;
    }
    int w = o->width > 0 ? o->width : 1280, h = o->height > 0 ? o->height : 720;
    a->gpu = gpu_make(&(gpu_desc){.width = w, .height = h, .title = "fluid", .vsync = o->vsync != 0, .debug = o->debug}, err);
    if (!a->gpu) {
        log_error("GPU", "%s", err);
        free(a->steps);
        free(a);
        return 1;
    }
    int live0 = gpu_live_objects();
    a->win = gpu_window(a->gpu);
    a->caps = gpu_get_caps(a->gpu);
    glfwSetWindowUserPointer(a->win, a);
    glfwSetKeyCallback(a->win, _app_on_key);
    glfwSetMouseButtonCallback(a->win, _app_on_button);
    glfwSetCursorPosCallback(a->win, _app_on_cursor);
    glfwSetScrollCallback(a->win, _app_on_scroll);
    snprintf(a->sort, sizeof a->sort, "%s", o->sort ? o->sort : "radix");
    snprintf(a->solver, sizeof a->solver, "%s", o->solver ? o->solver : sim_solver_names[0]);
    a->particles = o->particles;
    a->r = render_make(err);
    if (a->r) a->h = hud_make(&(hud_desc){0}, err);
    if (a->h) a->s = _app_sim_make(a, o->scene, o->particles, a->sort, err);
    if (!a->s) {
        log_error("APP", "%s", err);
        _app_destroy(a);
        gpu_destroy(a->gpu);
        free(a);
        return 1;
    }
    snprintf(a->scene, sizeof a->scene, "%s", sim_scene_name(a->s));
    snprintf(a->sort, sizeof a->sort, "%s", sim_sort_name(a->s));
    _app_prof_remake(a);
    app_view_init(&a->view, a->s);
    a->view.style = (render_style)o->style;
    a->view.vsync = o->vsync != 0;
    a->view.help = app_help_lines();
    a->view.frame_seconds = APP_PACING_FRAME; /* real time: 1/60 s of fluid a frame */
    if (!app_size_check(w, h, o->video_path != NULL, err)) {
        log_error("CLI", "%s", err);
        _app_destroy(a);
        gpu_destroy(a->gpu);
        free(a);
        return 1;
    }
    log_info("APP", "%s, %u particles, sort %s, %s; GPU stage times: %s", a->scene, sim_particle_count(a->s), a->sort,
             a->caps->renderer, prof_get_mode(a->prof) == PROF_NONE ? "unavailable (timer queries read 0)" : "GL timer queries");

    if (o->video_path && !_app_record(a, o->video_path)) a->status = 1;
    double last = now_seconds(), fps_t0 = last, wall0 = last;
    int fps_frames = 0;
    long frames_run = 0;
    for (long frame = 0; !a->quit; frame++) {
        if (glfwWindowShouldClose(a->win)) break;
        if (o->frames >= 0 && frame >= o->frames) break; /* --frames 0: none */
        if (a->nsteps && !_app_script_advance(a)) break;
        glfwPollEvents();
        if (a->quit) break;
        _app_held_keys(a);
        int fw, fh;
        _app_size(a, &fw, &fh);
        bool shown = fw > 0 && fh > 0;
        bool timers = prof_get_mode(a->prof) == PROF_GPU_QUERY; /* else the wall clock, each part finished */
        double t_sim = now_seconds(), sim_ms = -1, render_ms = -1, simulated = 0;
        if (shown && (!a->view.paused || a->step_once)) {
            _app_poke(a);
            prof_begin(a->prof, a->stage_sim);
            double dt = sim_dt(a->s);
            if (a->view.paused || (!o->substeps && a->view.frame_seconds <= dt)) {
                sim_step(a->s, a->prof); /* one step of the solver's own size: the least a frame moves */
                a->view.steps_per_frame = 1, simulated = dt;
            } else {
                a->view.steps_per_frame = sim_frame(a->s, a->view.frame_seconds, o->substeps, a->prof);
                simulated = a->view.frame_seconds;
            }
            prof_end(a->prof, a->stage_sim);
            a->step_once = false;
            if (!timers && !o->substeps) glFinish(), sim_ms = (now_seconds() - t_sim) * 1e3;
        }
        if (shown) {
            double t_render = now_seconds();
            prof_begin(a->prof, a->stage_render);
            app_render_frame(a->r, a->h, a->s, a->prof, &a->view, NULL, fw, fh, NULL);
            prof_end(a->prof, a->stage_render);
            if (!timers && !o->substeps) glFinish(), render_ms = (now_seconds() - t_render) * 1e3;
            prof_frame(a->prof);
            char err_video[ERR_LEN];
            if (a->rec.video && !app_recorder_frame(&a->rec, a->r, a->h, a->s, a->prof, &a->view, err_video)) {
                log_error("APP", "%s", err_video);
                _app_message(a, "video stopped: %.200s", err_video);
                app_recorder_abort(&a->rec);
                a->status = 1;
            }
            glfwSwapBuffers(a->win);
        } else if (!a->nsteps) {
            glfwWaitEventsTimeout(0.05); /* minimised: nothing to draw, do not spin */
        }
        if (!o->substeps && !a->view.paused) _app_pace(a, timers, sim_ms, render_ms, simulated);
        _app_frame_time(a, &last, &fps_t0, &fps_frames);
        frames_run++;
    }
    if (a->s) sim_sync(a->s);
    double wall = now_seconds() - wall0, simulated_total = a->sim_before + (a->s ? sim_time(a->s) : 0);
    printf("window: %ld frames, %.4f s simulated, %.3f s wall, %.2f fps mean\n", frames_run, simulated_total, wall,
           wall > 0 ? frames_run / wall : 0.0);
    fflush(stdout);
    if (o->screenshot_path && a->s && !_app_screenshot(a, o->screenshot_path)) a->status = 1;
    if (a->rec.video && !_app_record(a, NULL)) a->status = 1; /* stops it: the file appears now */
    _app_destroy(a);
    if (gpu_live_objects() != live0) {
        log_error("APP", "GL object leak: %d objects alive at exit, %d at start", gpu_live_objects(), live0);
        a->status = 1;
    }
    gpu_destroy(a->gpu);
    int status = a->status;
    free(a);
    return status;
}
