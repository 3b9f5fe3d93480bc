/* dfsph_frame: DFSPH's frame and slot policy, no GL (see dfsph_frame.h). */
#include "sim/dfsph/dfsph_frame.h"
#include <math.h>
#include <string.h>

void dfsph_policy_reset(dfsph_policy *pol, const dfsph_policy_desc *desc) {
    dfsph_policy_desc keep = *desc; /* desc may be pol's own */
    memset(pol, 0, sizeof *pol);
    pol->desc = keep;
    pol->cap_div = DFSPH_CAP_DIV0; /* the caps a fresh solver starts with: the same steps as a fresh sim */
    pol->cap_dens = DFSPH_CAP_DENS0;
    pol->pairs[0] = 0, pol->pairs[1] = 2; /* with a tail, until records come: the divergence solve's first predict mostly
                                           * converges, the pressure solve's second or third */
}

dfsph_path dfsph_path_choose(int persistent, int tail, bool records, bool tail_auto, bool progress) {
    bool want_tail = tail != 0 || (persistent == 0 && !records && tail_auto);
    bool grid = persistent > 0 || (persistent == 0 && progress && (records || want_tail));
    return !grid ? DFSPH_PATH_INDIRECT : want_tail ? DFSPH_PATH_TAIL : DFSPH_PATH_PERSISTENT;
}

/* A frame's time goes to the GPU in whole ticks, rounded so that the frames' sum is the time asked
 * for within half a tick (t_given follows t_asked), and adds to what earlier frames could not
 * finish (Ctl.t_rem). The GPU sizes the steps (nonpressure.comp); the CPU sizes the slots:
 *   seconds > 0, substeps 0   CFL: the steps the last CFL limit read needs, plus spare slots that
 *                             run empty where the time is used sooner (DFSPH_MODE_CFL)
 *   seconds > 0, substeps K   exactly K equal steps, the CFL limit not asked (DFSPH_MODE_FIXED)
 *   seconds == 0              one step of the CFL size (DFSPH_MODE_FREE)
 *   seconds < 0               a catch-up frame: no new time, slots for the -seconds owed (sim_catch_up) */
