/* render_passes: the GPU time of a style's passes, by name (GL_TIMESTAMP queries; profiling only).
 *
 *   render_passes t = {0};  render_passes_on(&t, true);
 *   each frame: render_passes_reset(&t);
 *               render_passes_begin(&t, "shadow"); ...; render_passes_begin(&t, "visibility"); ...
 *               render_passes_end(&t);       // the last pass ends
 *   n = render_passes_read(&t, names, us, max);   // waits for the GPU
 *
 * A pass lasts from its begin to the next begin (or the end). Every call takes a NULL or switched-
 * off timer and does nothing, so a style marks its passes without a guard. A pass name is a
 * string the caller keeps (a literal). Each pass is also a debug group (glPushDebugGroup, named as
 * the pass) from its begin to the next begin or the end, timed or not (a NULL t: none).
 */
#ifndef FLUID_RENDER_PASSES_H
#define FLUID_RENDER_PASSES_H
#include "gpu/gpu.h"
#include <stdbool.h>

#define RENDER_PASSES_MAX 8

typedef struct render_passes {
    bool on;
    bool group; /* a pass's debug group is open */
    int count; /* passes begun this frame */
    const char *names[RENDER_PASSES_MAX];
    GLuint marks[RENDER_PASSES_MAX + 1]; /* a timestamp at each begin, and at the end */
} render_passes;

void render_passes_on(render_passes *t, bool on); /* makes the queries the first time */
void render_passes_destroy(render_passes *t);
void render_passes_reset(render_passes *t);
void render_passes_begin(render_passes *t, const char *name);
void render_passes_end(render_passes *t);
int render_passes_read(const render_passes *t, const char **names, double *us, int max);

#endif
