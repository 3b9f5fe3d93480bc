/* DFSPH's persistent solve (one dispatch a solve, its iterations behind a grid-wide barrier)
 * against the indirect path (a dispatch pair an iteration): the same scene stepped both ways must
 * hold exactly the same positions, velocities and densities after the same steps, and the same
 * iterations and errors in every step's record. The persistent path runs the indirect path's
 * threads (virtual groups) and adds the groups' errors in the same order, so nothing may differ;
 * the steps compared stop their solves before the indirect path's caps (checked: no capped
 * solve), which the persistent path does not have (it stops at 100). Independent of the shaders'
 * arithmetic: one path is the reference for the other. Grids: 1 group on llvmpipe (its grid
 * barrier is only trusted with one: test_gpu); on a GPU that makes forward progress also 7, 64,
 * 264 and 528 (2 and 4 an SM on the H100; 7 does not divide the work), and there the default
 * grid at 27,648 (hundreds of groups, two rounds each) against one group (llvmpipe runs that case
 * as 1 group against 1 where FLUID_TEST_PERSISTENT_LARGE is set). Also the list walks that load
 * the next entry ahead or 8 entries at a time (index lists; and the default at one lane, 8 in the
 * non-pressure pass and 1 in the rest), or 3 at a time (records), a list's
 * last batch running past its end, against the plain one (dfsph_desc.prefetch). The fused step's density
 * walk takes the cells' candidates 4 at a time (step.comp), density.comp's one at a time: the
 * fused step against the indirect path checks one against the other. Made to fail on purpose: the
 * batched list walk stopping one entry short in a batch (the 3 and 8 compares failed), the
 * batched candidate walk loading the neighbouring candidate's position (the fused compares failed),
 * the non-pressure pass's batched walk stopping one entry short where its prefetch is not the rest's
 * (the default's compare failed: 38 steps with other iterations or errors; since session 42 that
 * walk runs only without the fold, and the compare without it failed: 38 steps).
 * The fused step with index lists (where the records pass the L2 bound) against the indirect path
 * with index lists, free steps.
 * The fused step (dfsph_desc.fused 1, the default where the persistent solve runs: density, both
 * solves, nonpressure and integrate in one dispatch) against the indirect path and against the
 * persistent solve alone (fused DFSPH_ZERO): the same free steps bit for bit, and the same
 * frames of 1/60 s (their spare slots run empty), then a reset (sim_reset) and more frames, the
 * last with two slots past its plan (empty slots after empty slots skip their density pass): the
 * states, the records and the slots issued. Kind: independent of the arithmetic (one path is the
 * reference for the other). Made to fail on purpose, each once: step.comp's integrate with C.dt in
 * the empty slots too, and step.comp running the solves and nonpressure in the empty slots (each:
 * the frames compares failed, other records and states; the free steps, which have no empty slot,
 * passed); step.comp skipping density in every empty slot, not only after an empty one (the frames
 * compares failed).
 * Needs GL 4.5 (headless EGL, llvmpipe is fine). */
#include "sim_ref.h"
#include "gpu/gpu.h"
#include "sim/solver.h"

#define STEPS 40
#define LARGE_STEPS 8 /* steps of the 27,648 comparison */
#define RECORDS 128   /* records kept of a run */
#define FRAME (1.0 / 60)
#include "sim/sim_test.h"

typedef struct state {
    float *pos, *vel, *dens;
    sim_step_record rec[RECORDS];
    int records, slots;
    uint64_t dispatches;
    const char *note;   /* sim_stage_note after the run */
    int stages_timed;   /* the solver's stages the profiler timed in the last frame (g_prof runs) */
} state;

static dfsph_desc g_desc; /* the runs' other fields (fused, records, prefetch); zero: the defaults */
static bool g_prof;       /* frames time their first step's stages (a CPU-clock profiler) */

/* persistent: the desc's groups (DFSPH_ZERO: the indirect path). steps > 0: that many free steps;
 * steps == 0: frames of 1/60 s, a reset, more frames. */
