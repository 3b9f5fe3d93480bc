/* forces: the acceleration of every particle (pressure, artificial viscosity, gravity, walls,
 * mouse poke), from its neighbours in the 27 cells around it. One dispatch; integrate applies it. */
#include "sim/sim_internal.h"
#include "gpu/shader.h"
#include <stdlib.h>

struct sim_forces {
    GLuint prog;
};

sim_forces *sim_forces_make(char *err) {
    GLuint p = sim_program_make("sim/forces.comp", "sim.forces", err);
    if (!p) return NULL;
    sim_forces *st = calloc(1, sizeof *st);
    st->prog = p;
    return st;
}

void sim_forces_destroy(sim_forces *st) {
    if (!st) return;
    shader_destroy(&st->prog);
    free(st);
}

void sim_forces_run(sim_forces *st, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, g->vel[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS, g->dens);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_PTERM, g->pterm);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, g->accel);
    sim_dispatch(st->prog, g->n);
}
