/* dfsph_passes: a DFSPH step as its passes (dfsph.c's header says what each does); the persistent
 * solve and the fused step are dfsph_persistent.c's. */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/dfsph/dfsph_internal.h"
#include <stddef.h>
#include <stdio.h>

void dfsph_bind(dfsph *d, const sim_particles *p, const sim_search *q) {
    glBindBufferBase(GL_UNIFORM_BUFFER, SIM_UBO_SOLVER, d->params);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, sim_search_ranges(q));
    /* the viscosity's second half-step (solve_fns.glsl): the velocities the search's reorder left behind, unused until the next one */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_OUT, p->vel[1 - p->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_KAPPA, d->kappa);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ACCEL, d->accel);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_CTL, d->ctl);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_RECORDS, d->records);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_NBR, d->nbr);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_NBR_COUNT, d->nbr_count);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_WALL, d->wall);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, d->ctl);
}

void dfsph_ctl_reset(dfsph *d) {
    dfsph_ctl c = {.dt = d->dt0,
                   .cap_div = d->pol.cap_div,
                   .cap_dens = d->pol.cap_dens,
                   .args_step = {d->groups_step, 1, 1, 0},
                   .mode = DFSPH_MODE_FREE};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glNamedBufferSubData(d->ctl, 0, sizeof c, &c);
}

/* A pass over the particles' lanes in a step slot: indirect, so that the slots after the frame's
 * time run it with 0 groups (Ctl.args_step; `args` another of Ctl's arguments). */
static void _dfsph_pass_from(GLuint prog, GLintptr args) {
    sim_dispatch_indirect(prog, args);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}
static void _dfsph_pass(GLuint prog) { _dfsph_pass_from(prog, offsetof(dfsph_ctl, args_step)); }

/* The pressure solve's coarse level on the indirect path (coarse.comp), where it is on: a group a
 * row of cells, then a thread a grid column; then the particles. Both indirect, their groups written
 * by the predict before them (0 where the level does not follow it: converged, a fast flow, a repeat
 * without gravity, a grid past the level's sizes: DFSPH_COARSE_RUNS), so a correction that does not
 * run costs two empty dispatches; its passes also read Ctl and return where it does not run. */
void dfsph_coarse_run(dfsph *d) {
    if (!d->coarse) return;
    sim_dispatch_indirect(d->prog[P_COARSE_SUMS], offsetof(dfsph_ctl, args_coarse));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    sim_dispatch_indirect(d->prog[P_COARSE_APPLY], offsetof(dfsph_ctl, args_coarse_apply));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
}

/* One solve: the pressure solve's warm-start update and first predict run always (warm >= 0; the
 * divergence solve's first predict was the density pass's, whose last group wrote its first pair's
 * groups); then `pairs` (update, predict) pairs whose group counts the predicts write (0 once
 * converged). The pressure solve's coarse level follows each of its first coarse_levels predicts
 * (its passes run with 0 groups where it does not). With a tail (tail_groups), a persistent dispatch
 * of `tail` then runs the iterations the pairs left, up to the cap: the persistent solve's
 * decisions, the indirect path's passes while they last, so that a frame records only the pairs
 * most solves need (dfsph_frame.h, DFSPH_TAIL_SHARE). The tail is indirect, its grid written by the
 * last decision (Ctl.args_tail: 0 where the pairs finished the solve, so that there it costs an
 * empty dispatch, not a grid's launch). */
