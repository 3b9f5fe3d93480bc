/* graph: a rolling stacked bar graph (one column per frame, one coloured band per series) drawn
 * into a hud batch, for the per-stage GPU times of the last few hundred frames.
 *
 *   float top = graph_scale_top(v, 8, 300);                       // 1-2-5 rounded axis top
 *   graph_stacked(h, &(graph_desc){ .x = 10, .y = 500, .w = 400, .h = 120, .series = v,
 *                 .stages = 8, .frames = 300, .colors = c, .top = top });
 *
 * series[s * frames + f] is series s at frame f (oldest first). NAN values draw nothing for that
 * band. It does NOT draw a frame, a title or labels (the caller does, with hud_text).
 */
#ifndef FLUID_GRAPH_H
#define FLUID_GRAPH_H
#include "render/hud.h"

typedef struct graph_desc {
    float x, y, w, h;    /* pixels, y down */
    const float *series; /* stages * frames values */
    int stages, frames;
    const uint32_t *colors; /* one per stage */
    float top;              /* the value at the top edge */
} graph_desc;

/* The smallest of 1, 2, 5 x 10^k that is >= v (v <= 0: 1). */
float graph_nice_max(float v);
/* The axis top for the frames' stacked totals: graph_nice_max of the largest, leaving out the
 * tallest 1 in GRAPH_OUTLIER_SHARE (their columns are clipped at the top): a start-up frame of
 * shader compiles 100 times the rest no longer flattens the graph while it scrolls through. */
#define GRAPH_OUTLIER_SHARE 50
float graph_scale_top(const float *series, int stages, int frames);
/* Returns the largest stacked total over the frames (NAN values count 0). */
float graph_stacked(hud *h, const graph_desc *g);

#endif
