#if defined(__SANITIZE_ADDRESS__)
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#endif
#include "gpu/gpu.h"
#include "core/log.h"
#include "core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GL_SUBGROUP_SIZE_KHR
#define GL_SUBGROUP_SIZE_KHR 0x9532
#define GL_SUBGROUP_SUPPORTED_STAGES_KHR 0x9533
#define GL_SUBGROUP_SUPPORTED_FEATURES_KHR 0x9534
#define GL_SUBGROUP_FEATURE_BASIC_BIT_KHR 0x00000001
#define GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR 0x00000004
#define GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR 0x00000008
#define GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR 0x00000010
#endif

struct gpu_ctx {
    const gpu_backend *backend;
    void *impl;
    gpu_caps caps;
};

static int _gpu_live;

void gpu_count_object(int delta) { _gpu_live += delta; }
static uint32_t _gpu_serial;
uint32_t gpu_serial(void) { return _gpu_serial; }
int gpu_live_objects(void) { return _gpu_live; }

static void GLAPIENTRY _gpu_on_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length, const GLchar *msg,
                                     const void *user) {
    /* Errors, and what the driver itself calls severe; performance hints stay quiet, and shader
     * compile errors are reported by shader.c, mapped to their files. */
    if (source == GL_DEBUG_SOURCE_SHADER_COMPILER) return;
    if (type == GL_DEBUG_TYPE_ERROR) log_error("GL", "%s", msg);
    else if (severity == GL_DEBUG_SEVERITY_HIGH && type != GL_DEBUG_TYPE_PERFORMANCE) log_warn("GL", "%s", msg);
}

static bool _gpu_has_extension(const char *name) {
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++)
        if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0) return true;
    return false;
}

/* Whether GL_TIME_ELAPSED measures GPU work here: one answer per driver, the same every run.
 * Mesa's CPU rasterisers (llvmpipe, softpipe) are answered by name: their queries read 0 or 1 ns,
 * but under load now and then a real-looking time, which made the old one-shot probe say "timers"
 * about one run in twenty. Elsewhere the driver must claim a counter (GL_QUERY_COUNTER_BITS) and
 * time a 1M-invocation dispatch at 200 ns or more three times out of three. */
/* A compute program from one source text, for the probes below (no shader files: they run before
 * the data folder matters); its link status is the caller's to read. */
static GLuint _gpu_probe_program(const char *src) {
    GLuint cs = glCreateShader(GL_COMPUTE_SHADER), prog = glCreateProgram();
    glShaderSource(cs, 1, &src, NULL);
    glCompileShader(cs);
    glAttachShader(prog, cs);
    glLinkProgram(prog);
    glDeleteShader(cs);
    return prog;
}

static bool _gpu_probe_timer(const gpu_caps *c) {
    if (c->llvmpipe || strstr(c->renderer, "softpipe")) return false;
    GLint bits = 0;
    glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
    if (bits <= 0) return false;
    static const char *src = "#version 450\n"
                             "layout(local_size_x = 64) in;\n"
                             "layout(std430, binding = 0) buffer B { uint b[]; };\n"
                             "void main() { b[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u; }\n";
    char err[ERR_LEN];
    const uint32_t n = 1u << 20;
    GLuint buf = gpu_buffer_make(4 * n, NULL, "timer-probe", err);
    if (!buf) return false;
    GLuint prog = _gpu_probe_program(src);
    GLuint q;
    glGenQueries(1, &q);
    glUseProgram(prog);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
    bool all = true;
    for (int k = 0; k < 3 && all; k++) {
        glBeginQuery(GL_TIME_ELAPSED, q);
        glDispatchCompute(n / 64, 1, 1);
        glEndQuery(GL_TIME_ELAPSED);
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        all = ns >= 200; /* a real GPU takes microseconds to write 4 MiB */
    }
    glUseProgram(0);
    glDeleteProgram(prog);
    glDeleteQueries(1, &q);
    gpu_buffer_destroy(&buf);
    return all;
}

/* The shader clock's rate in MHz: one thread reads clock2x32ARB() until 2^22 cycles have passed
 * (about 2 ms at 2 GHz), timed with GL_TIME_ELAPSED; 0 without either. The rate the multiprocessor
 * runs at now: call it with the GPU busy (its clocks up), as after a benchmark row. */
