/* app_window_internal: the window app's state, shared by its parts and by nothing else:
 *   app_window.c   the loop, the GLFW callbacks, screenshots and videos
 *   app_actions.c  the controls table and app_handle_action
 *   app_script.c   the --script language
 * A part calls the others only through the functions below.
 */
#ifndef FLUID_APP_WINDOW_INTERNAL_H
#define FLUID_APP_WINDOW_INTERNAL_H
#include "app/app_recorder.h"
#include "app/pacing.h"
#include "app/app_window.h"
#include "app/run_opts.h"
#include "app/session.h"
#include <GLFW/glfw3.h>
#include <limits.h>

typedef enum app_script_kind {
    APP_SCRIPT_ACTION,
    APP_SCRIPT_FRAMES,
    APP_SCRIPT_RESIZE,
    APP_SCRIPT_SHOT,
    APP_SCRIPT_CHECK,
    APP_SCRIPT_EXPECT_SORT
} app_script_kind;
typedef struct app_script_step {
    app_script_kind kind;
    app_action action;
    int a, b;
    char text[PATH_MAX];
} app_script_step;

struct app {
    const run_opts *o;
    session ss; /* gpu, sim, renderer, HUD, profiler, view */
    GLFWwindow *win;
    char scene[64];           /* the scene shown (kept for a rebuild that fails) */
    double rt_sim0, rt_wall0; /* the last real-time measurement: simulated and wall seconds */
    bool quit, step_once;
    int status; /* exit status */
    double message_until;
    /* mouse */
    bool orbiting, panning;
    int poke_sign;
    double mx, my;
    /* script */
    app_script_step *steps;
    int nsteps, next_step, frames_left;
    bool iconified;
    /* the last screenshot, for check: */
    char shot_path[PATH_MAX];
    overlay_layout shot_layout;
    app_recorder rec;            /* G or --video */
    app_pacing pacing;           /* the time policy (pacing.h) */
    double sim_before, sim_seen; /* simulated seconds of fluids reset or rebuilt, and the last read: the exit summary */
};

/* app_window.c */
void app_message(app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_window_size(app *a, int *w, int *h);  /* the framebuffer's; 0 x 0 when minimised */
void app_window_resize(app *a, int w, int h);  /* 0 x 0 minimises */
bool app_screenshot(app *a, const char *path); /* NULL: a timestamped name */
bool app_record(app *a, const char *path);     /* starts (NULL: a timestamped name) or stops */

/* app_script.c */
bool app_script_parse(app *a, const char *text, char *err);
bool app_script_advance(app *a); /* runs steps until one asks for frames; false when over */

#endif
