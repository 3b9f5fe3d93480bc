/* dfsph: divergence-free SPH (Bender & Koschier 2015, 2017), with SPlisHSPlasH's defaults; the
 * model and the choices are in docs/SPH.md. A step, after the shared neighbour search:
 *   density     rho and the solver factor per particle (in the walls' buffer), the neighbour lists, the walls' share;
 *               the divergence solve's first predict, and its decision (the same walk)
 *   divergence  the divergence solve's (update, predict) pairs, where the first predict did not converge
 *   nonpressure viscosity, walls, gravity, mouse; the CFL step size; loads the pressure warm start
 *   pressure    the constant-density solve: warm-start update (also v += dt a), predict, pairs
 *   integrate   x += dt v, the hard walls; the step's record; the next step's hash (search.h)
 *
 * No CPU stall: each predict's last work group (and for the divergence solve's first pair the
 * density pass's, which makes its first predict) writes the next (update, predict) dispatches'
 * group counts, 0 once the solve has converged, and the CPU records those pairs as indirect
 * dispatches up to a cap (the most iterations seen lately, plus one; doubled when a solve hits
 * it). The step size lives on the GPU too: the CPU learns it, the iterations and the errors from
 * the step records, read a fixed two frames later (so a run is the same every time), and sizes the
 * next frames' step counts and caps from them.
 * The frame's time lives on the GPU too, in whole ticks (Ctl.t_rem): each step takes as few equal
 * steps under the CFL limit as finish it, the last exactly what is left; the CPU records step
 * slots for the speed it predicts plus a spare, and the slots after the time is used run empty
 * (their passes are indirect with 0 groups; the search, density and integrate with dt 0 run, and
 * change nothing but the particles' order). A frame whose slots run out carries the rest to the
 * next (its last record says so); sim_catch_up finishes it at a run's end. A frame runs at most its
 * own time and 1 / debt_share of what is owed (Ctl.t_frame; 1/16 above 589,824 particles, else all
 * of it), so that after an impact's short frames no one frame runs their whole debt.
 * The persistent path (by default on NVIDIA where the lists hold records; dfsph_desc.persistent):
 * the whole step after the search is one dispatch of step.comp, its phases and the solves'
 * iterations behind grid-wide barriers (the fused step; dfsph_desc.fused DFSPH_ZERO: each solve alone is
 * one dispatch of solve.comp, the other passes their own).
 * This file: the solver's table, its desc (dfsph.h: read once, with its FLUID_DFSPH_* variables),
 * making and priming it, the tests' hooks; the rest of the folder is listed in dfsph_internal.h.
 */
#include "core/env.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/dfsph/dfsph_internal.h"
#include "sim/dfsph/dfsph_params.h"
#include "sim/solver_test.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DFSPH_REC_L2 (40u << 20)  /* lists of records up to this many bytes (the H100's L2 is 50 MB) */
#define DFSPH_MOMENTUM_MAX 262144 /* particles up to which the pressure iterations take momentum by default */
/* A frame's slots are at most DFSPH_SLOTS_GROW times the steps of the frame they are planned from
 * (plus 2; dfsph_frame.c), DFSPH_SLOTS_GROW_LARGE above DFSPH_SLOTS_GROW_LARGE_ABOVE particles. On
 * the H100 1.25 against 1.5 took the dam break at 27,648 3.44 -> 3.37 ms a frame (its worst 6.17 ->
 * 5.17), 109,744 -1.7%, 432,000 -1.3% (s32; 986,078 then +3.0%, so 1.5 above 655,360 until s38).
 * With a frame's budget of its own time and 1/16 of the debt above 589,824 (s37), s38 measured
 * again (t = 0-1 s, mean / worst ms): 1.25 against 1.5, 432,000 66.1 / 126 against 67.1 / 133,
 * 549,250 90.7 / 175 against 92.0 / 193, 601,526 99.3 / 162 against 99.8 / 173, 810,448 128.4 / 209
 * against 130.9 / 211, 986,078 168.3 / 265 against 170.9 / 279 (476,656 alone faster with 1.5:
 * 74.8 / 155 against 77.4 / 151); then 1.1 against 1.25, 109,744 13.63 / 23.1 against 13.78 / 26.2,
 * 432,000 65.7 / 109 against 66.0 / 125, 810,448 127.3 / 163 against 128.7 / 210, 986,078 162.0 /
 * 222 against 169.5 / 267, but 27,648 3.503 / 5.52 against 3.490 / 5.37. Those are ms a frame: a
 * frame that runs out of slots leaves the rest of its time to later frames, and at 986,078 1.1 ended
 * the 60 frames at t = 0.959 s (1.25 at 0.992), so per simulated 1/60 s (s39) 1.1 is 168.5 / 221
 * against 169.6 / 265 there, 810,448 132.1 / 163 against 129.0 / 209 (one run each), 601,526 98.9
 * against 100.0; 109,744 and 432,000 end at t = 1 s either way. Between 27,648 and 109,744 not
 * measured (docs/BENCHMARKS.md, s32, s38 and s39). */
