/* pacing: the window's time policy, a pure function (no GL, no clock) so it can be read, tested
 * and changed in one place.
 *
 * Without --substeps the window aims at real time (SESSION_FRAME_SECONDS of fluid a frame) but
 * puts the frame rate first: past a budget it simulates less time a frame (slow motion, shown in
 * the HUD with the measured ratio of simulated to wall time) and climbs back when there is room.
 * With GPU timers the budget is the GPU time of a frame (the whole simulation and the render)
 * against 1/PACING_GPU_FPS, so the window runs well above 60 fps with vsync off; without them (a
 * software renderer) it is the wall-clock frame rate, PACING_MIN_FPS.
 */
#ifndef FLUID_APP_PACING_H
#define FLUID_APP_PACING_H
#include <stdbool.h>

#define PACING_GPU_FPS 120.0
#define PACING_MIN_FPS 30.0

typedef struct pacing_in {
    double frame_seconds; /* fluid seconds a frame now */
    double real_seconds;  /* the most a frame may take: real time */
    double fps;           /* the window's measured frame rate (<= 0: not known) */
    bool gpu_timed;       /* gpu_us is the GPU time of a frame's simulation and render */
    double gpu_us;        /* NAN: no frame timed yet */
} pacing_in;

/* The fluid seconds of the next frames. */
double pacing_frame_seconds(const pacing_in *in);

#endif
