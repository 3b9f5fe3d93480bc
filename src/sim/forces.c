/* forces: the acceleration of every particle (pressure, artificial viscosity, gravity, walls,
 * mouse poke), from its neighbours in the 27 cells around it. One dispatch; integrate applies it. */
#include "sim/sim_internal.h"

void sim_forces_run(GLuint prog, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, g->vel[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS, g->dens);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_PTERM, g->pterm);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, g->accel);
    sim_dispatch(prog, g->n);
}
