/* ranges: after the sort, the [start, end) of every non-empty cell in the sorted order; the hash
 * stage cleared all cells to empty (start == end) in the same step. One dispatch, one thread per
 * particle. */
#include "sim/sim_internal.h"
#include "gpu/shader.h"
#include <stdlib.h>

struct sim_ranges {
    GLuint prog;
};

sim_ranges *sim_ranges_make(char *err) {
    GLuint p = sim_program_make("sim/ranges.comp", "sim.ranges", err);
    if (!p) return NULL;
    sim_ranges *st = calloc(1, sizeof *st);
    st->prog = p;
    return st;
}

void sim_ranges_destroy(sim_ranges *st) {
    if (!st) return;
    shader_destroy(&st->prog);
    free(st);
}

void sim_ranges_run(sim_ranges *st, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, g->sorted.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    sim_dispatch(st->prog, g->n);
}
