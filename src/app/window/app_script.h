/* app_script: the window's --script language: steps parsed up front (a bad one is a one-line
 * error before any window opens), then run between frames, every ACTION through app_handle_action
 * exactly as its key:
 *
 *   --script "frames:20;sort:bitonic;expect-sort:bitonic;frames:20;resize:0x0;frames:2;
 *             resize:800x600;frames:5;more;fewer;shot:x.png;check:x.png"
 *
 * Script steps, separated by ';':
 *   ACTION            an action by its name in app_bindings (pause, step, reset, sort-next, more, ...)
 *   frames:N          run N frames
 *   sort:NAME         the action sort-NAME (radix, bitonic)
 *   scene:K           the action scene-K (1, 2, 3)
 *   resize:WxH        set the window size; 0x0 iconifies it (a minimised window), then restores
 *   shot:FILE         render a screenshot to FILE now (the same code path as F12, named FILE)
 *   check:FILE        read FILE back and run render_image_check on it; a failure makes exit status 1
 *   expect-sort:NAME  the sim's sort must be NAME, else exit status 1
 * The app quits when the script ends (or at --frames, whichever is first).
 */
#ifndef FLUID_APP_SCRIPT_H
#define FLUID_APP_SCRIPT_H
#include <stdbool.h>

typedef struct app app;
bool app_script_parse(app *a, const char *text, char *err);
bool app_script_advance(app *a); /* runs steps until one asks for frames; false when over */
void app_script_free(app *a);

#endif