#define DFSPH_SLOTS_GROW 1.25f
#define DFSPH_SLOTS_GROW_LARGE 1.1f
#define DFSPH_SLOTS_GROW_LARGE_ABOVE 65536
/* Above DFSPH_DEBT_SHARE_ABOVE particles a frame's budget on the GPU is its own time and 1/16 of
 * what earlier frames owed (density_pass.glsl), so that the frame after an impact's short frames
 * does not run their whole debt. On the H100 (dam break, t = 0-1 s, ms mean / worst, 1 -> 1/16):
 * 986,078 171.5 / 351 -> 170.8 / 279 (s36), 810,448 131.4 / 273 -> 131.4 / 211, 601,526 100.3 / 188
 * -> 99.5 / 162 (s37); per simulated 1/60 s (s39, the slots' cap 1.1): 986,078 172.1 / 362 ->
 * 168.5 / 221, 810,448 133.8 -> 132.1, 601,526 97.4 -> 98.9 (one run). Below, the worst frames
 * shrink as much but the mean pays through more steps: 549,250 90.8 -> 91.8, 524,288 82.1 -> 84.1,
 * 432,000 66.1 -> 68.5, 27,648 3.37 -> 3.74 (the debt's slivers cost steps there; 476,656 alone
 * gained, 77.3 -> 76.9), so at and below it a frame takes all it owes (docs/BENCHMARKS.md, s36, s37
 * and s39; on s39's measure 601,526 read all of the debt 1.6% faster, one run, left as it is). */
#define DFSPH_DEBT_SHARE_LARGE 16
#define DFSPH_DEBT_SHARE_ABOVE 589824 /* 576k: between 549,250 and 601,526 */
/* The lists' stride (lanes a list buffer holds) and the groups it sets (the partials' regions) are
 * numbers in the programs' text, so each count builds programs of its own. Up to
 * DFSPH_BAND_UPTO lanes the stride is rounded up to a band of DFSPH_BAND lanes, plus 16 (a 4 KiB
 * multiple would put a lane's entries in one set of a CPU's cache), so that every count of a band
 * builds the same programs and the shader cache serves them: llvmpipe's suite runs dozens of
 * small counts. Past it the stride is the lanes themselves, as measured on the H100 (taking it
 * from the live count instead cost 1-5% there, docs/BENCHMARKS.md, s37). */
#define DFSPH_BAND 4096
#define DFSPH_BAND_UPTO 16384

static size_t _dfsph_stride(size_t lanes) {
    return lanes > DFSPH_BAND_UPTO ? lanes : (lanes + DFSPH_BAND - 1) / DFSPH_BAND * DFSPH_BAND + 16;
}

static const char *const _dfsph_stages[] = {"density", "divergence", "nonpressure", "pressure", "integrate"};
_Static_assert(sizeof _dfsph_stages / sizeof *_dfsph_stages == DFSPH_PHASES, "the fused step measures each stage as a phase");
static const char *const _dfsph_counters[] = {"divergence", "pressure"}; /* sim_step_record.it[0], it[1] */

