/* session: one run's setup and one frame, shared by the window (app_window.c), the headless run
 * (cmd_run.c), `fluid bench --sim` (cmd_bench_sim.c) and `fluid bench --render`
 * (cmd_bench_render.c): the GL context, the simulation, the renderer and HUD, the profiler and
 * the view. Every default lives here, once (session_desc_defaults; sokol's _sg_def habit).
 *
 *   session ss;
 *   if (!session_make(&ss, &(session_desc){.headless = true, .scene = "drop", .render = true}, err)) ...
 *   each frame:
 *     session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME | SESSION_TIME_STAGES, NULL);
 *     session_draw(&ss, NULL, w, h);     // the view into the window (or a render_target)
 *     session_frame_end(&ss);            // the profiler closes the frame
 *   session_destroy(&ss);
 *
 * The profiler's entries are the step's stages (the sim's names: the search's, then the solver's),
 * then "simulation" (a whole frame's) and, with desc.time_render, "render"; it is remade whenever
 * the stages change (a new sim, sort or solver). The session also counts the GL objects the sim
 * makes, and reports a leak when destroying it frees a different number (status 1).
 *
 * Errors: session_make and the session_sim_* calls return false with err (no data folder, no GL
 * 4.5, an unknown scene, sort or solver, too many particles), leaving the session as it was
 * (session_make: nothing made; fail_tag says which part failed, for the log line: "GPU" when
 * there is no context, which the tests read as a skip).
 * It does NOT read input, parse flags or write files.
 */
#ifndef FLUID_APP_SESSION_H
#define FLUID_APP_SESSION_H
#include "app/session/app_render.h"
#include "gpu/gpu.h"
#include "gpu/prof.h"
#include "gpu/trace.h"
#include "sim/sim.h"
#include <signal.h>

#define SESSION_WIDTH 1280 /* the window's, screenshot's and video's size when none is asked for */
#define SESSION_HEIGHT 720
#define SESSION_STR_(x) #x
#define SESSION_STR(x) SESSION_STR_(x)
#define SESSION_SIZE_TEXT SESSION_STR(SESSION_WIDTH) "x" SESSION_STR(SESSION_HEIGHT) /* "1280x720", for help text */
#define SESSION_FRAME_SECONDS (1.0 / 60)                                             /* a frame of fluid: real time at 60 fps */

typedef struct session_desc {
    /* the context */
    bool headless;     /* EGL, no window */
    bool debug;        /* KHR_debug, GL messages logged */
    bool vsync;        /* the window's swap interval */
    const char *data;  /* --data DIR (NULL: found, core/util.h) */
    int width, height; /* the window, screenshot and video (0: SESSION_WIDTH x SESSION_HEIGHT) */
    /* the fluid (sim_desc's defaults) */
    const char *scene, *sort, *solver;
    uint32_t particles;          /* 0: the scene's default, or software_particles on a CPU rasteriser */
    uint32_t software_particles; /* the count when particles is 0 and the GPU is llvmpipe (0: the scene's) */
    bool strict;
    bool no_sim; /* no sim yet: the caller makes each with session_sim_make (bench --sim) */
    int diffuse;  /* spray, foam and bubbles (sim/diffuse.h): 1 on, -1 off; 0: on where it renders */
    bool compare; /* the compare mode (sim/compare.h) on every sim made: every sort on the same keys */
    /* the pictures */
    bool render; /* a renderer and a HUD; the size is checked first (app_limits.h) */
    bool video;  /* the size check counts a video recorder's buffers too */
    int style;   /* a render_style (0: surface) */
    /* the profiler */
    bool prof_cpu_fallback, prof_sync; /* prof_desc's cpu_fallback and sync */
    bool no_debug_groups;              /* prof_desc's: no KHR_debug groups (to measure their cost) */
    bool time_render;                  /* a "render" entry after "simulation" */
} session_desc;

