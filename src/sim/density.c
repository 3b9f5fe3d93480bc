/* density: the density of every particle, a kernel sum over the 27 cells around it (found through
 * the cell ranges) plus the walls' continuum share, and its Tait pressure (stored as p / rho^2).
 * One dispatch over the sorted particles. */
#include "sim/sim_internal.h"

void sim_density_run(GLuint prog, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, g->ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS, g->dens);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_PTERM, g->pterm);
    sim_dispatch(prog, g->n);
}
