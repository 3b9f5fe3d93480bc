/* renderdoc_frame: one frame of the session (simulation with its stages, the picture into a
 * target) captured through RenderDoc's in-application API, for tests/test_renderdoc.sh, which
 * runs it under `renderdoccmd capture`. A headless context has no swap to mark a frame, so the
 * frame is bracketed with StartFrameCapture/EndFrameCapture. Prints the sim's stage names (the
 * reference for the capture's debug groups), one a line ("stage: NAME"). Exit 77 when not run under RenderDoc or
 * without GL 4.5. Not a test itself. */
#include "app/session/session.h"
#include "core/err.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* RENDERDOC_API_1_1_2 (renderdoc_app.h, not packaged by Debian): a table of function pointers;
 * StartFrameCapture is entry 19, IsFrameCapturing 20, EndFrameCapture 21, GetNumCaptures 13. */
#define RDOC_API_1_1_2 10102
typedef int (*rdoc_get_api)(int version, void **out);
typedef void (*rdoc_start)(void *device, void *window);
typedef unsigned (*rdoc_end)(void *device, void *window);

int main(void) {
    void *lib = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    void **api = NULL;
    rdoc_get_api get = lib ? (rdoc_get_api)dlsym(lib, "RENDERDOC_GetAPI") : NULL;
    if (!get || !get(RDOC_API_1_1_2, (void **)&api) || !api) {
        printf("SKIP: not running under RenderDoc (renderdoccmd capture)\n");
        return 77;
    }
    char err[ERR_LEN];
    session ss;
    if (!session_make(
            &ss,
            &(session_desc){.headless = true, .particles = 1000, .render = true, .time_render = true, .prof_cpu_fallback = true},
            err)) {
        printf("SKIP: %s\n", err);
        return 77;
    }
    render_target t;
    if (!render_target_make(&t, 96, 64, "renderdoc-frame", err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ((rdoc_start)api[19])(NULL, NULL);
    session_simulate(&ss, SESSION_FRAME_SECONDS, 0, SESSION_TIME_FRAME | SESSION_TIME_STAGES, NULL);
    session_draw(&ss, &t, t.width, t.height);
    session_frame_end(&ss);
    unsigned ok = ((rdoc_end)api[21])(NULL, NULL);
    for (int i = 0; i < sim_stage_count(ss.s); i++) printf("stage: %s\n", sim_stage_name(ss.s, i));
    render_target_destroy(&t);
    session_destroy(&ss);
    if (!ok) fprintf(stderr, "EndFrameCapture failed\n");
    return ok ? 0 : 1;
}