typedef struct session {
    session_desc desc; /* with the defaults filled */
    gpu_ctx *gpu;
    const gpu_caps *caps;
    sim *s;
    renderer *r; /* NULL without desc.render */
    hud *h;
    gpu_prof *prof;
    app_view view;
    int stages;                  /* the step's stages: profiler entries 0 .. stages - 1 */
    int stage_sim, stage_render; /* the whole frame's simulation and render (-1: not timed) */
    const char *stage_names[PROF_MAX_STAGES];
    uint32_t particles;   /* the count asked for (0: the scene's) */
    char notice[192];     /* why the count was picked (desc.software_particles on a software renderer), logged; the
                           * window shows it too; "" where desc.particles or the scene chose it */
    int sim_objects;      /* GL objects the sim holds */
    unsigned long frames_run; /* frames simulated (SESSION_TIME_STAGES_SAMPLED counts them) */
    unsigned long clock_frame; /* the frame session_clock_rate last measured at (0: never) */
    uint32_t sim_gen;          /* sims made: a profiler frame's tag names its sim by it */
    uint32_t tag_from;         /* the sim's frames begun at the last session_frame_end (prof_tag) */
    uint32_t hud_from;         /* the sim's frames begun at the last switch: the HUD's steps are later frames' */
    int live0;            /* GL objects alive when the context was new */
    int status;           /* 1 after a GL object leak */
    const char *fail_tag; /* after a failed session_make: the log tag of what failed ("GPU", "SIM", "APP") */
} session;

/* Fills the zero fields of d with the defaults. */
void session_desc_defaults(session_desc *d);
bool session_make(session *ss, const session_desc *desc, char *err);
/* Destroys everything; false (logged) when GL objects outlived it. */
bool session_destroy(session *ss);

/* A new sim in place of the current one (the old one goes first; on failure the session has none
 * and the caller may make another). Keeps the camera when the tank is the same size. */
bool session_sim_make(session *ss, const sim_desc *desc, char *err);
void session_sim_destroy(session *ss);
/* Live switches, the fluid kept: the profiler follows the new stages. */
bool session_set_sort(session *ss, const char *name, char *err);
bool session_set_solver(session *ss, const char *name, char *err);
/* The compare mode on or off (desc.compare follows it, so a rebuilt sim keeps it). */
bool session_set_compare(session *ss, bool on, char *err);
/* The compare mode's table (after waiting for its last checks), a line each; nothing when off. */
void session_compare_print(session *ss, FILE *f);

/* SESSION_TIME_STAGES_SAMPLED: the stages of the frame's first step, on every frame where a timed
 * step is like any other, else (sim_stage_note: a fused step) on every SESSION_STAGE_SAMPLE-th frame. */
enum { SESSION_TIME_FRAME = 1, SESSION_TIME_STAGES = 2, SESSION_TIME_STAGES_SAMPLED = 4 };
#define SESSION_STAGE_SAMPLE 4
/* `seconds` of fluid (substeps > 0: exactly that many steps; seconds 0: ONE step of the solver's
 * own size), timed as `timing` says; stops between steps once *stop is set (may be NULL). Returns
 * the step slots issued (the steps, and DFSPH's empty slots past the frame's time). But for ONE
 * step, view.steps_per_frame and view.slots_per_frame, which the HUD shows, then hold the newest
 * frame whose records are all back (sim_frame_tally: two or three frames before this one): its
 * steps and its slots. */
int session_simulate(session *ss, double seconds, int substeps, unsigned timing, const volatile sig_atomic_t *stop);
/* The view, HUD included, into target (NULL: the window) at w x h, timed as "render" when asked. */
void session_draw(session *ss, const render_target *target, int w, int h);
/* Ends the profiler's frame, tagged with the sim's frames begun since the last one (prof_tag), so
 * that a trace can name each frame's steps once their records are in (session_trace_counters). */
void session_frame_end(session *ss);
/* The sim's frames begun so far belong to no profiler frame (a benchmark's untimed warm-up, which
 * ends none): the next session_frame_end's tag starts after them. */
void session_frames_untraced(session *ss);
/* The shader clock's rate for the HUD's and the trace's fused phases (view.phase_mhz), measured now
 * (about 4 ms of GPU, waited for) where the solver measures phases; `every` > 0: only on the first
 * frame it can (30 frames in, the clocks up) and every `every` frames after; SESSION_CLOCK_ONCE:
 * only where it has not measured yet (a trace's counters). */
#define SESSION_CLOCK_ONCE (-1)
void session_clock_rate(session *ss, int every);
/* A trace's counters (gpu/trace.h) from the sim's summary as read so far (no wait), and the way to
 * each traced frame's own steps and iterations (trace_counters.frame_steps: the sim's frames its
 * tag names, sim_frame_tally). */
void session_trace_counters(const session *ss, trace_counters *out);

#endif
