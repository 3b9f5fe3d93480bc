/* trace: the profiler's frames in the Trace Event Format (see trace.h). */
#include "gpu/trace.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_SPANS 128

struct gpu_trace {
    outfile *f;
    trace_desc desc;
    const gpu_prof *prof; /* the profiler read last (a session remakes it: a new sim, sort or solver) */
    long next;            /* its next frame to write */
    double origin;        /* the clock's us at the first slice: the trace's 0 */
    bool have_origin;
    double steps, iterations; /* the totals of the last frame written */
    double last_end;          /* the last frame's end (trace us) */
    int written;              /* frames written */
    bool first;               /* no event written yet (no comma before the next) */
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

static void _trace_counters(gpu_trace *t, double ts, const trace_counters *c);

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
    t->last_end = hi - t->origin;
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
    _trace_counters(t, lo, c);
}

static void _trace_counters(gpu_trace *t, double ts, const trace_counters *c) {
    if (!c) return;
    if (c->steps_total < t->steps || c->iterations_total < t->iterations) t->steps = t->iterations = 0; /* a new sim */
    const char *names[4] = {"steps", "iterations", "particles", "dt (ms)"};
    double values[4] = {c->steps_total - t->steps, c->iterations_total - t->iterations, c->particles, c->dt_ms};
    t->steps = c->steps_total;
    t->iterations = c->iterations_total;
    for (int i = 0; i < 4; i++) {
        _trace_sep(t);
        outfile_printf(t->f, "{\"name\": \"%s\", \"ph\": \"C\", \"pid\": 1, \"ts\": %.3f, \"args\": {\"value\": %.9g}}", names[i],
                       ts, values[i]);
    }
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

void trace_finish(gpu_trace *t, const trace_counters *c) {
    if (!t) return;
    if (t->written) _trace_counters(t, t->last_end, c);
    outfile_printf(t->f, "\n]}\n");
    free(t);
}
