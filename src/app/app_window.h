/* app_window: the interactive fluid in a GLFW window (app_window_run in app.h).
 *
 * Every key goes through app_handle_action (keys, the help overlay's list and the hidden --script
 * all name the same actions), so a test drives exactly the code path of a key press:
 *
 *   --script "frames:20;sort:bitonic;expect-sort:bitonic;frames:20;resize:0x0;frames:2;
 *             resize:800x600;frames:5;more;fewer;shot:x.png;check:x.png"
 *
 * Script steps, separated by ';':
 *   ACTION            an action by name (app_action_names: pause, step, reset, sort-next, more, ...)
 *   frames:N          run N frames
 *   sort:NAME         the action sort-NAME (radix, bitonic)
 *   scene:K           the action scene-K (1, 2, 3)
 *   resize:WxH        set the window size; 0x0 iconifies it (a minimised window), then restores
 *   shot:FILE         render a screenshot to FILE now (the same code path as F12, named FILE)
 *   check:FILE        read FILE back and run render_image_check on it; a failure makes exit status 1
 *   expect-sort:NAME  the sim's sort must be NAME, else exit status 1
 * The app quits when the script ends (or at --frames, whichever is first).
 * It does NOT own the simulation's options: cmd_run.c parses them into run_opts.
 */
#ifndef FLUID_APP_WINDOW_H
#define FLUID_APP_WINDOW_H
#include <stdbool.h>

typedef enum app_action {
    APP_QUIT,
    APP_HELP,
    APP_PAUSE,
    APP_STEP,
    APP_RESET,
    APP_SORT_NEXT,
    APP_SORT_RADIX,
    APP_SORT_BITONIC,
    APP_SCENE_1,
    APP_SCENE_2,
    APP_SCENE_3,
    APP_MORE,
    APP_FEWER,
    APP_COLOR,
    APP_STYLE,
    APP_VSYNC,
    APP_SCREENSHOT,
    APP_HUD,
    APP_CAMERA_RESET,
    APP_PAN_LEFT,
    APP_PAN_RIGHT,
    APP_PAN_UP,
    APP_PAN_DOWN,
    APP_ZOOM_IN,
    APP_ZOOM_OUT,
    APP_SOLVER_NEXT,
    APP_RECORD,
    APP_ACTION_COUNT
} app_action;

extern const char *const app_action_names[APP_ACTION_COUNT]; /* "quit", "help", "pause", ... */

typedef struct app app;
/* Carries out one action; returns false (with a message on screen and in the log) when it could
 * not (a sim rebuild that failed, a screenshot that could not be written). */
bool app_handle_action(app *a, app_action action);

#endif
