/* gpu_caps: prints what this GPU holds, one `name=value` a line, for the shell tests (which
 * then choose sizes past the GPU's own limits instead of assuming llvmpipe's):
 *
 *   renderer=llvmpipe (LLVM 15.0.6, 256 bits)
 *   max_ssbo_bytes=134217728        GL_MAX_SHADER_STORAGE_BLOCK_SIZE
 *   subgroup_size=0                 0 without GL_KHR_shader_subgroup
 *   timer_queries=0
 *   shader_clock=1                  GL_ARB_shader_clock
 *
 * Exit 0; 77 (and a SKIP line) without a GL 4.5 context. A test tool, not a test: ctest does not
 * run it on its own (tests/CMakeLists.txt passes its path to the shell tests in FLUID_GPU_CAPS). */
#include "core/util.h"
#include "gpu/gpu.h"
#include <stdio.h>

int main(void) {
    char err[ERR_LEN];
    if (!data_dir_init(NULL, err)) {
        fprintf(stderr, "gpu_caps: %s\n", err);
        return 1;
    }
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true}, err);
    if (!gpu) {
        printf("SKIP: %s\n", err);
        return 77;
    }
    const gpu_caps *c = gpu_get_caps(gpu);
    printf("renderer=%s\nmax_ssbo_bytes=%lld\nsubgroup_size=%d\ntimer_queries=%d\nshader_clock=%d\n", c->renderer,
           (long long)c->max_ssbo_bytes, c->subgroup ? c->subgroup_size : 0, c->timer_queries ? 1 : 0, c->shader_clock ? 1 : 0);
    gpu_destroy(gpu);
    return 0;
}
