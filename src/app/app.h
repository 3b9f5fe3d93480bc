/* app: the window app and the renderer's entry points that the command line calls.
 * cmd_run.c holds weak fallbacks (a build without the renderer says so and fails); the renderer
 * provides the real ones. */
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
