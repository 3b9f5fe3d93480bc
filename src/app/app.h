/* app: the fluid's two ways to show itself, called by cmd_run.c.
 *   app_window_run          the interactive window (app_window.c)
 *   app_headless_*          the headless run's screenshot and video (app_render.h)
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

#endif
