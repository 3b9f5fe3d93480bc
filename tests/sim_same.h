/* sim_same: a simulation's state after some frames, taken whole (particles, step records, summary,
 * dispatches counted), and two such states compared bit for bit: for the tests of changes that must
 * leave the fluid as it was (test_sim_warm, test_sim_search_persistent). */
#ifndef FLUID_TEST_SIM_SAME_H
#define FLUID_TEST_SIM_SAME_H
#include "sim_ref.h"

#define SAME_RECORDS 256
#define SAME_FRAME (1.0 / 60)

typedef struct same_state {
    float *pos, *vel, *dens;
    sim_step_record rec[SAME_RECORDS];
    int records;
    sim_summary sum;
    sim_dispatches disp;
    uint32_t n;
} same_state;

/* s run for `frames` frames of 1/60 s, then its state taken; s destroyed. */
static inline same_state same_run(sim *s, int frames) {
    same_state st = {0};
    for (int f = 0; f < frames; f++) sim_frame(s, SAME_FRAME, 0, NULL);
    sim_sync(s);
    st.records = sim_records(s, st.rec, SAME_RECORDS);
    sim_get_summary(s, &st.sum);
    sim_get_dispatches(s, &st.disp);
    st.n = sim_particle_count(s);
    st.pos = malloc(16ull * st.n);
    st.vel = malloc(16ull * st.n);
    st.dens = malloc(4ull * st.n);
    sim_read_particles(s, st.pos, st.vel, st.dens);
    sim_destroy(s);
    return st;
}

static inline void same_free(same_state *st) { free(st->pos), free(st->vel), free(st->dens); }

static inline bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; } /* WCSPH's errors are NAN */

/* a and b the same fluid, records and summary, bit for bit (and the same dispatches counted where
 * `dispatches`); `what` names the pair. True where they are. */
static inline bool same_compare(const char *what, const same_state *a, const same_state *b, bool dispatches) {
    int fails = check_failures;
    CHECK(a->n == b->n, "%s: %u and %u particles", what, a->n, b->n);
    CHECK(a->records == b->records && a->records > 0, "%s: %d and %d records", what, a->records, b->records);
    int rec_diff = 0;
    for (int k = 0; k < a->records && k < b->records; k++)
        rec_diff += !same_bits(a->rec[k].dt, b->rec[k].dt) || memcmp(a->rec[k].it, b->rec[k].it, sizeof a->rec[k].it) != 0 ||
                    !same_bits(a->rec[k].err_density, b->rec[k].err_density) || !same_bits(a->rec[k].err_div, b->rec[k].err_div);
    CHECK(rec_diff == 0, "%s: %d steps with another dt, iterations or errors", what, rec_diff);
    CHECK(a->sum.steps == b->sum.steps && a->sum.time == b->sum.time && a->sum.frames_short == b->sum.frames_short,
          "%s: summaries differ: %llu and %llu steps, %.9g and %.9g s, %llu and %llu short frames", what,
          (unsigned long long)a->sum.steps, (unsigned long long)b->sum.steps, a->sum.time, b->sum.time,
          (unsigned long long)a->sum.frames_short, (unsigned long long)b->sum.frames_short);
    if (dispatches)
        CHECK(a->disp.total == b->disp.total && a->disp.steps == b->disp.steps,
              "%s: dispatches counted: %llu in %llu slots and %llu in %llu", what, (unsigned long long)a->disp.total,
              (unsigned long long)a->disp.steps, (unsigned long long)b->disp.total, (unsigned long long)b->disp.steps);
    int diff = a->n != b->n || memcmp(a->pos, b->pos, 16ull * a->n) != 0 || memcmp(a->vel, b->vel, 16ull * a->n) != 0 ||
               memcmp(a->dens, b->dens, 4ull * a->n) != 0;
    CHECK(!diff, "%s: the states differ", what);
    return check_failures == fails;
}
#endif
