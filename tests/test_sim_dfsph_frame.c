/* DFSPH's frame and slot policy (src/sim/dfsph/dfsph_frame.c), a pure function, against cases
 * worked by hand (the numbers in the comments): the slots and caps of a fresh solver, the time in
 * ticks, --substeps and its warning, the CFL slots from records, the caps after capped solves, a
 * short frame's carry, the spare slots (made to fail once: the spare ignored, 2 checks), the pairs a solve records before its persistent tail (made to fail once:
 * DFSPH_TAIL_SHARE 4, 2 checks), the path that runs the solves. And the step bounds dfsph_params_apply writes, with the rest's rules (up to
 * 262,144 particles: dt_max up to twice the viscosity's bound, the depth bound) and without (made
 * to fail once: the rest flag's two cases swapped, 2 checks). No GL.
 */
#include "check.h"
#include "sim/dfsph/dfsph_frame.h"
#include "sim/dfsph/dfsph_params.h"
#include <math.h>

static dfsph_policy fresh_grow(uint32_t spare, float grow) {
    dfsph_policy pol;
    dfsph_policy_reset(
        &pol,
        &(dfsph_policy_desc){
            .dt_max = 0.005f, .cfl = 0.35f, .slack = 1, .spare = spare, .grow = grow, .history = DFSPH_FRAMES, .debt_share = 1});
    return pol;
}
static dfsph_policy fresh_spare(uint32_t spare) { return fresh_grow(spare, 1.5f); }
static dfsph_policy fresh(void) { return fresh_spare(1); }

static dfsph_record rec(float dt, float cfl, uint32_t it_div, uint32_t it_dens, uint32_t capped, uint32_t t_rem) {
    return (dfsph_record){
        .dt = dt, .dt_cfl = dt, .cfl = cfl, .it_div = it_div, .it_dens = it_dens, .capped = capped, .t_rem = t_rem};
}