double gpu_shader_clock_mhz(const gpu_caps *c) {
    if (!c->shader_clock || !c->timer_queries) return 0;
    static const char *src = "#version 450\n"
                             "#extension GL_ARB_shader_clock : require\n"
                             "layout(local_size_x = 1) in;\n"
                             "layout(std430, binding = 0) buffer B { uint b[]; };\n"
                             "void main() {\n"
                             "    uint t0 = clock2x32ARB().x, t = t0;\n"
                             "    while (t - t0 < 4194304u) t = clock2x32ARB().x;\n"
                             "    b[0] = t - t0;\n"
                             "}\n";
    char err[ERR_LEN];
    GLuint buf = gpu_buffer_make(16, NULL, "clock-rate", err);
    if (!buf) return 0;
    GLuint prog = _gpu_probe_program(src);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    double mhz = 0;
    if (linked) {
        GLuint q;
        glGenQueries(1, &q);
        glUseProgram(prog);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
        for (int k = 0; k < 2; k++) { /* the first wakes the clocks; the second is kept */
            glBeginQuery(GL_TIME_ELAPSED, q);
            glDispatchCompute(1, 1, 1);
            glEndQuery(GL_TIME_ELAPSED);
            GLuint64 ns = 0;
            uint32_t cycles = 0;
            glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
            glGetNamedBufferSubData(buf, 0, 4, &cycles);
            mhz = ns ? cycles * 1e3 / (double)ns : 0;
        }
        glUseProgram(0);
        glDeleteQueries(1, &q);
    }
    glDeleteProgram(prog);
    gpu_buffer_destroy(&buf);
    return mhz;
}

static void _gpu_read_caps(gpu_caps *c) {
    snprintf(c->renderer, sizeof c->renderer, "%s", (const char *)glGetString(GL_RENDERER));
    snprintf(c->version, sizeof c->version, "%s", (const char *)glGetString(GL_VERSION));
    glGetIntegerv(GL_MAJOR_VERSION, &c->gl_major);
    glGetIntegerv(GL_MINOR_VERSION, &c->gl_minor);
    c->llvmpipe = strstr(c->renderer, "llvmpipe") != NULL;
    GLint64 ssbo = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &ssbo);
    c->max_ssbo_bytes = ssbo;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &c->max_shared_bytes);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &c->max_invocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &c->max_groups_x);
    if (_gpu_has_extension("GL_KHR_shader_subgroup")) {
        GLint stages = 0, features = 0, size = 0;
        glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
        glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
        glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
        const GLint need = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR |
                           GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR | GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR;
        c->subgroup = (stages & GL_COMPUTE_SHADER_BIT) && (features & need) == need && size >= 4 && size <= 128;
        c->subgroup_size = c->subgroup ? size : 0;
    }
    c->shader_clock = _gpu_has_extension("GL_ARB_shader_clock");
    c->timer_queries = _gpu_probe_timer(c);
}

#if defined(__SANITIZE_ADDRESS__)
/* Under AddressSanitizer (FLUID_SANITIZE): Mesa keeps a little memory of its first draw in global
 * caches it never frees; when the driver is unloaded at exit LeakSanitizer can no longer see the
 * globals that point at it and reports an "indirect leak" in <unknown module>. Keeping the driver
 * mapped (RTLD_NODELETE) lets LSan see those references, so leaks of our own still show. */
static int _gpu_keep_driver(struct dl_phdr_info *info, size_t size, void *user) {
    (void)size, (void)user;
    size_t n = strlen(info->dlpi_name);
    if (n > 7 && strcmp(info->dlpi_name + n - 7, "_dri.so") == 0) dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}
static void _gpu_keep_driver_mapped(void) { dl_iterate_phdr(_gpu_keep_driver, NULL); }
#else
static void _gpu_keep_driver_mapped(void) {}
#endif

gpu_ctx *gpu_make(const gpu_desc *desc_in, char *err) {
    gpu_desc desc = *desc_in;
    if (!desc.width) desc.width = 1280;
    if (!desc.height) desc.height = 720;
    if (!desc.title) desc.title = "fluid";
    gpu_ctx *gpu = calloc(1, sizeof *gpu);
    gpu->backend = desc.headless ? &gpu_backend_egl : &gpu_backend_glfw;
    gpu->impl = gpu->backend->make(&desc, err);
    if (!gpu->impl) {
        free(gpu);
        return NULL;
    }
    _gpu_serial++; /* a new context: the shader cache starts empty */
    int ver = epoxy_gl_version();
    if (ver < 45 || !epoxy_is_desktop_gl()) {
        fail(err,
             "OpenGL 4.5 core is needed (compute shaders, direct state access) but the driver gives %d.%d (%s); "
             "update the GPU driver, or use Mesa (LIBGL_ALWAYS_SOFTWARE=1)",
             ver / 10, ver % 10, (const char *)glGetString(GL_RENDERER));
        gpu->backend->destroy(gpu->impl);
        free(gpu);
        return NULL;
    }
    if (desc.debug) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(_gpu_on_debug, NULL);
    }
    _gpu_read_caps(&gpu->caps);
    _gpu_keep_driver_mapped();
    return gpu;
}

