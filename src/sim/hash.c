/* hash: the first stage of a step. Clears every cell's range to empty, and writes each particle's
 * (cell key, particle index) pair for the sort; one dispatch over max(particles, cells) threads.
 * The key is the linear cell index x + X (y + Y z), below sim_cell_count(). */
#include "sim/sim_internal.h"

void sim_hash_run(GLuint prog, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, g->keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VALS, g->vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    sim_dispatch(prog, g->n > g->cells ? g->n : g->cells);
}
