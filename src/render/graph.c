#include "render/graph.h"
#include <math.h>
#include <stdlib.h>

float graph_nice_max(float v) {
    if (!(v > 0)) return 1;
    float p = powf(10.0f, floorf(log10f(v)));
    for (int i = 0; i < 4; i++) {
        const float steps[3] = {1, 2, 5};
        for (int k = 0; k < 3; k++)
            if (steps[k] * p >= v * 0.9999f) return steps[k] * p;
        p *= 10;
    }
    return v;
}

static int _graph_cmp(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

float graph_scale_top(const float *series, int stages, int frames) {
    float *totals = malloc(sizeof(float) * (size_t)(frames > 0 ? frames : 1));
    int n = 0;
    for (int f = 0; f < frames; f++) {
        float acc = 0;
        bool any = false;
        for (int s = 0; s < stages; s++)
            if (series[s * frames + f] > 0) acc += series[s * frames + f], any = true;
        if (any) totals[n++] = acc;
    }
    float v = 0;
    if (n) {
        qsort(totals, (size_t)n, sizeof *totals, _graph_cmp);
        v = totals[n - 1 - n / GRAPH_OUTLIER_SHARE]; /* the few tallest frames may go off the top */
    }
    free(totals);
    return graph_nice_max(v);
}

float graph_stacked(hud *h, const graph_desc *g) {
    if (g->frames <= 0 || g->top <= 0) return 0;
    float col = g->w / (float)g->frames, max_total = 0;
    float bottom = g->y + g->h;
    for (int f = 0; f < g->frames; f++) {
        float x0 = g->x + col * (float)f, x1 = x0 + (col > 1.5f ? col - 0.25f : col);
        float acc = 0;
        for (int s = 0; s < g->stages; s++) {
            float v = g->series[s * g->frames + f];
            if (!(v > 0)) continue; /* NAN or zero: nothing to stack */
            float y0 = bottom - fminf(acc / g->top, 1.0f) * g->h;
            acc += v;
            float y1 = bottom - fminf(acc / g->top, 1.0f) * g->h;
            if (y0 - y1 >= 0.05f) hud_rect(h, x0, y1, x1, y0, g->colors[s]);
        }
        if (acc > max_total) max_total = acc;
    }
    return max_total;
}
