#include "gpu/prof.h"
#include "gpu/prof_test.h"
#include "core/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROF_LATENCY 4              /* frames of queries in flight */
#define PROF_SLOTS 128              /* queries a frame */
#define PROF_SPANS (PROF_SLOTS / 2) /* begin/end pairs a frame */
#define PROF_SPAN_FRAMES 8          /* finished frames whose spans are kept (prof_frame_spans) */

typedef struct _prof_frame {
    GLuint queries[PROF_SLOTS]; /* GL_TIMESTAMP queries, in the order they were issued */
    int stage_of[PROF_SLOTS];   /* the entry each belongs to: +1 + stage at its begin, -1 - stage at its end */
    int used;
    uint32_t untimed; /* stages prof_untimed marked in this frame */
    bool pending;
    bool stale;   /* recorded before a prof_reset: read and dropped */
    uint64_t tag; /* prof_tag's (the CPU clock's frame being recorded keeps it in frames[cur] too) */
} _prof_frame;

struct gpu_prof {
    prof_desc desc;
    prof_mode mode;
    _prof_frame frames[PROF_LATENCY];
    int cur; /* frame being recorded */
    double cpu_start[PROF_MAX_STAGES];
    double acc[PROF_MAX_STAGES]; /* CPU-clock sums of the frame being recorded */
    float hist[PROF_MAX_STAGES][PROF_HISTORY];
    uint32_t timed[PROF_HISTORY];    /* per history frame: bit s when stage s was timed (a pair, not marked untimed) */
    uint32_t cpu_begun, cpu_untimed; /* CPU clock: the frame being recorded's stages begun, and marked */
    int hist_count; /* frames written to hist (saturates at PROF_HISTORY) */
    int hist_head;  /* next slot to write */
    /* Spans: each begin/end pair's times (the clock's own us). */
    prof_span rec[PROF_SPANS]; /* CPU clock: the frame being recorded */
    int rec_count;
    prof_span spans[PROF_SPAN_FRAMES][PROF_SPANS];
    int span_count[PROF_SPAN_FRAMES];
    uint64_t span_tag[PROF_SPAN_FRAMES];
    long frames_done; /* frames finished (pushed to hist), ever */
    int groups;       /* debug groups this profiler has pushed and not popped (the frame's included) */
    bool frame_open;  /* the "frame" debug group is pushed */
};

/* Debug groups (KHR_debug, core since GL 4.3): one named as each stage around its begin/end, and a
 * "frame" group from the frame's first begin to prof_frame. The stack is GL's (at least 64 deep):
 * past PROF_GROUP_DEPTH nothing more is pushed, so a caller's imbalance cannot raise GL errors. */
#define PROF_GROUP_DEPTH 32

static void _prof_push_group(gpu_prof *p, const char *name) {
    if (p->desc.no_debug_groups || p->groups >= PROF_GROUP_DEPTH) return;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, name);
    p->groups++;
}

static void _prof_pop_group(gpu_prof *p) {
    if (p->groups <= 0) return;
    glPopDebugGroup();
    p->groups--;
}

gpu_prof *prof_make(const prof_desc *desc, const gpu_caps *caps) {
    gpu_prof *p = calloc(1, sizeof *p);
    p->desc = *desc;
    if (p->desc.stages > PROF_MAX_STAGES) p->desc.stages = PROF_MAX_STAGES;
    if (!p->desc.window) p->desc.window = 30;
    p->mode = caps->timer_queries ? PROF_GPU_QUERY : desc->cpu_fallback ? PROF_CPU_CLOCK : PROF_NONE;
    if (p->mode == PROF_GPU_QUERY)
        for (int f = 0; f < PROF_LATENCY; f++) glGenQueries(PROF_SLOTS, p->frames[f].queries);
    return p;
}

void prof_destroy(gpu_prof *p) {
    if (!p) return;
    while (p->groups) _prof_pop_group(p); /* destroyed mid-frame (a live switch): GL's stack balanced */
    if (p->mode == PROF_GPU_QUERY)
        for (int f = 0; f < PROF_LATENCY; f++) glDeleteQueries(PROF_SLOTS, p->frames[f].queries);
    free(p);
}

void prof_begin(gpu_prof *p, int stage) {
    if (!p) return;
    if (!p->frame_open) {
        _prof_push_group(p, PROF_FRAME_GROUP);
        p->frame_open = true;
    }
    _prof_push_group(p, p->desc.names[stage]);
    if (p->mode == PROF_CPU_CLOCK) {
        glFinish();
        p->cpu_start[stage] = now_seconds();
        p->cpu_begun |= 1u << stage;
    } else if (p->mode == PROF_GPU_QUERY) {
        _prof_frame *f = &p->frames[p->cur];
        if (f->used >= PROF_SLOTS - 1) return; /* keep room for its end */
        f->stage_of[f->used] = 1 + stage;
        glQueryCounter(f->queries[f->used++], GL_TIMESTAMP);
    }
}

