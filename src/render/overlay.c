#include "render/overlay.h"
#include "render/graph.h"
#include "render/render_style.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Sizes in pixels at the reference window (1280x720), times the scale overlay_draw sets from the
 * window's size (_ov_s), so the HUD scales with the window instead of covering a small one. */
#define OV_REF_W 1280.0f
#define OV_REF_H 720.0f
#define OV_MIN_SCALE 0.55f
#define OV_MAX_SCALE 2.0f
static float _ov_s = 1;
#define OV_MARGIN (10.0f * _ov_s)
#define OV_PAD (8.0f * _ov_s)
#define OV_GAP (6.0f * _ov_s)
#define OV_STATS_MAX_SHARE 0.6f /* of the window's height: past it the stats panel shows totals only, */
#define OV_COMPACT_HEIGHT 400   /* as it does in a window shorter than this */
#define OV_TEXT HUD_RGBA(232, 236, 240, 255)
#define OV_DIM HUD_RGBA(160, 168, 180, 255)
#define OV_WARN HUD_RGBA(255, 176, 64, 255)  /* warnings only */
#define OV_HEAD HUD_RGBA(150, 200, 255, 255) /* headings */
#define OV_PANEL HUD_RGBA(6, 8, 12, 210)

static const uint32_t _ov_stage_colors[] = {
    HUD_RGBA(230, 159, 0, 255),  HUD_RGBA(86, 180, 233, 255), HUD_RGBA(0, 158, 115, 255),   HUD_RGBA(240, 228, 66, 255),
    HUD_RGBA(0, 114, 178, 255),  HUD_RGBA(213, 94, 0, 255),   HUD_RGBA(204, 121, 167, 255), HUD_RGBA(200, 200, 200, 255),
    HUD_RGBA(150, 90, 220, 255), HUD_RGBA(120, 200, 80, 255),
};

float overlay_scale(int width, int height) {
    float s = fminf((float)width / OV_REF_W, (float)height / OV_REF_H);
    return fminf(OV_MAX_SCALE, fmaxf(OV_MIN_SCALE, s));
}

uint32_t overlay_stage_color(int stage) {
    return _ov_stage_colors[(unsigned)stage % (sizeof _ov_stage_colors / sizeof _ov_stage_colors[0])];
}

