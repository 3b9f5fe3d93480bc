/* trace: the profiler's sampled frames as a timeline in the Trace Event Format (the JSON that
 * ui.perfetto.dev and chrome://tracing open), written through an outfile (core/outfile.h).
 *
 *   gpu_trace *t = trace_make(f, prof, &(trace_desc){0});   // f: outfile_open'd
 *   each frame, after prof_frame:
 *       trace_frames(t, prof, step_stages, &counters);  // the sim's: trace_counters
 *   trace_finish(t, &final_counters);       // closes the JSON; the caller commits f
 *
 * One process "fluid", one track "GPU (<clock> clock)" of nested complete slices ("ph":"X"), times
 * in us from the first frame's start (the profiler may be remade between calls: a new sim, sort or
 * solver; the trace follows it, on the same clock):
 *   frame                 from the frame's first begin to its last end
 *     simulation          (every entry as the profiler names it, the HUD's names)
 *       step              the sampled step: from its first stage's begin to its last's end
 *         hash, sort, ... the step's stages (entries 0 .. step_stages - 1)
 *       other steps       the rest of the frame's simulation (its other steps, not sliced)
 *     render
 * and counters ("ph":"C") at each frame's start: steps and solver iterations, particles, dt (ms).
 * A frame's steps and iterations are its own: the sim's step records come back from the GPU a
 * frame or more late, so the counters of a frame whose records are not all in yet wait (at most
 * TRACE_PENDING frames, then written with what is in), and are written, at that frame's start,
 * by a later call once trace_counters.frame_steps says they are complete (the events of a trace
 * need not be in time order), by trace_flush, or by trace_finish; the caller waits for the sim's
 * records (sim_sync) before those two for them to be whole. (Until session 37 a frame's were the
 * totals' change since the frame before: the records read in it, those of earlier frames.)
 * Particles and dt are the values at hand when the frame is written.
 * It does NOT time anything itself, open or commit files, or stall the GPU.
 */
#ifndef FLUID_GPU_TRACE_H
#define FLUID_GPU_TRACE_H
#include "core/outfile.h"
#include "gpu/prof.h"

typedef struct trace_desc {
    int max_frames; /* frames written at most (0: no limit) */
} trace_desc;

/* The sim's particles and step now, and the way to each frame's own steps. */
#define TRACE_MAX_PHASES 8
typedef struct trace_counters {
    double particles, dt_ms;
    /* A frame's own steps and iterations, from its profiler frame's tag (prof_frame_tag): 1 when
     * they are whole, 0 while records may still come (what is in so far), -1 when not known (its
     * sim is gone): no counter then, as with NULL. */
    int (*frame_steps)(const void *user, uint64_t tag, double *steps, double *iterations);
    const void *user;
    /* A one-dispatch step's phases as measured inside it (sim_summary.phase_cycles): a counter
     * each, the recent steps' mean, "fused NAME (us a step)" at the shader clock's rate phase_mhz,
     * or "fused NAME (cycles a step)" where the rate is not known (0: a GPU whose timers read 0);
     * phases 0: none. */
    int phases;
    const char *phase_names[TRACE_MAX_PHASES];
    double phase_cycles[TRACE_MAX_PHASES];
    double phase_mhz;
} trace_counters;

typedef struct gpu_trace gpu_trace;

/* Writes the JSON's head to f (which the caller keeps, and commits or aborts). */
gpu_trace *trace_make(outfile *f, const gpu_prof *p, const trace_desc *desc);
/* Appends every frame p finished since the last call (those still kept: prof_frame_spans);
 * profiler entries 0 .. step_stages - 1 are one step's stages (0: none). */
void trace_frames(gpu_trace *t, const gpu_prof *p, int step_stages, const trace_counters *c);
int trace_frame_count(const gpu_trace *t); /* frames written so far */
/* Writes every waiting frame's steps and iterations with what is in (after the caller's sim_sync:
 * all): before its sim goes (a benchmark's next row). */
void trace_flush(gpu_trace *t, const trace_counters *c);
bool trace_full(const gpu_trace *t);       /* max_frames written */
/* Writes the waiting frames' steps with what is in (c: the sim's counters, after the caller's
 * sim_sync; NULL: none), the JSON's tail, and frees t (NULL: nothing). */
void trace_finish(gpu_trace *t, const trace_counters *c);

#endif
