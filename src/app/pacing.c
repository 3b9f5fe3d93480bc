/* pacing: the window's slow-motion policy (see pacing.h). */
#include "app/pacing.h"
#include <math.h>

double pacing_frame_seconds(const pacing_in *in) {
    if (in->fps <= 0) return in->frame_seconds;
    double budget_ms = 1e3 / PACING_MIN_FPS, ms = 1e3 / in->fps;
    if (in->gpu_timed) {
        if (isnan(in->gpu_us)) return in->frame_seconds; /* no frame timed yet */
        budget_ms = 1e3 / PACING_GPU_FPS, ms = in->gpu_us / 1e3;
    }
    double f = in->frame_seconds;
    if (ms > budget_ms)
        f *= fmax(0.05, budget_ms / ms * 0.9);
    else if (ms < 0.75 * budget_ms)
        f *= 1.25;
    return fmin(in->real_seconds, fmax(f, 1e-5));
}