void prof_end(gpu_prof *p, int stage) {
    if (!p) return;
    if (p->groups > (p->frame_open ? 1 : 0)) _prof_pop_group(p); /* never the frame's */
    if (p->mode == PROF_CPU_CLOCK) {
        glFinish();
        double t = now_seconds();
        p->acc[stage] += (t - p->cpu_start[stage]) * 1e6;
        if (p->rec_count < PROF_SPANS) p->rec[p->rec_count++] = (prof_span){stage, p->cpu_start[stage] * 1e6, t * 1e6};
    } else if (p->mode == PROF_GPU_QUERY) {
        _prof_frame *f = &p->frames[p->cur];
        if (f->used == PROF_SLOTS) return;
        f->stage_of[f->used] = -1 - stage;
        glQueryCounter(f->queries[f->used++], GL_TIMESTAMP);
    }
}

static void _prof_push(gpu_prof *p, const double *us, uint32_t timed, const prof_span *spans, int nspans, uint64_t tag) {
    int k = (int)(p->frames_done % PROF_SPAN_FRAMES);
    if (nspans) memcpy(p->spans[k], spans, sizeof(prof_span) * (size_t)nspans);
    p->span_count[k] = nspans;
    p->span_tag[k] = tag;
    p->frames_done++;
    for (int s = 0; s < p->desc.stages; s++) p->hist[s][p->hist_head] = (float)us[s];
    p->timed[p->hist_head] = timed;
    p->hist_head = (p->hist_head + 1) % PROF_HISTORY;
    if (p->hist_count < PROF_HISTORY) p->hist_count++;
}

/* Reads frame f if its results are ready (or if wait); returns whether it was read. */
static bool _prof_collect(gpu_prof *p, _prof_frame *f, bool wait) {
    if (!f->pending) return true;
    if (f->used && !wait) {
        GLint ready = 0;
        glGetQueryObjectiv(f->queries[f->used - 1], GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready) return false;
    }
    double us[PROF_MAX_STAGES] = {0};
    GLuint64 open[PROF_MAX_STAGES] = {0};
    prof_span spans[PROF_SPANS];
    int nspans = 0;
    uint32_t timed = 0;
    for (int i = 0; i < f->used; i++) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(f->queries[i], GL_QUERY_RESULT, &ns);
        int e = f->stage_of[i];
        if (e > 0) open[e - 1] = ns;
        else if (open[-1 - e]) {
            us[-1 - e] += (double)(ns - open[-1 - e]) * 1e-3;
            timed |= 1u << (-1 - e);
            if (nspans < PROF_SPANS) spans[nspans++] = (prof_span){-1 - e, (double)open[-1 - e] * 1e-3, (double)ns * 1e-3};
            open[-1 - e] = 0; /* an end without a new begin adds nothing */
        }
    }
    if (!f->stale) _prof_push(p, us, timed & ~f->untimed, spans, nspans, f->tag);
    f->pending = f->stale = false;
    f->untimed = 0;
    f->tag = 0;
    f->used = 0;
    return true;
}

void prof_frame(gpu_prof *p) {
    if (!p) return;
    while (p->groups) _prof_pop_group(p); /* the frame's, and any stage left open */
    p->frame_open = false;
    if (p->mode == PROF_CPU_CLOCK) {
        _prof_push(p, p->acc, p->cpu_begun & ~p->cpu_untimed, p->rec, p->rec_count, p->frames[p->cur].tag);
        p->frames[p->cur].tag = 0;
        memset(p->acc, 0, sizeof p->acc);
        p->rec_count = 0;
        p->cpu_begun = p->cpu_untimed = 0;
        return;
    }
    if (p->mode != PROF_GPU_QUERY) return;
    p->frames[p->cur].pending = true;
    if (p->desc.sync) _prof_collect(p, &p->frames[p->cur], true);
    /* Collect finished frames in order, oldest first. */
    for (int k = 1; k <= PROF_LATENCY; k++) {
        _prof_frame *f = &p->frames[(p->cur + k) % PROF_LATENCY];
        bool must = k == 1; /* the slot about to be reused */
        if (!_prof_collect(p, f, must)) break;
    }
    p->cur = (p->cur + 1) % PROF_LATENCY;
}

prof_mode prof_get_mode(const gpu_prof *p) { return p->mode; }

