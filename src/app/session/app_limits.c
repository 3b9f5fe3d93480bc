#include "app/session/app_limits.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include <epoxy/gl.h>
#include <stdio.h>
#include <string.h>

/* Must match the renderer's per-pixel textures (render.c's target: RGBA8 + depth 32F;
 * render_splat.c: RGBA8 + RGBA16F; the surface's buffers) and the read-backs (render_target_read's
 * row buffer, the picture, the PNG being encoded). Measured: see docs/DESIGN.md "Outputs". */
#define APP_BYTES_PER_PIXEL_GPU 32
#define APP_BYTES_PER_PIXEL_HOST 12
#define APP_BYTES_PER_PIXEL_VIDEO 8 /* the recorder's own target and frame buffer */

void app_size_estimate(int w, int h, bool video, bool software, uint64_t *host, uint64_t *gpu) {
    uint64_t px = (uint64_t)w * (uint64_t)h;
    *gpu = px * (APP_BYTES_PER_PIXEL_GPU + (video ? 4 : 0));
    *host = px * (APP_BYTES_PER_PIXEL_HOST + (video ? APP_BYTES_PER_PIXEL_VIDEO : 0));
    if (software) *host += *gpu;
}

/* MemAvailable of /proc/meminfo, bytes; 0 when unknown. */
static uint64_t _app_mem_available(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

bool app_size_check(int w, int h, bool video, char *err) {
    GLint tex = 0, vp[2] = {0, 0};
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &tex);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, vp);
    int max_w = tex < vp[0] ? tex : vp[0], max_h = tex < vp[1] ? tex : vp[1];
    if (max_w > 0 && max_h > 0 && (w > max_w || h > max_h))
        return fail(err,
                    "--size %dx%d: this GPU draws at most %dx%d (GL_MAX_TEXTURE_SIZE %d, GL_MAX_VIEWPORT_DIMS %dx%d); choose a "
                    "smaller size",
                    w, h, max_w, max_h, tex, vp[0], vp[1]);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    bool software = renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") || strstr(renderer, "lavapipe"));
    uint64_t host, gpu, avail = _app_mem_available();
    app_size_estimate(w, h, video, software, &host, &gpu);
    if (avail && host > avail / 2)
        return fail(err,
                    "--size %dx%d: the pictures need about %.1f GB of memory%s, more than half of the %.1f GB available now; "
                    "choose a smaller size",
                    w, h, host / 1e9, software ? " (a software renderer: its textures too)" : "", avail / 1e9);
    if (!software && epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) {
        GLint kb = 0;
        glGetIntegerv(0x9049 /* GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX */, &kb);
        if (kb > 0 && gpu > (uint64_t)kb * 1024)
            return fail(err,
                        "--size %dx%d: the pictures need about %.1f GB of GPU memory, more than the %.1f GB free; choose a "
                        "smaller size",
                        w, h, gpu / 1e9, kb * 1024.0 / 1e9);
    }
    return true;
}