static state run_steps(const char *scene, uint32_t n_want, int persistent, int steps, const gpu_caps *caps) {
    dfsph_desc dd = g_desc;
    dd.persistent = persistent;
    /* the indirect path's caps well above the iterations (9 left the dam break's third step capped
     * once the divergence solve could stop at its first predict) */
    dd.slack = 40;
    sim *s = ref_sim_dfsph(scene, n_want, "radix", &dd, caps);
    state st = {0};
    const char *names[PROF_MAX_STAGES];
    for (int i = 0; i < sim_stage_count(s); i++) names[i] = sim_stage_name(s, i);
    gpu_prof *prof = g_prof ? prof_make(&(prof_desc){.names = names, .stages = sim_stage_count(s), .cpu_fallback = true}, caps)
                            : NULL;
    if (steps > 0)
        for (int i = 0; i < steps; i++) sim_step(s, NULL);
    else {
        for (int f = 0; f < 4; f++) st.slots += sim_frame(s, FRAME, 0, prof), prof_frame(prof);
        sim_reset(s);
        for (int f = 0; f < 3; f++) st.slots += sim_frame(s, FRAME, 0, prof), prof_frame(prof);
        /* and a frame given two slots past its plan: empty slots after empty slots, whose density
         * pass is skipped (dfsph_density_skip) */
        int k = sim_frame_begin(s, FRAME, 0) + 2;
        for (int i = 0; i < k; i++) sim_frame_step(s, prof);
        sim_frame_end(s);
        prof_frame(prof);
        st.slots += k;
    }
    sim_sync(s);
    st.note = sim_stage_note(s);
    for (int i = SIM_SEARCH_STAGES; prof && i < sim_stage_count(s); i++) st.stages_timed += prof_timed(prof, i);
    prof_destroy(prof);
    st.records = sim_records(s, st.rec, RECORDS);
    sim_dispatches d;
    sim_get_dispatches(s, &d);
    st.dispatches = d.total;
    uint32_t n = sim_particle_count(s);
    st.pos = malloc(16ull * n);
    st.vel = malloc(16ull * n);
    st.dens = malloc(4ull * n);
    sim_read_particles(s, st.pos, st.vel, st.dens);
    sim_destroy(s);
    return st;
}

static state run(const char *scene, uint32_t n_want, int persistent, const gpu_caps *caps) {
    return run_steps(scene, n_want, persistent, STEPS, caps);
}

static void compare_steps(const char *what, const state *a, const state *b, uint32_t n, int steps) {
    int capped = 0, it_diff = 0;
    CHECK(a->records == steps && b->records == steps, "%s: %d and %d records of %d steps", what, a->records, b->records, steps);
    CHECK(a->slots == b->slots, "%s: %d and %d slots issued", what, a->slots, b->slots);
    for (int k = 0; k < a->records && k < b->records; k++) {
        capped += a->rec[k].capped + b->rec[k].capped;
        it_diff += memcmp(a->rec[k].it, b->rec[k].it, sizeof a->rec[k].it) != 0 || a->rec[k].err_div != b->rec[k].err_div ||
                   a->rec[k].err_density != b->rec[k].err_density;
    }
    CHECK(capped == 0, "%s: %d capped solves (the comparison needs none)", what, capped);
    CHECK(it_diff == 0, "%s: %d steps with other iterations or errors", what, it_diff);
    int diff = memcmp(a->pos, b->pos, 16ull * n) != 0 || memcmp(a->vel, b->vel, 16ull * n) != 0 ||
               memcmp(a->dens, b->dens, 4ull * n) != 0;
    CHECK(!diff, "%s: states differ after %d steps", what, steps);
    printf("%s: %s (dispatches %llu and %llu, %d steps)\n", what, diff || it_diff ? "DIFFERENT" : "bit-identical",
           (unsigned long long)a->dispatches, (unsigned long long)b->dispatches, steps);
}

static void compare(const char *what, const state *a, const state *b, uint32_t n) { compare_steps(what, a, b, n, STEPS); }

/* The fused step's phases (sim_step_record.phase_cycles, step.comp's shader clock): where the driver
 * has GL_ARB_shader_clock, every step of the fused run measured all five of DFSPH's stages (a
 * phase whose reading is lost reads 0); no other path measures any. Kind: an invariant of the
 * records. Made to fail on purpose once: step.comp without its reading after the divergence solve
 * (its cycles then went to nonpressure, divergence read 0). */
