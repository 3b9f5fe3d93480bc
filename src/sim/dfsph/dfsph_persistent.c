/* dfsph_persistent: DFSPH's persistent path: each solve one dispatch whose groups all stay resident
 * and meet at grid barriers (solve.comp), and the fused step: the whole step after the search one
 * dispatch (step.comp), its phases and the solves' iterations behind grid-wide barriers. */
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/dfsph/dfsph_internal.h"
#include <stdio.h>

static bool _dfsph_probe(dfsph *d, GLuint prog, uint32_t most);

#define DFSPH_GROUPS_PER_SM 4 /* the persistent grid: 4 groups an SM measured best on the H100 (1, 2 and 8 slower) */

/* The GPU's multiprocessors, from gl_SMCountNV (0 where the extension is missing). */
static uint32_t _dfsph_sm_count(void) {
    char err[ERR_LEN];
    GLuint prog = sim_program_make("sim/dfsph/sm_count.comp", NULL, "sim.dfsph.sm_count", err), buf = 0;
    uint32_t count = 0;
    if (prog && (buf = gpu_buffer_make(sizeof count, &count, "sim.dfsph.sm_count", err))) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
        glUseProgram(prog);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetNamedBufferSubData(buf, 0, sizeof count, &count);
    }
    gpu_buffer_destroy(&buf);
    shader_destroy(&prog);
    return count;
}

/* The persistent solve only on drivers that make forward progress between groups
 * (gpu_forward_progress), with a grid of DFSPH_GROUPS_PER_SM groups of SIM_WG an SM (NVIDIA:
 * gl_SMCountNV; elsewhere the count is unknown and the indirect path runs). Where the neighbour
 * lists hold records, the whole solve (and by default the whole step) is one dispatch; where they
 * hold indices (past the L2: 109,744 on the H100) the coherent reads it needs made that 50% slower
 * (docs/BENCHMARKS.md), so there the indirect path runs, and a persistent dispatch after each
 * solve's recorded pairs runs whatever iterations they left (its tail: dfsph_passes.c), so that no
 * empty pair is recorded for the rare solve that needs many: up to 262,144 particles (2 lanes a
 * particle; the H100 at 109,744: 15.83 -> 15.10 ms a frame; the tail indirect since session 35,
 * 14.1 -> 13.6). Past it, with one lane, a tail's iteration costs far more than an empty pair
 * (432,000: 78.7 -> 79.7 ms, 986,078: 210.5 -> 215.0, s27; with the tail indirect 66.0 -> 68.4 and
 * 171.2 -> 184.7, s35; docs/BENCHMARKS.md), so there the indirect path runs alone. The desc's
 * `persistent` forces N groups on any driver and the whole solve persistent (DFSPH_ZERO: the indirect path alone; llvmpipe runs
 * up to LP_NUM_THREADS groups at once); its `tail` the tail wherever the grid runs. Where the
 * programs do not build, the indirect path alone. */
bool dfsph_persistent_choose(dfsph *d, const gpu_caps *caps, char *err) {
    (void)err;
    dfsph_path path = d->path; /* chosen when the solver was made (dfsph.c) */
    if (path == DFSPH_PATH_INDIRECT) return true;
    uint32_t groups = d->desc.persistent > 0 ? (uint32_t)d->desc.persistent : DFSPH_GROUPS_PER_SM * _dfsph_sm_count();
    if (!groups) return true;
    bool tail = path == DFSPH_PATH_TAIL;
    uint32_t form = d->desc.grid_form == DFSPH_ZERO ? 0 : 1, fused = d->desc.fused == DFSPH_ZERO ? 0 : (uint32_t)d->desc.fused;
    d->llvmpipe = caps->llvmpipe;
    snprintf(d->grid_defines, sizeof d->grid_defines, "#define GRID_POLL_ONE %d\n#define GRID_FORM %u\n#define GRID_LOOP_CHECK %d\n",
             !caps->llvmpipe, form, caps->llvmpipe);
    char e[ERR_LEN];
    for (int i = tail ? P_DIV_TAIL : P_DIV_SOLVE; i < (tail ? P_ALL : P_DIV_TAIL); i++) {
        char defines[1536];
        snprintf(defines, sizeof defines, "%s%s%s%s", d->defines, dfsph_programs[i].defines, d->grid_defines,
                 dfsph_fold_define(d, i));
        if (!(d->prog[i] = sim_program_make(dfsph_programs[i].file, defines, dfsph_programs[i].label, e))) {
            log_error("SIM", "dfsph: the persistent %s: %s (the indirect path runs)", tail ? "tail" : "solve", e);
            return true;
        }
    }
    if (tail) d->tail_groups = groups;
    else d->solve_groups = groups, d->fused = fused;
    return true;
}

