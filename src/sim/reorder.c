/* reorder: copies positions, velocities and original ids into the sorted order (from the
 * ping-pong buffers [cur] to [1 - cur], then cur flips), so that a cell's particles are adjacent
 * in memory; keeps a copy of the sorted keys for the renderer. One dispatch. */
#include "sim/sim_internal.h"

void sim_reorder_run(GLuint prog, sim_gpu *g) {
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
    sim_dispatch(prog, g->n);
    g->cur = b;
}
