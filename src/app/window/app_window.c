/* app_window: the interactive window: the frame loop (script, events, the session's frame, swap),
 * the GLFW callbacks, screenshots and videos. The actions are app_actions.c, the --script language
 * app_script.c, the time policy pacing.c, the setup and frame session.c. */
#include "app/window/app_actions.h"
#include "app/window/app_io.h"
#include "app/window/app_script.h"
#include "app/window/app_state.h"
#include "app/window/app_window.h"
#include "core/log.h"
#include "core/util.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_POKE_RADIUS 0.08f   /* of the tank's diagonal */
#define APP_POKE_STRENGTH 60.0f /* passed to sim_poke, + push, - pull */
#define APP_NOTICE_SECONDS 12.0 /* the particle count's notice on screen (wall seconds) */

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
    if (a->orbiting) camera_orbit(&a->ss.view.cam, dx, dy);
    if (a->panning) camera_pan(&a->ss.view.cam, dx, dy, wh);
}

static void _app_on_scroll(GLFWwindow *w, double xoff, double yoff) {
    app *a = glfwGetWindowUserPointer(w);
    camera_zoom(&a->ss.view.cam, (float)yoff);
}

/* The push/pull point under the cursor, on the plane through the tank's centre facing the camera. */
static void _app_poke(app *a) {
    app_view *v = &a->ss.view;
    v->poke[3] = 0;
    if (!a->poke_sign) return;
    int ww, wh;
    glfwGetWindowSize(a->win, &ww, &wh);
    vec3 p;
    if (!camera_pick_plane(&v->cam, ww, wh, (float)a->mx, (float)a->my, p)) return;
    float radius = APP_POKE_RADIUS * v->cam.size;
    sim_poke(a->ss.s, p, radius, (float)a->poke_sign * APP_POKE_STRENGTH);
    memcpy(v->poke, p, sizeof(float) * 3);
    v->poke[3] = radius;
}

/* ---- the loop ---- */

static void _app_frame_time(app *a, double *last, double *fps_t0, int *fps_frames) {
    app_view *v = &a->ss.view;
    double t = now_seconds();
    app_view_push_frame_time(v, (float)((t - *last) * 1e3));
    *last = t;
    (*fps_frames)++;
    if (t - *fps_t0 >= 0.25) {
        v->fps = *fps_frames / (t - *fps_t0);
        /* Real time, measured: simulated seconds over wall seconds (the records arrive a few
         * frames late, which a 0.25 s window hardly notices). */
        double st = sim_time(a->ss.s);
        v->realtime = v->paused || st < a->rt_sim0 ? -1 : (st - a->rt_sim0) / (t - a->rt_wall0);
        a->rt_sim0 = st;
        a->rt_wall0 = t;
        v->frame_ms = 1e3 / v->fps;
        *fps_t0 = t;
        *fps_frames = 0;
        char title[160];
        snprintf(title, sizeof title, "fluid - %s - %u particles - %s - sort %s - %.0f fps", a->scene,
                 sim_particle_count(a->ss.s), sim_solver_name(a->ss.s), sim_sort_name(a->ss.s), v->fps);
        glfwSetWindowTitle(a->win, title);
    }
    if (v->message[0] && t > a->message_until) v->message[0] = 0;
}

/* Without --substeps the window aims at real time (1/60 s of fluid a frame) but keeps its frame
 * rate: the time policy (pacing.h) gives the simulation its own budget, what the render leaves of
 * the frame's and never less than half of it or of the render's time, and asks each frame for as
 * much fluid time as fits, never less than one solver step. With GPU timers the budget is
 * 1/PACING_GPU_FPS of GPU time (the simulation and the render, one query pair each, read a few
 * frames late); without them (a software renderer) 1/PACING_MIN_FPS of wall time, each part
 * finished (glFinish) and timed. The HUD shows the measured ratio of simulated to wall time. */
static void _app_pace(app *a, bool timers, double sim_ms, double render_ms, double simulated) {
    const session *ss = &a->ss;
    double budget_ms = 1e3 / PACING_MIN_FPS;
    if (timers) {
        budget_ms = 1e3 / PACING_GPU_FPS;
        sim_ms = prof_last_us(ss->prof, ss->stage_sim) / 1e3;
        render_ms = prof_last_us(ss->prof, ss->stage_render) / 1e3;
        if (isnan(sim_ms)) sim_ms = -1;
        if (isnan(render_ms)) render_ms = -1;
    }
    a->ss.view.frame_seconds = app_pacing_next(&a->pacing, &(app_pacing_in){.sim_ms = sim_ms,
                                                                            .render_ms = render_ms,
                                                                            .simulated = simulated,
                                                                            .step_seconds = sim_dt(ss->s),
                                                                            .budget_ms = budget_ms});
}

