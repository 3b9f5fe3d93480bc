/* hash: the first stage of a step. Clears every cell's range to empty, and writes each particle's
 * (cell key, particle index) pair for the sort; one dispatch over max(particles, cells) threads.
 * The key is the linear cell index x + X (y + Y z), below sim_cell_count(). */
#include "sim/sim_internal.h"
#include "gpu/shader.h"
#include <stdlib.h>

struct sim_hash {
    GLuint prog;
};

sim_hash *sim_hash_make(char *err) {
    GLuint p = sim_program_make("sim/hash.comp", "sim.hash", err);
    if (!p) return NULL;
    sim_hash *st = calloc(1, sizeof *st);
    st->prog = p;
    return st;
}

void sim_hash_destroy(sim_hash *st) {
    if (!st) return;
    shader_destroy(&st->prog);
    free(st);
}

void sim_hash_run(sim_hash *st, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_KEYS, g->keys);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VALS, g->vals);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    sim_dispatch(st->prog, g->n > g->cells ? g->n : g->cells);
}
