/* cmd_gpu: the headless GL context the benchmark commands start with. */
#include "app/cmd/cmd.h"
#include "core/log.h"
#include "core/util.h"

gpu_ctx *cmd_gpu_headless(const char *data, const char *tag) {
    char err[ERR_LEN];
    if (!data_dir_init(data, err)) {
        log_error(tag, "%s", err);
        return NULL;
    }
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true}, err);
    if (!gpu) log_error("GPU", "%s", err);
    return gpu;
}