void gpu_destroy(gpu_ctx *gpu) {
    if (!gpu) return;
    gpu->backend->destroy(gpu->impl);
    free(gpu);
}

const gpu_caps *gpu_get_caps(const gpu_ctx *gpu) { return &gpu->caps; }

/* GL_VENDOR strings of drivers known to keep running work groups running (so that a group may
 * wait on an earlier one): NVIDIA, AMD (and its older ATI name), Intel. Matched as substrings. */
static const char *const _gpu_progress_vendors[] = {"NVIDIA", "AMD", "ATI Technologies", "Intel"};

bool gpu_forward_progress(void) {
    const char *vendor = (const char *)glGetString(GL_VENDOR);
    bool progress = false;
    for (size_t i = 0; vendor && i < sizeof _gpu_progress_vendors / sizeof *_gpu_progress_vendors; i++)
        progress |= strstr(vendor, _gpu_progress_vendors[i]) != NULL;
    return progress;
}
GLFWwindow *gpu_window(gpu_ctx *gpu) { return gpu->backend->window(gpu->impl); }
bool gpu_is_headless(const gpu_ctx *gpu) { return gpu->backend == &gpu_backend_egl; }

/* A buffer made: its debug label, and counted live (gpu_buffer_destroy uncounts it). */
static GLuint _gpu_buffer_kept(GLuint b, const char *label) {
    if (label) glObjectLabel(GL_BUFFER, b, -1, label);
    gpu_count_object(1);
    return b;
}

GLuint gpu_buffer_make(size_t size, const void *data, const char *label, char *err) {
    GLuint b = 0;
    while (glGetError() != GL_NO_ERROR) {}
    glCreateBuffers(1, &b);
    /* Zero-sized buffers are legal GL but awkward to bind: keep at least 16 bytes. The contents
     * (the data, else zeros) go up with the allocation itself: on NVIDIA 580 a
     * glNamedBufferSubData into a fresh buffer was seen to land before a glClearNamedBufferData
     * issued earlier, so no clear-then-upload here. */
    size_t alloc = size < 16 ? 16 : size;
    void *init = NULL;
    if (!data || alloc != size) {
        init = calloc(1, alloc);
        if (!init) {
            glDeleteBuffers(1, &b);
            fail(err, "out of host memory for buffer '%s' of %zu bytes; use a smaller size", label, size);
            return 0;
        }
        if (data) memcpy(init, data, size);
    }
    glNamedBufferData(b, (GLsizeiptr)alloc, init ? init : data, GL_DYNAMIC_DRAW);
    free(init);
    if (glGetError() != GL_NO_ERROR) {
        glDeleteBuffers(1, &b);
        fail(err, "the GPU cannot hold buffer '%s' of %zu bytes; use a smaller size", label, size);
        return 0;
    }
    return _gpu_buffer_kept(b, label);
}

GLuint gpu_readback_make(size_t size, const char *label, const void **map, char *err) {
    GLuint b = 0;
    const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    GLsizeiptr alloc = (GLsizeiptr)(size < 16 ? 16 : size);
    while (glGetError() != GL_NO_ERROR) {}
    glCreateBuffers(1, &b);
    glNamedBufferStorage(b, alloc, NULL, flags);
    *map = glGetError() == GL_NO_ERROR ? glMapNamedBufferRange(b, 0, alloc, flags) : NULL;
    if (!*map) {
        glDeleteBuffers(1, &b);
        fail(err, "the GPU cannot map read-back buffer '%s' of %zu bytes for the CPU; use a smaller size", label, size);
        return 0;
    }
    return _gpu_buffer_kept(b, label);
}

GLuint gpu_vao_make(const char *label) {
    GLuint vao = 0;
    glCreateVertexArrays(1, &vao);
    if (label) glObjectLabel(GL_VERTEX_ARRAY, vao, -1, label);
    gpu_count_object(1);
    return vao;
}

void gpu_vao_destroy(GLuint *vao) {
    if (!*vao) return;
    glDeleteVertexArrays(1, vao);
    gpu_count_object(-1);
    *vao = 0;
}

void gpu_buffer_destroy(GLuint *buffer) {
    if (!*buffer) return;
    glDeleteBuffers(1, buffer);
    gpu_count_object(-1);
    *buffer = 0;
}