static void check_phases(const char *what, const state *fused, const state *other, bool clock) {
    int missing = 0, stray = 0;
    for (int k = 0; k < fused->records; k++)
        for (int s = 0; s < 5; s++) missing += clock && fused->rec[k].phase_cycles[s] == 0;
    for (int k = 0; k < other->records; k++)
        for (int s = 0; s < SIM_RECORD_PHASES; s++) stray += other->rec[k].phase_cycles[s] != 0;
    CHECK(missing == 0, "%s: %d phases of the fused step's %d records read 0 cycles", what, missing, fused->records);
    CHECK(stray == 0, "%s: %d phases measured on the other path (it has none)", what, stray);
    if (clock && fused->records) {
        const uint32_t *c = fused->rec[fused->records - 1].phase_cycles;
        printf("%s: the last fused step's phases, cycles: density %u, divergence %u, nonpressure %u, pressure %u, integrate %u\n",
               what, c[0], c[1], c[2], c[3], c[4]);
    }
}

/* The particles `scene` at about `n_want` holds (a sim made for the count, then gone). */
static uint32_t count_of(const char *scene, uint32_t n_want, const gpu_caps *caps) {
    sim *probe = ref_sim(scene, n_want, "cpu", "dfsph", caps);
    uint32_t n = sim_particle_count(probe);
    sim_destroy(probe);
    return n;
}

