/* integrate: symplectic Euler step of velocities and positions in place, then the hard walls
 * (clamp + reflection with restitution). One dispatch. */
#include "sim/sim_internal.h"
#include "gpu/shader.h"
#include <stdlib.h>

struct sim_integrate {
    GLuint prog;
};

sim_integrate *sim_integrate_make(char *err) {
    GLuint p = sim_program_make("sim/integrate.comp", "sim.integrate", err);
    if (!p) return NULL;
    sim_integrate *st = calloc(1, sizeof *st);
    st->prog = p;
    return st;
}

void sim_integrate_destroy(sim_integrate *st) {
    if (!st) return;
    shader_destroy(&st->prog);
    free(st);
}

void sim_integrate_run(sim_integrate *st, const sim_gpu *g) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, g->pos[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, g->vel[g->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, g->accel);
    sim_dispatch(st->prog, g->n);
}