const dfsph_program dfsph_programs[P_ALL] = {
    [P_DENSITY] = {"sim/dfsph/density.comp", NULL, "sim.dfsph.density"},
    [P_DIV_UPDATE] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 0\n#define DFSPH_WARM 0\n", "sim.dfsph.div_update"},
    [P_DIV_PREDICT] = {"sim/dfsph/predict.comp", "#define DFSPH_DENSITY 0\n", "sim.dfsph.div_predict"},
    [P_NONPRESSURE] = {"sim/dfsph/nonpressure.comp", NULL, "sim.dfsph.nonpressure"},
    [P_DENS_WARM] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 1\n#define DFSPH_WARM 1\n", "sim.dfsph.dens_warm"},
    [P_DENS_UPDATE] = {"sim/dfsph/update.comp", "#define DFSPH_DENSITY 1\n#define DFSPH_WARM 0\n", "sim.dfsph.dens_update"},
    [P_DENS_PREDICT] = {"sim/dfsph/predict.comp", "#define DFSPH_DENSITY 1\n", "sim.dfsph.dens_predict"},
    [P_COARSE_SUMS] = {"sim/dfsph/coarse.comp", "#define DFSPH_COARSE_PASS 1\n", "sim.dfsph.coarse_sums"},
    [P_COARSE_APPLY] = {"sim/dfsph/coarse.comp", "#define DFSPH_COARSE_PASS 2\n", "sim.dfsph.coarse_apply"},
    [P_INTEGRATE] = {"sim/dfsph/integrate.comp", NULL, "sim.dfsph.integrate"},
    /* The persistent path (made only where it runs). */
    [P_DIV_SOLVE] = {"sim/dfsph/solve.comp", "#define DFSPH_DENSITY 0\n", "sim.dfsph.div_solve"},
    [P_DENS_SOLVE] = {"sim/dfsph/solve.comp", "#define DFSPH_DENSITY 1\n", "sim.dfsph.dens_solve"},
    [P_DIV_TAIL] = {"sim/dfsph/solve.comp", "#define DFSPH_DENSITY 0\n#define DFSPH_TAIL 1\n", "sim.dfsph.div_tail"},
    [P_DENS_TAIL] = {"sim/dfsph/solve.comp", "#define DFSPH_DENSITY 1\n#define DFSPH_TAIL 1\n", "sim.dfsph.dens_tail"},
};

/* --- its desc --- */

/* One int field: the desc's value (DFSPH_ZERO or lo..hi), else the variable's (0 as DFSPH_ZERO),
 * else 0 (the default). */
static bool _dfsph_knob(int *field, env_var v, uint32_t lo, uint32_t hi, char *err) {
    if (*field) {
        if (*field == DFSPH_ZERO ? lo == 0 : *field >= (int)lo && *field <= (int)hi) return true;
        return fail(err, "dfsph_desc: the field for %s is %d, out of its range %u..%u (DFSPH_ZERO for 0; 0: the default)",
                    env_table[v].name, *field, lo, hi);
    }
    uint32_t x = UINT32_MAX;
    if (!env_u32(v, lo, hi, &x, err)) return false;
    if (x != UINT32_MAX) *field = x ? (int)x : DFSPH_ZERO;
    return true;
}

static bool _dfsph_desc_resolve(const void *in, void *out, char *err) {
    dfsph_desc *d = out;
    *d = in ? *(const dfsph_desc *)in : (dfsph_desc){0};
    if (d->dt_max == 0 && !dfsph_params_env(&d->dt_max, err)) return false;
    if (d->dt_max != 0 && !(d->dt_max >= 1e-6f && d->dt_max <= 0.1f))
        return fail(err, "dfsph_desc: dt_max %g s is out of range (1e-06 to 0.1)", d->dt_max);
    if (!_dfsph_knob(&d->slack, ENV_DFSPH_SLACK, 0, 99, err) || !_dfsph_knob(&d->spare, ENV_DFSPH_SPARE, 0, 8, err) ||
        !_dfsph_knob(&d->history, ENV_DFSPH_HISTORY, 1, DFSPH_FRAMES, err) ||
        !_dfsph_knob(&d->records, ENV_DFSPH_RECORDS, 0, 1, err) ||
        !_dfsph_knob(&d->persistent, ENV_DFSPH_PERSISTENT, 0, 65535, err) ||
        !_dfsph_knob(&d->warm_sph, ENV_DFSPH_WARM_SPH, 0, 1, err) || !_dfsph_knob(&d->momentum, ENV_DFSPH_MOMENTUM, 0, 1, err) ||
        !_dfsph_knob(&d->grid_form, ENV_DFSPH_GRID_FORM, 0, 1, err) ||
        !_dfsph_knob(&d->prefetch, ENV_DFSPH_PREFETCH, 0, 8, err) || !_dfsph_knob(&d->fused, ENV_DFSPH_FUSED, 0, 2, err) ||
        !_dfsph_knob(&d->coarse, ENV_DFSPH_COARSE, 0, 1, err) || !_dfsph_knob(&d->tail, ENV_DFSPH_TAIL, 0, 99, err) ||
        !_dfsph_knob(&d->debt_share, ENV_DFSPH_DEBT_SHARE, 1, 64, err))
        return false;
    if (d->rest != 0 && d->rest != 1 && d->rest != DFSPH_ZERO)
        return fail(err, "dfsph_desc: rest is %d (1: on, DFSPH_ZERO: off, 0: by count)", d->rest);
    /* Each empty pair of slack costs a frame its dispatches (docs/BENCHMARKS.md); one pair catches
     * most solves that need one more iteration than lately. */
    if (!d->slack) d->slack = 1;
    if (!d->spare) d->spare = 1;
    if (!d->history) d->history = DFSPH_FRAMES;
    if (!d->grid_form) d->grid_form = 1;
    if (!d->fused) d->fused = 1;
    if (!d->warm_sph) d->warm_sph = DFSPH_ZERO;
    return true;
}

