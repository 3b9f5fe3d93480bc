/* The session (src/app/session/session.h) on a headless context:
 *   - defaults: a zero desc gives SESSION_WIDTH x SESSION_HEIGHT;
 *   - the profiler's entries: the sim's step stages, then "simulation" and, when asked, "render",
 *     and they follow a live switch of sort (counting's stages differ) and solver;
 *   - session_simulate: a frame of 1/60 s takes the steps the sim says, a stop flag set before the
 *     frame takes none, one step takes one; the HUD's slots and steps a frame follow frames only,
 *     the steps by the records that came back (frames of 3 substeps: 3 and 3, after 4 frames; 12
 *     CFL frames: each that brought records back shows their steps, and some show fewer steps than
 *     slots; made to fail once with the steps taken from the slots); after a switch of solver none
 *     (the old one's last records come back with it), then the new one's (made to fail once
 *     without the switch's reset);
 *   - session_draw into a target draws something (pixels other than black);
 *   - no_sim plus session_sim_make twice (bench --sim's rows), and session_destroy reports no GL
 *     object left alive;
 *   - the HUD's fused phases: none on the indirect path, DFSPH's five on the fused step where the
 *     driver has a shader clock (made to fail once: app_overlay_info without them), and the clock's
 *     rate measured first at frame 30, then every 600 frames from the last try, whether or not it
 *     gave a rate (made to fail once: every frame);
 *   (the window's pacing policy, app/pacing.h, is tested in test_outfile.c.)
 * Independent checks of the contract (counts, names, bounds), not a transcription of the code. */
#include "check.h"
#include "app/session/session.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool _has_stage(const session *ss, const char *name) {
    for (int i = 0; i < prof_stage_count(ss->prof); i++)
        if (!strcmp(prof_stage_name(ss->prof, i), name)) return true;
    return false;
}

