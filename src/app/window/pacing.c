#include "app/window/pacing.h"
#include <math.h>

#define APP_PACING_KEEP 0.5 /* the weight of the past in the averages: a few frames */
#define APP_PACING_GROW 2.0 /* the most the answer grows a frame */

double app_pacing_next(app_pacing *p, const app_pacing_in *in) {
    if (p->seconds <= 0) p->seconds = APP_PACING_FRAME, p->slow = 1;
    if (in->simulated <= 0 || in->sim_ms < 0) return p->seconds; /* nothing learnt this frame */
    if (p->ms_avg <= 0) {
        p->ms_avg = in->sim_ms, p->sim_avg = in->simulated;
    } else {
        p->ms_avg = APP_PACING_KEEP * p->ms_avg + (1 - APP_PACING_KEEP) * in->sim_ms;
        p->sim_avg = APP_PACING_KEEP * p->sim_avg + (1 - APP_PACING_KEEP) * in->simulated;
    }
    double render = in->render_ms > 0 ? in->render_ms : 0;
    double budget = fmax(in->budget_ms - render, APP_PACING_SIM_SHARE * fmax(in->budget_ms, render));
    double cost = p->ms_avg / p->sim_avg;                   /* ms of simulation a simulated second */
    double s = cost > 0 ? budget / cost : APP_PACING_FRAME; /* exactly the budget: a GPU that just keeps up stays at real time */
    s = fmin(s, p->seconds * APP_PACING_GROW);
    s = fmin(s, APP_PACING_FRAME);
    if (in->step_seconds > 0) s = fmax(s, in->step_seconds);
    p->seconds = s;
    p->slow = s / APP_PACING_FRAME;
    return s;
}