const char *prof_clock_name(const gpu_prof *p) {
    return p->mode == PROF_GPU_QUERY ? "gpu" : p->mode == PROF_CPU_CLOCK ? "cpu" : "none";
}

double prof_last_us(const gpu_prof *p, int stage) {
    if (p->mode == PROF_NONE || !p->hist_count) return NAN;
    return p->hist[stage][(p->hist_head + PROF_HISTORY - 1) % PROF_HISTORY];
}

double prof_avg_us(const gpu_prof *p, int stage) {
    if (p->mode == PROF_NONE || !p->hist_count) return NAN;
    int n = p->hist_count < p->desc.window ? p->hist_count : p->desc.window;
    double sum = 0;
    for (int i = 1; i <= n; i++) sum += p->hist[stage][(p->hist_head + PROF_HISTORY - i) % PROF_HISTORY];
    return sum / n;
}

int prof_history(const gpu_prof *p, int stage, float *out, int count) {
    if (p->mode == PROF_NONE) return 0;
    int n = count < p->hist_count ? count : p->hist_count;
    for (int i = 0; i < n; i++) out[i] = p->hist[stage][(p->hist_head + PROF_HISTORY - n + i) % PROF_HISTORY];
    return n;
}

int prof_stage_count(const gpu_prof *p) { return p->desc.stages; }
const char *prof_stage_name(const gpu_prof *p, int stage) { return p->desc.names[stage]; }

long prof_frames_done(const gpu_prof *p) { return p->frames_done; }

void prof_tag(gpu_prof *p, uint64_t tag) {
    if (p) p->frames[p->cur].tag = tag;
}

uint64_t prof_frame_tag(const gpu_prof *p, long frame) {
    if (frame < 0 || frame >= p->frames_done || frame < p->frames_done - PROF_SPAN_FRAMES) return 0;
    return p->span_tag[frame % PROF_SPAN_FRAMES];
}

int prof_frame_spans(const gpu_prof *p, long frame, prof_span *out, int max) {
    if (frame < 0 || frame >= p->frames_done || frame < p->frames_done - PROF_SPAN_FRAMES) return -1;
    int k = (int)(frame % PROF_SPAN_FRAMES), n = p->span_count[k] < max ? p->span_count[k] : max;
    memcpy(out, p->spans[k], sizeof(prof_span) * (size_t)n);
    return n;
}

void prof_untimed(gpu_prof *p, int stage) {
    if (!p || stage < 0 || stage >= p->desc.stages) return;
    p->cpu_untimed |= 1u << stage;
    p->frames[p->cur].untimed |= 1u << stage;
}

bool prof_timed(const gpu_prof *p, int stage) {
    if (p->mode == PROF_NONE || !p->hist_count) return false;
    return p->timed[(p->hist_head + PROF_HISTORY - 1) % PROF_HISTORY] >> stage & 1;
}

void prof_reset(gpu_prof *p) {
    p->hist_count = p->hist_head = 0;
    memset(p->acc, 0, sizeof p->acc);
    p->rec_count = 0;
    p->cpu_begun = p->cpu_untimed = 0;
    /* pending frames, and the one being recorded if it holds a query already, are from before */
    for (int f = 0; f < PROF_LATENCY; f++) p->frames[f].stale = p->frames[f].pending || (f == p->cur && p->frames[f].used > 0);
}

static int _prof_cmp(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

int prof_window(const gpu_prof *p) { return p->desc.window; }

bool prof_stats(const gpu_prof *p, int stage, double *mean, double *median, double *p95) {
    float v[PROF_HISTORY];
    int n = 0, frames = p->mode == PROF_NONE ? 0 : p->hist_count < p->desc.window ? p->hist_count : p->desc.window;
    double sum = 0;
    for (int i = 1; i <= frames; i++) {
        int k = (p->hist_head + PROF_HISTORY - i) % PROF_HISTORY;
        if (!(p->timed[k] >> stage & 1)) continue;
        v[n++] = p->hist[stage][k];
        sum += p->hist[stage][k];
    }
    if (!n) {
        *mean = *median = *p95 = NAN;
        return false;
    }
    qsort(v, (size_t)n, sizeof *v, _prof_cmp);
    *mean = sum / n;
    *median = n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2]);
    int rank = (int)ceil(0.95 * n); /* nearest rank: the smallest value with 95% of the samples at or below it */
    *p95 = v[(rank < 1 ? 1 : rank) - 1];
    return true;
}

void prof_test_push(gpu_prof *p, const double *us, uint32_t timed) { _prof_push(p, us, timed, NULL, 0, 0); }
