/* app_window: the interactive window, called by cmd_run.c (the headless run is cmd_run.c itself;
 * both run a session, session.h). Its parts: app_state.h. */
#ifndef FLUID_APP_WINDOW_H
#define FLUID_APP_WINDOW_H
#include "app/session/run_opts.h"

/* The interactive app in a window; returns the process exit status. */
int app_window_run(const run_opts *o);

#endif
