/* app_render: one frame of the fluid view (scene, particles, tank, HUD) from a live sim, shared by
 * the window app, the headless run and the video recorder, so all show exactly the same thing.
 *
 *   app_view v;  app_view_init(&v, s);             // camera fitted to the tank, defaults
 *   app_render_frame(r, h, s, prof, &v, NULL, w, h, &layout);     // the window (or a render_target)
 *   app_render_png(r, h, s, prof, &v, w, h, "shot.png", &layout, err);  // offscreen, atomically
 *   app_render_check(r, h, s, prof, &v, "shot.png", &layout, why);  // the shot shows HUD and fluid
 *
 * The video of the view is app_recorder.h; the run's setup and frame, session.h.
 *
 * It does NOT step the simulation or read input.
 */
#ifndef FLUID_APP_RENDER_H
#define FLUID_APP_RENDER_H
#include "gpu/prof.h"
#include "core/outfile.h"
#include "render/camera.h"
#include "render/hud.h"
#include "render/overlay.h"
#include "render/render.h"
#include "gpu/gpu.h"
#include "sim/sim.h"

#define APP_FRAME_HISTORY 512

typedef struct app_view {
    camera cam;
    render_color color;
    render_style style;
    render_backdrop backdrop; /* the lit scene (0), or the flat background (tests) */
    bool show_hud, show_help, paused, vsync, headless;
    int steps_per_frame; /* steps the newest frame whose records are all back took (a few frames late; 0: none yet) */
    int slots_per_frame; /* step slots that frame issued (DFSPH: those past its time run empty) */
    double frame_seconds;                /* simulated seconds a frame (1/60: real time); the window adapts it */
    double realtime;                     /* measured simulated / wall seconds (< 0: not known) */
    double fps, frame_ms;                /* 0: not known */
    float frame_hist[APP_FRAME_HISTORY]; /* CPU frame times, ms, oldest first */
    int frame_hist_count;
    double phase_mhz;        /* the shader clock's rate for the HUD's fused phases (session_clock_rate; 0: not known) */
    char message[256];       /* status line, "" for none */
    float poke[4];           /* xyz + radius of the mouse's push/pull, radius 0: none */
    const char *const *help; /* help overlay lines, NULL-terminated */
} app_view;

void app_view_init(app_view *v, const sim *s);
/* The camera placed for the tank lo..hi: the whole tank filling a 16:9 view right of the HUD's
 * left-hand panels and below the legend (camera_frame). */
void app_view_frame(camera *c, const float lo[3], const float hi[3]);
void app_view_push_frame_time(app_view *v, float ms);
/* Draws into target (NULL: the window) at w x h; layout (may be NULL) gets where the HUD went. */
/* What the HUD shows of s, prof and v at w x h_px (app_render_frame draws it): the solver's own
 * counters only, over the steps since it started. */
void app_overlay_info(const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px, overlay_info *out);
/* What the renderer draws of s: its particle buffers, tank, grid and shown diffuse particles. */
render_particles app_render_particles(const sim *s);
void app_render_frame(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, const render_target *target,
                      int w, int h_px, overlay_layout *layout);
/* Renders offscreen at w x h and writes a PNG atomically. */
bool app_render_png(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px, const char *path,
                    overlay_layout *layout, char *err);
/* The same, written to out (core/outfile.h: committed by the caller); false with err. */
bool app_render_png_to(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, int w, int h_px, outfile *out,
                       overlay_layout *layout, char *err);
/* Reads the PNG at path back and checks it (render_image_check) against the same view drawn
 * without particles or HUD: not blank, HUD text, the fluid. False with why. */
bool app_render_check(renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v, const char *path,
                      const overlay_layout *layout, char *why);

#endif
