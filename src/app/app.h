/* app: the fluid's two ways to show itself, called by cmd_run.c.
 *   app_window_run          the interactive window (app_window.c)
 *   app_render_screenshot   the same view rendered offscreen to o->screenshot_path (app_render.c)
 */
#ifndef FLUID_APP_H
#define FLUID_APP_H
#include "app/run_opts.h"
#include "gpu/gpu.h"
#include "gpu/prof.h"
#include "sim/sim.h"
#include <stdbool.h>

/* The interactive app in a window; returns the process exit status. */
int app_window_run(const run_opts *o);

/* Renders the simulation's current state (HUD included) off-screen and writes it to
 * o->screenshot_path as a PNG. Returns false with err on failure. */
bool app_render_screenshot(const run_opts *o, sim *s, gpu_prof *prof, const gpu_ctx *gpu, char *err);

#endif
