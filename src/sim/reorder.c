/* reorder: copies positions, velocities and original ids into the sorted order (from the
 * ping-pong buffers [cur] to [1 - cur], then cur flips), so that a cell's particles are adjacent
 * in memory; keeps a copy of the sorted keys for the renderer. One dispatch. */
#include "sim/sim_internal.h"
#include "gpu/shader.h"
#include <stdlib.h>

struct sim_reorder {
    GLuint prog;
};

sim_reorder *sim_reorder_make(char *err) {
    GLuint p = sim_program_make("sim/reorder.comp", "sim.reorder", err);
    if (!p) return NULL;
    sim_reorder *st = calloc(1, sizeof *st);
    st->prog = p;
    return st;
}

void sim_reorder_destroy(sim_reorder *st) {
    if (!st) return;
    shader_destroy(&st->prog);
    free(st);
}

void sim_reorder_run(sim_reorder *st, sim_gpu *g) {
    int a = g->cur, b = 1 - g->cur;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, g->vel[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_IN, g->id[a]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_OUT, g->pos[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_OUT, g->vel[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_OUT, g->id[b]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, g->sorted.keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VALS, g->sorted.vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_CELL_KEYS, g->cell_keys);
    sim_dispatch(st->prog, g->n);
    g->cur = b;
}