static int _dfsph_value(int field) { return field == DFSPH_ZERO ? 0 : field; }

/* --- making --- */

static double _dfsph_g_over_c2(const sim_params *p) {
    (void)p;
    return 0; /* incompressible: a plain lattice at rest density */
}

static void _dfsph_destroy(void *impl) {
    dfsph *d = impl;
    if (!d) return;
    for (int i = 0; i < P_ALL; i++) shader_destroy(&d->prog[i]);
    shader_destroy(&d->integrate_hash.prog);
    shader_destroy(&d->step_prog);
    GLuint *all[] = {&d->kappa, &d->accel, &d->ctl, &d->records, &d->rb, &d->nbr, &d->nbr_count, &d->wall, &d->params};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) gpu_buffer_destroy(all[i]);
    for (int i = 0; i < DFSPH_FRAMES; i++)
        if (d->fence[i]) glDeleteSync(d->fence[i]);
    free(d);
}

/* DFSPH_FOLD for the programs it changes, where the fold is on: the density pass, the non-pressure
 * pass, and the pressure solve's warm update (update.comp's, solve.comp's), which adds what a
 * particle feels alone and takes its k from vel.w; theirs alone, as the prefetch's, so that the
 * other programs' sources, and so the shader caches' entries, stay the same. */
const char *dfsph_fold_define(const dfsph *d, int prog) {
    bool uses = prog == P_DENSITY || prog == P_NONPRESSURE || prog == P_DENS_WARM || prog == P_DENS_SOLVE;
    return d->fold && uses ? "#define DFSPH_FOLD 1\n" : "";
}

