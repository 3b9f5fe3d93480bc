/* prof: the time of named stages, measured on the GPU with GL_TIMESTAMP queries (one at each begin
 * and end) that are read a few frames late, so the GPU never stalls for them.
 *
 *   gpu_prof *p = prof_make(&(prof_desc){ .names = names, .stages = 8 }, caps);
 *   each frame:  prof_begin(p, STAGE_SORT); ...dispatches...; prof_end(p, STAGE_SORT); ...
 *                prof_frame(p);                  // closes the frame, collects finished results
 *   read:        prof_avg_us(p, STAGE_SORT)      // mean over the last `window` frames
 *
 * A stage may be begun several times a frame (its times add up), and stages may nest (a frame's
 * whole simulation around the stages of its sampled step). Each begin and end costs a query
 * (microseconds of GPU time): time whole frames, and the stages of one step a frame.
 *
 * Where timer queries read zero (llvmpipe: caps->timer_queries false) the profiler either
 *  - PROF_CPU_CLOCK: waits for the GPU (glFinish) around each stage and uses the CPU clock; the
 *    times then include the driver's CPU work and are labelled as such (prof_clock_name), or
 *  - reports nothing: prof_mode() == PROF_NONE and every time reads as NAN, never a fake 0.
 *
 * Debug groups (KHR_debug, GL 4.3 core), in every mode unless desc.no_debug_groups: each
 * prof_begin/prof_end pair is also a glPushDebugGroup/glPopDebugGroup named as the stage (the
 * HUD's name), and the frame's first prof_begin opens a group named PROF_FRAME_GROUP that
 * prof_frame closes, so RenderDoc, Nsight and apitrace show frame -> stage -> (render pass). Their
 * cost: two GL calls per begin/end pair, no GPU work (test_debug_groups bounds it).
 */
#ifndef FLUID_PROF_H
#define FLUID_PROF_H
#include "gpu/gpu.h"

#define PROF_MAX_STAGES 16
#define PROF_HISTORY 512
#define PROF_FRAME_GROUP "frame" /* the debug group around a frame's stages */

typedef enum prof_mode { PROF_NONE, PROF_GPU_QUERY, PROF_CPU_CLOCK } prof_mode;

typedef struct prof_desc {
    const char *const *names; /* stage names, `stages` of them */
    int stages;
    int window;           /* frames averaged by prof_avg_us (default 30) */
    bool cpu_fallback;    /* PROF_CPU_CLOCK where GPU timers read zero */
    bool sync;            /* read every result at prof_frame (benchmarks; stalls the GPU) */
    bool no_debug_groups; /* no glPush/PopDebugGroup (to measure what they cost) */
} prof_desc;

typedef struct gpu_prof gpu_prof;

gpu_prof *prof_make(const prof_desc *desc, const gpu_caps *caps);
void prof_destroy(gpu_prof *p);
void prof_begin(gpu_prof *p, int stage); /* p may be NULL: nothing is timed */
void prof_end(gpu_prof *p, int stage);
void prof_frame(gpu_prof *p); /* p may be NULL */
prof_mode prof_get_mode(const gpu_prof *p);
const char *prof_clock_name(const gpu_prof *p);    /* "gpu", "cpu" or "none" */
double prof_last_us(const gpu_prof *p, int stage); /* latest finished frame; NAN if none */
double prof_avg_us(const gpu_prof *p, int stage);  /* mean over the window; NAN if none */
/* Spans: every begin/end pair of a finished frame, with its start and end in us of the clock
 * (GL_TIMESTAMP's, or now_seconds()'s in PROF_CPU_CLOCK mode; none in PROF_NONE: one clock per
 * process, so two profilers' spans share a timeline), in the order the pairs ended. Frames are numbered from 0 as they finish (the
 * GPU's a few frames late, as the times); the last 8 are kept. A stage begun twice has two spans.
 * prof_frame_spans copies up to max of frame's spans into out and returns how many, or -1 when
 * that frame is not kept (not finished yet, or more than 8 frames ago). */
typedef struct prof_span {
    int stage;
    double begin_us, end_us;
} prof_span;
long prof_frames_done(const gpu_prof *p);
int prof_frame_spans(const gpu_prof *p, long frame, prof_span *out, int max);
/* A caller's word about the frame being recorded (the last call before prof_frame counts), kept with
 * its spans: the session says which of the sim's frames ran in it, for the trace's counters.
 * prof_frame_tag returns a kept frame's (0: none said, or not kept). */
void prof_tag(gpu_prof *p, uint64_t tag); /* p may be NULL */
uint64_t prof_frame_tag(const gpu_prof *p, long frame);
/* The last `count` frames of one stage, oldest first, into out; returns how many were written. */
int prof_history(const gpu_prof *p, int stage, float *out, int count);
/* Statistics over the rolling window (desc.window frames, the last ones), of the frames in which
 * the stage was timed: it had a begin/end pair and no prof_untimed. mean, median (the mean of the
 * two middle values of an even count) and p95 (nearest rank: the smallest value with at least
 * 95% of the samples at or below it). False, and NAN in all three, when no frame in the window
 * timed it (or PROF_NONE): a display shows "not timed", never a placeholder number. */
bool prof_stats(const gpu_prof *p, int stage, double *mean, double *median, double *p95);
int prof_window(const gpu_prof *p); /* the frames prof_stats and prof_avg_us look at */
/* Marks the stage not timed in the frame being recorded: its begin/end pair (if any) enclosed no
 * work of its own (a phase folded into a fused dispatch), so its time is no measurement. The
 * pair's time still counts in prof_last_us/prof_avg_us (as before); prof_stats skips it. */
void prof_untimed(gpu_prof *p, int stage);     /* p may be NULL */
bool prof_timed(const gpu_prof *p, int stage); /* in the latest finished frame */
/* Starts the history and the statistics anew (a solver or sort switch: the numbers shown belong to
 * what runs now); frames still in flight are read and dropped. */
void prof_reset(gpu_prof *p);
int prof_stage_count(const gpu_prof *p);
const char *prof_stage_name(const gpu_prof *p, int stage);

#endif
