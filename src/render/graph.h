/* graph: a rolling stacked bar graph (one column per frame, one coloured band per series) drawn
 * into a hud batch, for the per-stage GPU times of the last few hundred frames.
 *
 *   float top = graph_nice_max(max_total);                       // 1-2-5 rounded axis top
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
    float x, y, w, h;        /* pixels, y down */
    const float *series;     /* stages * frames values */
    int stages, frames;
    const uint32_t *colors;  /* one per stage */
    float top;               /* the value at the top edge */
} graph_desc;

/* The smallest of 1, 2, 5 x 10^k that is >= v (v <= 0: 1). */
float graph_nice_max(float v);
/* Returns the largest stacked total over the frames (NAN values count 0). */
float graph_stacked(hud *h, const graph_desc *g);

#endif