/* The persistent path's grid for `groups` virtual groups: as few groups as take them in as few
 * rounds as `most` (its grid) would: the same passes' time with a cheaper barrier (27,648 on the
 * H100: 432 groups of 2 each, not 528 of 1 or 2). The tail's GLSL twin: dfsph_tail_grid
 * (dfsph_common.glsl). */
uint32_t dfsph_grid(uint32_t most, uint32_t groups) {
    uint32_t rounds = (groups + most - 1) / most;
    return (groups + rounds - 1) / rounds;
}

/* One persistent dispatch of `prog` over `groups` virtual groups on dfsph_grid(most, groups),
 * counted, then `barriers`; on llvmpipe the stalled word is read at once, so that the next
 * dispatch runs indirect (the frames' check is late). */
void dfsph_grid_dispatch(dfsph *d, GLuint prog, uint32_t most, uint32_t groups, GLbitfield barriers) {
    glUseProgram(prog);
    glDispatchCompute(dfsph_grid(most, groups), 1, 1);
    sim_dispatch_count_add(1);
    glMemoryBarrier(barriers);
    if (d->llvmpipe) dfsph_stall_check(d);
}

/* The fused step (step.comp) for the search's sorter, with the next step's hash as integrate
 * makes it; 0 where the persistent path does not run fused, or it does not build (then each solve
 * alone runs persistent). Its partials' second and third regions start at n_groups_max and twice it
 * (DFSPH_PARTIAL2, DFSPH_PARTIAL3). */
GLuint dfsph_step_program(dfsph *d, const sim_search *q) {
    if (!d->solve_groups || !d->fused || d->step_failed) return 0;
    if (d->step_prog && d->step_serial == sim_search_serial(q)) return d->step_prog;
    if (!dfsph_integrate_hash(d, q)) return 0; /* no hash made in the pass: the unfused path's */
    shader_destroy(&d->step_prog);
    d->step_serial = sim_search_serial(q);
    char defines[8192], err[ERR_LEN];
    size_t used = (size_t)snprintf(defines, sizeof defines,
                                   "%s%s#define DFSPH_PARTIAL2 %uu\n#define DFSPH_PARTIAL3 %uu\n#define DFSPH_STEP_ALIAS %d\n"
                                   "#define DFSPH_PHASE_CLOCK %d\n",
                                   d->defines, d->grid_defines, d->n_groups_max, 2 * d->n_groups_max, d->fused != 2, d->phase_clock);
    sim_search_hash_defines(q, defines + used, sizeof defines - used);
    d->step_prog = sim_program_make("sim/dfsph/step.comp", defines, "sim.dfsph.step", err);
    if (!d->step_prog) log_error("SIM", "dfsph: the fused step: %s (each solve alone runs persistent)", err);
    d->step_failed = !d->step_prog;
    if (d->step_prog && !_dfsph_probe(d, d->step_prog, d->solve_groups))
        d->solve_groups = 0; /* not resident: the indirect path */
    return d->solve_groups ? d->step_prog : 0;
}

/* The whole step after the search as one dispatch (its stages untimed: a timed step runs the
 * per-stage path, dfsph_step). */
void dfsph_step_fused(dfsph *d, sim_particles *p, sim_search *q, GLuint prog) {
    glProgramUniform4uiv(prog, 0, 1, d->frame_vals);
    glProgramUniform1ui(prog, 1, d->frame_set);
    d->frame_set = 0;
    sim_search_hash_bind(q);
    dfsph_grid_dispatch(d, prog, d->solve_groups, gpu_groups((size_t)p->n * p->lanes, SIM_WG), GL_SHADER_STORAGE_BARRIER_BIT);
    sim_search_hashed(q, p->n);
    d->frame_issued++;
}

const char *dfsph_stage_note(void *impl) {
    const dfsph *d = impl;
    /* the fused step's program, built at prime */
    return d->solve_groups && d->fused && d->step_prog && !d->step_failed ? "a per-stage sample; the other steps run fused"
                                                                          : NULL;
}

/* Crosses 4 grid barriers with `prog` (step.comp or solve.comp) in its probe mode (probe.glsl) on a
 * scratch control block, with the grid of the particles' lanes (groups_step): true where none
 * stalled. The program's own registers and shared memory decide how many of its groups stay
 * resident (the H100 at 109,744 with FLUID_DFSPH_PERSISTENT=2112: the fused step's 1,715 groups
 * stalled inside the third frame's step, after the barrier-only probe that stood here before had
 * passed, and the fluid was left half-stepped). */
