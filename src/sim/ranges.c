/* ranges: after the sort, the [start, end) of every non-empty cell in the sorted order; the hash
 * stage cleared all cells to empty (start == end) in the same step. One dispatch, one thread per
 * particle. */
#include "sim/sim_internal.h"

void sim_ranges_run(GLuint prog, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, g->sorted.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    sim_dispatch(prog, g->n);
}
