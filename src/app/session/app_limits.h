/* app_limits: what a picture of WxH pixels needs, checked before any work: the GL limits
 * (GL_MAX_TEXTURE_SIZE, GL_MAX_VIEWPORT_DIMS) and a memory estimate against the memory there is.
 *
 *   if (!app_size_check(w, h, video, err)) ...   // after gpu_make (a current context), before the run
 *
 * The estimate (APP_BYTES_PER_PIXEL_*): measured peak resident memory of headless screenshots on
 * llvmpipe, whose textures are host memory; on a GPU the textures are in its memory and only the
 * read-back buffers are the host's. The run is refused when the estimate passes half of the
 * host's available memory (MemAvailable; the rest is the fluid's, the driver's and the machine's
 * other work) or, where the driver says (GL_NVX_gpu_memory_info), the GPU's free memory.
 * It does NOT allocate anything, or know what other processes will take while it runs.
 */
#ifndef FLUID_APP_LIMITS_H
#define FLUID_APP_LIMITS_H
#include <stdbool.h>
#include <stdint.h>

/* The estimate for a w x h picture: bytes of host memory and of GPU memory (llvmpipe: host). */
void app_size_estimate(int w, int h, bool video, bool software, uint64_t *host, uint64_t *gpu);
/* False with err (one line naming --size, the limit and what to do) when WxH does not fit. */
bool app_size_check(int w, int h, bool video, char *err);

#endif
