/* app_recorder: a video of the view (through video.h and an outfile), and the names the window
 * gives its screenshots and videos.
 *
 *   app_recorder rec = {0};
 *   app_recorder_start(&rec, NULL, "out.mp4", w, h, 60, err);  // or an outfile opened earlier
 *   each frame: app_recorder_frame(&rec, r, h, s, prof, &v, err);
 *   app_recorder_stop(&rec, saved, sizeof saved, err);  // the file appears; or app_recorder_abort(&rec)
 *
 *   char name[PATH_MAX]; app_picture_name(name, sizeof name, ".png");  // fluid-YYYYMMDD-HHMMSS.png
 *
 * Errors: start, frame and stop return false with err (ffmpeg missing or failing, a path that
 * cannot be written); nothing half-written is left.
 * It does NOT step the simulation.
 */
#ifndef FLUID_APP_RECORDER_H
#define FLUID_APP_RECORDER_H
#include "app/session/app_render.h"
#include "app/session/video.h"
#include "core/outfile.h"
#include <stddef.h>

#define APP_VIDEO_FPS 60 /* a frame is 1/60 s of fluid (SESSION_FRAME_SECONDS) */

/* fluid-YYYYMMDD-HHMMSS<ext>: open it with OUTFILE_NEW, whose commit takes NAME, else -2, -3, ...
 * (link(2): never an existing file, even one another process made in the same second). */
void app_picture_name(char *out, size_t len, const char *ext);

/* A video of the view, rendered offscreen at the size it started with (the window may change),
 * written through an outfile (core/outfile.h): the file appears at app_recorder_stop, only when
 * ffmpeg finished well. */
typedef struct app_recorder {
    video *video; /* NULL: not recording */
    outfile *out; /* what ffmpeg writes; committed at stop */
    render_target target;
    uint8_t *rgba;
    int width, height;
} app_recorder;
/* out: the video's outfile, opened before (the recorder takes it: committed at stop, aborted on
 * any failure), or NULL to open one for path here. */
bool app_recorder_start(app_recorder *rec, outfile *out, const char *path, int w, int h_px, int fps, char *err);
bool app_recorder_frame(app_recorder *rec, renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, char *err);
/* The file appears now, its name (OUTFILE_NEW: NAME-2, ...) in saved; false (no file) on failure. */
bool app_recorder_stop(app_recorder *rec, char *saved, size_t saved_len, char *err);
/* ffmpeg finished well: the video's outfile, not committed yet (the caller's transaction commits
 * it, outfile_commit_all, which reads the MP4's trailer back first); NULL with err on failure. */
outfile *app_recorder_finish(app_recorder *rec, char *err);
void app_recorder_abort(app_recorder *rec); /* nothing is left behind */

#endif
