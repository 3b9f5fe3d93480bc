/* Headless GL 4.5 core through EGL: the device platform first (works on NVIDIA's driver and on
 * Mesa's software device), then Mesa's surfaceless platform. No surface is made: the context is
 * current with EGL_NO_SURFACE and the program renders into framebuffer objects. */
#include "core/util.h"
#include "gpu/gpu.h"
#include <epoxy/egl.h>
#include <stdlib.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

typedef struct _egl_ctx {
    EGLDisplay dpy;
    EGLContext ctx;
} _egl_ctx;

static bool _egl_try_display(EGLDisplay dpy, const gpu_desc *desc, _egl_ctx *out) {
    if (dpy == EGL_NO_DISPLAY) return false;
    EGLint maj, min;
    if (!eglInitialize(dpy, &maj, &min)) return false;
    if (!eglBindAPI(EGL_OPENGL_API)) goto fail;
    EGLConfig cfg = NULL;
    if (!epoxy_has_egl_extension(dpy, "EGL_KHR_no_config_context")) {
        EGLint n = 0;
        const EGLint cattr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
        if (!eglChooseConfig(dpy, cattr, &cfg, 1, &n) || n < 1) goto fail;
    }
    const EGLint attr[] = {EGL_CONTEXT_MAJOR_VERSION,
                           4,
                           EGL_CONTEXT_MINOR_VERSION,
                           5,
                           EGL_CONTEXT_OPENGL_PROFILE_MASK,
                           EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                           EGL_CONTEXT_OPENGL_DEBUG,
                           desc->debug ? EGL_TRUE : EGL_FALSE,
                           EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr);
    if (ctx == EGL_NO_CONTEXT) goto fail;
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        eglDestroyContext(dpy, ctx);
        goto fail;
    }
    out->dpy = dpy;
    out->ctx = ctx;
    return true;
fail:
    eglTerminate(dpy);
    return false;
}

static void *_egl_make(const gpu_desc *desc, char *err) {
    _egl_ctx c = {0};
    bool ok = false;
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration") ||
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_base")) {
        EGLDeviceEXT devs[16];
        EGLint n = 0;
        if (eglQueryDevicesEXT(16, devs, &n)) {
            for (EGLint i = 0; i < n && !ok; i++)
                ok = _egl_try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devs[i], NULL), desc, &c);
        }
    }
    if (!ok && epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
        ok = _egl_try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL), desc, &c);
    if (!ok) {
        fail(err, "no headless OpenGL 4.5 core context through EGL (device or surfaceless platform); "
                  "install a GL 4.5 driver (Debian: libegl1 libgl1-mesa-dri) or update the GPU driver");
        return NULL;
    }
    _egl_ctx *impl = malloc(sizeof *impl);
    *impl = c;
    return impl;
}

static void _egl_destroy(void *p) {
    _egl_ctx *c = p;
    eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(c->dpy, c->ctx);
    eglTerminate(c->dpy);
    free(c);
}

static GLFWwindow *_egl_window(void *p) { return NULL; }

const gpu_backend gpu_backend_egl = {"egl", _egl_make, _egl_destroy, _egl_window};
