/* sim_compare: the simulation's side of the compare mode (sim.h's sim_set_compare and friends;
 * the mode itself is src/sim/compare.c): it makes the compare for the sim's search and its sort,
 * hands it to the search, and follows a sort switch. */
#include "core/log.h"
#include "core/util.h"
#include "sim/compare.h"
#include "sim/sim_internal.h"
#include <stdio.h>

bool sim_set_compare(sim *s, const sim_compare_desc *desc, char *err) {
    sim_compare *c = NULL;
    if (desc) {
        sim_compare_desc d = *desc;
        d.capacity = s->p.capacity;
        d.bits = sim_search_bits(s->q);
        d.drive = sim_search_sort(s->q);
        if (!(c = sim_compare_make(&d, s->caps, err))) return false;
    }
    sim_search_set_compare(s->q, c);
    sim_compare_destroy(s->cmp);
    s->cmp = c;
    return true;
}

sim_compare *sim_get_compare(const sim *s) { return s->cmp; }

void sim_sort_path(const sim *s, char *out, size_t len) { sim_search_path(s->q, out, len); }

void sim_run_compare(sim *s) {
    if (s->cmp) sim_compare_frame(s->cmp);
}

void sim_compare_follow_sort(sim *s) {
    if (!s->cmp) return;
    sim_compare_desc d = *sim_compare_get_desc(s->cmp);
    char err[ERR_LEN];
    if (!sim_set_compare(s, &d, err)) {
        log_warn("COMPARE", "compare mode off: %s", err);
        sim_set_compare(s, NULL, NULL);
    }
}
