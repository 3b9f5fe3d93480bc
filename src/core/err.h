/* err: the bottom of src/core, which every module may include without a cycle: the error
 * convention and the shared number parsers.
 *
 * Errors: functions that can fail at run time take `err` (a buffer of ERR_LEN chars) and fill it
 * with one line that names the problem and what to do, then return false/NULL/0.
 */
#ifndef FLUID_ERR_H
#define FLUID_ERR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ERR_LEN 512
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Formats into err (which may be NULL) and returns false, so `return fail(err, ...)` reads well. */
bool fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses a whole string as an unsigned integer in [lo, hi] (decimal, with optional k/M suffix for
 * 1024/1048576). Returns false if it is not one, or if it overflows. */
bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* Parses a whole string as a finite real number in [lo, hi] ("0.004", "4e-3"; no leading space). */
bool parse_f64(const char *s, double lo, double hi, double *out);

/* Hostile text: the one escaping function for every path, value and name a message prints (inputs
 * and outputs alike). Copies s into buf (len bytes, always terminated) with a newline shown as \n,
 * a tab as \t, a backslash as \\ and any other control byte (and DEL) as \xNN, so a message stays
 * one line and no escape sequence reaches the terminal; cut short (whole escapes only) where buf
 * is full, ending in "..." so a cut is never silent. Returns buf. */
const char *err_printable(const char *s, char *buf, size_t len);
/* err_printable into one of 8 static buffers of ERR_LEN bytes, taken in turn, for use inside one
 * message: fail(err, "--in %s: ...", err_esc(path)). Not thread-safe (the program has one thread). */
const char *err_esc(const char *s);

/* Joins count names into out (cap bytes, always terminated): "a, b or c" with sep ", " and
 * last_sep " or " (NULL: sep). names may be strided inside a table of structs: name i is read at
 * (const char *const *)((const char *)names + i * stride), so a registry's name field is joined in
 * place (stride 0: a plain array of strings). Returns the length it would have (as snprintf). */
size_t names_join(char *out, size_t cap, const char *const *names, size_t stride, int count, const char *sep,
                  const char *last_sep);

#endif
