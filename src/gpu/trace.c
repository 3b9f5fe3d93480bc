/* trace: the profiler's frames in the Trace Event Format (see trace.h). */
#include "gpu/trace.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_SPANS 128
#define TRACE_PENDING 64 /* frames whose steps wait for their records */

struct gpu_trace {
    outfile *f;
    trace_desc desc;
    const gpu_prof *prof; /* the profiler read last (a session remakes it: a new sim, sort or solver) */
    long next;            /* its next frame to write */
    double origin;        /* the clock's us at the first slice: the trace's 0 */
    bool have_origin;
    int written;              /* frames written */
    bool first;               /* no event written yet (no comma before the next) */
    struct {
        double ts;
        uint64_t tag;
    } pending[TRACE_PENDING]; /* frames written whose steps wait (trace_counters.frame_steps) */
    int npending;
};

typedef struct _trace_slice {
    const char *name, *cat;
    double begin, end;
    int rank; /* its depth in the tree: the tie-break of equal slices, parent first */
} _trace_slice;

/* A JSON string's body: quotes, backslashes and control characters escaped. */
static void _trace_string(outfile *f, const char *s) {
    outfile_printf(f, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') outfile_printf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) outfile_printf(f, "\\u%04x", (unsigned char)*s);
        else outfile_printf(f, "%c", *s);
    }
    outfile_printf(f, "\"");
}

static void _trace_sep(gpu_trace *t) {
    outfile_printf(t->f, t->first ? "\n" : ",\n");
    t->first = false;
}

