/* dfsph_persistent: DFSPH's persistent path: each solve one dispatch whose groups all stay resident
 * and meet at grid barriers (solve.comp), and the fused step: the whole step after the search one
 * dispatch (step.comp), its phases and the solves' iterations behind grid-wide barriers. */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/dfsph/dfsph_internal.h"
#include <stdio.h>

#define DFSPH_GROUPS_PER_SM 4 /* the persistent grid: 4 groups an SM measured best on the H100 (1, 2 and 8 slower) */

/* The GPU's multiprocessors times the warps each holds, from gl_SMCountNV (0 where the extension
 * is missing). */
static uint32_t _dfsph_sm_count(void) {
    char err[ERR_LEN];
    GLuint prog = sim_program_make("sim/dfsph/sm_count.comp", NULL, "sim.dfsph.sm_count", err), buf = 0;
    uint32_t out[2] = {0, 0};
    if (prog && (buf = gpu_buffer_make(sizeof out, out, "sim.dfsph.sm_count", err))) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
        glUseProgram(prog);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(buf, 0, sizeof out, out);
    }
    gpu_buffer_destroy(&buf);
    shader_destroy(&prog);
    return out[0];
}

/* The persistent solve only on drivers that make forward progress between groups
 * (gpu_forward_progress), with a grid of DFSPH_GROUPS_PER_SM groups of SIM_WG an SM (NVIDIA:
 * gl_SMCountNV; elsewhere the count is unknown and the indirect path runs), and only where the
 * neighbour lists hold records: past the L2 (109,744 on the H100) the coherent reads it needs made
 * it 50% slower (docs/BENCHMARKS.md). The desc's `persistent` forces N groups on any driver
 * (DFSPH_ZERO: the indirect path; llvmpipe runs up to LP_NUM_THREADS groups at once). Where the
 * programs do not build, the indirect path. */
bool dfsph_persistent_choose(dfsph *d, const gpu_caps *caps, char *err) {
    (void)err;
    uint32_t groups = d->desc.persistent == DFSPH_ZERO                            ? 0
                      : d->desc.persistent > 0                                    ? (uint32_t)d->desc.persistent
                      : d->rec == 16 && gpu_forward_progress() && !caps->llvmpipe ? DFSPH_GROUPS_PER_SM * _dfsph_sm_count()
                                                                                  : 0;
    if (!groups) return true;
    uint32_t form = d->desc.grid_form == DFSPH_ZERO ? 0 : 1, fused = d->desc.fused == DFSPH_ZERO ? 0 : (uint32_t)d->desc.fused;
    snprintf(d->grid_defines, sizeof d->grid_defines, "#define GRID_POLL_ONE %d\n#define GRID_FORM %u\n", !caps->llvmpipe, form);
    char e[ERR_LEN];
    for (int i = P_DIV_SOLVE; i < P_ALL; i++) {
        char defines[1536];
        snprintf(defines, sizeof defines, "%s%s%s", d->defines, dfsph_programs[i].defines, d->grid_defines);
        if (!(d->prog[i] = sim_program_make(dfsph_programs[i].file, defines, dfsph_programs[i].label, e))) {
            log_error("SIM", "dfsph: the persistent solve: %s (the indirect path runs)", e);
            return true;
        }
    }
    d->solve_groups = groups;
    d->fused = fused;
    return true;
}

/* The persistent path's grid for `groups` virtual groups: as few groups as take them in as few
 * rounds as solve_groups would: the same passes' time with a cheaper barrier (27,648 on the
 * H100: 432 groups of 2 each, not 528 of 1 or 2). */
uint32_t dfsph_grid(const dfsph *d, uint32_t groups) {
    uint32_t rounds = (groups + d->solve_groups - 1) / d->solve_groups;
    return (groups + rounds - 1) / rounds;
}

/* The fused step (step.comp) for the search's sorter, with the next step's hash as integrate
 * makes it; 0 where the persistent path does not run fused, or it does not build (then each solve
 * alone runs persistent). Its partials' second region starts at n_groups_max (DFSPH_PARTIAL2). */