static void *_dfsph_make(const sim_solver_make_desc *md, char *err) {
    const sim_particles *p = md->p;
    const gpu_caps *caps = md->caps;
    dfsph *d = calloc(1, sizeof *d);
    d->desc = *(const dfsph_desc *)md->desc;
    d->sink = md->records;
    d->sp = md->params;
    d->phase_clock = caps->shader_clock;
    dfsph_params dp;
    dfsph_params_default(&dp, d->desc.strict, d->desc.dt_max);
    size_t n = p->capacity ? p->capacity : 1;
    /* The rest's work by default up to DFSPH_MOMENTUM_MAX particles: momentum and the coarse level
     * (below), and the half-steps at rest; past it those were measured only in motion. The depth
     * bound holds at every count: past it too since session 41, where without it the pool scene
     * erupted at 432,000 and 986,078 on the H200 (its first pressure solves stopped at their cap, the
     * error grew tenfold, and the steps then fell to 20 us; docs/SPH.md, "The depth bound"). */
    bool rest = d->desc.rest ? d->desc.rest > 0 : n <= DFSPH_MOMENTUM_MAX;
    d->tail_auto = rest;
    dfsph_params_apply(&dp, md->hs, md->nu, md->params->dx, rest, &d->gp);
    d->gp.debt_share = d->desc.debt_share           ? (uint32_t)d->desc.debt_share
                       : n > DFSPH_DEBT_SHARE_ABOVE ? DFSPH_DEBT_SHARE_LARGE
                                                    : 1;
    size_t stride = _dfsph_stride(n * p->lanes), cap = sim_list_cap(p->lanes);
    d->n_groups_max = gpu_groups(stride, SIM_WG);
    d->dt0 = d->gp.dt_max;
    float grow = n > DFSPH_SLOTS_GROW_LARGE_ABOVE ? DFSPH_SLOTS_GROW_LARGE : DFSPH_SLOTS_GROW;
    dfsph_policy_reset(&d->pol, &(dfsph_policy_desc){.dt_max = d->gp.dt_max,
                                                     .cfl = d->gp.cfl,
                                                     .slack = (uint32_t)_dfsph_value(d->desc.slack),
                                                     .spare = (uint32_t)_dfsph_value(d->desc.spare),
                                                     .grow = grow,
                                                     .history = d->desc.history,
                                                     .debt_share = d->gp.debt_share});
    bool ok = true;
    /* 16-byte records {m grad W_ij, j} where the lists fit the L2 (desc.records forces it, for
     * measuring): they save the solves' kernel evaluations while they stay in the L2, and cost
     * more than they save past it (docs/BENCHMARKS.md) */
    size_t rec = d->desc.records ? (d->desc.records > 0 ? 16 : 4) : 16 * stride * cap <= DFSPH_REC_L2 ? 16 : 4;
    d->rec = (uint32_t)rec;
    /* The walks load list entries ahead (DFSPH_PREFETCH) where the lists hold indices, where it
     * pays. With one lane a particle: 8 at a time in the non-pressure pass, which gathers three
     * values a neighbour, and the next one in the solves' passes (986,078 on the H200 -2.1% a frame
     * against 8 in every pass; s24's H100 had chosen 8 for all); with more lanes the next one (8 at
     * a time: 109,744 +9% on the H100); with records it costs (docs/BENCHMARKS.md). */
    uint32_t prefetch = d->desc.prefetch ? (uint32_t)_dfsph_value(d->desc.prefetch) : rec == 4 ? 1 : 0;
    uint32_t prefetch_np = d->desc.prefetch ? prefetch : rec == 4 && p->lanes == 1 ? 8 : prefetch;
    if (rec * stride * cap > (size_t)caps->max_ssbo_bytes) {
        _dfsph_destroy(d);
        fail(err, "%u particles need %zu MB of neighbour lists, more than one GPU buffer holds here; ask for fewer particles",
             p->capacity, rec * stride * cap >> 20);
        return NULL;
    }
    /* The non-pressure pass's walk folded into the density pass's (density_pass.glsl, DFSPH_FOLD)
     * where a particle has one lane, its list holds indices and density.comp and nonpressure.comp
     * run: not where the fused step does (its own passes, and its sampled steps per stage must give
     * its bits), nor with SPlisHSPlasH's warm start, which needs the non-pressure sums first. By
     * default from 98,305 particles up, where a particle has one lane (docs/SPH.md, "The folded walk"). */
    d->path = dfsph_path_choose(d->desc.persistent, d->desc.tail, rec == 16, rest, gpu_forward_progress() && !caps->llvmpipe);
    bool fused_step = d->desc.fused != DFSPH_ZERO && d->path == DFSPH_PATH_PERSISTENT;
    bool fold = d->desc.fold != DFSPH_ZERO && rec == 4 && p->lanes == 1 && !_dfsph_value(d->desc.warm_sph) && !fused_step;
    d->fold = fold;
    char bindings[512];
    dfsph_shader_defines(bindings, sizeof bindings);
    /* Momentum (docs/SPH.md): on by default up to DFSPH_MOMENTUM_MAX particles, where it measured
     * faster; past it the over-push it leaves in motion shortened the CFL steps (docs/BENCHMARKS.md). */
    int momentum = d->desc.momentum ? _dfsph_value(d->desc.momentum) : rest;
    /* The viscosity's half-steps (solve_fns.glsl: the second in the pressure solve's first predict
     * and update) built only where a step may pass its bound (dt_max above it: by default where
     * the rest's rules are on); they run only in a step past it (where the flow is slow,
     * nonpressure_pass.glsl). */
    int visc_split = d->gp.dt_max > d->gp.dt_visc;
    /* The coarse level (coarse.glsl) where momentum is on: measured with it (docs/SPH.md), after each of
     * the pressure solve's first DFSPH_COARSE_LEVELS predicts. Its sums go in Ctl's partials after the
     * three regions of the groups' (DFSPH_COARSE_AT). */
    d->coarse = d->desc.coarse ? _dfsph_value(d->desc.coarse) : momentum;
    d->coarse_levels = !d->coarse ? 0 : n <= DFSPH_COARSE_REPEAT_MAX ? DFSPH_COARSE_LEVELS : 1;
    snprintf(
        d->defines, sizeof d->defines,
        "%s%s#define DFSPH_LIST_CAP %zu\n#define DFSPH_LIST_STRIDE %zu\n#define DFSPH_REC %d\n#define DFSPH_WARM_SPH %d\n"
        "#define DFSPH_PREFETCH %u\n#define DFSPH_MOMENTUM %d\n#define DFSPH_VISC_SPLIT %d\n#define DFSPH_COARSE %d\n"
        "#define DFSPH_COARSE_AT %uu\n#define DFSPH_COARSE_LEVELS %d\n#define DFSPH_COARSE_BETA %s\n",
        p->pass_defines, bindings, cap, stride, rec == 16, _dfsph_value(d->desc.warm_sph), prefetch, momentum,
        visc_split, d->coarse, 3 * d->n_groups_max, d->coarse_levels, d->coarse_levels > 1 ? DFSPH_COARSE_BETA : "0.5");
    for (int i = 0; ok && i < P_COUNT; i++) {
        if ((i == P_COARSE_SUMS || i == P_COARSE_APPLY) && !d->coarse) continue;
        char defines[1536];
        snprintf(defines, sizeof defines, "%s%s", d->defines, dfsph_programs[i].defines ? dfsph_programs[i].defines : "");
        if (i == P_NONPRESSURE && prefetch_np != prefetch) /* its own, in its defines alone: the other programs' sources,
                                                            * and so the shader caches' entries, stay the same */
            snprintf(defines + strlen(defines), sizeof defines - strlen(defines), "#define DFSPH_PREFETCH_NP %u\n", prefetch_np);
        snprintf(defines + strlen(defines), sizeof defines - strlen(defines), "%s", dfsph_fold_define(d, i));
        ok = (d->prog[i] = sim_program_make(dfsph_programs[i].file, defines, dfsph_programs[i].label, err)) != 0;
    }
    ok = ok && (d->params = gpu_buffer_make(sizeof d->gp, &d->gp, "sim.dfsph.params", err)) &&
         (d->kappa = gpu_buffer_make(4 * (d->rec == 16 ? n : 1), NULL, "sim.dfsph.kappa", err)) && /* index lists: in pos.w */
         (d->accel = gpu_buffer_make(16 * n, NULL, "sim.dfsph.accel", err)) &&
         (d->ctl = gpu_buffer_make(sizeof(dfsph_ctl) + 12ull * d->n_groups_max + 4ull * DFSPH_COARSE_FLOATS, NULL,
                                   "sim.dfsph.ctl", err)) &&
         (d->records = gpu_buffer_make(sizeof(dfsph_record) * DFSPH_RECORDS, NULL, "sim.dfsph.records", err)) &&
         (d->rb = gpu_readback_make(DFSPH_RB_SLOT * DFSPH_FRAMES, "sim.dfsph.readback", (const void **)&d->rb_map, err)) &&
         (d->nbr = gpu_buffer_make(rec * stride * cap, NULL, "sim.dfsph.neighbours", err)) &&
         (d->wall = gpu_buffer_make(16 * n, NULL, "sim.dfsph.wall", err)) &&
         (d->nbr_count = gpu_buffer_make(4 * stride, NULL, "sim.dfsph.neighbour_counts", err));
    if (!ok) {
        _dfsph_destroy(d);
        return NULL;
    }
    if (!dfsph_persistent_choose(d, caps, err)) {
        _dfsph_destroy(d);
        return NULL;
    }
    d->gp.tail_groups = d->tail_groups; /* the tail's grid, which its decisions write (dfsph_tail_grid) */
    glNamedBufferSubData(d->params, 0, sizeof d->gp, &d->gp);
    dfsph_ctl_reset(d);
    return d;
}

