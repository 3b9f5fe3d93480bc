/* integrate: symplectic Euler step of velocities and positions in place, then the hard walls
 * (clamp + reflection with restitution). One dispatch. */
#include "sim/sim_internal.h"

void sim_integrate_run(GLuint prog, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, g->vel[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, g->accel);
    sim_dispatch(prog, g->n);
}
