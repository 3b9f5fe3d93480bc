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
 * Stage times come from prof (stage i named prof_stage_name), grouped as a frame flows: the
 * neighbour search's stages, the solver's, then the whole frame's; each with its mean, median and
 * p95 over the profiler's window (prof_stats: the frames that timed it), in three significant digits (us or ms). A stage
 * that has no time yet reads "not timed", never a number. Where prof_get_mode() is PROF_NONE the
 * panel says so and the graph shows the CPU frame time instead (labelled as such); PROF_CPU_CLOCK
 * times are labelled "CPU clock". Warnings (and only warnings) are orange, and each says what to
 * do. With the compare mode on, a panel at the right lists every sort path's rolling median and
 * p95 on the same keys, its ratio to the fastest and any mismatches (in the warning colour).
 * It does NOT read the simulation or handle input.
 */
#ifndef FLUID_OVERLAY_H
#define FLUID_OVERLAY_H
#include "gpu/prof.h"
#include "render/hud.h"
#include "render/render.h"

#define OVERLAY_GRAPH_FRAMES 300
#define OVERLAY_MAX_COUNTERS 4
#define OVERLAY_MAX_PHASES 8
#define OVERLAY_MAX_COMPARE 8

/* A row of the compare panel: one sort path's times on the same keys (sim/compare.h). */
typedef struct overlay_compare_row {
    const char *name;                /* the sort */
    const char *same;                /* sorts on the same path here, run once ("onesweep"), or NULL / "" */
    bool drives, timed;              /* the fluid's sort; a time yet (else "not timed") */
    double median_us, p95_us, ratio; /* rolling; ratio to the fastest row's median */
    uint64_t mismatches;             /* differing pairs against the driving sort's result */
} overlay_compare_row;

typedef struct overlay_info {
    int width, height;    /* the framebuffer */
    double fps, frame_ms; /* <= 0: not known (headless) */
    uint32_t particles;
    const char *scene, *sort;  /* NULL: not shown */
    double sim_time;           /* simulated seconds */
    int steps_per_frame;       /* steps the newest frame whose records are all back took (0: none yet) */
    int slots_per_frame;       /* step slots that frame issued (more: shown beside the steps) */
    double realtime;           /* measured simulated / wall seconds (< 0: not shown) */
    const char *solver;        /* NULL: not shown */
    int counters;              /* the solver's named iteration counts a step (WCSPH: none) */
    const char *counter_names[OVERLAY_MAX_COUNTERS];
    double counter_means[OVERLAY_MAX_COUNTERS]; /* mean a step since the solver started */
    double dt;                 /* the last step, seconds (0: not shown) */
    /* The diffuse particles (sim/diffuse.h), a line when diffuse_shown: alive by kind, and those
     * dropped since the start (the capacity full; a warning when any). */
    bool diffuse_shown;
    uint32_t spray, foam, bubbles;
    uint64_t diffuse_dropped;
    int search_stages;         /* prof's first search_stages entries are the neighbour search's */
    int step_stages;           /* prof's first step_stages entries are one sampled step's stages
                                  (the search's, then the solver's), the rest whole-frame totals
                                  (0: all are per frame) */
    const char *step_note;     /* how the sampled step was timed where it differs from the rest
                                  (a fused solver's per-stage sample), or NULL */
    /* The solver's stages as its one-dispatch step measured them (sim_summary.phase_cycles): the
     * last `phases` of the sampled step's stages, in shader-clock cycles a step; phase_mhz: the
     * clock's rate (0: not known, the shares are shown). phases 0: none. */
    int phases;
    double phase_cycles[OVERLAY_MAX_PHASES];
    double phase_mhz;
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
    /* The compare panel (compare mode on: compare_rows > 0), a panel of its own at the right. */
    int compare_rows;
    overlay_compare_row compare[OVERLAY_MAX_COMPARE];
    const char *compare_clock;   /* "gpu" or "cpu" (the CPU clock around glFinish: labelled) */
    const char *compare_warning; /* the last disagreement's line, or NULL */
} overlay_info;

/* The HUD's scale at a window of width x height: 1 at 1280x720, with the smaller side's ratio,
 * from 0.55 to 2 (overlay_draw sets it on the hud). */
float overlay_scale(int width, int height);
/* us in three significant digits: "20.9 us" (micro sign), "3.27 ms", "1.02 s" ("-" for NAN). */
void overlay_format_time(double us, char *out, size_t len);
/* The colour of stage i in the panel and the graph. */
uint32_t overlay_stage_color(int stage);
/* Where the overlay's panels are (x0, y0, x1, y1 in pixels, y down; all 0 where not drawn). */
typedef enum overlay_panel {
    OVERLAY_STATS,
    OVERLAY_GRAPH,
    OVERLAY_LEGEND,
    OVERLAY_MESSAGE,
    OVERLAY_HELP,
    OVERLAY_COMPARE,
    OVERLAY_PANELS
} overlay_panel;
typedef struct overlay_layout {
    float rect[OVERLAY_PANELS][4];
} overlay_layout;

/* Lays out the whole overlay into h (hud_begin included); then hud_draw it. layout (may be NULL)
 * receives where the panels went. */
void overlay_draw(hud *h, const overlay_info *o, overlay_layout *layout);

#endif
