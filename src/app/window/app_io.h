/* app_io: what the window's parts do to the world: a message on screen, the window's size, a
 * screenshot, a video started or stopped, a trace of the next frames. It calls no other part of
 * the window (app_state.h).
 */
#ifndef FLUID_APP_IO_H
#define FLUID_APP_IO_H
#include <stdbool.h>

typedef struct app app;
void app_message(app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_window_size(app *a, int *w, int *h);  /* the framebuffer's; 0 x 0 when minimised */
void app_window_resize(app *a, int w, int h);  /* 0 x 0 minimises */
bool app_screenshot(app *a, const char *path); /* NULL: a timestamped name */
bool app_record(app *a, const char *path);     /* starts (NULL: a timestamped name) or stops */
/* The T key: starts a trace of the next APP_TRACE_FRAMES frames to fluid-YYYYMMDD-HHMMSS.json
 * (Trace Event Format, gpu/trace.h; on a driver whose GPU timers read zero, by the CPU clock while
 * it runs), or, while one runs, writes it now. app_trace_frame (each frame, after
 * session_frame_end) adds the finished frames and writes the file once it has them all;
 * app_trace_end writes what a trace running at exit has. */
#define APP_TRACE_FRAMES 120
bool app_trace(app *a);
void app_trace_frame(app *a);
void app_trace_end(app *a);

#endif
