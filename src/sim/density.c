/* density: the density of every particle, a kernel sum over the 27 cells around it (found through
 * the cell ranges) plus the walls' continuum share, and its Tait pressure (stored as p / rho^2).
 * One dispatch over the sorted particles. */
#include "sim/sim_internal.h"
#include "gpu/shader.h"
#include <stdlib.h>

struct sim_density {
    GLuint prog;
};

sim_density *sim_density_make(char *err) {
    GLuint p = sim_program_make("sim/density.comp", "sim.density", err);
    if (!p) return NULL;
    sim_density *st = calloc(1, sizeof *st);
    st->prog = p;
    return st;
}

void sim_density_destroy(sim_density *st) {
    if (!st) return;
    shader_destroy(&st->prog);
    free(st);
}

void sim_density_run(sim_density *st, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS, g->dens);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_PTERM, g->pterm);
    sim_dispatch(st->prog, g->n);
}