/* "27648" -> "27,648" */
static void _ov_thousands(uint32_t n, char *out, size_t len) {
    char digits[16];
    int nd = snprintf(digits, sizeof digits, "%u", n), o = 0;
    for (int i = 0; i < nd && o + 2 < (int)len; i++) {
        if (i && (nd - i) % 3 == 0) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = 0;
}

typedef struct _ov_line {
    char text[128];
    uint32_t color;
    uint32_t swatch; /* 0: none */
} _ov_line;

static void _ov_add(_ov_line *lines, int *n, int max, uint32_t color, uint32_t swatch, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void _ov_add(_ov_line *lines, int *n, int max, uint32_t color, uint32_t swatch, const char *fmt, ...) {
    if (*n >= max) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lines[*n].text, sizeof lines[*n].text, fmt, ap);
    va_end(ap);
    lines[*n].color = color;
    lines[*n].swatch = swatch;
    (*n)++;
}

/* A panel of lines with its top-left at (x, y); returns its bottom. */
static float _ov_lines(hud *h, float x, float y, const _ov_line *lines, int n, float *panel) {
    float lh = hud_line_height(h), sw = lh * 0.7f, w = 0;
    for (int i = 0; i < n; i++) {
        float lw = hud_text_width(h, lines[i].text) + (lines[i].swatch ? sw + OV_GAP : 0);
        if (lw > w) w = lw;
    }
    float x1 = x + w + 2 * OV_PAD, y1 = y + (float)n * lh + 2 * OV_PAD;
    hud_rect(h, x, y, x1, y1, OV_PANEL);
    for (int i = 0; i < n; i++) {
        float tx = x + OV_PAD, ty = y + OV_PAD + (float)i * lh;
        if (lines[i].swatch) {
            float s0 = ty + (lh - sw) * 0.5f;
            hud_rect(h, tx, s0, tx + sw, s0 + sw, lines[i].swatch);
            tx += sw + OV_GAP;
        }
        hud_text(h, tx, ty, lines[i].color, lines[i].text);
    }
    if (panel) panel[0] = x, panel[1] = y, panel[2] = x1, panel[3] = y1;
    return y1;
}

/* us in three significant digits, in us below 1 ms, in ms below 1 s, else in s: "20.9 us",
 * "3.27 ms", "1.02 s" (us written as the micro sign). */
void overlay_format_time(double us, char *out, size_t len) {
    if (isnan(us)) snprintf(out, len, "-");
    else if (us < 999.5) snprintf(out, len, "%.3g \xc2\xb5s", us);
    else if (us < 999.5e3) snprintf(out, len, "%.3g ms", us * 1e-3);
    else snprintf(out, len, "%.3g s", us * 1e-6);
}

/* A table cell: us in three significant digits, right-aligned, the unit after it (the micro sign
 * is two bytes and one column, so the padding is counted here, not by printf's width). */
static void _ov_cell(double us, char *out, size_t len) {
    if (isnan(us)) {
        snprintf(out, len, "%6s   ", "-");
        return;
    }
    double v = us;
    const char *unit = "\xc2\xb5s";
    if (us >= 999.5e3) v = us * 1e-6, unit = "s ";
    else if (us >= 999.5) v = us * 1e-3, unit = "ms";
    snprintf(out, len, "%6.3g %s", v, unit);
}

/* One table row: the name, then mean, median and p95 (or "not timed"). */
static void _ov_row(_ov_line *lines, int *n, int max, int w, uint32_t swatch, const char *name, const double *st) {
    if (!st) {
        _ov_add(lines, n, max, OV_DIM, swatch, "%-*s  not timed", w, name);
        return;
    }
    char c[3][24];
    for (int k = 0; k < 3; k++) _ov_cell(st[k], c[k], sizeof c[k]);
    _ov_add(lines, n, max, swatch ? OV_TEXT : OV_HEAD, swatch, "%-*s %s %s %s", w, name, c[0], c[1], c[2]);
}

/* The solver's stages measured inside its one-dispatch step (the shader clock, the recent steps'
 * mean), after the sampled step: in µs at the clock's measured rate, else as shares of the step. */
static void _ov_phases(_ov_line *lines, int *n, int max, int w, const overlay_info *o, int split, bool compact) {
    double total = 0;
    for (int k = 0; k < o->phases; k++) total += o->phase_cycles[k];
    if (o->phase_mhz > 0)
        _ov_add(lines, n, max, OV_HEAD, 0, "the fused step, measured inside (shader clock %.0f MHz)", o->phase_mhz);
    else _ov_add(lines, n, max, OV_HEAD, 0, "the fused step, measured inside (shader clock; shares)");
    for (int k = 0; k < o->phases && !compact; k++) {
        int s = split - o->phases + k;
        char name[64];
        snprintf(name, sizeof name, "  %s", prof_stage_name(o->prof, s));
        if (o->phase_mhz > 0) _ov_row(lines, n, max, w, overlay_stage_color(s), name, (const double[3]){o->phase_cycles[k] / o->phase_mhz, NAN, NAN});
        else _ov_add(lines, n, max, OV_TEXT, overlay_stage_color(s), "%-*s %5.0f%%", w, name, total > 0 ? 100 * o->phase_cycles[k] / total : 0);
    }
    if (o->phase_mhz > 0) _ov_row(lines, n, max, w, 0, "fused step", (const double[3]){total / o->phase_mhz, NAN, NAN});
}

/* The stage table: the sampled step's stages (neighbour search, then the solver's), its total,
 * then the whole frame's entries and the frame's total. */
static void _ov_table(hud *h, const overlay_info *o, _ov_line *lines, int *n, int max) {
    prof_mode mode = prof_get_mode(o->prof);
    const char *clock = mode == PROF_GPU_QUERY ? "GPU time" : "CPU clock (waits for the GPU)";
    int entries = prof_stage_count(o->prof), split = o->step_stages > 0 && o->step_stages < entries ? o->step_stages : 0;
    int search = o->search_stages > 0 && o->search_stages < split ? o->search_stages : 0;
    /* A small window gets the totals only: every stage's line would cover the fluid (the graph
     * keeps the stages' colours). */
    bool compact = o->height < OV_COMPACT_HEIGHT ||
                   (float)(*n + entries + 8) * hud_line_height(h) + 2 * OV_PAD > OV_STATS_MAX_SHARE * (float)o->height;
    int w = 16;
    for (int s = 0; s < entries; s++) {
        int len = (int)strlen(prof_stage_name(o->prof, s)) + 2;
        if (len > w) w = len;
    }
    _ov_add(lines, n, max, OV_HEAD, 0, "%s, last %d frames", clock, prof_window(o->prof));
    _ov_add(lines, n, max, OV_HEAD, 0, "%-*s %9s %9s %9s", w, "", "mean", "median", "p95");
    int lo = 0;
    for (int group = split ? 0 : 1; group < 2; group++) {
        int hi = group == 0 ? split : entries;
        if (group == 0) {
            _ov_add(lines, n, max, OV_HEAD, 0, "one step (the frame's first)");
            if (o->step_note) _ov_add(lines, n, max, OV_DIM, 0, " %s", o->step_note);
        } else _ov_add(lines, n, max, OV_HEAD, 0, "per frame");
        double total[3] = {0, 0, 0};
        bool any = false;
        for (int s = lo; s < hi; s++) {
            if (!compact && group == 0 && search && s == lo) _ov_add(lines, n, max, OV_DIM, 0, " neighbour search");
            if (!compact && group == 0 && search && s == search)
                _ov_add(lines, n, max, OV_DIM, 0, " solver%s%s", o->solver ? ": " : "", o->solver ? o->solver : "");
            double st[3];
            bool timed = prof_stats(o->prof, s, &st[0], &st[1], &st[2]);
            if (timed) {
                for (int k = 0; k < 3; k++) total[k] += st[k];
                any = true;
            }
            if (!compact) {
                char name[64];
                snprintf(name, sizeof name, "  %s", prof_stage_name(o->prof, s));
                _ov_row(lines, n, max, w, overlay_stage_color(s), name, timed ? st : NULL);
            }
        }
        /* The total's median and p95 are the sums of the stages' (an upper bound of the total's own). */
        _ov_row(lines, n, max, w, 0, group == 0 ? "step" : "frame", any ? total : NULL);
        if (group == 0 && o->phases && o->phases <= split) _ov_phases(lines, n, max, w, o, split, compact);
        lo = hi;
    }
}

static void _ov_stats(hud *h, const overlay_info *o, overlay_layout *lay) {
    _ov_line lines[48];
    int n = 0;
    const int max = 48;
    char count[32];
    _ov_thousands(o->particles, count, sizeof count);
    if (o->fps > 0)
        _ov_add(lines, &n, max, OV_TEXT, 0, "fluid  %.1f fps  %.3g ms a frame%s", o->fps, o->frame_ms,
                o->vsync ? "  (vsync)" : "");
    else _ov_add(lines, &n, max, OV_TEXT, 0, "fluid%s", o->headless ? "  (headless)" : "");
    _ov_add(lines, &n, max, OV_TEXT, 0, "%s particles  scene: %s", count, o->scene ? o->scene : "-");
    _ov_add(lines, &n, max, OV_TEXT, 0, "solver: %s  sort: %s", o->solver ? o->solver : "-", o->sort ? o->sort : "-");
    char dt[48] = "";
    if (o->dt > 0) snprintf(dt, sizeof dt, "  dt %.3g ms", o->dt * 1e3);
    /* the steps a frame where their records came back, with the slots where more ran; the slots
     * alone until then */
    char steps[64] = "";
    if (o->steps_per_frame > 0 && o->slots_per_frame > o->steps_per_frame)
        snprintf(steps, sizeof steps, "  %d steps a frame (%d slots)", o->steps_per_frame, o->slots_per_frame);
    else if (o->steps_per_frame > 0)
        snprintf(steps, sizeof steps, "  %d step%s a frame", o->steps_per_frame, o->steps_per_frame == 1 ? "" : "s");
    else if (o->slots_per_frame > 0)
        snprintf(steps, sizeof steps, "  %d slot%s a frame", o->slots_per_frame, o->slots_per_frame == 1 ? "" : "s");
    _ov_add(lines, &n, max, OV_DIM, 0, "t = %.3f s%s%s", o->sim_time, steps, dt);
    if (o->counters > 0) {
        char text[128];
        int used = snprintf(text, sizeof text, "iterations a step:");
        for (int c = 0; c < o->counters && c < OVERLAY_MAX_COUNTERS && used < (int)sizeof text; c++)
            used += snprintf(text + used, sizeof text - (size_t)used, "%s %s %.1f", c ? "," : "", o->counter_names[c],
                             o->counter_means[c]);
        _ov_add(lines, &n, max, OV_DIM, 0, "%s", text);
    }
    if (o->diffuse_shown && o->diffuse_dropped)
        _ov_add(lines, &n, max, OV_WARN, 0, "spray %u  foam %u  bubbles %u  (%llu dropped: the capacity is full)", o->spray,
                o->foam, o->bubbles, (unsigned long long)o->diffuse_dropped);
    else if (o->diffuse_shown) _ov_add(lines, &n, max, OV_DIM, 0, "spray %u  foam %u  bubbles %u", o->spray, o->foam, o->bubbles);
    if (o->paused) _ov_add(lines, &n, max, OV_TEXT, 0, "paused (Space resumes)");
    else if (o->realtime >= 0 && o->realtime < 0.95) /* 0.1%, not 0%: two digits below 10% */
        _ov_add(lines, &n, max, OV_WARN, 0,
                o->realtime >= 0.1 ? "slow motion %.0f%%: press - for fewer particles"
                                   : "slow motion %.2g%%: press - for fewer particles",
                100.0 * o->realtime);
    else if (o->realtime >= 0.95) _ov_add(lines, &n, max, OV_DIM, 0, "real time");
    if (!o->prof) _ov_add(lines, &n, max, OV_DIM, 0, "no stage timings");
    else if (prof_get_mode(o->prof) == PROF_NONE)
        _ov_add(lines, &n, max, OV_WARN, 0, "no stage times: this driver's GPU timers read 0");
    else _ov_table(h, o, lines, &n, max);
    _ov_add(lines, &n, max, OV_DIM, 0, "H: help");
    _ov_lines(h, OV_MARGIN, OV_MARGIN, lines, n, lay->rect[OVERLAY_STATS]);
}

static void _ov_graph(hud *h, const overlay_info *o, overlay_layout *lay) {
    float lh = hud_line_height(h);
    float gw = fminf(420.0f * _ov_s, (float)o->width - 2 * OV_MARGIN - 2 * OV_PAD);
    float gh = fminf(110.0f * _ov_s, (float)o->height * 0.22f);
    if (gw < 60 * _ov_s || gh < 30 * _ov_s) return;
    float x0 = OV_MARGIN, y1 = (float)o->height - OV_MARGIN, y0 = y1 - gh - 2 * lh - 2 * OV_PAD;
    if (y0 < lay->rect[OVERLAY_STATS][3] + OV_MARGIN) return; /* no room under the panel */
    static float series[PROF_MAX_STAGES * OVERLAY_GRAPH_FRAMES];
    static uint32_t colors[PROF_MAX_STAGES];
    int frames = OVERLAY_GRAPH_FRAMES, stages = 0;
    const char *title, *unit;
    bool gpu = o->prof && prof_get_mode(o->prof) != PROF_NONE;
    if (gpu) {
        /* The whole-frame entries stack to the frame's time (the step's stages are inside them). */
        int first = o->step_stages > 0 && o->step_stages < prof_stage_count(o->prof) ? o->step_stages : 0;
        stages = prof_stage_count(o->prof) - first;
        int got = 0;
        for (int s = 0; s < stages; s++) {
            float *row = series + s * frames;
            got = prof_history(o->prof, first + s, row, frames);
            /* right-align: the newest frame at the right edge */
            memmove(row + (frames - got), row, sizeof(float) * (size_t)got);
            for (int f = 0; f < frames - got; f++) row[f] = NAN;
            colors[s] = overlay_stage_color(first + s);
        }
        title = prof_get_mode(o->prof) == PROF_GPU_QUERY ? "GPU time per frame" : "CPU clock per frame";
        unit = "\xc2\xb5s";
    } else {
        stages = 1;
        int got = o->frame_history_count < frames ? o->frame_history_count : frames;
        for (int f = 0; f < frames; f++) series[f] = NAN;
        if (got > 0)
            memcpy(series + frames - got, o->frame_ms_history + o->frame_history_count - got, sizeof(float) * (size_t)got);
        colors[0] = HUD_RGBA(150, 160, 175, 255);
        title = "frame time (CPU clock); no GPU stage times";
        unit = "ms";
    }
    float top = graph_scale_top(series, stages, frames); /* a start-up spike does not set it */
    hud_rect(h, x0, y0, x0 + gw + 2 * OV_PAD, y1, OV_PANEL);
    float *r = lay->rect[OVERLAY_GRAPH];
    r[0] = x0, r[1] = y0, r[2] = x0 + gw + 2 * OV_PAD, r[3] = y1;
    hud_text(h, x0 + OV_PAD, y0 + OV_PAD * 0.5f, OV_DIM, title);
    float gx = x0 + OV_PAD, gy = y0 + OV_PAD * 0.5f + lh + 2;
    hud_rect(h, gx, gy, gx + gw, gy + gh, HUD_RGBA(255, 255, 255, 14));
    hud_rect(h, gx, gy + gh * 0.5f, gx + gw, gy + gh * 0.5f + 1, HUD_RGBA(255, 255, 255, 30));
    graph_stacked(h, &(graph_desc){.x = gx,
                                   .y = gy,
                                   .w = gw,
                                   .h = gh,
                                   .series = series,
                                   .stages = stages,
                                   .frames = frames,
                                   .colors = colors,
                                   .top = top});
    char label[48];
    if (gpu) overlay_format_time(top, label, sizeof label);
    else snprintf(label, sizeof label, "%g %s", top, unit);
    hud_text(h, gx + gw - hud_text_width(h, label) - 2, gy + 1, OV_DIM, label);
    snprintf(label, sizeof label, "last %d frames", frames);
    hud_text(h, gx, gy + gh + 1, OV_DIM, label);
}

static void _ov_legend(hud *h, const overlay_info *o, overlay_layout *lay) {
    float lh = hud_line_height(h), bw = 220 * _ov_s, x1 = (float)o->width - OV_MARGIN, x0 = x1 - bw - 2 * OV_PAD;
    if (x0 < lay->rect[OVERLAY_STATS][2] + OV_MARGIN) return; /* too narrow: the stats panel has priority */
    float y0 = OV_MARGIN, y1 = y0 + 2 * OV_PAD + 3 * lh + 10 * _ov_s;
    hud_rect(h, x0, y0, x1, y1, OV_PANEL);
    float *r = lay->rect[OVERLAY_LEGEND];
    r[0] = x0, r[1] = y0, r[2] = x1, r[3] = y1;
    char title[96];
    bool surface = o->style == RENDER_STYLE_SURFACE || o->style == RENDER_STYLE_SURFACE_ISO; /* water: no colour map */
    if (surface) snprintf(title, sizeof title, "%s", render_styles[o->style]->name);
    else snprintf(title, sizeof title, "%s, colour: %s", render_styles[o->style]->name, render_color_names[o->color]);
    hud_text(h, x0 + OV_PAD, y0 + OV_PAD, OV_TEXT, title);
    float by = y0 + OV_PAD + lh + 2;
    if (surface) {
        hud_text(h, x0 + OV_PAD, by, OV_DIM, "F: spheres, coloured by C");
        return;
    }
    hud_colormap(h, x0 + OV_PAD, by, x0 + OV_PAD + bw, by + 10 * _ov_s, (int)o->color);
    float ly = by + 12 * _ov_s;
    if (o->color == RENDER_COLOR_CELL) {
        hud_text(h, x0 + OV_PAD, ly, OV_DIM, "a cell's place in the sorted key order");
        return;
    }
    float lo = o->value_lo, hi = o->value_hi;
    if (lo == 0 && hi == 0) render_color_range(o->color, &lo, &hi);
    const char *unit = render_color_unit(o->color);
    char a[32], m[32], b[32];
    snprintf(a, sizeof a, "%g", lo);
    snprintf(m, sizeof m, "%g", 0.5f * (lo + hi));
    snprintf(b, sizeof b, "%g %s", hi, unit);
    hud_text(h, x0 + OV_PAD, ly, OV_DIM, a);
    hud_text(h, x0 + OV_PAD + bw * 0.5f - hud_text_width(h, m) * 0.5f, ly, OV_DIM, m);
    hud_text(h, x0 + OV_PAD + bw - hud_text_width(h, b), ly, OV_DIM, b);
}

/* The compare mode's panel: every sort on the same keys (overlay_info.compare), under the legend. */
static void _ov_compare(hud *h, const overlay_info *o, overlay_layout *lay) {
    _ov_line lines[OVERLAY_MAX_COMPARE + 4];
    int n = 0;
    const int max = OVERLAY_MAX_COMPARE + 4;
    _ov_add(lines, &n, max, OV_HEAD, 0, "sorts on the same keys (%s clock)", o->compare_clock ? o->compare_clock : "-");
    _ov_add(lines, &n, max, OV_DIM, 0, "%-9s %9s %9s %6s  %s", "sort", "median", "p95", "ratio", "mismatches");
    for (int i = 0; i < o->compare_rows && i < OVERLAY_MAX_COMPARE; i++) {
        const overlay_compare_row *r = &o->compare[i];
        char med[32] = "not timed", p95[32] = "", ratio[16] = "";
        if (r->timed) {
            overlay_format_time(r->median_us, med, sizeof med);
            overlay_format_time(r->p95_us, p95, sizeof p95);
            snprintf(ratio, sizeof ratio, "%.2f", r->ratio);
        }
        char name[48];
        snprintf(name, sizeof name, "%s%s%s%s", r->name, r->same && r->same[0] ? "=" : "", r->same ? r->same : "",
                 r->drives ? "*" : "");
        _ov_add(lines, &n, max, r->mismatches ? OV_WARN : OV_TEXT, 0, "%-9s %9s %9s %6s  %llu", name, med, p95, ratio,
                (unsigned long long)r->mismatches);
    }
    if (o->compare_warning && o->compare_warning[0]) _ov_add(lines, &n, max, OV_WARN, 0, "%.120s", o->compare_warning);
    else _ov_add(lines, &n, max, OV_DIM, 0, "* drives the fluid; = the same path here");
    float w = 0;
    for (int i = 0; i < n; i++) w = fmaxf(w, hud_text_width(h, lines[i].text));
    float x = fmaxf(OV_MARGIN, (float)o->width - OV_MARGIN - w - 2 * OV_PAD);
    float y = lay->rect[OVERLAY_LEGEND][3] > 0 ? lay->rect[OVERLAY_LEGEND][3] + OV_GAP : OV_MARGIN;
    _ov_lines(h, x, y, lines, n, lay->rect[OVERLAY_COMPARE]);
}

static void _ov_help(hud *h, const overlay_info *o, overlay_layout *lay) {
    _ov_line lines[48];
    int n = 0;
    for (int i = 0; o->help[i] && n < 48; i++) _ov_add(lines, &n, 48, i ? OV_TEXT : OV_HEAD, 0, "%s", o->help[i]);
    float w = 0;
    for (int i = 0; i < n; i++) w = fmaxf(w, hud_text_width(h, lines[i].text));
    float x = fmaxf(OV_MARGIN, 0.5f * ((float)o->width - w) - OV_PAD);
    float y = fmaxf(OV_MARGIN, 0.5f * ((float)o->height - (float)n * hud_line_height(h)) - OV_PAD);
    _ov_lines(h, x, y, lines, n, lay->rect[OVERLAY_HELP]);
}

void overlay_draw(hud *h, const overlay_info *o, overlay_layout *layout) {
    overlay_layout local;
    overlay_layout *lay = layout ? layout : &local;
    memset(lay, 0, sizeof *lay);
    hud_begin(h, o->width, o->height);
    if (o->width <= 0 || o->height <= 0) return;
    _ov_s = overlay_scale(o->width, o->height);
    hud_set_scale(h, _ov_s);
    _ov_stats(h, o, lay);
    _ov_graph(h, o, lay);
    _ov_legend(h, o, lay);
    if (o->compare_rows > 0) _ov_compare(h, o, lay);
    if (o->message && o->message[0]) {
        float w = hud_text_width(h, o->message), x = (float)o->width - OV_MARGIN - w - 2 * OV_PAD;
        float y = (float)o->height - OV_MARGIN - hud_line_height(h) - 2 * OV_PAD;
        if (x < OV_MARGIN) x = OV_MARGIN;
        hud_rect(h, x, y, x + w + 2 * OV_PAD, (float)o->height - OV_MARGIN, OV_PANEL);
        float *r = lay->rect[OVERLAY_MESSAGE];
        r[0] = x, r[1] = y, r[2] = x + w + 2 * OV_PAD, r[3] = (float)o->height - OV_MARGIN;
        hud_text(h, x + OV_PAD, y + OV_PAD, OV_TEXT, o->message);
    }
    if (o->show_help && o->help) _ov_help(h, o, lay);
}
