/* euler: the tests' third solver, built only into tests/test_sim_solver_plugin.c: explicit Euler
 * under gravity alone (shaders/tests/solver_euler.comp), a fixed step, no iterations, no desc. It
 * shows what a solver is: this folder plus one registry line (solvers.c here adds it to the
 * registry with SIM_SOLVERS_EXTRA); nothing of src/sim changes. */
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/solver.h"
#include <math.h>
#include <stdlib.h>

#define EULER_DT (1.0 / 600) /* seconds a step */

static const char *const _euler_stages[] = {"integrate"};

typedef struct euler {
    GLuint prog;
    float dt;       /* the frame's step */
    uint32_t steps; /* steps issued whose records poll has not handed over */
    const sim_record_sink *records;
} euler;

static double _euler_g_over_c2(const sim_params *p) {
    (void)p;
    return 0; /* a plain lattice */
}

static void _euler_destroy(void *impl) {
    euler *e = impl;
    if (!e) return;
    shader_destroy(&e->prog);
    free(e);
}

static void *_euler_make(const sim_solver_make_desc *md, char *err) {
    euler *e = calloc(1, sizeof *e);
    e->records = md->records;
    e->dt = (float)EULER_DT;
    if (!(e->prog = sim_program_make("tests/solver_euler.comp", NULL, "sim.euler.integrate", err))) {
        _euler_destroy(e);
        return NULL;
    }
    return e;
}

static void _euler_prime(void *impl, sim_particles *p, const sim_search *q) {
    (void)q, (void)p;
    ((euler *)impl)->steps = 0;
}

static int _euler_frame_begin(void *impl, double seconds, int substeps) {
    euler *e = impl;
    int k = 1;
    if (seconds <= 0) seconds = EULER_DT;
    else if (substeps > 0) k = substeps;
    else k = (int)ceil(seconds / EULER_DT - 1e-6);
    e->dt = (float)(seconds / k);
    glProgramUniform1f(e->prog, 0, e->dt);
    return k;
}

static void _euler_step(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first) {
    (void)q;
    euler *e = impl;
    prof_begin(prof, first);
    sim_dispatch(e->prog, p->n);
    prof_end(prof, first);
    e->steps++;
}

static void _euler_frame_end(void *impl) { (void)impl; }

static void _euler_poll(void *impl, bool wait) {
    (void)wait;
    euler *e = impl;
    for (; e->steps; e->steps--)
        e->records->push(e->records->owner, &(sim_step_record){.dt = e->dt, .dt_cfl = e->dt, .cfl = NAN});
}

const sim_solver sim_solver_euler = {
    .name = "euler",
    .summary = "the tests' solver: explicit Euler under gravity alone",
    .stages = _euler_stages,
    .stage_count = (int)ARRAY_LEN(_euler_stages),
    .layout_g_over_c2 = _euler_g_over_c2,
    .make = _euler_make,
    .destroy = _euler_destroy,
    .prime = _euler_prime,
    .frame_begin = _euler_frame_begin,
    .step = _euler_step,
    .frame_end = _euler_frame_end,
    .poll = _euler_poll,
};
