#include "core/log.h"
#include <stdarg.h>
#include <stdio.h>

static void _log_v(const char *level, const char *tag, const char *fmt, va_list ap) {
    fprintf(stderr, "fluid: %s%s: ", level, tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void log_error(const char *tag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    _log_v("", tag, fmt, ap);
    va_end(ap);
}

void log_warn(const char *tag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    _log_v("warning: ", tag, fmt, ap);
    va_end(ap);
}

void log_info(const char *tag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    _log_v("", tag, fmt, ap);
    va_end(ap);
}
