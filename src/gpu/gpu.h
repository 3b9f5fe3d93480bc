/* gpu: the GL 4.5 core context the whole program runs on, its capabilities, and labelled buffers.
 *
 * Two backends behind one interface (one file each):
 *   ctx_egl.c   headless: EGL on the device platform (NVIDIA, Mesa llvmpipe), falling back to
 *               Mesa's surfaceless platform; no window, render into framebuffer objects.
 *   ctx_glfw.c  a GLFW window with its context current.
 *
 *   gpu_ctx *gpu = gpu_make(&(gpu_desc){ .headless = true }, err);
 *   if (!gpu) { log_error("GPU", "%s", err); return 1; }
 *   const gpu_caps *caps = gpu_get_caps(gpu);
 *   ...
 *   gpu_destroy(gpu);
 *
 * Errors (gpu_make returns NULL, err says which and what to do): no EGL/GLFW display, no GL 4.5
 * core context, no compute shaders. It does NOT create more than one context per process.
 *
 * Buffers: gpu_buffer_make/gpu_buffer_destroy count live objects (gpu_live_objects) so tests can
 * check that rebuilding a scene leaks nothing; every buffer carries a KHR_debug label.
 */
#ifndef FLUID_GPU_H
#define FLUID_GPU_H
#include <epoxy/gl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct GLFWwindow GLFWwindow;

typedef struct gpu_caps {
    char renderer[256];
    char version[256];
    int gl_major, gl_minor;
    bool subgroup;      /* GL_KHR_shader_subgroup with basic, ballot, arithmetic and shuffle in compute */
    int subgroup_size;  /* 0 when !subgroup */
    bool timer_queries; /* GL_TIME_ELAPSED measures real work: false on Mesa's CPU rasterisers by name,
                            else three timed dispatches out of three (the same answer every run) */
    bool llvmpipe;      /* Mesa's CPU rasteriser */
    bool shader_clock;  /* GL_ARB_shader_clock: clock2x32ARB(), the cycle counter of the multiprocessor a group runs on */
    int64_t max_ssbo_bytes;
    int max_shared_bytes;
    int max_invocations;
    int max_groups_x;
} gpu_caps;

/* The rate of the shader clock (GL_ARB_shader_clock) in MHz, measured now with a timer query; 0
 * without the extension or working timer queries. */
double gpu_shader_clock_mhz(const gpu_caps *c);

typedef struct gpu_desc {
    bool headless;     /* EGL, no window */
    int width, height; /* window size (default 1280x720) */
    const char *title; /* window title (default "fluid") */
    bool vsync;
    bool debug; /* KHR_debug context; GL errors are logged as they happen */
} gpu_desc;

typedef struct gpu_ctx gpu_ctx;

gpu_ctx *gpu_make(const gpu_desc *desc, char *err);
void gpu_destroy(gpu_ctx *gpu);
const gpu_caps *gpu_get_caps(const gpu_ctx *gpu);
/* Whether the current context's driver keeps running work groups running, so that a group may wait
 * on another (GL promises nothing): GL_VENDOR names NVIDIA, AMD (or ATI), Intel. The radix sort's
 * waiting look-back and DFSPH's persistent solve rely on it. */
bool gpu_forward_progress(void);
GLFWwindow *gpu_window(gpu_ctx *gpu); /* NULL when headless */
bool gpu_is_headless(const gpu_ctx *gpu);

/* A buffer of `size` bytes (initial contents `data`, or zero when NULL), with a debug label.
 * Returns 0 with err when the GPU cannot hold it. */
GLuint gpu_buffer_make(size_t size, const void *data, const char *label, char *err);
void gpu_buffer_destroy(GLuint *buffer); /* sets *buffer to 0; 0 is ignored */
/* A buffer of `size` bytes the CPU reads through *map, mapped for as long as it lives (persistent and
 * coherent): what the GPU copies into it is there once a fence after the copy has signalled, with no
 * call that could wait on the GPU's other work (glGetBufferSubData must wait for every command in
 * flight that writes the buffer it reads). Free it with gpu_buffer_destroy. Returns 0 with err. */
GLuint gpu_readback_make(size_t size, const char *label, const void **map, char *err);
/* An empty vertex array with a debug label: for draws that read their data from buffers in the
 * shader (gl_VertexID), which core GL still makes bind one. */
GLuint gpu_vao_make(const char *label);
void gpu_vao_destroy(GLuint *vao); /* sets *vao to 0; 0 is ignored */
/* Buffers and programs made through this module and the shader module, still alive. */
int gpu_live_objects(void);
void gpu_count_object(int delta); /* for other modules that make GL objects (shader.c) */
/* Which context this is: 0 before the first gpu_make, one more at each (the shader cache keys its
 * programs by it: a new context starts with none). */
uint32_t gpu_serial(void);

/* Number of work groups of `size` needed for n items (n may be 0). */
static inline uint32_t gpu_groups(uint64_t n, uint32_t size) { return (uint32_t)((n + size - 1) / size); }

/* Backend interface, implemented by ctx_egl.c and ctx_glfw.c. */
typedef struct gpu_backend {
    const char *name;
    void *(*make)(const gpu_desc *desc, char *err);
    void (*destroy)(void *impl);
    GLFWwindow *(*window)(void *impl);
} gpu_backend;
extern const gpu_backend gpu_backend_egl;
extern const gpu_backend gpu_backend_glfw;

#endif