int main(void) {
    dfsph_frame_plan f;
    /* A fresh solver: one free step (seconds 0), the first caps 10 and 20; persistent: 100. */
    dfsph_policy pol = fresh();
    dfsph_policy_plan(&pol, 0, 0, false, &f);
    CHECK(f.steps == 1 && f.mode == DFSPH_MODE_FREE && f.add == 0 && f.caps[0] == 10 && f.caps[1] == 20,
          "free step: %d slots, mode %u, %u ticks, caps %u %u", f.steps, f.mode, f.add, f.caps[0], f.caps[1]);
    dfsph_policy_plan(&pol, 0, 0, true, &f);
    CHECK(f.caps[0] == 100 && f.caps[1] == 100, "persistent caps %u %u, not 100", f.caps[0], f.caps[1]);

    /* Time in ticks of 2^-28 s: 1/60 s = 4,473,924.27 ticks; two frames 8,947,848.53 -> 8,947,849:
     * 4,473,924 then 4,473,925, the sum exact within half a tick. */
    pol = fresh();
    dfsph_policy_plan(&pol, 1.0 / 60, 4, false, &f);
    CHECK(f.add == 4473924 && f.mode == DFSPH_MODE_FIXED && f.steps == 4 && !f.warn_fixed,
          "--substeps 4: %u ticks, mode %u, %d slots, warn %d", f.add, f.mode, f.steps, f.warn_fixed);
    dfsph_policy_plan(&pol, 1.0 / 60, 2, false, &f); /* 8.3 ms steps, longer than dt_max 5 ms: said once */
    CHECK(f.add == 4473925 && f.steps == 2 && f.warn_fixed, "second frame: %u ticks, %d slots, warn %d", f.add, f.steps,
          f.warn_fixed);
    dfsph_policy_plan(&pol, 1.0 / 60, 2, false, &f);
    CHECK(!f.warn_fixed, "the warning came twice");
    dfsph_policy_plan(&pol, 1.0 / 60, 5000, false, &f);
    CHECK(f.steps == DFSPH_MAX_STEPS, "--substeps 5000: %d slots, not %d", f.steps, DFSPH_MAX_STEPS);

    /* CFL slots, nothing read yet: dt_max 5 ms for 16.7 ms: ceil(3.33) = 4 steps plus a spare = 5. */
    pol = fresh();
    dfsph_policy_plan(&pol, 1.0 / 60, 0, false, &f);
    CHECK(f.steps == 5 && f.mode == DFSPH_MODE_CFL, "CFL, nothing known: %d slots (mode %u), not 5", f.steps, f.mode);
    /* The spare slots a frame issues (FLUID_DFSPH_SPARE): none, 4 + 0; three, 4 + 3. */
    for (uint32_t spare = 0; spare <= 3; spare += 3) {
        dfsph_policy ps = fresh_spare(spare);
        dfsph_policy_plan(&ps, 1.0 / 60, 0, false, &f);
        CHECK(f.steps == 4 + (int)spare, "CFL, nothing known, %u spare: %d slots, not %u", spare, f.steps, 4 + spare);
    }

    /* A frame read back: two steps of 4 ms (cfl 0.2: |v|/dx 50), iterations 3 and 5, then an empty
     * slot. Its records: the two steps. The caps: the most seen plus the slack: 4 and 6. */
    dfsph_record r[3] = {rec(0.004f, 0.2f, 3, 5, 0, 100), rec(0.004f, 0.2f, 2, 4, 0, 0), rec(0, 0, 0, 0, 0, 0)};
    sim_step_record out[3];
    uint32_t caps[2] = {10, 20};
    int got = dfsph_policy_learn(&pol, r, 3, DFSPH_MODE_CFL, caps, out);
    CHECK(got == 2 && out[0].it[0] == 3 && out[0].it[1] == 5 && out[1].it[0] == 2 && !out[0].short_frame && !out[1].short_frame,
          "%d records (it %u %u)", got, out[0].it[0], out[0].it[1]);
    CHECK(fabs(out[0].t_left - 100 * DFSPH_TICK) < 1e-12, "the first record's time left %g", out[0].t_left);
    CHECK(pol.cap_div == 4 && pol.cap_dens == 6, "caps after iterations 3 and 5: %u %u, not 4 and 6", pol.cap_div, pol.cap_dens);
    /* The next CFL frame: dt 4 ms (cfl / speed = 0.35 / 50 = 7 ms is longer): ceil(4.17) + 1 = 6, but
     * at most 1.5 times the 2 steps taken plus 2: 5. */
    dfsph_policy_plan(&pol, 1.0 / 60, 0, false, &f);
    CHECK(f.steps == 5 && f.caps[0] == 4 && f.caps[1] == 6, "CFL after a frame: %d slots (not 5), caps %u %u", f.steps, f.caps[0],
          f.caps[1]);

    /* A capped pressure solve (20 iterations, the cap): its cap doubles to 40; the divergence's,
     * not capped, is the most seen plus the slack (the earlier frame's 3 within the history): 4. */
    dfsph_record c[1] = {rec(0.004f, 0.2f, 1, 20, 1, 0)};
    uint32_t caps2[2] = {4, 20};
    pol.cap_dens = 20;
    dfsph_policy_learn(&pol, c, 1, DFSPH_MODE_CFL, caps2, out);
    CHECK(pol.cap_div == 4 && pol.cap_dens == 40, "caps after a capped pressure solve: %u %u, not 4 and 40", pol.cap_div,
          pol.cap_dens);

    /* The slots' cap follows desc.grow (an analytic case): a frame of 3 steps whose speed asks
     * 0.7 ms steps (cfl 2 over 4 ms: |v|/dx 500, and 0.35 / 500 s) wants ceil(16.7 / 0.7) + 1 = 25
     * slots, at most ceil(1.5 * 3) + 2 = 7, or with grow 1.25 ceil(3.75) + 2 = 6. */
    for (int g = 0; g < 2; g++) {
        dfsph_policy p = fresh_grow(1, g ? 1.25f : 1.5f);
        dfsph_record q[3] = {rec(0.004f, 2.0f, 1, 2, 0, 0), rec(0.004f, 2.0f, 1, 2, 0, 0), rec(0.004f, 2.0f, 1, 2, 0, 0)};
        dfsph_policy_learn(&p, q, 3, DFSPH_MODE_CFL, caps, out);
        dfsph_policy_plan(&p, 1.0 / 60, 0, false, &f);
        CHECK(f.steps == (g ? 6 : 7), "grow %.2f after 3 steps: %d slots (want %d)", g ? 1.25 : 1.5, f.steps, g ? 6 : 7);
    }

    /* A short frame: its last step with time left (2^20 ticks, 3.9 ms) carries it to the next frame:
     * (16.7 + 3.9) / 4 = 5.15 -> 6 steps + 1 spare = 7, within 1.5 * 3 steps taken + 2 = 6.5 -> 7.
     * Where the next frame's budget on the GPU is its own time and 1/8 of the debt (debt_share 8):
     * (16.7 + 3.9 / 8) / 4 = 4.29 -> 5 steps + 1 spare = 6 (made to fail: the whole carry, 7). */
    pol = fresh();
    dfsph_record s[4] = {rec(0.004f, 0.2f, 1, 2, 0, 3000000), rec(0.004f, 0.2f, 1, 2, 0, 2000000),
                         rec(0.004f, 0.2f, 1, 2, 0, 1u << 20)};
    got = dfsph_policy_learn(&pol, s, 3, DFSPH_MODE_CFL, caps, out);
    CHECK(got == 3 && out[2].short_frame && !out[1].short_frame, "short frame: %d records, last short %d", got,
          out[2].short_frame);
    CHECK(fabs(pol.carry_recent - (1u << 20) * DFSPH_TICK) < 1e-9, "carry %g s", pol.carry_recent);
    dfsph_policy_plan(&pol, 1.0 / 60, 0, false, &f);
    CHECK(f.steps == 7, "after a short frame: %d slots, not 7", f.steps);
    dfsph_policy share = pol;
    share.desc.debt_share = 8;
    dfsph_policy_plan(&share, 1.0 / 60, 0, false, &f);
    CHECK(f.steps == 6, "after a short frame, a budget of 1/8 of the debt: %d slots, not 6", f.steps);
    /* A frame its budget stopped: steps with time left, then empty slots (dt 0) that keep it. Owing
     * 2^19 ticks after 2^20, it paid part of the debt: not short; its time left is the carry. Then a
     * frame owing more than it started with (2^21 after 2^19, its slots ran out) is short. Made to
     * fail: the carry from a last slot's step only (0), and every frame ending owing short. */
    dfsph_record b[4] = {rec(0.004f, 0.2f, 1, 2, 0, 3000000), rec(0.004f, 0.2f, 1, 2, 0, 1u << 19),
                         rec(0.0f, 0.0f, 0, 0, 0, 1u << 19), rec(0.0f, 0.0f, 0, 0, 0, 1u << 19)};
    got = dfsph_policy_learn(&pol, b, 4, DFSPH_MODE_CFL, caps, out);
    CHECK(got == 2 && !out[1].short_frame && !out[0].short_frame, "a budget's stop: %d records, last short %d", got,
          out[1].short_frame);
    CHECK(fabs(pol.carry_recent - (1u << 19) * DFSPH_TICK) < 1e-9, "a budget's stop: carry %g s", pol.carry_recent);
    b[1].t_rem = b[2].t_rem = b[3].t_rem = 1u << 21;
    got = dfsph_policy_learn(&pol, b, 2, DFSPH_MODE_CFL, caps, out);
    CHECK(got == 2 && out[1].short_frame && !out[0].short_frame, "a frame owing more: last short %d", out[1].short_frame);
    /* The same records from a free step (mode FREE) are never short. */
    got = dfsph_policy_learn(&pol, s, 3, DFSPH_MODE_FREE, caps, out);
    CHECK(!out[2].short_frame, "a free step's record says short_frame");

    /* A settled frame: steps of dt_max (5 ms) at |v| dt / dx 0.02 (|v|/dx 4: cfl / speed = 87.5 ms,
     * dt_max even were the fastest twice as fast): ceil(3.33) = 4 slots, no spare. At |v| dt / dx
     * 0.2 (cfl / speed 8.75 ms, under twice dt_max) the spare comes back: 5. */
    pol = fresh();
    dfsph_record still[3] = {rec(0.005f, 0.02f, 1, 3, 0, 2000000), rec(0.005f, 0.02f, 1, 3, 0, 1000000),
                             rec(0.005f, 0.02f, 1, 3, 0, 0)};
    dfsph_policy_learn(&pol, still, 3, DFSPH_MODE_CFL, caps, out);
    dfsph_policy_plan(&pol, 1.0 / 60, 0, false, &f);
    CHECK(f.steps == 4, "a settled frame: %d slots, not 4 (no spare)", f.steps);
    for (int k = 0; k < 3; k++) still[k].cfl *= 10;
    dfsph_policy_learn(&pol, still, 3, DFSPH_MODE_CFL, caps, out);
    dfsph_policy_plan(&pol, 1.0 / 60, 0, false, &f);
    CHECK(f.steps == 5, "a frame 10 times as fast: %d slots, not 5 (a spare)", f.steps);

    /* A catch-up frame (seconds < 0): slots for the time owed, no time added: 8 ms / 4 ms = 2 + 1. */
    dfsph_policy_plan(&pol, -0.008, 0, false, &f);
    CHECK(f.add == 0 && f.steps == 3, "catch-up: %u ticks, %d slots (not 0 and 3)", f.add, f.steps);
    /* The pairs before a tail (DFSPH_TAIL_SHARE 8): a fresh solver's 0 and 2; then 16 steps whose
     * pressure solves took 2 (10 of them), 3 (3), 4 (2) and 9 (1) pairs: more than 2 in 6 of 16,
     * more than 3 in 3 (> 16 / 8), more than 4 in 1 (not): 4; the divergence solves 0 (15) and 1
     * (1): more than 0 in 1 of 16 (not): 0. Then a frame of 16 at 2 joins them (history 4): 32
     * steps, more than 2 in 6 (> 32 / 8), more than 3 in 3 (not): 3. */
    pol = fresh();
    dfsph_policy_plan(&pol, 1.0 / 60, 0, true, &f);
    CHECK(f.pairs[0] == 0 && f.pairs[1] == 2, "a fresh solver's pairs before its tail: %u %u (want 0 2)", f.pairs[0], f.pairs[1]);
    dfsph_record many[16];
    sim_step_record got16[16];
    for (int k = 0; k < 16; k++) many[k] = rec(0.001f, 0.1f, k == 3, k < 10 ? 2 : k < 13 ? 3 : k < 15 ? 4 : 9, 0, 16 - k);
    uint32_t caps100[2] = {DFSPH_MAX_IT, DFSPH_MAX_IT};
    dfsph_policy_learn(&pol, many, 16, DFSPH_MODE_CFL, caps100, got16);
    dfsph_policy_plan(&pol, 1.0 / 60, 0, true, &f);
    CHECK(f.pairs[0] == 0 && f.pairs[1] == 4 && f.caps[1] == DFSPH_MAX_IT, "pairs %u %u, cap %u (want 0 4 100)", f.pairs[0],
          f.pairs[1], f.caps[1]);
    for (int k = 0; k < 16; k++) many[k] = rec(0.001f, 0.1f, 0, 2, 0, 16 - k);
    dfsph_policy_learn(&pol, many, 16, DFSPH_MODE_CFL, caps100, got16);
    dfsph_policy_plan(&pol, 1.0 / 60, 0, true, &f);
    CHECK(f.pairs[0] == 0 && f.pairs[1] == 3, "with a frame of 2s: pairs %u %u (want 0 3)", f.pairs[0], f.pairs[1]);

    /* The path (dfsph_path_choose), case by case: records on a GPU with persistent grids: the
     * persistent solve; index lists: the tail up to 262,144 (tail_auto), the indirect path alone past
     * it; no grid (llvmpipe): the indirect path, unless `persistent` forces one; `persistent`
     * DFSPH_ZERO (-1): the indirect path; `tail` set: the tail where a grid runs. (Made to fail once:
     * index lists past tail_auto given the default grid, as a first form of the tail did: 1 check.) */
    static const struct {
        int persistent, tail;
        bool records, tail_auto, progress;
        dfsph_path want;
    } paths[] = {
        {0, 0, true, true, true, DFSPH_PATH_PERSISTENT},    {0, 0, false, true, true, DFSPH_PATH_TAIL},
        {0, 0, false, false, true, DFSPH_PATH_INDIRECT},    {0, 0, true, false, true, DFSPH_PATH_PERSISTENT},
        {0, 0, true, true, false, DFSPH_PATH_INDIRECT},     {0, 0, false, true, false, DFSPH_PATH_INDIRECT},
        {528, 0, false, true, true, DFSPH_PATH_PERSISTENT}, {1, 0, true, true, false, DFSPH_PATH_PERSISTENT},
        {1, 2, true, true, false, DFSPH_PATH_TAIL},         {1, -1, false, false, false, DFSPH_PATH_TAIL},
        {-1, 0, true, true, true, DFSPH_PATH_INDIRECT},     {-1, 3, false, true, true, DFSPH_PATH_INDIRECT},
        {0, 3, true, false, true, DFSPH_PATH_TAIL},         {0, 3, false, false, false, DFSPH_PATH_INDIRECT},
    };
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++) {
        dfsph_path path =
            dfsph_path_choose(paths[k].persistent, paths[k].tail, paths[k].records, paths[k].tail_auto, paths[k].progress);
        CHECK(path == paths[k].want, "path %zu (persistent %d, tail %d, records %d, tail_auto %d, progress %d): %d, want %d", k,
              paths[k].persistent, paths[k].tail, paths[k].records, paths[k].tail_auto, paths[k].progress, path, paths[k].want);
    }

    /* The step bounds: hs 4 mm and nu 1e-3 m^2/s put the viscosity's bound at 0.125 * 1.6e-5 / 1e-3
     * = 2 ms. With the rest's rules dt_max = min(5 ms, 4 ms) and the depth bound's sqrt(7 dx^3) at
     * dx 4 mm = 6.693e-4; without, dt_max = 2 ms and the same depth bound (since session 41: without
     * it the pool erupted past the rest's count); a dt_max set wins in both. */
    dfsph_params dp;
    dfsph_gpu_params g;
    dfsph_params_default(&dp, false, 0);
    dfsph_params_apply(&dp, 0.004, 1e-3, 0.004, true, &g);
    CHECK(fabsf(g.dt_visc - 0.002f) < 1e-9f && fabsf(g.dt_max - 0.004f) < 1e-9f && fabsf(g.dt_press - 6.6933e-4f) < 1e-7f,
          "rest: dt_visc %g, dt_max %g, dt_press %g (want 0.002, 0.004, 6.6933e-4)", g.dt_visc, g.dt_max, g.dt_press);
    dfsph_params_apply(&dp, 0.004, 1e-3, 0.004, false, &g);
    CHECK(fabsf(g.dt_max - 0.002f) < 1e-9f && fabsf(g.dt_press - 6.6933e-4f) < 1e-7f,
          "past the rest's count: dt_max %g, dt_press %g (want 0.002, 6.6933e-4)", g.dt_max, g.dt_press);
    dfsph_params_default(&dp, false, 0.003f);
    dfsph_params_apply(&dp, 0.004, 1e-3, 0.004, false, &g);
    CHECK(fabsf(g.dt_max - 0.003f) < 1e-9f, "a dt_max set: %g (want 0.003)", g.dt_max);
    return check_done();
}
