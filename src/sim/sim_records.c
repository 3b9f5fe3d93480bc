/* sim_records: the steps' records as the solver reports them (solver.h's poll), kept for
 * sim_records, and the run's summary (sim.h). */
#include "core/util.h"
#include "sim/sim_internal.h"
#include <stdlib.h>
#include <string.h>

static void _sim_take(void *owner, const sim_step_record *r) {
    sim *s = owner;
    sim_summary *u = &s->sum;
    u->steps++;
    u->solver_steps++;
    u->time += r->dt;
    u->dt_last = r->dt;
    for (int i = 0; i < SIM_RECORD_COUNTERS; i++) {
        s->it_sum[i] += r->it[i];
        u->it_mean[i] = s->it_sum[i] / (double)u->solver_steps;
    }
    s->err_density_sum += r->err_density;
    u->err_density_mean = s->err_density_sum / (double)u->solver_steps;
    if (r->err_density > u->err_density_max) u->err_density_max = r->err_density;
    if (r->cfl > u->cfl_max) u->cfl_max = r->cfl;
    u->capped += r->capped;
    u->dropped += r->dropped;
    u->limited += r->limited;
    u->frames_short += r->short_frame;
    if (sim_record_phased(r)) {
        u->phase_steps++;
        u->phase_last = u->steps;
        double w = u->phase_steps < 64 ? 1.0 / (double)u->phase_steps : 1.0 / 64;
        for (int i = 0; i < SIM_RECORD_PHASES; i++) u->phase_cycles[i] += w * (r->phase_cycles[i] - u->phase_cycles[i]);
    }
    if (s->rec_count == s->rec_cap) { /* full: the oldest unread goes, counted */
        s->rec_head = (s->rec_head + 1) % s->rec_cap;
        s->rec_count--;
        u->records_dropped++;
    }
    sim_step_record *slot = &s->rec[(s->rec_head + s->rec_count) % s->rec_cap];
    *slot = *r;
    slot->time = u->time;
    if (r->frame) {
        uint32_t f = slot->frame = r->frame + s->solver_frame_base;
        sim_tally *t = &s->tally[f % SIM_TALLY_FRAMES];
        if (t->frame != f) *t = (sim_tally){.frame = f}; /* (its sim_frame_begin made it: only a guard) */
        t->c.steps++;
        for (int i = 0; i < SIM_RECORD_COUNTERS; i++) t->c.iterations += r->it[i];
        if (f > s->tally_newest) s->tally_newest = f;
    }
    s->rec_count++;
}

int sim_frame_tally(const sim *s, uint32_t frame, sim_frame_counts *out) {
    *out = (sim_frame_counts){0};
    if (!frame || frame > s->frames_begun || s->frames_begun - frame >= SIM_TALLY_FRAMES) return -1;
    const sim_tally *t = &s->tally[frame % SIM_TALLY_FRAMES];
    if (t->frame == frame) *out = t->c;
    return frame < s->tally_newest || frame <= s->tally_done || frame <= s->synced_frames ? 1 : 0;
}

static void _sim_frame_done(void *owner, uint32_t frame) {
    sim *s = owner;
    if (frame && frame + s->solver_frame_base > s->tally_done) s->tally_done = frame + s->solver_frame_base;
}

void sim_take_record(sim *s, const sim_step_record *r) { s->sink.push(s->sink.owner, r); }

bool sim_records_make(sim *s, uint32_t capacity, char *err) {
    s->rec_cap = capacity ? capacity : SIM_RECORDS;
    s->rec = calloc(s->rec_cap, sizeof *s->rec);
    s->sink = (sim_record_sink){.push = _sim_take, .frame_done = _sim_frame_done, .owner = s};
    return s->rec || fail(err, "out of host memory for %u step records", s->rec_cap);
}

void sim_poll(sim *s, bool wait) { s->solver->poll(s->impl, wait); }

void sim_records_clear(sim *s) {
    memset(&s->sum, 0, sizeof s->sum);
    memset(s->it_sum, 0, sizeof s->it_sum);
    s->err_density_sum = 0;
    s->rec_head = s->rec_count = 0;
}

void sim_records_solver_switched(sim *s) {
    sim_summary *u = &s->sum;
    memset(s->it_sum, 0, sizeof s->it_sum);
    memset(u->it_mean, 0, sizeof u->it_mean);
    s->err_density_sum = 0;
    u->solver_steps = 0;
    u->err_density_mean = u->err_density_max = u->cfl_max = 0;
    u->capped = u->frames_short = 0;
    memset(u->phase_cycles, 0, sizeof u->phase_cycles);
    u->phase_steps = u->phase_last = 0;
}

int sim_records(sim *s, sim_step_record *out, int max) {
    sim_poll(s, false);
    int n = max < 0 ? 0 : s->rec_count < (uint32_t)max ? (int)s->rec_count : max;
    for (int i = 0; i < n; i++) out[i] = s->rec[(s->rec_head + i) % s->rec_cap];
    s->rec_head = (s->rec_head + n) % s->rec_cap;
    s->rec_count -= n;
    return n;
}

void sim_sync(sim *s) {
    if (s->in_frame) sim_frame_end(s);
    sim_poll(s, true);
    s->synced_frames = s->frames_begun;
}

void sim_get_summary(const sim *s, sim_summary *out) { *out = s->sum; }

int sim_counter_count(const sim *s) { return s->solver->counter_count; }

const char *sim_counter_name(const sim *s, int i) {
    return i >= 0 && i < s->solver->counter_count ? s->solver->counters[i] : NULL;
}
