/* app: the interactive window, called by cmd_run.c (the headless run is cmd_run.c itself; both
 * run a session, session.h). */
#ifndef FLUID_APP_H
#define FLUID_APP_H
#include "app/run_opts.h"

/* The interactive app in a window; returns the process exit status. */
int app_window_run(const run_opts *o);

#endif
