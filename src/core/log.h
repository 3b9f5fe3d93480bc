/* log: one-line messages to stderr, tagged by subsystem.
 *
 *   log_error("SHADER", "[%s:%d] compile error: %s", file, line, msg);
 *   -> "fluid: SHADER: [sort/radix_scan.comp:12] compile error: ..."
 *
 * Every error line should let the user act: say what failed and what to do about it.
 * log_info lines go to stderr too (stdout is kept for tables and data).
 */
#ifndef FLUID_LOG_H
#define FLUID_LOG_H
#include <stdbool.h>

void log_error(const char *tag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_warn(const char *tag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_info(const char *tag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
