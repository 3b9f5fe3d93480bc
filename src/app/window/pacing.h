/* pacing: the window's time policy, a pure function the frame loop calls once a frame.
 *
 *   app_pacing p = {0};
 *   each frame:  double sec = app_pacing_next(&p, &(app_pacing_in){.sim_ms = ..., .render_ms = ...,
 *                                             .simulated = ..., .step_seconds = sim_dt(s), .budget_ms = ...});
 *                sec <= step_seconds ? one solver step (sim_step) : sim_frame(s, sec, 0, prof)
 *
 * The simulation has a budget of its own: what the render leaves of the frame's budget, but never
 * less than APP_PACING_SIM_SHARE of the budget or of the render's time, so a render that alone
 * passes the budget (a software rasteriser, a weak GPU) slows the frame rate (by a third at most:
 * the simulation takes up to half the render's time), not the fluid to a stop. From the last frames' cost
 * of a simulated second (ms of simulation over the seconds it advanced) it asks the next frame for
 * as much simulated time as fits that budget: at most 1/60 s (real time), at least one solver step
 * (the caller runs one step of its own size), and back up as soon as frames get cheaper (the cost
 * is a short average, and the time may double each frame). p->slow is the last answer over 1/60 s,
 * for the HUD. It does NOT measure anything or touch the simulation.
 */
#ifndef FLUID_PACING_H
#define FLUID_PACING_H

#define APP_PACING_FRAME (1.0 / 60.0) /* real time: simulated seconds a frame (SESSION_FRAME_SECONDS) */
#define PACING_GPU_FPS 120.0          /* the frame's budget with GPU timers: GPU time */
#define PACING_MIN_FPS 30.0           /* without them: wall time */
#define APP_PACING_SIM_SHARE 0.5      /* the simulation's least budget: of the frame's, or of the render's time */

typedef struct app_pacing {
    double seconds; /* the last answer (0: none yet, 1/60 s is asked) */
    double ms_avg;  /* the simulation's recent ms a frame (0: none measured) */
    double sim_avg; /* the recent simulated seconds a frame */
    double slow;    /* seconds / APP_PACING_FRAME: 1 is real time */
} app_pacing;

typedef struct app_pacing_in {
    double sim_ms, render_ms; /* the last frame's simulation and render time, ms (< 0: not known) */
    double simulated;         /* the simulated seconds that frame advanced (0: it did not step) */
    double step_seconds;      /* one solver step's size now (0: not known) */
    double budget_ms;         /* the frame's budget, ms */
} app_pacing_in;

/* The simulated seconds to ask of the next frame. */
double app_pacing_next(app_pacing *p, const app_pacing_in *in);

#endif