static void _dfsph_solve(dfsph *d, const sim_particles *p, int warm, int update, int predict, GLintptr args, uint32_t pairs,
                         int tail) {
    uint32_t groups = gpu_groups((size_t)p->n * p->lanes, SIM_WG); /* the indirect path's (virtual) groups */
    if (d->solve_groups) {                                         /* the persistent path: the whole solve in one dispatch */
        if (groups)
            dfsph_grid_dispatch(d, d->prog[predict == P_DIV_PREDICT ? P_DIV_SOLVE : P_DENS_SOLVE], d->solve_groups, groups,
                                GL_SHADER_STORAGE_BARRIER_BIT);
        return;
    }
    if (warm >= 0) { /* the pressure solve: its warm start, first predict and coarse level */
        _dfsph_pass(d->prog[warm]);
        _dfsph_pass(d->prog[predict]);
        dfsph_coarse_run(d);
    }
    for (uint32_t k = 0; k < pairs; k++) {
        sim_dispatch_indirect(d->prog[update], args);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        sim_dispatch_indirect(d->prog[predict], args);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        if (predict == P_DENS_PREDICT && k + 1 < (uint32_t)d->coarse_levels) dfsph_coarse_run(d);
    }
    if (d->tail_groups && groups) { /* indirect: the grid where the pairs left the solve going, else 0 groups */
        sim_dispatch_indirect(d->prog[tail], offsetof(dfsph_ctl, args_tail));
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        if (d->llvmpipe) dfsph_stall_check(d);
    }
}

/* integrate with the next step's hash (sim_search_hash_pass; 0: integrate runs alone). */
GLuint dfsph_integrate_hash(dfsph *d, const sim_search *q) {
    return sim_search_hash_pass(&d->integrate_hash, q, "sim/dfsph/integrate.comp", d->defines, "sim.dfsph.integrate_hash");
}

void dfsph_step(void *impl, sim_particles *p, sim_search *q, gpu_prof *prof, int first) {
    dfsph *d = impl;
    uint32_t n = p->n;
    dfsph_bind(d, p, q);
    GLuint fused = n ? dfsph_step_program(d, q) : 0;
    /* The fused step is one dispatch: a GPU timer sees only its whole. A step the profiler times
     * (prof) runs the per-stage path instead, each stage its own dispatches and timer pair; both
     * paths give bit-identical fluids (test_sim_persistent), so the stages shown are measured. The
     * caller samples such steps sparingly (sim_stage_note; the session's every 4th frame). */
    if (fused && !prof) {
        dfsph_step_fused(d, p, q, fused);
        return;
    }
    prof_begin(prof, first + 0);
    /* Direct, also in an empty slot: the search there reordered the particles, and the densities
     * (read by the renderer and the stats) must follow them; it writes nothing else that lasts
     * but, in the frame's first slot, the frame's values into the control block. After an empty
     * slot the search reordered nothing and its groups return at once (dfsph_density_skip). */
    glProgramUniform4uiv(d->prog[P_DENSITY], 0, 1, d->frame_vals);
    glProgramUniform1ui(d->prog[P_DENSITY], 1, d->frame_set);
    d->frame_set = 0;
    sim_dispatch_neighbours(p, d->prog[P_DENSITY]);
    glMemoryBarrier(GL_COMMAND_BARRIER_BIT); /* the step's indirect arguments it may have written */
    prof_end(prof, first + 0);
    prof_begin(prof, first + 1);
    _dfsph_solve(d, p, -1, P_DIV_UPDATE, P_DIV_PREDICT, offsetof(dfsph_ctl, args_div),
                 d->tail_groups ? d->plan.pairs[0] : d->pol.cap_div, P_DIV_TAIL);
    prof_end(prof, first + 1);
    prof_begin(prof, first + 2);
    /* folded: only where the divergence solve iterated; else the density pass sized the step (density.comp) */
    _dfsph_pass_from(d->prog[P_NONPRESSURE], d->fold ? offsetof(dfsph_ctl, args_np) : offsetof(dfsph_ctl, args_step));
    prof_end(prof, first + 2);
    prof_begin(prof, first + 3);
    _dfsph_solve(d, p, P_DENS_WARM, P_DENS_UPDATE, P_DENS_PREDICT, offsetof(dfsph_ctl, args_dens),
                 d->tail_groups ? d->plan.pairs[1] : d->pol.cap_dens, P_DENS_TAIL);
    prof_end(prof, first + 3);
    prof_begin(prof, first + 4);
    GLuint hash = dfsph_integrate_hash(d, q);
    if (hash) {
        sim_search_hash_bind(q);
        sim_dispatch(hash, n);
        sim_search_hashed(q, n);
    } else sim_dispatch(d->prog[P_INTEGRATE], n);
    prof_end(prof, first + 4);
    d->frame_issued++;
}