int main(void) {
    char err[ERR_LEN];
    session ss;
    if (!session_make(
            &ss,
            &(session_desc){.headless = true, .particles = 4096, .render = true, .time_render = true, .prof_cpu_fallback = true},
            err)) {
        if (ss.fail_tag && !strcmp(ss.fail_tag, "GPU")) {
            printf("SKIP: %s\n", err);
            return 77;
        }
        CHECK(false, "session_make: %s", err);
        return check_done();
    }
    CHECK(ss.desc.width == SESSION_WIDTH && ss.desc.height == SESSION_HEIGHT, "defaults: %dx%d", ss.desc.width, ss.desc.height);
    CHECK(ss.stages == sim_stage_count(ss.s), "%d step stages timed, the sim has %d", ss.stages, sim_stage_count(ss.s));
    CHECK(prof_stage_count(ss.prof) == ss.stages + 2, "%d profiler entries", prof_stage_count(ss.prof));
    CHECK(!strcmp(prof_stage_name(ss.prof, ss.stage_sim), "simulation") &&
              !strcmp(prof_stage_name(ss.prof, ss.stage_render), "render"),
          "the whole-frame entries are %s and %s", prof_stage_name(ss.prof, ss.stage_sim),
          prof_stage_name(ss.prof, ss.stage_render));
    for (int i = 0; i < ss.stages; i++)
        CHECK(!strcmp(prof_stage_name(ss.prof, i), sim_stage_name(ss.s, i)), "entry %d is %s, the sim's stage %s", i,
              prof_stage_name(ss.prof, i), sim_stage_name(ss.s, i));
    /* Frames, a stopped frame, one step. The HUD shows the newest frame whose records are all back
     * (DFSPH's come two or three frames late): its steps and its slots. */
    int k = 0;
    for (int f = 0; f < 4; f++) {
        k = session_simulate(&ss, SESSION_FRAME_SECONDS, 3, SESSION_TIME_FRAME | SESSION_TIME_STAGES, NULL);
        session_frame_end(&ss);
    }
    CHECK(k == 3 && ss.view.slots_per_frame == 3 && ss.view.steps_per_frame == 3,
          "--substeps 3: %d slots, view says %d slots and %d steps", k, ss.view.slots_per_frame, ss.view.steps_per_frame);
    volatile sig_atomic_t stop = 1;
    k = session_simulate(&ss, SESSION_FRAME_SECONDS, 3, SESSION_TIME_FRAME, &stop);
    session_frame_end(&ss);
    CHECK(k == 0 && ss.view.slots_per_frame == 3 && ss.view.steps_per_frame == 3,
          "a stopped frame took %d steps; view says %d slots and %d steps (an earlier frame's 3 and 3)", k,
          ss.view.slots_per_frame, ss.view.steps_per_frame);
    int steps_view = ss.view.steps_per_frame, slots_view = ss.view.slots_per_frame;
    k = session_simulate(&ss, 0, 0, 0, NULL);
    CHECK(k == 1 && ss.view.slots_per_frame == slots_view && ss.view.steps_per_frame == steps_view,
          "one step: %d steps, view says %d slots and %d steps, %d and %d before (a step is not a frame)", k,
          ss.view.slots_per_frame, ss.view.steps_per_frame, slots_view, steps_view);
    /* Frames of the CFL's steps (the dam break's spare slots run empty): each shows the newest frame
     * whose records are all back, at most 4 frames before it: its steps as its records count them
     * (read here, at the end) and the slots this loop saw it issue; some frame has fewer steps than
     * slots. Made to fail on purpose: the HUD of session 36 (the steps read in this frame beside
     * this frame's slots: 2 of 12 matched a frame). */
    enum { CFL_FRAMES = 12 };
    uint32_t frame_of[CFL_FRAMES];
    int slots_of[CFL_FRAMES], shown_steps[CFL_FRAMES], shown_slots[CFL_FRAMES];
    for (int f = 0; f < CFL_FRAMES; f++) {
        slots_of[f] = session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME, NULL);
        session_frame_end(&ss);
        frame_of[f] = sim_frames_begun(ss.s);
        shown_steps[f] = ss.view.steps_per_frame, shown_slots[f] = ss.view.slots_per_frame;
    }
    sim_sync(ss.s);
    int steps_of[CFL_FRAMES] = {0}, wrong = 0, fewer = 0, named = 0;
    sim_step_record rec;
    while (sim_records(ss.s, &rec, 1) == 1)
        if (rec.frame >= frame_of[0] && rec.frame <= frame_of[CFL_FRAMES - 1]) steps_of[rec.frame - frame_of[0]]++;
    for (int f = 0; f < CFL_FRAMES; f++) {
        fewer += steps_of[f] < slots_of[f];
        /* the frame it shows: one of this loop's, at most 4 before, with those counts */
        for (int g = f >= 4 ? f - 4 : 0; g < f; g++)
            if (shown_steps[f] == steps_of[g] && shown_slots[f] == slots_of[g]) {
                named++;
                break;
            }
        wrong += shown_steps[f] > shown_slots[f] || shown_steps[f] <= 0;
    }
    printf("%d frames: %d show one of this loop's frames' steps and slots, %d impossible; %d took fewer steps than slots\n",
           CFL_FRAMES, named, wrong, fewer);
    CHECK(named >= CFL_FRAMES - 4 && wrong == 0 && fewer > 0,
          "%d of %d frames show an earlier frame's steps and slots, %d more steps than slots or none; %d fewer steps than slots",
          named, CFL_FRAMES, wrong, fewer);
    /* A picture. */
    render_target t;
    CHECK(render_target_make(&t, 96, 64, "test-session", err), "%s", err);
    session_draw(&ss, &t, t.width, t.height);
    session_frame_end(&ss);
    static uint8_t rgba[96 * 64 * 4];
    render_target_read(&t, rgba);
    int lit = 0;
    for (int i = 0; i < 96 * 64; i++) lit += rgba[4 * i] + rgba[4 * i + 1] + rgba[4 * i + 2] > 30;
    CHECK(lit > 96 * 64 / 2, "session_draw lit %d of %d pixels", lit, 96 * 64);
    render_target_destroy(&t);
    /* Live switches: the profiler follows the stages. */
    char before[64];
    snprintf(before, sizeof before, "%s", prof_stage_name(ss.prof, 2));
    CHECK(session_set_sort(&ss, "counting", err), "counting: %s", err);
    CHECK(strcmp(before, sim_stage_name(ss.s, 2)) != 0, "counting's third stage is still %s", before);
    for (int i = 0; i < ss.stages; i++)
        CHECK(!strcmp(prof_stage_name(ss.prof, i), sim_stage_name(ss.s, i)),
              "after the sort switch entry %d is %s, the sim's stage %s", i, prof_stage_name(ss.prof, i),
              sim_stage_name(ss.s, i));
    /* The HUD after a switch (issue 23): what it shows belongs to the solver running now. */
    for (int f = 0; f < 3; f++) session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME, NULL);
    sim_sync(ss.s);
    overlay_info shown;
    app_overlay_info(ss.s, ss.prof, &ss.view, 640, 360, &shown);
    CHECK(shown.counters == 2 && shown.counter_means[0] >= 0 && shown.counter_means[1] >= 2,
          "dfsph: the HUD shows %d iteration counts (%.2f, %.2f), not its two", shown.counters, shown.counter_means[0],
          shown.counter_means[1]);
    int dfsph_steps = ss.view.steps_per_frame;
    CHECK(session_set_solver(&ss, "wcsph", err), "wcsph: %s", err);
    CHECK(_has_stage(&ss, "forces+integrate") && !_has_stage(&ss, "pressure"),
          "after the switch to wcsph the profiler lacks its stages");
    /* and its steps a frame: none shown at the switch (dfsph's last records came back with it),
     * then, once its records come back (a frame late), wcsph's own: as many steps as slots */
    CHECK(ss.view.steps_per_frame == 0, "after the switch the HUD still shows %d steps a frame (dfsph showed %d)",
          ss.view.steps_per_frame, dfsph_steps);
    for (int f = 0; f < 2; f++) session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME, NULL);
    CHECK(ss.view.steps_per_frame == ss.view.slots_per_frame && ss.view.slots_per_frame > dfsph_steps,
          "wcsph's second frame: the HUD shows %d steps for %d slots (dfsph showed %d)", ss.view.steps_per_frame,
          ss.view.slots_per_frame, dfsph_steps);
    sim_sync(ss.s);
    app_overlay_info(ss.s, ss.prof, &ss.view, 640, 360, &shown);
    CHECK(shown.counters == 0 && shown.dt > 0, "wcsph: the HUD shows %d iteration counts and dt %g", shown.counters, shown.dt);
    CHECK(session_set_solver(&ss, "dfsph", err), "back to dfsph: %s", err);
    session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME, NULL);
    sim_sync(ss.s);
    sim_summary sum;
    sim_get_summary(ss.s, &sum);
    app_overlay_info(ss.s, ss.prof, &ss.view, 640, 360, &shown);
    /* every dfsph step runs at least two pressure iterations: a mean below 2 mixes in wcsph's steps */
    CHECK(shown.counters == 2 && shown.counter_means[1] >= 2 && sum.solver_steps < sum.steps,
          "back on dfsph: pressure %.2f a step over %llu of %llu steps", shown.counter_means[1],
          (unsigned long long)sum.solver_steps, (unsigned long long)sum.steps);
    CHECK(!session_set_sort(&ss, "no-such-sort", err), "an unknown sort was taken");
    CHECK(session_destroy(&ss), "GL objects left alive by the session");

    /* bench --sim's way: no sim, then a sim per row. */
    CHECK(session_make(&ss, &(session_desc){.headless = true, .no_sim = true, .prof_sync = true}, err), "no_sim: %s", err);
    CHECK(ss.s == NULL && ss.r == NULL, "no_sim made a sim or a renderer");
    for (int row = 0; row < 2; row++) {
        CHECK(session_sim_make(&ss, &(sim_desc){.particles = 4096, .solver = row ? "wcsph" : "dfsph"}, err), "row %d: %s", row,
              err);
        CHECK(session_simulate(&ss, SESSION_FRAME_SECONDS, 1, SESSION_TIME_FRAME, NULL) == 1, "row %d: not one step", row);
        session_frame_end(&ss);
        CHECK(!strcmp(sim_solver_name(ss.s), row ? "wcsph" : "dfsph"), "row %d runs %s", row, sim_solver_name(ss.s));
    }
    /* The HUD's fused phases: the indirect path measures none; the fused step (both forced: one
     * group, as test_sim_persistent runs it on llvmpipe; the GPUs' default is the fused step)
     * measures DFSPH's five stages, which the HUD takes from the sim's summary (shares; in µs
     * where the clock's rate is measured). */
    for (int fused = 0; fused < 2; fused++) {
        setenv("FLUID_DFSPH_PERSISTENT", fused ? "1" : "0", 1); /* 0: the indirect path, on any GPU */
        CHECK(session_sim_make(&ss, &(sim_desc){.particles = 1000, .solver = "dfsph"}, err), "phases %d: %s", fused, err);
        unsetenv("FLUID_DFSPH_PERSISTENT");
        for (int f = 0; f < 3; f++) session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME, NULL);
        sim_sync(ss.s);
        overlay_info hud_info;
        app_overlay_info(ss.s, ss.prof, &ss.view, 640, 360, &hud_info);
        bool measured = fused && ss.caps->shader_clock;
        int positive = 0;
        for (int ph = 0; ph < hud_info.phases; ph++) positive += hud_info.phase_cycles[ph] > 0;
        CHECK(hud_info.phases == (measured ? 5 : 0) && positive == hud_info.phases,
              "%s: the HUD shows %d fused phases (%d above 0), not %d", fused ? "fused step" : "indirect path", hud_info.phases,
              positive, measured ? 5 : 0);
        if (measured) { /* the clock's rate: not before frame 30, then once every 600 frames from the last try */
            unsigned long run = ss.frames_run;
            ss.frames_run = 29, ss.clock_frame = 0;
            session_clock_rate(&ss, 600);
            bool early = ss.clock_frame == 0;
            ss.frames_run = 40;
            session_clock_rate(&ss, 600);
            ss.frames_run = 639;
            session_clock_rate(&ss, 600);
            bool held = ss.clock_frame == 40;
            ss.frames_run = 640;
            session_clock_rate(&ss, 600);
            CHECK(early && held && ss.clock_frame == 640,
                  "the clock's rate measured at frames %s, then %lu (want: none before 30, 40, 640)",
                  early ? "none before 30" : "before 30", ss.clock_frame);
            ss.frames_run = run;
        }
    }
    CHECK(!session_sim_make(&ss, &(sim_desc){.scene = "no-such-scene"}, err) && ss.s == NULL, "an unknown scene made a sim");
    CHECK(session_destroy(&ss), "GL objects left alive by the second session");
    return check_done();
}