/* The water's depth for the first step's bound, as integrate measures it after every step (twice the
 * particles' mean height above the floor): without it the first step took dt_max, and a tall column
 * (the dam break) started with a step several times its bound (docs/SPH.md, "The depth bound"). */
static void _dfsph_depth_prime(dfsph *d, const sim_particles *p) {
    if (d->gp.dt_press <= 0 || !p->n) return;
    float *pos = malloc(16ull * p->n);
    if (!pos) return; /* out of host memory: the first step goes without the bound, as it did */
    glGetNamedBufferSubData(p->pos[p->cur], 0, 16ll * p->n, pos);
    double sum = 0;
    for (uint32_t i = 0; i < p->n; i++) sum += pos[4 * i + 1] - d->sp->lo[1];
    free(pos);
    float depth = (float)(2 * sum / p->n);
    glNamedBufferSubData(d->ctl, offsetof(dfsph_ctl, depth), sizeof depth, &depth);
    /* and the first frame's slots for steps of that bound (the policy's first plan takes dt_max) */
    const float *gv = d->sp->gravity;
    double g = sqrt((double)gv[0] * gv[0] + (double)gv[1] * gv[1] + (double)gv[2] * gv[2]);
    double bound = g > 0 && depth > 0 ? d->gp.dt_press / (sqrt(g) * depth) : 0; /* nonpressure_pass.glsl's, on the GPU */
    if (bound > 0 && bound < d->gp.dt_max) d->pol.dt_cfl_recent = bound;
}

