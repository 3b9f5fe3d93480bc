/* sim_records: the steps' records as the solver reports them (solver.h's poll), kept for
 * sim_records, and the run's summary (sim.h). */
#include "core/util.h"
#include "sim/sim_internal.h"
#include <string.h>

static void _sim_take(sim *s, const sim_step_record *r) {
    sim_summary *u = &s->sum;
    u->steps++;
    u->time += r->dt;
    u->dt_last = r->dt;
    for (int i = 0; i < SIM_RECORD_COUNTERS; i++) {
        s->it_sum[i] += r->it[i];
        u->it_mean[i] = s->it_sum[i] / (double)u->steps;
    }
    s->err_density_sum += r->err_density;
    u->err_density_mean = s->err_density_sum / (double)u->steps;
    if (r->err_density > u->err_density_max) u->err_density_max = r->err_density;
    if (r->cfl > u->cfl_max) u->cfl_max = r->cfl;
    u->capped += r->capped;
    u->dropped += r->dropped;
    u->limited += r->limited;
    u->frames_short += r->short_frame;
    sim_step_record *slot = &s->rec[(s->rec_head + s->rec_count) % SIM_RECORDS];
    *slot = *r;
    slot->time = u->time;
    if (s->rec_count < SIM_RECORDS) s->rec_count++;
    else s->rec_head = (s->rec_head + 1) % SIM_RECORDS; /* nobody reads them: keep the newest */
}

void sim_poll(sim *s, bool wait) {
    sim_step_record buf[256];
    int got;
    do {
        got = s->solver->poll(s->impl, wait, buf, (int)ARRAY_LEN(buf));
        for (int i = 0; i < got; i++) _sim_take(s, &buf[i]);
    } while (got == (int)ARRAY_LEN(buf));
}

void sim_records_clear(sim *s) {
    memset(&s->sum, 0, sizeof s->sum);
    memset(s->it_sum, 0, sizeof s->it_sum);
    s->err_density_sum = 0;
    s->rec_head = s->rec_count = 0;
}

int sim_records(sim *s, sim_step_record *out, int max) {
    sim_poll(s, false);
    int n = s->rec_count < max ? s->rec_count : max;
    for (int i = 0; i < n; i++) out[i] = s->rec[(s->rec_head + i) % SIM_RECORDS];
    s->rec_head = (s->rec_head + n) % SIM_RECORDS;
    s->rec_count -= n;
    return n;
}

void sim_sync(sim *s) {
    if (s->in_frame) sim_frame_end(s);
    sim_poll(s, true);
}

void sim_get_summary(const sim *s, sim_summary *out) { *out = s->sum; }

int sim_counter_count(const sim *s) { return s->solver->counter_count; }

const char *sim_counter_name(const sim *s, int i) {
    return i >= 0 && i < s->solver->counter_count ? s->solver->counters[i] : NULL;
}