/* One frame: the fluid (unless paused or minimised), the view, the video's frame, the swap. */
static void _app_frame(app *a) {
    session *ss = &a->ss;
    int fw, fh;
    app_window_size(a, &fw, &fh);
    if (fw <= 0 || fh <= 0) {
        if (!a->nsteps) glfwWaitEventsTimeout(0.05); /* minimised: nothing to draw, do not spin */
        return;
    }
    bool timers = prof_get_mode(ss->prof) == PROF_GPU_QUERY, paced = a->o->substeps <= 0 && !ss->view.paused;
    double t0 = now_seconds(), sim_ms = -1, render_ms = -1, simulated = 0;
    if (!ss->view.paused || a->step_once) {
        _app_poke(a);
        /* Less than a step asked: one step of the solver's own size (seconds 0), the least a frame moves. */
        double dt = sim_dt(ss->s),
               seconds = ss->view.paused || (paced && ss->view.frame_seconds <= dt) ? 0 : ss->view.frame_seconds;
        session_simulate(ss, seconds, a->o->substeps, SESSION_TIME_FRAME | SESSION_TIME_STAGES_SAMPLED, NULL);
        if (seconds == 0) ss->view.steps_per_frame = ss->view.slots_per_frame = 1;
        simulated = seconds > 0 ? seconds : dt;
        a->step_once = false;
        if (paced && !timers) glFinish(), sim_ms = (now_seconds() - t0) * 1e3;
    }
    if (ss->view.show_hud) session_clock_rate(ss, 600); /* the HUD's fused phases in µs (10 s apart at 60 fps) */
    double t1 = now_seconds();
    session_draw(ss, NULL, fw, fh);
    if (paced && !timers) glFinish(), render_ms = (now_seconds() - t1) * 1e3;
    session_frame_end(ss);
    app_trace_frame(a);
    if (paced) _app_pace(a, timers, sim_ms, render_ms, simulated);
    char err[ERR_LEN];
    if (a->rec.video && !app_recorder_frame(&a->rec, ss->r, ss->h, ss->s, ss->prof, &ss->view, err)) {
        log_error("APP", "%s", err);
        app_message(a, "video stopped: %.200s", err);
        app_recorder_abort(&a->rec);
        a->status = 1;
    }
    glfwSwapBuffers(a->win);
}

static int _app_destroy(app *a) {
    app_recorder_abort(&a->rec);
    if (!session_destroy(&a->ss)) a->status = 1;
    int status = a->status;
    app_script_free(a);
    free(a);
    return status;
}

int app_window_run(const run_opts *o) {
    char err[ERR_LEN];
    app *a = calloc(1, sizeof *a);
    a->o = o;
    if (o->script && !app_script_parse(a, o->script, err)) {
        log_error("CLI", "%s", err);
        app_script_free(a);
        free(a);
        return 1;
    }
    session *ss = &a->ss;
    session_desc sd;
    run_opts_session_desc(o, &sd);
    sd.vsync = o->vsync != 0;
    sd.render = sd.time_render = true;
    sd.prof_cpu_fallback = true; /* no GPU timers (llvmpipe): the CPU-clock table, labelled, as headless shows */
    sd.software_particles = RUN_DEMO_SOFTWARE_PARTICLES; /* as headless: a count llvmpipe runs near real time, said in the log */
    if (!session_make(ss, &sd, err)) {
        log_error(ss->fail_tag, "%s", err);
        app_script_free(a);
        free(a);
        return 1;
    }
    a->win = gpu_window(ss->gpu);
    glfwSetWindowUserPointer(a->win, a);
    glfwSetKeyCallback(a->win, _app_on_key);
    glfwSetMouseButtonCallback(a->win, _app_on_button);
    glfwSetCursorPosCallback(a->win, _app_on_cursor);
    glfwSetScrollCallback(a->win, _app_on_scroll);
    snprintf(a->scene, sizeof a->scene, "%s", sim_scene_name(ss->s));
    ss->view.help = app_help_lines();
    if (ss->notice[0]) { /* the count picked for this GPU: on screen for a while, as headless says it in its log */
        app_message(a, "%s", ss->notice);
        a->message_until = now_seconds() + APP_NOTICE_SECONDS;
    }
    log_info("APP", "%s, %u particles, sort %s, %s; GPU stage times: %s", a->scene, sim_particle_count(ss->s),
             sim_sort_name(ss->s), ss->caps->renderer,
             prof_get_mode(ss->prof) == PROF_NONE ? "unavailable (timer queries read 0)" : "GL timer queries");

    if (o->video_path && !app_record(a, o->video_path)) a->status = 1;
    double last = now_seconds(), fps_t0 = last, wall0 = last;
    int fps_frames = 0;
    long frames_run = 0;
    for (long frame = 0; !a->quit; frame++) {
        if (glfwWindowShouldClose(a->win)) break;
        if (o->frames >= 0 && frame >= o->frames) break; /* --frames 0: none */
        if (a->nsteps && !app_script_advance(a)) break;
        glfwPollEvents();
        if (a->quit) break;
        _app_held_keys(a);
        _app_frame(a);
        _app_frame_time(a, &last, &fps_t0, &fps_frames);
        frames_run++;
        double t = sim_time(ss->s); /* a reset or a rebuild starts the clock again: keep what it had */
        if (t < a->sim_seen) a->sim_before += a->sim_seen;
        a->sim_seen = t;
    }
    sim_sync(ss->s);
    double wall = now_seconds() - wall0, t_end = sim_time(ss->s);
    if (t_end < a->sim_seen) a->sim_before += a->sim_seen;
    printf("window: %ld frames, %.4f s simulated, %.3f s wall, %.2f fps mean\n", frames_run, a->sim_before + t_end, wall,
           wall > 0 ? frames_run / wall : 0.0);
    fflush(stdout);
    if (o->screenshot_path && ss->s && !app_screenshot(a, o->screenshot_path)) a->status = 1;
    if (a->rec.video && !app_record(a, NULL)) a->status = 1; /* stops it: the file appears now */
    app_trace_end(a);                                        /* a trace still running: what it has */
    return _app_destroy(a);
}