static bool _dfsph_probe(dfsph *d, GLuint prog, uint32_t most) {
    uint32_t groups = d->groups_step;
    if (!prog || !groups) return true;
    char err[ERR_LEN];
    dfsph_ctl c = {0};
    GLuint buf = gpu_buffer_make(sizeof c, &c, "sim.dfsph.probe", err);
    if (!buf) {
        log_error("SIM", "dfsph: the persistent path's probe: %s (the indirect path runs)", err);
        return false;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_CTL, buf);
    glProgramUniform1ui(prog, DFSPH_U_PROBE, 4);
    glUseProgram(prog);
    glDispatchCompute(dfsph_grid(most, groups), 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glProgramUniform1ui(prog, DFSPH_U_PROBE, 0);
    glGetNamedBufferSubData(buf, 0, sizeof c, &c);
    gpu_buffer_destroy(&buf);
    /* the step's own again: a sort switch rebuilds the fused step (and probes it) after dfsph_bind */
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DFSPH_B_CTL, d->ctl);
    if (c.stalled)
        log_error("SIM",
                  "dfsph: the persistent path's %u groups are not all resident here (a grid barrier stalled in the probe, "
                  "before any step ran on them); the indirect path runs (set FLUID_DFSPH_PERSISTENT lower, or 0)",
                  dfsph_grid(most, groups));
    return !c.stalled;
}

/* llvmpipe's loop limiter: gallivm ends every loop of a shader invocation once its loops have run
 * LP_MAX_TGSI_LOOP_ITERATIONS (65,535) iterations in all, silently (grid_barrier.glsl's
 * grid_loop_check says so after the fact). A persistent group's invocation runs every pass of its
 * dispatch over `rounds` virtual groups, each pass a neighbour list walk (about 36 iterations: the
 * list, about 33 at rest, and the walk's own): at the first caps (DFSPH_CAP_DIV0, DFSPH_CAP_DENS0)
 * a fused step is about 2 (10 + 20) + 8 = 68 passes, a pressure solve alone 2 * 20 + 2 = 42. An
 * estimate, not a bound (a solve may take up to DFSPH_MAX_IT iterations, a list DFSPH_LIST_CAP
 * entries): grid_loop_check catches the rest. Measured on llvmpipe with one group, free steps: the
 * dam break at 2,662 (21 rounds) used 32,000 of them a step, the pool at 2,744 (22) all of them in
 * its second step, at 4,096 (32) in its first. */
#define DFSPH_LOOP_LIMIT 65535u
#define DFSPH_LOOP_PASS 36u
static uint32_t _dfsph_loop_rounds_max(const dfsph *d) {
    uint32_t passes = d->solve_groups && d->fused ? 2 * (DFSPH_CAP_DIV0 + DFSPH_CAP_DENS0) + 8 : 2 * DFSPH_CAP_DENS0 + 2;
    return DFSPH_LOOP_LIMIT / (DFSPH_LOOP_PASS * passes);
}

/* At prime, with groups_step set for the particles: the persistent solves probed before any step
 * (the fused step is probed where it is built, dfsph_step_program). Where one stalls, its groups
 * are not all resident here (FLUID_DFSPH_PERSISTENT above what the GPU holds of that program): the
 * indirect path runs every step, so the fluid is the indirect path's bit for bit. The same on
 * llvmpipe where each group would walk more virtual groups than its loop limiter leaves room for. */
void dfsph_persistent_probe(dfsph *d) {
    bool solve = d->solve_groups != 0; /* else the tail's grid, if any */
    uint32_t *groups = solve ? &d->solve_groups : &d->tail_groups;
    if (*groups && d->llvmpipe && d->groups_step) {
        uint32_t grid = dfsph_grid(*groups, d->groups_step), rounds = (d->groups_step + grid - 1) / grid,
                 most = _dfsph_loop_rounds_max(d);
        if (rounds > most) {
            log_error("SIM",
                      "dfsph: each of the persistent path's %u group%s would walk %u virtual groups, more than llvmpipe's "
                      "limit of 65,535 loop iterations a shader leaves room for (%u); the indirect path runs (set "
                      "FLUID_DFSPH_PERSISTENT to 0, or ask for fewer particles)",
                      grid, grid == 1 ? "" : "s", rounds, most);
            *groups = 0;
        }
    }
    int first = solve ? P_DIV_SOLVE : P_DIV_TAIL;
    if (*groups && !(_dfsph_probe(d, d->prog[first], *groups) && _dfsph_probe(d, d->prog[first + 1], *groups))) *groups = 0;
}