void dfsph_policy_plan(dfsph_policy *pol, double seconds, int substeps, bool persistent, dfsph_frame_plan *out) {
    int steps = 1;
    uint32_t mode = DFSPH_MODE_FREE, add = 0;
    bool warn = false;
    if (seconds > 0) {
        pol->t_asked += seconds;
        uint64_t target = (uint64_t)llround(pol->t_asked / DFSPH_TICK);
        add = target > pol->t_given ? (uint32_t)(target - pol->t_given) : 0;
        pol->t_given = target;
    }
    if (seconds != 0 && substeps > 0) {
        mode = DFSPH_MODE_FIXED;
        steps = substeps > DFSPH_MAX_STEPS ? DFSPH_MAX_STEPS : substeps;
        if (!pol->warned_fixed && seconds / steps > pol->desc.dt_max * 1.0001) warn = pol->warned_fixed = true;
    } else if (seconds != 0) {
        mode = DFSPH_MODE_CFL;
        /* The CFL step this frame will see, from the records DFSPH_LAG + 1 frames old: the flow's
         * largest speed (|v| dt / dx over dt, which dt_max's clamp does not hide) carried on at
         * the rate it last grew (a dam break's first tenths of a second: the speed doubles within
         * the lag), so that the slots cover the frame's time and what the last frame read left
         * over; then desc.spare spare slots (1; an empty slot costs its dispatches, no solve).
         * A sudden impact outruns them: that frame carries over. */
        double dt = pol->dt_cfl_recent > 0 ? pol->dt_cfl_recent : pol->desc.dt_max, speed = pol->speed_recent;
        /* at most 1.25 times the last: an impact's jump is not a trend, and a spare slot is not free
         * (the H100, dam break: 1.25 times against twice the last cut the worst frames' slots by
         * half, with a few more short frames, each carried to the next frame; docs/BENCHMARKS.md) */
        if (pol->speed_before > 0 && speed > pol->speed_before)
            speed += fmin((DFSPH_LAG + 1) * (speed - pol->speed_before), 0.25 * speed);
        if (speed > 0 && pol->desc.cfl / speed < dt) dt = pol->desc.cfl / speed;
        /* The spare slot only where the speeds' CFL limit may bind: a flow whose steps are all at
         * their limit (dt_max, or the depth bound), and would stay so were its fastest particle
         * twice as fast, takes exactly ceil(time / that limit) steps (a settled pool: the spare ran
         * the search, the density pass and integrate for nothing; on the H100 its frame did not
         * measurably shorten, the drop and the dam break's first 5 s did by 2-3%,
         * docs/BENCHMARKS.md). A sudden push outruns it as it outruns the spare: that frame carries
         * its time over, and the next one has the slots for it. */
        bool pinned = speed > 0 && pol->desc.cfl / speed >= DFSPH_SPARE_MARGIN * dt && pol->carry_recent == 0;
        /* the frame's budget on the GPU: its own time and a share of the debt (density_pass.glsl) */
        double k = ceil((seconds > 0 ? seconds + pol->carry_recent / pol->desc.debt_share : -seconds) / dt - 1e-6);
        k = (k < 1 ? 1 : k) + (pinned ? 0 : pol->desc.spare);
        /* and at most desc.grow times the steps that frame took, plus 2: one record's speed spike
         * (a particle flung off an impact) asked 3.5-3.8 times a mean frame's steps at 432,000 and
         * 986,078 on the H100 (their worst frames, mostly empty slots); a flow that truly outruns
         * this carries over, and the next frames' slots follow the steps it takes (not a catch-up
         * frame's: it has only the time owed). dfsph.c gives 1.25 up to 65,536 particles, where an
         * empty slot costs a large share of a step, 1.1 above (docs/BENCHMARKS.md, s32, s38, s39). */
        double most = ceil(pol->desc.grow * pol->steps_recent) + 2;
        if (seconds > 0 && pol->steps_recent && k > most) k = most;
        steps = k > DFSPH_MAX_STEPS ? DFSPH_MAX_STEPS : (int)k;
    }
    /* The frame's slots, time and caps, read by the GPU's step-size decision. */
    out->caps[0] = pol->cap_div;
    out->caps[1] = pol->cap_dens;
    out->pairs[0] = pol->pairs[0];
    out->pairs[1] = pol->pairs[1];
    if (persistent) out->caps[0] = out->caps[1] = DFSPH_MAX_IT; /* no dispatches to size: SPlisHSPlasH's bound */
    out->steps = steps;
    out->mode = mode;
    out->add = add;
    out->warn_fixed = warn;
}

