/* overlay: the profiling view drawn over the fluid: a stats panel (fps, frame time, particles,
 * scene, sort algorithm, GPU time of every stage), a rolling stacked graph of the stage times with
 * the same colours, the colour legend, a status message and the help overlay. It lays out hud
 * calls from plain values, so the window app, the headless screenshot and the tests share it.
 *
 *   overlay_layout lay;
 *   overlay_draw(h, &(overlay_info){ .width = w, .height = h, .fps = 60, .particles = n,
 *                 .scene = "dambreak", .sort = "radix", .prof = prof, ... }, &lay);
 *   hud_draw(h, framebuffer);
 *
 * Stage times come from prof (stage i named prof_stage_name): where prof_get_mode() is PROF_NONE
 * (timer queries read 0, as on llvmpipe) the panel says so and shows no numbers, and the graph
 * shows the CPU frame time instead (labelled as such); PROF_CPU_CLOCK times are labelled "CPU
 * clock". It does NOT read the simulation or handle input.
 */
#ifndef FLUID_OVERLAY_H
#define FLUID_OVERLAY_H
#include "gpu/prof.h"
#include "render/hud.h"
#include "render/render.h"

#define OVERLAY_GRAPH_FRAMES 300

typedef struct overlay_info {
    int width, height;    /* the framebuffer */
    double fps, frame_ms; /* <= 0: not known (headless) */
    uint32_t particles;
    const char *scene, *sort;  /* NULL: not shown */
    double sim_time;           /* simulated seconds */
    int steps_per_frame;       /* steps the last frame took */
    unsigned long long frames_short; /* frames whose step slots ran out before their time (carried over) */
    double realtime;           /* measured simulated / wall seconds (< 0: not shown) */
    const char *solver;        /* NULL: not shown */
    double it_div, it_density; /* mean solver iterations a step */
    double dt;                 /* the last step, seconds */
    int step_stages;           /* prof's first step_stages entries are one sampled step's stages,
                                    the rest whole-frame totals (0: all are per frame) */
    bool paused, vsync, headless;
    render_color color;
    render_style style;
    float value_lo, value_hi;      /* the colour map's range (0, 0: render_color_range) */
    const gpu_prof *prof;          /* NULL: no stage times */
    const float *frame_ms_history; /* CPU frame times, oldest first (the graph without GPU timers) */
    int frame_history_count;
    const char *message;     /* a status line (a saved screenshot, an error), or NULL */
    const char *const *help; /* lines of the help overlay (NULL-terminated), shown when show_help */
    bool show_help;
} overlay_info;

/* The HUD's scale at a window of width x height: 1 at 1280x720, with the smaller side's ratio,
 * from 0.55 to 2 (overlay_draw sets it on the hud). */
float overlay_scale(int width, int height);
/* The colour of stage i in the panel and the graph. */
uint32_t overlay_stage_color(int stage);
/* Where the overlay's panels are (x0, y0, x1, y1 in pixels, y down; all 0 where not drawn). */
typedef enum overlay_panel {
    OVERLAY_STATS,
    OVERLAY_GRAPH,
    OVERLAY_LEGEND,
    OVERLAY_MESSAGE,
    OVERLAY_HELP,
    OVERLAY_PANELS
} overlay_panel;
typedef struct overlay_layout {
    float rect[OVERLAY_PANELS][4];
} overlay_layout;

/* Lays out the whole overlay into h (hud_begin included); then hud_draw it. layout (may be NULL)
 * receives where the panels went. */
void overlay_draw(hud *h, const overlay_info *o, overlay_layout *layout);

#endif
