/* err: the error convention and the number parsers (see err.h). */
#include "core/err.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fail(char *err, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, ERR_LEN, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
    if (!s || *s < '0' || *s > '9') return false; /* no sign, no space */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return false;
    unsigned long long scale = *end == 'k' || *end == 'K' ? 1024ull : *end == 'M' ? 1048576ull : 1;
    if (scale > 1) {
        if (v > ULLONG_MAX / scale) return false; /* 18014398509481985k does not wrap */
        v *= scale;
        end++;
    }
    if (*end) return false;
    if (v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool parse_f64(const char *s, double lo, double hi, double *out) {
    if (!s || !*s || *s == ' ' || *s == '\t') return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

size_t names_join(char *out, size_t cap, const char *const *names, size_t stride, int count, const char *sep,
                  const char *last_sep) {
    size_t len = 0;
    if (cap) out[0] = 0;
    if (!stride) stride = sizeof *names;
    for (int i = 0; i < count; i++) {
        const char *name = *(const char *const *)((const char *)names + (size_t)i * stride);
        const char *s = i == 0 ? "" : i == count - 1 && last_sep ? last_sep : sep;
        int n = snprintf(len < cap ? out + len : NULL, len < cap ? cap - len : 0, "%s%s", s, name ? name : "");
        if (n > 0) len += (size_t)n;
    }
    return len;
}

const char *err_printable(const char *s, char *buf, size_t len) {
    size_t o = 0, fits = 0; /* fits: the last whole escape's end that leaves room for "..." */
    if (!len) return buf;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    for (; *p && o + 5 < len; p++) {
        if (o + 4 <= len) fits = o;
        if (*p == '\n') o += (size_t)snprintf(buf + o, len - o, "\\n");
        else if (*p == '\t') o += (size_t)snprintf(buf + o, len - o, "\\t");
        else if (*p == '\\') o += (size_t)snprintf(buf + o, len - o, "\\\\");
        else if (*p < 0x20 || *p == 0x7f) o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *p);
        else buf[o++] = (char)*p;
    }
    if (*p && len >= 4) { /* cut short: said so */
        if (o + 4 <= len) fits = o;
        memcpy(buf + fits, "...", 3);
        o = fits + 3;
    }
    buf[o] = 0;
    return buf;
}

const char *err_esc(const char *s) {
    static char ring[8][ERR_LEN];
    static unsigned next;
    char *buf = ring[next++ & 7u];
    return err_printable(s, buf, ERR_LEN);
}
