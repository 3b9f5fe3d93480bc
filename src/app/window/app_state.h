/* app_state: the window app's state (struct app), shared by its parts and by nothing else. The
 * parts call each other one way only, each through its own header:
 *   app_io.c       messages, the window's size, screenshots, videos, traces (calls none of the others)
 *   app_actions.c  the controls table and app_handle_action             (calls app_io)
 *   app_script.c   the --script language                               (calls app_actions, app_io)
 *   app_window.c   the loop and the GLFW callbacks                      (calls all three)
 * It declares no function: a state, not a part.
 */
#ifndef FLUID_APP_STATE_H
#define FLUID_APP_STATE_H
#include "app/session/run_opts.h"
#include "app/session/session.h"
#include "app/window/app_recorder.h"
#include "app/window/pacing.h"
#include "gpu/trace.h"
#include <GLFW/glfw3.h>
#include <limits.h>

typedef struct app app;
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
    struct app_script_step *steps; /* app_script.c's */
    int nsteps, next_step, frames_left;
    bool iconified;
    /* the last screenshot, for check: */
    char shot_path[PATH_MAX];
    overlay_layout shot_layout;
    app_recorder rec; /* G or --video */
    gpu_trace *trace; /* T: the next APP_TRACE_FRAMES frames (app_io.c) */
    outfile *trace_out;
    char trace_name[PATH_MAX];
    app_pacing pacing;           /* the time policy (pacing.h) */
    double sim_before, sim_seen; /* simulated seconds of fluids reset or rebuilt, and the last read: the exit summary */
};

#endif