static void drop(state *s) {
    free(s->pos);
    free(s->vel);
    free(s->dens);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    const gpu_caps *caps = gpu_get_caps(gpu);
    bool progress = gpu_forward_progress() && !caps->llvmpipe;
    const int grids[] = {1, progress ? 7 : 0, progress ? 64 : 0, progress ? 264 : 0, progress ? 528 : 0};
    const char *scenes[] = {"dambreak", "drop"};
    const uint32_t counts[] = {1500, 3001};
    /* Each scene's free steps on the indirect path and on the fused step (1 group, dfsph_desc.fused
     * 1, the default where the persistent solve runs), kept for the fused step's compares below. */
    state ind_free[2], fused_free[2];
    for (int k = 0; k < 2; k++) {
        state ind = ind_free[k] = run(scenes[k], counts[k], DFSPH_ZERO, caps);
        uint32_t n = count_of(scenes[k], counts[k], caps);
        for (size_t g = 0; g < sizeof grids / sizeof *grids; g++) {
            if (!grids[g]) continue;
            g_desc.fused = grids[g] == 1 ? 1 : 0;
            state per = run(scenes[k], counts[k], grids[g], caps);
            g_desc.fused = 0;
            char what[160];
            snprintf(what, sizeof what, "dfsph %s, %u particles: indirect vs persistent (%d groups)", scenes[k], n, grids[g]);
            compare(what, &ind, &per, n);
            CHECK(per.dispatches < ind.dispatches, "%s: the persistent path recorded %llu dispatches, not fewer than %llu", what,
                  (unsigned long long)per.dispatches, (unsigned long long)ind.dispatches);
            if (grids[g] == 1) fused_free[k] = per;
            else drop(&per);
        }
    }
    /* Where the GPU holds many groups: the default grid at the default count (27,648 on the H100:
     * 864 virtual groups on 432 groups, two rounds each, behind barriers of hundreds of groups)
     * against one group walking them all (no barrier waits); both stop at 100 iterations, so no
     * cap of the indirect path's comes in (the dam break's first solves pass its first caps). */
    if (caps->llvmpipe && getenv("FLUID_TEST_PERSISTENT_LARGE")) {
        /* llvmpipe ends a shader's loops after 65,535 iterations in all: one group walking 216
         * virtual groups a pass runs past that in its first step, so the persistent path is
         * refused there (dfsph_persistent_probe) and the indirect path runs, whole steps */
        state one = run_steps("dambreak", 27648, 1, LARGE_STEPS, caps);
        CHECK(!one.note && one.records == LARGE_STEPS,
              "dfsph dambreak, 27,648 particles, 1 group on llvmpipe: %d records of %d steps, stage note %s (not the "
              "indirect path)", one.records, LARGE_STEPS, one.note ? one.note : "none");
        drop(&one);
    } else if (progress || getenv("FLUID_TEST_PERSISTENT_LARGE")) {
        int grid = progress ? 528 : 1;
        state one = run_steps("dambreak", 27648, 1, LARGE_STEPS, caps);
        state many = run_steps("dambreak", 27648, grid, LARGE_STEPS, caps);
        uint32_t n = count_of("dambreak", 27648, caps);
        char what[160];
        snprintf(what, sizeof what, "dfsph dambreak, %u particles: persistent, 1 group vs %d at most", n, grid);
        compare_steps(what, &one, &many, n, LARGE_STEPS);
        drop(&one);
        drop(&many);
    }
    /* The list walks that load ahead (prefetch 1: the next entry, the default with index lists at
     * two lanes; 8 at a time; the default at one lane, which mixes them: 8 in the non-pressure
     * pass, 1 in the rest (-1 below; llvmpipe's one lane: a GPU's two lanes at this count take 1
     * everywhere); 3 at a time with records, whose entries are structs) against
     * the plain walk (0), on the indirect path: the same sums in the same order, so the same states
     * bit for bit. */
    /* With index lists the density pass takes the non-pressure walk in (dfsph_desc.fold): also
     * without the fold (2), where the non-pressure pass walks its list itself, 8 entries at a time
     * by default. */
    for (int rec = 0; rec < 3; rec++) {
        int fold = rec == 2 ? DFSPH_ZERO : 0;
        g_desc = (dfsph_desc){.records = rec == 1 ? 1 : DFSPH_ZERO, .prefetch = DFSPH_ZERO, .fold = fold};
        state plain = run("dambreak", 1500, DFSPH_ZERO, caps);
        uint32_t n = count_of("dambreak", 1500, caps);
        static const int ahead[3][3] = {{1, 8, -1}, {3, 0, 0}, {-1, 0, 0}};
        for (int a = 0; a < 3 && ahead[rec][a]; a++) {
            g_desc = (dfsph_desc){
                .records = rec == 1 ? 1 : DFSPH_ZERO, .prefetch = ahead[rec][a] > 0 ? ahead[rec][a] : 0, .fold = fold};
            state other = run("dambreak", 1500, DFSPH_ZERO, caps);
            char what[160], how[64] = "the default (8 ahead in the non-pressure pass, 1 elsewhere)";
            if (ahead[rec][a] > 0) snprintf(how, sizeof how, "loading %d ahead", ahead[rec][a]);
            snprintf(what, sizeof what, "dfsph dambreak, %u particles, lists of %s: plain walk vs %s", n,
                     rec == 1 ? "records"
                     : rec    ? "indices, no fold"
                              : "indices",
                     how);
            compare(what, &plain, &other, n);
            drop(&other);
        }
        g_desc = (dfsph_desc){0};
        drop(&plain);
    }
    /* The fused step against the indirect path and against the persistent solve alone: free steps
     * (the fused and indirect runs of the first compares), then frames with empty slots and a reset. */
    for (int k = 0; k < 2; k++) {
        uint32_t n = count_of(scenes[k], counts[k], caps);
        for (int frames = 0; frames < 2; frames++) {
            int steps = frames ? 0 : STEPS;
            g_desc.fused = 1;
            state fused = frames ? run_steps(scenes[k], counts[k], 1, steps, caps) : fused_free[k];
            state sampled = {0}; /* frames whose first step is timed: per stage, the others fused */
            if (frames) g_prof = true, sampled = run_steps(scenes[k], counts[k], 1, steps, caps), g_prof = false;
            g_desc.fused = DFSPH_ZERO;
            state alone = run_steps(scenes[k], counts[k], 1, steps, caps);
            g_desc.fused = 0;
            state ind = frames ? run_steps(scenes[k], counts[k], DFSPH_ZERO, steps, caps) : ind_free[k];
            char what[160];
            int recs = frames ? fused.records : STEPS;
            if (frames) {
                printf("dfsph %s: %d frames (a reset after 4): %d slots, %d steps\n", scenes[k], 7, fused.slots, fused.records);
                CHECK(fused.slots > fused.records && fused.records > 7 && fused.records < RECORDS,
                      "%s: %d slots for %d steps: no empty slot (or too many steps) to compare", scenes[k], fused.slots,
                      fused.records);
            }
            snprintf(what, sizeof what, "dfsph %s, %u particles, %s: fused step vs indirect", scenes[k], n,
                     frames ? "frames, reset, frames" : "free steps");
            compare_steps(what, &ind, &fused, n, recs);
            snprintf(what, sizeof what, "dfsph %s, %u particles, %s: fused step vs persistent solve alone", scenes[k], n,
                     frames ? "frames, reset, frames" : "free steps");
            compare_steps(what, &alone, &fused, n, recs);
            check_phases(what, &fused, &alone, caps->shader_clock);
            if (frames) {
                /* a timed step takes the per-stage path: every stage measured, the fluid unchanged */
                snprintf(what, sizeof what, "dfsph %s, %u particles, frames: fused step vs its frames' first steps timed per stage",
                         scenes[k], n);
                compare_steps(what, &fused, &sampled, n, recs);
                CHECK(sampled.stages_timed == 5, "%s: %d of the 5 dfsph stages timed", what, sampled.stages_timed);
            }
            CHECK(fused.note && !alone.note && !ind.note, "%s: the stage note says %s fused, %s alone, %s indirect", what,
                  fused.note ? fused.note : "nothing", alone.note ? alone.note : "nothing", ind.note ? ind.note : "nothing");
            CHECK(fused.dispatches < alone.dispatches, "%s: the fused step recorded %llu dispatches, not fewer than %llu", what,
                  (unsigned long long)fused.dispatches, (unsigned long long)alone.dispatches);
            drop(&fused);
            drop(&sampled);
            drop(&alone);
            drop(&ind);
        }
    }
    /* The fused step with index lists (the walks read x_j through its non-coherent alias of the
     * positions and evaluate the gradient) against the indirect path with index lists, the same
     * free steps bit for bit (on a GPU that makes forward progress, on its default grid). The
     * indirect path without its folded walk (dfsph_desc.fold; the fused step has its own walks:
     * docs/SPH.md, "The folded walk"). */
    {
        g_desc = (dfsph_desc){.records = DFSPH_ZERO, .fused = 1};
        state fused = run_steps("dambreak", 1500, progress ? 528 : 1, STEPS, caps);
        g_desc.fused = 0, g_desc.fold = DFSPH_ZERO;
        state ind = run_steps("dambreak", 1500, DFSPH_ZERO, STEPS, caps);
        g_desc = (dfsph_desc){0};
        uint32_t n = count_of("dambreak", 1500, caps);
        char what[160];
        snprintf(what, sizeof what, "dfsph dambreak, %u particles, lists of indices, free steps: fused step vs indirect", n);
        compare_steps(what, &ind, &fused, n, STEPS);
        CHECK(fused.note && !ind.note, "%s: the stage note says %s fused, %s indirect", what, fused.note ? fused.note : "nothing",
              ind.note ? ind.note : "nothing");
        drop(&fused);
        drop(&ind);
    }
    /* The indirect path's persistent tail (dfsph_desc.tail; by default with index lists up to
     * 262,144 particles on a GPU that makes forward progress): a solve's first 0 or 1 (update,
     * predict) pairs indirect, the rest in one persistent dispatch, against the persistent solve
     * alone (both stop at 100 iterations): frames with empty slots, a reset and more frames, index
     * lists, the same states and records bit for bit; with no pair, fewer dispatches than the
     * indirect path's (whose caps record pairs). The tail is an indirect dispatch whose groups the
     * decision before it writes (Ctl.args_tail). Made to fail on purpose: the tail skipping its
     * first update (the compares failed); the decisions writing 0 tail groups (session 35: the
     * iterations, records and states differed). */
    {
        int grid = progress ? 528 : 1;
        uint32_t n = count_of("dambreak", 1500, caps);
        g_desc = (dfsph_desc){.records = DFSPH_ZERO, .fused = DFSPH_ZERO};
        state alone = run_steps("dambreak", 1500, grid, 0, caps);
        state ind = run_steps("dambreak", 1500, DFSPH_ZERO, 0, caps);
        const int tails[] = {DFSPH_ZERO, 1};
        for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
            g_desc.tail = tails[t];
            state tail = run_steps("dambreak", 1500, grid, 0, caps);
            char what[160];
            snprintf(what, sizeof what,
                     "dfsph dambreak, %u particles, lists of indices, frames: %d pairs and the tail vs the "
                     "persistent solve alone",
                     n, tails[t] == DFSPH_ZERO ? 0 : tails[t]);
            compare_steps(what, &alone, &tail, n, alone.records);
            if (tails[t] == DFSPH_ZERO)
                CHECK(tail.dispatches < ind.dispatches, "%s: %llu dispatches, not fewer than the indirect path's %llu", what,
                      (unsigned long long)tail.dispatches, (unsigned long long)ind.dispatches);
            drop(&tail);
        }
        g_desc = (dfsph_desc){0};
        drop(&alone);
        drop(&ind);
    }
    CHECK(gpu_live_objects() == 0, "%d GL objects leaked", gpu_live_objects());
    gpu_destroy(gpu);
    return check_done();
}