gpu_trace *trace_make(outfile *f, const gpu_prof *p, const trace_desc *desc) {
    gpu_trace *t = calloc(1, sizeof *t);
    t->f = f;
    t->desc = *desc;
    t->prof = p;
    t->next = prof_frames_done(p); /* from the next frame on */
    t->first = true;
    outfile_printf(f, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [");
    _trace_sep(t);
    outfile_printf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"fluid\"}}");
    _trace_sep(t);
    outfile_printf(f,
                   "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"GPU (%s clock)\"}}",
                   prof_clock_name(p));
    return t;
}

/* Parents first: by start, then the longer first. */
static int _trace_order(const void *a, const void *b) {
    const _trace_slice *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    double dx = x->end - x->begin, dy = y->end - y->begin;
    if (dx != dy) return dx > dy ? -1 : 1;
    return x->rank - y->rank;
}

static void _trace_counters(gpu_trace *t, double ts, uint64_t tag, const trace_counters *c);

static void _trace_frame(gpu_trace *t, const gpu_prof *p, int step_stages, long frame, const prof_span *spans, int n,
                         const trace_counters *c) {
    _trace_slice s[TRACE_SPANS + 3];
    int k = 0;
    double lo = 0, hi = 0, step_lo = 0, step_hi = 0;
    bool step = false;
    for (int i = 0; i < n; i++) {
        const prof_span *sp = &spans[i];
        if (i == 0 || sp->begin_us < lo) lo = sp->begin_us;
        if (i == 0 || sp->end_us > hi) hi = sp->end_us;
        if (sp->stage < step_stages) {
            if (!step || sp->begin_us < step_lo) step_lo = sp->begin_us;
            if (!step || sp->end_us > step_hi) step_hi = sp->end_us;
            step = true;
        }
        bool in_step = sp->stage < step_stages;
        s[k++] = (_trace_slice){prof_stage_name(p, sp->stage), "stage", sp->begin_us, sp->end_us, in_step ? 3 : 1};
    }
    s[k++] = (_trace_slice){"frame", "frame", lo, hi, 0};
    if (step) {
        s[k++] = (_trace_slice){"step", "step", step_lo, step_hi, 2};
        /* The step's parent (the shortest other span around it): what of it follows the step. */
        const prof_span *parent = NULL;
        for (int i = 0; i < n; i++) {
            const prof_span *sp = &spans[i];
            if (sp->stage >= step_stages && sp->begin_us <= step_lo && sp->end_us >= step_hi &&
                (!parent || sp->end_us - sp->begin_us < parent->end_us - parent->begin_us))
                parent = sp;
        }
        if (parent && parent->end_us > step_hi) s[k++] = (_trace_slice){"other steps", "step", step_hi, parent->end_us, 3};
    }
    if (!t->have_origin) t->origin = lo, t->have_origin = true;
    for (int i = 0; i < k; i++) s[i].begin -= t->origin, s[i].end -= t->origin;
    lo -= t->origin;
    qsort(s, (size_t)k, sizeof *s, _trace_order);
    for (int i = 0; i < k; i++) {
        _trace_sep(t);
        outfile_printf(t->f, "{\"name\": ");
        _trace_string(t->f, s[i].name);
        outfile_printf(t->f, ", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": %.3f, \"dur\": %.3f", s[i].cat,
                       s[i].begin, s[i].end - s[i].begin);
        if (s[i].rank == 0) outfile_printf(t->f, ", \"args\": {\"frame\": %ld}", frame);
        outfile_printf(t->f, "}");
    }
    _trace_counters(t, lo, prof_frame_tag(p, frame), c);
}

static void _trace_counter(gpu_trace *t, const char *name, double ts, double value) {
    _trace_sep(t);
    outfile_printf(t->f, "{\"name\": \"%s\", \"ph\": \"C\", \"pid\": 1, \"ts\": %.3f, \"args\": {\"value\": %.9g}}", name, ts,
                   value);
}

/* A frame's own steps and iterations at ts, where they are whole (or `now`: what is in); else
 * whether it waits. -1 (not known): none written. */
static bool _trace_steps(gpu_trace *t, double ts, uint64_t tag, const trace_counters *c, bool now) {
    double steps, iterations;
    int k = c->frame_steps(c->user, tag, &steps, &iterations);
    if (k == 0 && !now) return false;
    if (k >= 0) _trace_counter(t, "steps", ts, steps), _trace_counter(t, "iterations", ts, iterations);
    return true;
}

/* The waiting frames whose steps are whole now (all of them: `now`). */
static void _trace_pending(gpu_trace *t, const trace_counters *c, bool now) {
    if (!c || !c->frame_steps) return;
    int kept = 0;
    for (int i = 0; i < t->npending; i++)
        if (!_trace_steps(t, t->pending[i].ts, t->pending[i].tag, c, now)) t->pending[kept++] = t->pending[i];
    t->npending = kept;
}

static void _trace_counters(gpu_trace *t, double ts, uint64_t tag, const trace_counters *c) {
    if (!c) return;
    if (c->frame_steps && !_trace_steps(t, ts, tag, c, t->npending == TRACE_PENDING))
        t->pending[t->npending].ts = ts, t->pending[t->npending++].tag = tag;
    _trace_counter(t, "particles", ts, c->particles);
    _trace_counter(t, "dt (ms)", ts, c->dt_ms);
    for (int i = 0; i < c->phases && i < TRACE_MAX_PHASES; i++) {
        char name[64];
        bool us = c->phase_mhz > 0;
        snprintf(name, sizeof name, "fused %s (%s a step)", c->phase_names[i], us ? "us" : "cycles");
        _trace_sep(t);
        outfile_printf(t->f, "{\"name\": ");
        _trace_string(t->f, name);
        outfile_printf(t->f, ", \"ph\": \"C\", \"pid\": 1, \"ts\": %.3f, \"args\": {\"value\": %.*f}}", ts, us ? 2 : 0,
                       us ? c->phase_cycles[i] / c->phase_mhz : c->phase_cycles[i]);
    }
}

void trace_frames(gpu_trace *t, const gpu_prof *p, int step_stages, const trace_counters *c) {
    prof_span spans[TRACE_SPANS];
    if (p != t->prof || prof_frames_done(p) < t->next) t->next = 0; /* a new profiler counts from 0 */
    t->prof = p;
    _trace_pending(t, c, false);
    for (long done = prof_frames_done(p); t->next < done && !trace_full(t); t->next++) {
        int n = prof_frame_spans(p, t->next, spans, TRACE_SPANS);
        if (n <= 0) continue; /* no longer kept, or nothing timed */
        _trace_frame(t, p, step_stages, t->next, spans, n, c);
        t->written++;
    }
    t->next = prof_frames_done(p);
}

int trace_frame_count(const gpu_trace *t) { return t->written; }
bool trace_full(const gpu_trace *t) { return t->desc.max_frames > 0 && t->written >= t->desc.max_frames; }

void trace_flush(gpu_trace *t, const trace_counters *c) {
    if (t) _trace_pending(t, c, true);
}

void trace_finish(gpu_trace *t, const trace_counters *c) {
    if (!t) return;
    trace_flush(t, c);
    outfile_printf(t->f, "\n]}\n");
    free(t);
}
