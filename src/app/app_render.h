/* app_render: one frame of the fluid view (scene, particles, tank, HUD) from a live sim, shared by
 * the window app, the headless run and the video recorder, so all show exactly the same thing.
 *
 *   app_view v;  app_view_init(&v, s);             // camera fitted to the tank, defaults
 *   app_render_frame(r, h, s, prof, &v, NULL, w, h, &layout);     // the window (or a render_target)
 *   app_render_png(r, h, s, prof, &v, w, h, "shot.png", &layout, err);  // offscreen, atomically
 *   app_render_check(r, h, s, prof, &v, "shot.png", &layout, why);  // the shot shows HUD and fluid
 *
 *   app_recorder rec = {0};                        // video of the view (video.h)
 *   app_recorder_start(&rec, NULL, "out.mp4", w, h, 60, err);  // or an outfile opened earlier
 *   each frame: app_recorder_frame(&rec, r, h, s, prof, &v, err);
 *   app_recorder_stop(&rec, saved, sizeof saved, err);  // or app_recorder_abort(&rec)
 *
 * It does NOT step the simulation or read input.
 */
#ifndef FLUID_APP_RENDER_H
#define FLUID_APP_RENDER_H
#include "gpu/prof.h"
#include "render/camera.h"
#include "render/hud.h"
#include "render/overlay.h"
#include "render/render.h"
#include "app/run_opts.h"
#include "gpu/gpu.h"
#include "sim/sim.h"
#include "app/video.h"
#include "core/outfile.h"

#define APP_FRAME_HISTORY 512

typedef struct app_view {
    camera cam;
    render_color color;
    render_style style;
    render_backdrop backdrop;              /* the lit scene (0), or the flat background (tests) */
    bool show_hud, show_help, paused, vsync, headless;
    int steps_per_frame;                   /* steps the last frame took */
    double frame_seconds;                  /* simulated seconds a frame (1/60: real time); the window adapts it */
    double realtime;                       /* measured simulated / wall seconds (< 0: not known) */
    double fps, frame_ms;                  /* 0: not known */
    float frame_hist[APP_FRAME_HISTORY];   /* CPU frame times, ms, oldest first */
    int frame_hist_count;
    char message[256];                     /* status line, "" for none */
    float poke[4];                         /* xyz + radius of the mouse's push/pull, radius 0: none */
    const char *const *help;               /* help overlay lines, NULL-terminated */
} app_view;

void app_view_init(app_view *v, const sim *s);
void app_view_push_frame_time(app_view *v, float ms);
/* Draws into target (NULL: the window) at w x h; layout (may be NULL) gets where the HUD went. */
void app_render_frame(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v,
                      const render_target *target, int w, int h_px, overlay_layout *layout);
/* Renders offscreen at w x h and writes a PNG atomically. */
bool app_render_png(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px,
                    const char *path, overlay_layout *layout, char *err);
/* The same, written to out (core/outfile.h: committed by the caller); false with err. */
bool app_render_png_to(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px,
                       outfile *out, overlay_layout *layout, char *err);
/* Reads the PNG at path back and checks it (render_image_check) against the same view drawn
 * without particles or HUD: not blank, HUD text, the fluid. False with why. */
bool app_render_check(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, const char *path,
                      const overlay_layout *layout, char *why);

/* A video of the view, rendered offscreen at the size it started with (the window may change),
 * written through an outfile (core/outfile.h): the file appears at app_recorder_stop, only when
 * ffmpeg finished well. */
typedef struct app_recorder {
    video *video;          /* NULL: not recording */
    outfile *out;          /* what ffmpeg writes; committed at stop */
    render_target target;
    uint8_t *rgba;
    int width, height;
} app_recorder;
/* out: the video's outfile, opened before (the recorder takes it: committed at stop, aborted on
 * any failure), or NULL to open one for path here. */
bool app_recorder_start(app_recorder *rec, outfile *out, const char *path, int w, int h_px, int fps, char *err);
bool app_recorder_frame(app_recorder *rec, renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v,
                        char *err);
/* The file appears now, its name (OUTFILE_NEW: NAME-2, ...) in saved; false (no file) on failure. */
bool app_recorder_stop(app_recorder *rec, char *saved, size_t saved_len, char *err);
/* ffmpeg finished well: the video's outfile, not committed yet (the caller's transaction commits
 * it, outfile_commit_all, which reads the MP4's trailer back first); NULL with err on failure. */
outfile *app_recorder_finish(app_recorder *rec, char *err);
void app_recorder_abort(app_recorder *rec);           /* nothing is left behind */

/* The headless run's pictures (cmd_run.c): a renderer and HUD, the --video recorder, and at the
 * end the --screenshot. */
typedef struct app_headless app_headless;
/* video_out: the --video outfile opened before the GPU (taken over: committed by _finish), or NULL. */
app_headless *app_headless_make(const run_opts *o, const sim *s, const gpu_ctx *gpu, outfile *video_out, char *err);
/* A video frame, if recording, of a frame that took `steps` steps (the HUD says so). */
bool app_headless_frame(app_headless *a, const sim *s, const gpu_prof *prof, int steps, char *err);
/* Writes the screenshot to shot (the --screenshot outfile; NULL: none) and finishes the video:
 * its outfile, uncommitted, in *video_done (the caller commits every output at once); false with
 * err when either fails. */
bool app_headless_finish(app_headless *a, const sim *s, const gpu_prof *prof, outfile *shot, outfile **video_done, char *err);
void app_headless_destroy(app_headless *a); /* an unfinished video is removed */

/* `fluid bench --render`: the GPU time of a frame of each style, with and without the HUD, and of
 * each pass (render_pass_names), on a dam break run for a while first. Returns the exit status. */
int app_render_bench(int argc, char **argv);

#endif
