/* outfile: the one writer of every file the program writes (fluid sort --out, --stats, --dump,
 * --screenshot, bench --csv, and --video): nothing is clobbered by a failed run, no predictable
 * temporary name, device nodes and pipes are never replaced.
 *
 *   // before any work (no side effects: stat and access only):
 *   if (!outfile_check("--stats", path, OUTFILE_DASH, err)) ...            // exit 1
 *   if (!outfile_check_distinct(n, flags, paths, err)) ...                 // no two name one file
 *   // still before the GPU: the temporary file is made, the device or pipe opened
 *   outfile *f = outfile_open("--stats", path, OUTFILE_DASH | OUTFILE_KEEP, err);
 *   outfile_printf(f, "step,time\n");  outfile_flush(f);                   // reaches the temporary file
 *   ...
 *   outfile_commit_all(fs, n, err);  // success: every final name appears, or none changes
 *   outfile_abort(f);                // failure: the temporary file goes, the target is as it was
 *
 * What a path may name, and what is done with it:
 *   "-"                    stdout, where the output is a stream (OUTFILE_DASH: the CSVs and
 *                          `fluid sort --out`); refused elsewhere.
 *   the file stdout is     (as /dev/stdout is) written through stdout, never reopened or replaced.
 *   a device node, a FIFO  written directly (opened without O_CREAT or O_TRUNC), never replaced or
 *                          removed; what was written stays there even when the run fails later:
 *                          such an output is outside the transaction (it cannot be taken back).
 *   a regular file or a    written to a temporary file made beside it (".NAME.XXXXXX", NAME cut
 *   new name               so that the temporary name stays within NAME_MAX; never followed
 *                          through a symlink, never an existing file), checked at the commit and
 *                          renamed over NAME. An existing file keeps its owner (where the process
 *                          may set it) and permission bits, never its set-id or sticky bits; a new
 *                          one gets 0666 minus the umask. An existing file the user could not
 *                          write (access W_OK) is refused, not replaced.
 *   a symbolic link        written through: its final target is replaced as above (the temporary
 *                          file beside the target) and the link stays a link. A link to a missing
 *                          file is refused.
 *   a folder, a name ending in '/', a missing or unwritable folder, a socket: refused by
 *                          outfile_check with one line naming the flag, the path and what to do.
 *
 * The transaction (outfile_commit_all): every output is finished first (flushed, closed, write
 * errors checked, and its own check run: the video's MP4 trailer, video_file_check). Only when all
 * are complete are they renamed, one after another, each old file kept aside (a hard link) until
 * the last rename succeeds; a failed rename puts every old file back and removes the new ones.
 * OUTFILE_NEW: the final name is new and never replaces anything: at the commit it is linked to
 * NAME, or NAME-2, NAME-3, ... before the extension (link(2) fails on an existing name), so two
 * processes saving in the same second get two files.
 * Signals: the first outfile_open installs handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE (where
 * they are at their defaults) that call outfile_emergency and exit 130 (SIGPIPE: die of it): every
 * temporary file is removed, and an OUTFILE_KEEP output (--stats) is put in place with the rows flushed so
 * far (whole rows: the file is cut back to the last outfile_flush). A caller with its own handler
 * calls outfile_emergency itself (async-signal-safe).
 * It does NOT fsync, lock, or write anywhere but the given path (or stdout).
 */
#ifndef FLUID_OUTFILE_H
#define FLUID_OUTFILE_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum {
    OUTFILE_DASH = 1, /* "-" means stdout */
    OUTFILE_NEW = 2,  /* never replace: NAME, else NAME-2, NAME-3, ... (chosen at the commit) */
    OUTFILE_KEEP = 4, /* a fatal signal puts the rows flushed so far in place (--stats) */
};

typedef struct outfile outfile;

/* Checks that `path` can be written, without touching anything; `flag` names it in err
 * ("--stats"). False with err when it cannot. */
bool outfile_check(const char *flag, const char *path, unsigned flags, char *err);
/* No two of the n paths name the same file or stream: compared by device and inode after the
 * links are resolved ("-" and /dev/stdout are both stdout; a new name by its folder's identity).
 * NULL paths are skipped; a character device may be shared (/dev/null, a terminal). */
bool outfile_check_distinct(int n, const char *const *flags, const char *const *paths, char *err);

/* Checks, then opens: the temporary file (or the device, FIFO, stdout). NULL with err. */
outfile *outfile_open(const char *flag, const char *path, unsigned flags, char *err);

/* Buffered writes; an error is kept and reported by outfile_commit (and outfile_failed). */
void outfile_write(outfile *f, const void *data, size_t len);
void outfile_printf(outfile *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void outfile_flush(outfile *f); /* the rows so far reach the temporary file or the stream */
/* True (with err) when a write has failed so far (a full disk; EPIPE: a pipe's reader quit). */
bool outfile_failed(const outfile *f, char *err);

/* A check of the finished temporary file, run by the commit before anything is renamed (false
 * with why: the commit fails). Not run for a device, FIFO or stdout. */
void outfile_set_check(outfile *f, bool (*check)(const char *path, char *why));

/* Where the data is being written now: the temporary file's path, or the path itself for a
 * device or FIFO, or NULL for stdout. For a writer that wants a path (ffmpeg). */
const char *outfile_write_path(const outfile *f);
bool outfile_is_direct(const outfile *f); /* stdout, a device or a FIFO: no temporary file */

/* The transaction: finishes all n (NULL entries skipped), then puts them in place, all or none
 * (see above). False with err naming the output that failed. Frees them all either way. */
bool outfile_commit_all(outfile **fs, int n, char *err);
/* One output's transaction. */
bool outfile_commit(outfile *f, char *err);
/* The same, and the name the file got (OUTFILE_NEW: NAME-2, ...) in name (printable). */
bool outfile_commit_named(outfile *f, char *name, size_t len, char *err);
/* Closes and removes the temporary file; the target is left as it was. NULL is ignored. */
void outfile_abort(outfile *f);

/* Async-signal-safe: removes every temporary file, puts the OUTFILE_KEEP ones in place. */
void outfile_emergency(void);
/* The child process writing into a temporary (the video's ffmpeg; 0: none): outfile_emergency kills
 * it and waits for it first, so it cannot create its output again after the temporaries go. */
void outfile_child_set(pid_t pid);
/* outfile_emergency, then exit 130 (SIGINT, SIGTERM, SIGHUP, SIGQUIT: an interrupt, README), or
 * the process dies of SIGPIPE; for signal handlers. */
void outfile_emergency_exit(int sig);
/* Installs outfile_emergency_exit for those five signals where they are at their defaults (the
 * first outfile_open does; a command calls it first so that an interrupt at any moment exits 130). */
void outfile_guard_signals(void);

/* err_printable (core/err.h), the one escaping function, under the name the app calls it by. */
const char *outfile_printable(const char *s, char *buf, size_t len);

#endif
