/* The dispatch count the simulation keeps (sim_get_dispatches, which fluid bench --sim prints) is
 * checked against a count taken independently: libepoxy's glDispatchCompute and
 * glDispatchComputeIndirect are global function pointers, and for one step they point at wrappers
 * here that count every call before passing it on. For each solver and each GPU sort the two
 * counts of a step must agree, and dfsph's indirect dispatches must be its two per recorded
 * iteration pair plus its step slot's passes (the pressure solve's warm start and first predict,
 * non-pressure, the coarse level's sums and apply after each of the pressure solve's first three
 * predicts: indirect so that a spare slot after the frame's time, or a correction that does not
 * follow, runs them with 0 groups; the divergence solve's first predict is the density pass's);
 * with DFSPH's persistent solve alone (dfsph_desc.fused DFSPH_ZERO), only non-pressure indirect, and at
 * most 10 a step; with the fused step (the default there), none indirect and the step's
 * dispatches the persistent solve alone's less 4 (made to fail on purpose: the fused step counting
 * 2 dispatches, caught by the GL wrappers' count and by this one); with the indirect path's tail
 * (dfsph_desc.tail), the pairs it records, the indirect path's direct dispatches, and two more
 * indirect ones a step: the tail is indirect, its groups written by the decision before it (made
 * to fail on purpose: the tail's dispatch not counted, caught by the GL wrappers' count; the tail
 * dispatched direct, caught by both counts). Also
 * prints the counts (the figures issue 15 asks about).
 * The search's hash is made by the last step's integrate (search.h); new particles must undo that:
 * a sim stepped, then given its initial particles again, must step exactly as a fresh one (kind:
 * independent, the fresh sim's state; it fails when sim_set_particles leaves the stale hash).
 * Kind: independent count (the GL calls themselves), not a transcription of the code's sums.
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "sim/solver.h"

static uint64_t g_direct, g_indirect;
static PFNGLDISPATCHCOMPUTEPROC g_real_direct;
static PFNGLDISPATCHCOMPUTEINDIRECTPROC g_real_indirect;

static void GLAPIENTRY count_direct(GLuint x, GLuint y, GLuint z) {
    g_direct++;
    g_real_direct(x, y, z);
}

static void GLAPIENTRY count_indirect(GLintptr offset) {
    g_indirect++;
    g_real_indirect(offset);
}

/* One step of s counted both ways; returns the sim's own count. */
static uint32_t counted_step(sim *s, const char *what) {
    /* the pointers were resolved by the steps before (epoxy's first call replaces its stub) */
    g_real_direct = epoxy_glDispatchCompute;
    g_real_indirect = epoxy_glDispatchComputeIndirect;
    epoxy_glDispatchCompute = count_direct;
    epoxy_glDispatchComputeIndirect = count_indirect;
    g_direct = g_indirect = 0;
    sim_frame_begin(s, 1.0 / 60, 1);
    sim_frame_step(s, NULL);
    epoxy_glDispatchCompute = g_real_direct;
    epoxy_glDispatchComputeIndirect = g_real_indirect;
    sim_frame_end(s);
    sim_dispatches d;
    sim_get_dispatches(s, &d);
    printf("%s: %u dispatches a step (%llu direct, %llu indirect, counted at the GL calls); %u iteration pairs recorded; "
           "with 1 divergence and 4 pressure iterations: %u\n",
           what, d.last, (unsigned long long)g_direct, (unsigned long long)g_indirect, d.pairs,
           d.pairs ? d.last - 2 * d.pairs + 10 : d.last);
    CHECK(d.last == g_direct + g_indirect, "%s: the sim counted %u dispatches in a step, the GL calls were %llu", what, d.last,
          (unsigned long long)(g_direct + g_indirect));
    /* dfsph's slot passes: 9 on the indirect path (which records pairs: the pressure solve's first
     * update and predict, non-pressure, and the pressure solve's coarse level's two passes after
     * each of its first three predicts, on by default at these counts, the solve's cap at least 2;
     * the viscosity's second half-step, where a
     * step passes its bound, rides in the pressure solve's first predict and update), 1 with the persistent solve alone
     * (non-pressure), none with the fused step (the persistent path's default: on a GPU the default
     * sims); with the indirect path's tail, 2 more (a tail a solve, indirect: Ctl.args_tail) */
    uint64_t slot = 0;
    if (!strncmp(what, "dfsph", 5))
        slot = d.pairs ? 9 + (strstr(what, "tail") ? 2 : 0) : strstr(what, "persistent solve") ? 1 : 0;
    CHECK(g_indirect == 2ull * d.pairs + slot, "%s: %llu indirect dispatches for %u iteration pairs and %llu slot passes", what,
          (unsigned long long)g_indirect, d.pairs, (unsigned long long)slot);
    return d.last;
}

