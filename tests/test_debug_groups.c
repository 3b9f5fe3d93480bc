/* Debug groups (KHR_debug, GL 4.3 core) read back through GL's own message callback, on a
 * headless debug context (llvmpipe in CI):
 *   - one frame of the session (simulation with its stages timed, then the picture into a
 *     target) pushes and pops groups that balance, every one inside a single "frame" group;
 *   - each pop carries its push's name (GL repeats the push's message: a check of the nesting),
 *     and the tree is frame -> simulation -> step stage, frame -> render -> render pass;
 *   - outside "render", every group is named as a profiler entry, and every one of the sim's step
 *     stages (sim_stage_name, the names the HUD shows) appears inside "simulation";
 *   - inside "render", the render passes (the style's, "blit", "hud");
 *   - the cost: groups a frame, and the CPU time of a push/pop pair with debug output off and on.
 * The reference is the sim's own stage list and GL's messages, not the profiler's bookkeeping. */
#include "check.h"
#include "app/session/session.h"
#include <string.h>

#define EVENTS 4096

typedef struct event {
    bool push;
    char name[64];
} event;

static event events[EVENTS];
static int event_count, overflow;

static void GLAPIENTRY _on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length, const GLchar *msg,
                                   const void *user) {
    (void)source, (void)id, (void)severity, (void)user;
    if (type != GL_DEBUG_TYPE_PUSH_GROUP && type != GL_DEBUG_TYPE_POP_GROUP) return;
    if (event_count == EVENTS) {
        overflow++;
        return;
    }
    event *e = &events[event_count++];
    e->push = type == GL_DEBUG_TYPE_PUSH_GROUP;
    int n = length < 0 ? (int)strlen(msg) : length;
    snprintf(e->name, sizeof e->name, "%.*s", n, msg);
}

static bool _in_list(const char *name, const char *const *list, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(name, list[i])) return true;
    return false;
}