static void _dfsph_prime(void *impl, sim_particles *p, const sim_search *q) {
    dfsph *d = impl;
    d->groups_step = gpu_groups((size_t)p->n * p->lanes, SIM_WG);
    /* the folded walk's densities from the next search on (this prime's density pass makes the
     * first; its own reads of them give values no step uses: accel and vstar, which the first
     * step's density pass writes again) */
    p->carry_dens = d->fold;
    dfsph_persistent_probe(d);  /* the persistent solves resident here, before any step (else the indirect path) */
    dfsph_integrate_hash(d, q); /* built now, not in the first step's time */
    dfsph_step_program(d, q);   /* the same, probed too (and the stages' names, read at setup, follow it) */
    d->discard = true;          /* new particles or a new solver: earlier steps are not this state's */
    dfsph_collect(d, 0);
    d->discard = false;
    d->issued = d->read = 0;
    dfsph_policy_reset(&d->pol, &d->pol.desc); /* the caps a fresh solver starts with: the same steps as a fresh sim */
    dfsph_ctl_reset(d); /* every step issued has finished (collected above): the upload cannot land early */
    _dfsph_depth_prime(d, p);
    dfsph_bind(d, p, q);
    glProgramUniform1ui(d->prog[P_DENSITY], 1, 0);
    if (d->fold) glProgramUniform1ui(d->prog[P_DENSITY], 2, 1); /* the fold's density pass sizes no step here (density.comp) */
    sim_dispatch_neighbours(p, d->prog[P_DENSITY]);
    if (d->fold) glProgramUniform1ui(d->prog[P_DENSITY], 2, 0);
}

/* Past the frame's first slot the search is gated by Ctl.still (1 after a slot that moved nothing):
 * a slot after an empty slot finds the particles where the last search left them, so its sort,
 * cell table and reorder are skipped (search.h), as its density pass is (density_pass.glsl). The
 * frame's first slot searches in full: its sort is the one the stages show and --compare checks. */
static bool _dfsph_search_gate(void *impl, sort_gate *out) {
    dfsph *d = impl;
    if (!d->in_frame || d->frame_set) return false;
    *out = (sort_gate){d->ctl, offsetof(dfsph_ctl, still) / 4};
    return true;
}

static uint32_t _dfsph_pairs(void *impl) {
    dfsph *d = impl;
    if (d->solve_groups) return 0;
    if (d->tail_groups) return d->plan.pairs[0] + d->plan.pairs[1];
    return d->pol.cap_div + d->pol.cap_dens;
}

/* --- the tests' hooks --- */
static bool _dfsph_read_pressure(void *impl, const sim_particles *p, float *out) {
    (void)impl;
    /* The pressure solve's total k = kappa / rho = p / rho^2 of the last step, kept in vel.w. */
    float *vel = malloc(16ull * p->n + 16), *rho = malloc(4ull * p->n + 4);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(p->vel[p->cur], 0, 16ll * p->n, vel);
    glGetNamedBufferSubData(p->dens, 0, 4ll * p->n, rho);
    for (uint32_t i = 0; i < p->n; i++) out[i] = vel[4 * i + 3] * rho[i] * rho[i];
    free(vel);
    free(rho);
    return true;
}

static GLuint _dfsph_accel(void *impl) { return ((dfsph *)impl)->accel; }

static uint32_t _dfsph_read_neighbour_counts(void *impl, const sim_particles *p, uint32_t *out) {
    dfsph *d = impl;
    uint32_t *lane = malloc(4ull * p->n * p->lanes + 4);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(d->nbr_count, 0, 4ll * p->n * p->lanes, lane);
    uint32_t cap = sim_list_cap(p->lanes);
    for (uint32_t i = 0; i < p->n; i++) {
        out[i] = 0;
        for (uint32_t l = 0; l < p->lanes && out[i] != UINT32_MAX; l++)
            out[i] = lane[i * p->lanes + l] >= cap ? UINT32_MAX : out[i] + lane[i * p->lanes + l];
    }
    free(lane);
    return cap;
}

static const void *_dfsph_params(void *impl) { return &((dfsph *)impl)->gp; }