GLuint dfsph_step_program(dfsph *d, const sim_search *q) {
    if (!d->solve_groups || !d->fused || d->step_failed) return 0;
    if (d->step_prog && d->step_serial == sim_search_serial(q)) return d->step_prog;
    if (!dfsph_integrate_hash(d, q)) return 0; /* no hash made in the pass: the unfused path's */
    shader_destroy(&d->step_prog);
    d->step_serial = sim_search_serial(q);
    char defines[8192], err[ERR_LEN];
    size_t used = (size_t)snprintf(defines, sizeof defines,
                                   "%s%s#define DFSPH_PARTIAL2 %uu\n#define DFSPH_STEP_ALIAS %d\n#define DFSPH_PHASE_CLOCK %d\n",
                                   d->defines, d->grid_defines, d->n_groups_max, d->fused != 2, d->phase_clock);
    sim_search_hash_defines(q, defines + used, sizeof defines - used);
    d->step_prog = sim_program_make("sim/dfsph/step.comp", defines, "sim.dfsph.step", err);
    if (!d->step_prog) log_error("SIM", "dfsph: the fused step: %s (each solve alone runs persistent)", err);
    d->step_failed = !d->step_prog;
    return d->step_prog;
}

/* The whole step after the search as one dispatch (its stages untimed: a timed step runs the
 * per-stage path, dfsph_step). */
void dfsph_step_fused(dfsph *d, sim_particles *p, sim_search *q, GLuint prog) {
    glProgramUniform4uiv(prog, 0, 1, d->frame_vals);
    glProgramUniform1ui(prog, 1, d->frame_set);
    d->frame_set = 0;
    sim_search_hash_bind(q);
    glUseProgram(prog);
    glDispatchCompute(dfsph_grid(d, gpu_groups((size_t)p->n * p->lanes, SIM_WG)), 1, 1);
    sim_dispatch_count_add(1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    sim_search_hashed(q, p->n);
    d->frame_issued++;
}

const char *dfsph_stage_note(void *impl) {
    const dfsph *d = impl;
    /* the fused step's program, built at prime */
    return d->solve_groups && d->fused && d->step_prog && !d->step_failed
               ? "a per-stage sample; the other steps run fused"
               : NULL;
}

/* Before any step (prime): the persistent path's grid for `n` particles crosses a few grid
 * barriers on a scratch buffer (grid_probe.comp). Where it stalls, the groups are not all resident
 * here (FLUID_DFSPH_PERSISTENT above what the GPU holds): the indirect path runs every step, so
 * the fluid is the indirect path's bit for bit (a stall inside a step would have left it
 * half-stepped). */
void dfsph_persistent_probe(dfsph *d, const sim_particles *p) {
    uint32_t groups = d->solve_groups ? gpu_groups((size_t)p->n * p->lanes, SIM_WG) : 0;
    if (!groups) return;
    char defines[1280], err[ERR_LEN];
    snprintf(defines, sizeof defines, "%s%s#define GRID_PROBE_ROUNDS 4u\n", d->defines, d->grid_defines);
    GLuint prog = sim_program_make("sim/dfsph/grid_probe.comp", defines, "sim.dfsph.grid_probe", err), buf = 0;
    uint32_t words[3] = {0, 0, 0};
    bool ran = false;
    if (prog && (buf = gpu_buffer_make(sizeof words, words, "sim.dfsph.grid_probe", err))) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_CTL, buf); /* dfsph_bind binds the control block again */
        glUseProgram(prog);
        glDispatchCompute(dfsph_grid(d, groups), 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(buf, 0, sizeof words, words);
        ran = true;
    }
    gpu_buffer_destroy(&buf);
    shader_destroy(&prog);
    if (!ran) {
        log_error("SIM", "dfsph: the persistent path's probe: %s (the indirect path runs)", err);
        words[2] = 1;
    } else if (words[2])
        log_error("SIM",
                  "dfsph: the persistent path's %u groups are not all resident here (a grid barrier stalled before the "
                  "first step); the indirect path runs (set FLUID_DFSPH_PERSISTENT lower, or 0)",
                  dfsph_grid(d, groups));
    if (words[2]) d->solve_groups = 0;
}
