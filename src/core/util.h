/* util: small services every module uses: files, paths, the clock, errors as strings.
 *
 * Errors: functions that can fail at run time take `err` (a buffer of ERR_LEN chars) and fill it
 * with one line that names the problem and what to do, then return false/NULL/0.
 */
#ifndef FLUID_UTIL_H
#define FLUID_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h" /* ERR_LEN, ARRAY_LEN, fail, parse_u64, parse_f64 */

/* Reads a whole file; returns a malloc'd, NUL-terminated buffer (size in *len) or NULL with err. */
char *file_read(const char *path, size_t *len, char *err);

/* Writes a whole file through the one writer (core/outfile.h): a temporary file made by mkstemp
 * beside PATH, renamed over it only when every byte is written (a device or FIFO is written
 * directly), so a failure never leaves a half-written PATH behind. */
bool file_write_atomic(const char *path, const void *data, size_t len, char *err);

/* The data folder (holding shaders/ and assets/): --data DIR, else $FLUID_DATA_DIR, else beside
 * the binary, else its parent folder (a build/ folder inside the checkout), else the source tree
 * it was built from. Returns false with err if none holds shaders/. */
bool data_dir_init(const char *override, char *err);
/* data_path("shaders", "sort/radix.comp") -> "<data dir>/shaders/sort/radix.comp" (static buffer
 * of a ring of 8, so a few calls can be used at once). */
const char *data_path(const char *sub, const char *name);

/* Monotonic clock in seconds. */
double now_seconds(void);

#endif