static bool _dfsph_coarse(void *impl, sim_particles *p, const sim_search *q, float dt, float dt_cfl, const float *in, float *out,
                          float *factor, float *pos4) {
    dfsph *d = impl;
    if (!d->coarse) return false;
    dfsph_bind(d, p, q);
    dfsph_ctl c;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(d->ctl, 0, sizeof c, &c);
    dfsph_ctl kept = c; /* put back after: the next step is as it would have been (but for k, which it makes anew) */
    c.dt = dt;
    c.dt_cfl = dt_cfl;
    c.args_dens[0] = c.args_step[0] = d->groups_step; /* a solve under way, a slot with time */
    c.args_dens[1] = c.args_dens[2] = c.args_step[1] = c.args_step[2] = 1;
    c.idle = c.done = 0;
    c.iter = 1; /* as after the first predict (coarse.comp: the level follows predict C.iter - 1) */
    const uint32_t *g = d->sp->dims;
    /* as predict.comp writes them (args_coarse: DFSPH_COARSE_GROUPS, dfsph_common.glsl) */
    c.args_coarse[0] = g[1] * g[2] + gpu_groups(g[0] * g[2], SIM_WG), c.args_coarse_apply[0] = d->groups_step;
    c.args_coarse[1] = c.args_coarse[2] = c.args_coarse_apply[1] = c.args_coarse_apply[2] = 1;
    glNamedBufferSubData(d->ctl, 0, sizeof c, &c);
    /* the values k in the kappa buffer with records, else in pos.w (dfsph_common.glsl's DFSPH_K);
     * the carried totals in vel.w */
    bool rec = d->rec == 16;
    if (rec) glNamedBufferSubData(d->kappa, 0, 4ll * p->n, in);
    else {
        glGetNamedBufferSubData(p->pos[p->cur], 0, 16ll * p->n, pos4);
        for (uint32_t i = 0; i < p->n; i++) pos4[4 * i + 3] = in[i];
        glNamedBufferSubData(p->pos[p->cur], 0, 16ll * p->n, pos4);
    }
    float *wall = malloc(16ull * p->n + 16), *vel = malloc(16ull * p->n + 16);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    dfsph_coarse_run(d);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    glGetNamedBufferSubData(p->pos[p->cur], 0, 16ll * p->n, pos4);
    glGetNamedBufferSubData(p->vel[p->cur], 0, 16ll * p->n, vel);
    glGetNamedBufferSubData(d->wall, 0, 16ll * p->n, wall);
    if (rec) glGetNamedBufferSubData(d->kappa, 0, 4ll * p->n, out);
    for (uint32_t i = 0; i < p->n; i++) {
        if (!rec) out[i] = pos4[4 * i + 3];
        pos4[4 * i + 3] = vel[4 * i + 3];
        factor[i] = wall[4 * i];
    }
    free(wall);
    free(vel);
    glNamedBufferSubData(d->ctl, 0, sizeof kept, &kept);
    return true;
}

static const sim_solver_test_hooks _dfsph_test = {.read_pressure = _dfsph_read_pressure,
                                                  .accel = _dfsph_accel,
                                                  .read_neighbour_counts = _dfsph_read_neighbour_counts,
                                                  .params = _dfsph_params,
                                                  .coarse = _dfsph_coarse};

const sim_solver sim_solver_dfsph = {
    .name = "dfsph",
    .summary = "divergence-free SPH: divergence and constant-density solves on the GPU, CFL steps",
    .stages = _dfsph_stages,
    .stage_count = (int)ARRAY_LEN(_dfsph_stages),
    .stage_note = dfsph_stage_note,
    .counters = _dfsph_counters,
    .counter_count = (int)ARRAY_LEN(_dfsph_counters),
    .desc_size = sizeof(dfsph_desc),
    .desc_resolve = _dfsph_desc_resolve,
    .layout_g_over_c2 = _dfsph_g_over_c2,
    /* no h/2 cells: its list passes read neighbours in an order that h/2 cells' x-long runs
     * scatter (docs/BENCHMARKS.md) */
    .half_cells_above = 0,
    .bricks_above = 655360, /* H100, a step: 986,078 -4.4%; 432,000 +0.9%, 109,744 +4%, 27,648 +8% (session 31) */
    .fast_kernels = false,
    .lanes4_upto = 0, /* 2 lanes: 17% off a settled frame at 27,648, 16% at 109,744 (session 13) */
    /* 1 lane above: there the lists hold indices and the folded walk and non-pressure pass apply
     * (H200, s43, t = 0-1 s: 2 lanes faster at 48,778, 65,536 and 78,608 by 11%, 7% and 4%; 1 lane
     * at 109,744 by 5.3%, 194,672 by 11.6%, and the settled 109,744 by 3.6%; docs/BENCHMARKS.md) */
    .lanes2_upto = 98304,
    .make = _dfsph_make,
    .destroy = _dfsph_destroy,
    .prime = _dfsph_prime,
    .frame_begin = dfsph_frame_begin,
    .search_gate = _dfsph_search_gate,
    .step = dfsph_step,
    .frame_end = dfsph_frame_end,
    .poll = dfsph_poll,
    .pairs = _dfsph_pairs,
    .owed = dfsph_owed,
    .test = &_dfsph_test,
};
