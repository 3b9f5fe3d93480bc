/* app_io: messages, the window's size, screenshots and videos (app_io.h). */
#include "app/window/app_io.h"
#include "app/window/app_state.h"
#include "core/log.h"
#include "core/util.h"
#include <stdarg.h>
#include <stdio.h>

#define APP_MESSAGE_SECONDS 4.0

void app_message(app *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->ss.view.message, sizeof a->ss.view.message, fmt, ap);
    va_end(ap);
    a->message_until = now_seconds() + APP_MESSAGE_SECONDS;
}

void app_window_size(app *a, int *w, int *h) {
    glfwGetFramebufferSize(a->win, w, h);
    if (a->iconified || glfwGetWindowAttrib(a->win, GLFW_ICONIFIED)) *w = *h = 0;
}

void app_window_resize(app *a, int w, int h) {
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

/* The size pictures are taken at: the window's, or when minimised the size it was asked to open at. */
static void _app_picture_size(app *a, int *w, int *h) {
    app_window_size(a, w, h);
    if (*w <= 0 || *h <= 0) *w = a->ss.desc.width, *h = a->ss.desc.height;
}

/* ---- screenshots and videos ---- */

bool app_screenshot(app *a, const char *path_in) {
    char name[PATH_MAX], err[ERR_LEN];
    /* A timestamped name is taken when the file is linked in place (OUTFILE_NEW): NAME, else -2,
     * -3, ...; never an existing file, even one another window saved in the same second. */
    if (path_in) snprintf(name, sizeof name, "%s", path_in);
    else app_picture_name(name, sizeof name, ".png");
    int w, h;
    _app_picture_size(a, &w, &h);
    session *ss = &a->ss;
    app_view v = ss->view;
    v.message[0] = 0;
    outfile *out = outfile_open("screenshot", name, path_in ? 0 : OUTFILE_NEW, err);
    if (out && !app_render_png_to(ss->r, ss->h, ss->s, ss->prof, &v, w, h, out, &a->shot_layout, err))
        outfile_abort(out), out = NULL;
    if (!out || !outfile_commit_named(out, name, sizeof name, err)) {
        log_error("APP", "screenshot: %s", err);
        app_message(a, "screenshot failed: %.200s", err);
        return false;
    }
    snprintf(a->shot_path, sizeof a->shot_path, "%s", path_in ? path_in : name);
    log_info("APP", "screenshot %dx%d written to %s", w, h, name);
    app_message(a, "screenshot: %s", name);
    return true;
}

bool app_record(app *a, const char *path_in) {
    char err[ERR_LEN], name[PATH_MAX];
    if (a->rec.video) {
        snprintf(name, sizeof name, "%s", video_path(a->rec.video));
        int frames = video_frame_count(a->rec.video);
        if (!app_recorder_stop(&a->rec, name, sizeof name, err)) {
            log_error("APP", "%s", err);
            app_message(a, "video failed: %.200s", err);
            return false;
        }
        log_info("APP", "video of %d frames written to %s", frames, name);
        app_message(a, "video: %s (%d frames)", name, frames);
        return true;
    }
    if (path_in) snprintf(name, sizeof name, "%s", path_in);
    else app_picture_name(name, sizeof name, ".mp4");
    int w, h;
    _app_picture_size(a, &w, &h);
    outfile *out = outfile_open("--video", name, path_in ? 0 : OUTFILE_NEW, err); /* NEW: as screenshots */
    if (!out || !app_recorder_start(&a->rec, out, name, w, h, APP_VIDEO_FPS, err)) {
        log_error("APP", "%s", err);
        app_message(a, "no video: %.200s", err);
        return false;
    }
    /* A new name is taken only when the video is saved (NAME-2 if NAME is taken by then): named then. */
    char shown[PATH_MAX];
    outfile_printable(path_in ? path_in : "", shown, sizeof shown);
    log_info("APP", "recording %dx%d%s%s (G stops%s)", w, h, path_in ? " to " : "", shown,
             path_in ? "" : " and saves it: its name is said then");
    app_message(a, "recording%s%s (G stops)", path_in ? " " : "", shown);
    return true;
}

/* ---- traces ---- */

bool app_trace(app *a) {
    if (a->trace) return app_trace_end(a), true; /* T again: what it has, now */
    char err[ERR_LEN];
    app_picture_name(a->trace_name, sizeof a->trace_name, ".json");
    a->trace_out = outfile_open("trace", a->trace_name, OUTFILE_NEW, err); /* NEW: as screenshots */
    if (!a->trace_out) {
        log_error("APP", "trace: %s", err);
        app_message(a, "no trace: %.200s", err);
        return false;
    }
    a->trace = trace_make(a->trace_out, a->ss.prof, &(trace_desc){.max_frames = APP_TRACE_FRAMES});
    /* its new name is taken when it is saved (NAME-2 if NAME is taken by then): named then */
    log_info("APP", "tracing the next %d frames (%s clock; T stops; the file's name is said when it is saved)", APP_TRACE_FRAMES,
             prof_clock_name(a->ss.prof));
    app_message(a, "tracing the next %d frames (T: stop)", APP_TRACE_FRAMES);
    return true;
}

void app_trace_frame(app *a) {
    if (!a->trace) return;
    trace_counters tc;
    session_trace_counters(&a->ss, &tc);
    trace_frames(a->trace, a->ss.prof, a->ss.stages, &tc);
    if (trace_full(a->trace)) app_trace_end(a);
}

void app_trace_end(app *a) {
    if (!a->trace) return;
    char err[ERR_LEN];
    trace_counters tc;
    if (a->ss.s) sim_sync(a->ss.s); /* the traced frames' last records (once, at the save): their steps whole */
    session_trace_counters(&a->ss, &tc);
    int frames = trace_frame_count(a->trace);
    trace_finish(a->trace, &tc);
    a->trace = NULL;
    bool ok = outfile_commit_named(a->trace_out, a->trace_name, sizeof a->trace_name, err);
    a->trace_out = NULL;
    if (!ok) {
        log_error("APP", "trace: %s", err);
        app_message(a, "trace failed: %.200s", err);
        a->status = 1;
        return;
    }
    log_info("APP", "trace of %d frames written to %s", frames, a->trace_name);
    app_message(a, "trace: %s (%d frames; open it in ui.perfetto.dev)", a->trace_name, frames);
}