int dfsph_policy_learn(dfsph_policy *pol, const dfsph_record *recs, uint32_t count, uint32_t mode, const uint32_t caps[2],
                       sim_step_record *out) {
    float dt_cfl_min = 0, carry = 0, speed = 0;
    uint32_t it_div_max = 0, it_dens_max = 0, capped = 0, taken = 0;
    uint16_t hist[2][DFSPH_TAIL_BINS] = {{0}};
    for (uint32_t k = 0; k < count; k++) {
        const dfsph_record r = recs[k];
        if (r.dt <= 0) continue; /* an empty slot: the frame's time (or its budget) was used; nothing moved */
        out[taken++] = (sim_step_record){.dt = r.dt,
                                         .dt_cfl = r.dt_cfl,
                                         .cfl = r.cfl,
                                         .it = {r.it_div, r.it_dens},
                                         .err_div = r.err_div,
                                         .err_density = r.err_dens,
                                         .capped = r.capped,
                                         .dropped = r.dropped,
                                         .limited = r.limited,
                                         .t_left = (float)(r.t_rem * DFSPH_TICK)};
        for (int s = 0; s < DFSPH_PHASES; s++) out[taken - 1].phase_cycles[s] = r.clk[s]; /* the order of its stages (dfsph.c) */
        if (!dt_cfl_min || r.dt_cfl < dt_cfl_min) dt_cfl_min = r.dt_cfl;
        if (r.cfl / r.dt > speed) speed = r.cfl / r.dt;
        if (r.it_div > it_div_max) it_div_max = r.it_div;
        if (r.it_dens > it_dens_max) it_dens_max = r.it_dens;
        hist[0][r.it_div < DFSPH_TAIL_BINS ? r.it_div : DFSPH_TAIL_BINS - 1]++;
        hist[1][r.it_dens < DFSPH_TAIL_BINS ? r.it_dens : DFSPH_TAIL_BINS - 1]++;
        capped += r.capped;
    }
    if (!count) return 0;
    /* The time owed after the frame (its last slot's record, empty or not: an empty slot changes
     * nothing) carries over. The frame was short, its last step says, where it owes more than it
     * started with: its slots ran out before its own time. A frame that pays part of the debt
     * within its budget (density_pass.glsl) is not. */
    uint32_t owed = recs[count - 1].t_rem;
    if (mode != DFSPH_MODE_FREE) {
        carry = (float)(owed * DFSPH_TICK);
        if (taken && owed > pol->t_owed) out[taken - 1].short_frame = true;
    }
    pol->t_owed = owed;
    /* The next frames' caps: the most iterations seen in the last frames, plus the slack (empty
     * dispatch pairs when not needed); doubled after a capped solve, the cap of that solve only
     * (a solve stopped at its cap has as many iterations as the cap: doubling the divergence
     * cap, which needs 1, after a capped pressure solve filled the worst frames at 27,648 with
     * empty pairs: docs/BENCHMARKS.md, issue 15). */
    bool capped_div = capped && it_div_max >= caps[0], capped_dens = capped && it_dens_max >= caps[1];
    pol->it_seen[pol->it_seen_head][0] = it_div_max;
    pol->it_seen[pol->it_seen_head][1] = it_dens_max;
    memcpy(pol->it_hist[pol->it_seen_head], hist, sizeof hist);
    pol->it_seen_head = (pol->it_seen_head + 1) % DFSPH_FRAMES;
    uint32_t by_it[2][DFSPH_TAIL_BINS] = {{0}}; /* the recent frames' steps by iterations */
    for (int m = 0; m < pol->desc.history; m++) {
        int k = (pol->it_seen_head - 1 - m + DFSPH_FRAMES) % DFSPH_FRAMES;
        if (pol->it_seen[k][0] > it_div_max) it_div_max = pol->it_seen[k][0];
        if (pol->it_seen[k][1] > it_dens_max) it_dens_max = pol->it_seen[k][1];
        for (int s = 0; s < 2; s++)
            for (int b = 0; b < DFSPH_TAIL_BINS; b++) by_it[s][b] += pol->it_hist[k][s][b];
    }
    for (int s = 0; s < 2; s++) { /* the pairs before a tail (DFSPH_TAIL_SHARE) */
        uint32_t all = 0, over, c = 0;
        for (int b = 0; b < DFSPH_TAIL_BINS; b++) all += by_it[s][b];
        for (over = all - by_it[s][0]; over * DFSPH_TAIL_SHARE > all && c + 1 < DFSPH_TAIL_BINS; over -= by_it[s][++c]) {}
        pol->pairs[s] = c;
    }
    uint32_t div = it_div_max + pol->desc.slack, dens = it_dens_max + pol->desc.slack;
    if (capped_div) div = pol->cap_div * 2 > div ? pol->cap_div * 2 : div;
    if (capped_dens) dens = pol->cap_dens * 2 > dens ? pol->cap_dens * 2 : dens;
    pol->cap_div = div < 1 ? 1 : div > DFSPH_MAX_IT ? DFSPH_MAX_IT : div;
    pol->cap_dens = dens < 2 ? 2 : dens > DFSPH_MAX_IT ? DFSPH_MAX_IT : dens;
    pol->dt_cfl_recent = dt_cfl_min;
    pol->speed_before = pol->speed_recent;
    pol->speed_recent = speed;
    pol->carry_recent = carry;
    pol->steps_recent = taken;
    return (int)taken;
}