/* Stepped 5 times, then set back to its initial particles: 3 more steps equal 3 steps of a fresh sim. */
static void check_reset_hash(const char *solver, const char *sort, const dfsph_desc *dd, const gpu_caps *caps) {
    sim *a = ref_sim_with("dambreak", 1200, sort, solver, dd, caps), *b = ref_sim_with("dambreak", 1200, sort, solver, dd, caps);
    uint32_t n = sim_particle_count(a);
    float *p0 = malloc(16ull * n), *pa = malloc(16ull * n), *pb = malloc(16ull * n), *va = malloc(16ull * n),
          *vb = malloc(16ull * n);
    sim_read_particles(a, p0, NULL, NULL);
    for (int i = 0; i < 5; i++) sim_step(a, NULL);
    char err[ERR_LEN];
    CHECK(sim_set_particles(a, p0, NULL, n, err), "%s", err);
    float *da = malloc(4ull * n), *db = malloc(4ull * n);
    sim_read_particles(a, NULL, NULL, da);
    sim_read_particles(b, NULL, NULL, db);
    CHECK(!memcmp(da, db, 4ull * n), "%s %s: the densities right after the set differ from a fresh sim's (a stale hash?)", solver,
          sort);
    free(da), free(db);
    for (int i = 0; i < 3; i++) {
        sim_step(a, NULL);
        sim_step(b, NULL);
    }
    sim_read_particles(a, pa, va, NULL);
    sim_read_particles(b, pb, vb, NULL);
    bool same = !memcmp(pa, pb, 16ull * n) && !memcmp(va, vb, 16ull * n);
    printf("%s %s: stepped, set back to its start, 3 steps: %s a fresh sim's\n", solver, sort,
           same ? "bit-identical to" : "DIFFERENT from");
    CHECK(same, "%s %s: a sim set back to its initial particles steps unlike a fresh one (a stale hash?)", solver, sort);
    free(p0), free(pa), free(pb), free(va), free(vb);
    sim_destroy(a);
    sim_destroy(b);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    const char *sorts[] = {"radix", "counting", "bitonic", "onesweep"};
    for (int q = 0; sim_solvers[q]; q++)
        for (size_t k = 0; k < ARRAY_LEN(sorts); k++) {
            /* onesweep (radix's path on NVIDIA and AMD) needs a forward-progress driver */
            if (!strcmp(sorts[k], "onesweep") && strstr(caps->renderer, "llvmpipe")) continue;
            char what[96];
            snprintf(what, sizeof what, "%s %s", sim_solvers[q]->name, sorts[k]);
            /* the indirect path (the persistent solve, the default on NVIDIA, below) */
            sim *s =
                ref_sim_with("dambreak", 1200, sorts[k], sim_solvers[q]->name, &(dfsph_desc){.persistent = DFSPH_ZERO}, caps);
            for (int i = 0; i < 3; i++) sim_step(s, NULL);
            sim_dispatches before;
            sim_get_dispatches(s, &before);
            counted_step(s, what);
            sim_dispatches after;
            sim_get_dispatches(s, &after);
            CHECK(after.steps == before.steps + 1 && after.total == before.total + after.last, "%s: the totals", what);
            sim_destroy(s);
        }
    /* DFSPH's persistent solve (one group: any driver): one dispatch a solve, not indirect, and a
     * step within issue 15's 10 whatever its iterations. */
    for (size_t k = 0; k < 2; k++) {
        char what[96];
        snprintf(what, sizeof what, "dfsph %s, persistent solve", sorts[k]);
        sim *s = ref_sim_dfsph("dambreak", 1200, sorts[k], &(dfsph_desc){.persistent = 1, .fused = DFSPH_ZERO}, caps);
        for (int i = 0; i < 3; i++) sim_step(s, NULL);
        uint32_t last = counted_step(s, what);
        CHECK(g_indirect == 1 && last <= 10, "%s: %u dispatches a step (%llu indirect); 10 at most, 1 indirect (non-pressure)",
              what, last, (unsigned long long)g_indirect);
        sim_destroy(s);
        /* the fused step: the search's dispatches (those the indirect path's step makes besides
         * dfsph passes) + 1: the persistent solve alone's less 4 (density, nonpressure, integrate, one solve) */
        snprintf(what, sizeof what, "dfsph %s, persistent, fused step", sorts[k]);
        s = ref_sim_dfsph("dambreak", 1200, sorts[k], &(dfsph_desc){.persistent = 1}, caps);
        for (int i = 0; i < 3; i++) sim_step(s, NULL);
        uint32_t fused = counted_step(s, what);
        CHECK(g_indirect == 0 && fused + 4 == last,
              "%s: %u dispatches a step (%llu indirect); the persistent solve alone's %u - 4, none indirect", what, fused,
              (unsigned long long)g_indirect, last);
        sim_destroy(s);
    }
    /* The indirect path's persistent tail (dfsph_desc.tail 2: 2 pairs a solve recorded, then the tail;
     * one group: any driver): the indirect path's dispatches with the pairs it records, its direct
     * ones, and its indirect ones plus 2 (a tail a solve, indirect: Ctl.args_tail). */
    for (size_t k = 0; k < 2; k++) {
        char what[96];
        snprintf(what, sizeof what, "dfsph %s, indirect path", sorts[k]);
        sim *s = ref_sim_dfsph("dambreak", 1200, sorts[k], &(dfsph_desc){.persistent = DFSPH_ZERO}, caps);
        for (int i = 0; i < 3; i++) sim_step(s, NULL);
        counted_step(s, what);
        uint64_t direct = g_direct;
        sim_destroy(s);
        snprintf(what, sizeof what, "dfsph %s, 2 pairs and the tail", sorts[k]);
        s = ref_sim_dfsph("dambreak", 1200, sorts[k], &(dfsph_desc){.persistent = 1, .tail = 2}, caps);
        for (int i = 0; i < 3; i++) sim_step(s, NULL);
        counted_step(s, what);
        sim_dispatches d;
        sim_get_dispatches(s, &d);
        CHECK(d.pairs == 4 && g_direct == direct, "%s: %u pairs recorded (want 4), %llu direct dispatches (want %llu)", what,
              d.pairs, (unsigned long long)g_direct, (unsigned long long)direct);
        sim_destroy(s);
    }
    /* The same with the persistent solve, with the grid FLUID_DFSPH_PERSISTENT_RESET names, else 1
     * group. On the H100 it caught the frame's time uploaded into the control block landing before
     * the last step's integrate had counted it down (a step of 1e-7 s; with any grid; the two sims
     * stepping in turn was what it took), fixed by handing those values over as uniforms. */
    const char *grid = getenv("FLUID_DFSPH_PERSISTENT_RESET");
    int groups = grid && *grid ? atoi(grid) : 1;
    CHECK(groups >= 1 && groups <= 65535, "FLUID_DFSPH_PERSISTENT_RESET='%s' is not 1..65535", grid);
    check_reset_hash("dfsph", "radix", &(dfsph_desc){.persistent = groups >= 1 && groups <= 65535 ? groups : 1}, caps);
    for (int q = 0; sim_solvers[q]; q++) {
        check_reset_hash(sim_solvers[q]->name, "radix", NULL, caps);
        check_reset_hash(sim_solvers[q]->name, "counting", NULL, caps);
    }
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