int main(void) {
    char err[ERR_LEN];
    session ss;
    if (!session_make(&ss,
                      &(session_desc){.headless = true,
                                      .debug = true,
                                      .particles = 1000,
                                      .render = true,
                                      .time_render = true,
                                      .prof_cpu_fallback = true},
                      err)) {
        if (ss.fail_tag && !strcmp(ss.fail_tag, "GPU")) {
            printf("SKIP: %s\n", err);
            return 77;
        }
        CHECK(false, "session_make: %s", err);
        return check_done();
    }
    render_target t;
    CHECK(render_target_make(&t, 96, 64, "test-debug-groups", err), "%s", err);
    glDebugMessageCallback(_on_message, NULL);
    glDebugMessageControl(GL_DONT_CARE, GL_DEBUG_TYPE_PUSH_GROUP, GL_DONT_CARE, 0, NULL, GL_TRUE);
    glDebugMessageControl(GL_DONT_CARE, GL_DEBUG_TYPE_POP_GROUP, GL_DONT_CARE, 0, NULL, GL_TRUE);

    session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME | SESSION_TIME_STAGES, NULL);
    session_draw(&ss, &t, t.width, t.height);
    session_frame_end(&ss);
    int frame_events = event_count;

    /* The sim's stage names (the HUD's), then the frame's own entries. */
    const char *stages[PROF_MAX_STAGES + 2];
    int nstages = sim_stage_count(ss.s);
    for (int i = 0; i < nstages; i++) stages[i] = sim_stage_name(ss.s, i);
    const char *entries[PROF_MAX_STAGES + 2];
    memcpy(entries, stages, sizeof(char *) * (size_t)nstages);
    entries[nstages] = "simulation";
    entries[nstages + 1] = "render";
    const char *passes[] = {"ellipsoids", "shadow", "visibility", "spray", "smoothing", "diffuse", "shading", "raster", "blit", "hud"};

    CHECK(!overflow && frame_events > 0, "%d group messages (%d lost)", frame_events, overflow);
    CHECK(frame_events > 0 && events[0].push && !strcmp(events[0].name, PROF_FRAME_GROUP), "the first group is %s, not %s",
          frame_events ? events[0].name : "(none)", PROF_FRAME_GROUP);
    /* Walk the messages with a stack of names. */
    const char *stack[64];
    int depth = 0, pushes = 0, frames = 0, unbalanced = 0, misnamed = 0, misplaced = 0, outside = 0;
    bool seen[PROF_MAX_STAGES] = {0}, seen_pass = false;
    for (int i = 0; i < frame_events; i++) {
        event *e = &events[i];
        if (e->push) {
            pushes++;
            if (depth == 0) {
                frames += !strcmp(e->name, PROF_FRAME_GROUP);
                outside += strcmp(e->name, PROF_FRAME_GROUP) != 0;
            }
            bool in_render = false, in_sim = false;
            for (int d = 0; d < depth; d++) in_render |= !strcmp(stack[d], "render"), in_sim |= !strcmp(stack[d], "simulation");
            if (depth > 0 && !in_render && !_in_list(e->name, entries, nstages + 2)) {
                misnamed++;
                fprintf(stderr, "group \"%s\" at depth %d is no profiler entry\n", e->name, depth);
            }
            if (in_render && !_in_list(e->name, passes, (int)(sizeof passes / sizeof *passes))) {
                misnamed++;
                fprintf(stderr, "group \"%s\" inside render is no render pass\n", e->name);
            }
            /* The tree: frame -> simulation -> step stage, frame -> render -> pass. */
            const char *parent = depth ? stack[depth - 1] : "", *want = _in_list(e->name, stages, nstages) ? "simulation"
                                                                        : in_render                        ? "render"
                                                                                                           : PROF_FRAME_GROUP;
            if (depth > 0 && strcmp(parent, want)) {
                misplaced++;
                fprintf(stderr, "group \"%s\" inside \"%s\", not \"%s\"\n", e->name, parent, want);
            }
            seen_pass |= in_render;
            for (int s = 0; s < nstages; s++) seen[s] |= in_sim && !strcmp(e->name, stages[s]);
            if (depth < 64) stack[depth] = e->name;
            depth++;
        } else {
            if (depth == 0 || strcmp(stack[depth - 1], e->name)) {
                unbalanced++;
                fprintf(stderr, "pop \"%s\" closes \"%s\"\n", e->name, depth ? stack[depth - 1] : "(nothing)");
            }
            if (depth > 0) depth--;
        }
    }
    CHECK(depth == 0 && !unbalanced, "groups unbalanced: %d left open, %d pops mismatched", depth, unbalanced);
    CHECK(frames == 1 && !outside, "%d frame groups, %d groups outside the frame", frames, outside);
    CHECK(!misplaced, "%d groups in the wrong parent", misplaced);
    CHECK(!misnamed, "%d groups named as no profiler entry or render pass", misnamed);
    for (int s = 0; s < nstages; s++) CHECK(seen[s], "the stage \"%s\" has no group inside \"simulation\"", stages[s]);
    CHECK(seen_pass, "no render pass group inside \"render\"");

    /* The cost: a push/pop pair's CPU time, the debug output off (a plain run) and on (this test);
     * each the least of three rounds (the first pays for warming up). */
    double us_on = 1e9, us_off = 1e9;
    for (int round = 0; round < 6; round++) {
        bool on = round & 1;
        if (on) glEnable(GL_DEBUG_OUTPUT);
        else glDisable(GL_DEBUG_OUTPUT);
        enum { PAIRS = 20000 };
        double t0 = now_seconds();
        for (int i = 0; i < PAIRS; i++) {
            glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "cost");
            glPopDebugGroup();
        }
        double us = (now_seconds() - t0) * 1e6 / PAIRS;
        if (on && us < us_on) us_on = us;
        if (!on && us < us_off) us_off = us;
    }
    printf("cost: %d groups a frame (%d step stages); a push/pop pair %.3f us with the debug output off, %.3f us on; "
           "%.1f us a frame off\n",
           pushes, nstages, us_off, us_on, us_off * pushes);
    CHECK(glGetError() == GL_NO_ERROR, "a GL error after the groups");

    render_target_destroy(&t);
    CHECK(session_destroy(&ss), "GL objects left alive");
    return check_done();
}
