/* outfile: the one writer of every file the program writes (fluid sort --out, --stats, --dump,
 * --screenshot, bench --csv, and --video): nothing is clobbered by a failed run, no predictable
 * temporary name, device nodes and pipes are never replaced.
 *
 *   // before any work (no side effects: stat and access only):
 *   if (!outfile_check("--stats", path, OUTFILE_DASH, err)) ...            // exit 1
 *   // still before the GPU: the temporary file is made, the device or pipe opened
 *   outfile *f = outfile_open("--stats", path, OUTFILE_DASH, err);
 *   outfile_printf(f, "step,time\n");  outfile_flush(f);                   // streams as it runs
 *   ...
 *   outfile_commit(f, err);   // success: the final name appears, all at once
 *   outfile_abort(f);         // failure: the temporary file goes, the target is as it was
 *
 * What a path may name, and what is done with it:
 *   "-"                    stdout, where the output is a stream (OUTFILE_DASH: the CSVs and
 *                          `fluid sort --out`); refused elsewhere.
 *   the file stdout is     (as /dev/stdout is) written through stdout, never reopened or replaced.
 *   a device node, a FIFO  written directly (opened without O_CREAT or O_TRUNC), never replaced or
 *                          removed; what was written stays there even when the run fails later.
 *   a regular file or a    written to a temporary file made by mkstemp in the same folder
 *   new name               (".NAME.XXXXXX", never followed through a symlink, never an existing
 *                          file), renamed over NAME at outfile_commit. An existing file keeps
 *                          its mode (and owner, where the process may set it); a new one gets
 *                          0666 minus the umask.
 *   a symbolic link        written through: its final target is replaced atomically as above
 *                          (the temporary file beside the target) and the link stays a link. A
 *                          link to a missing file is refused.
 *   a folder, a name ending in '/', a missing or unwritable folder, a socket: refused by
 *                          outfile_check with one line naming the flag, the path and what to do.
 *
 * Several outputs of one run: open them all before the work, commit them all after it, and abort
 * them all on any failure, so a failed run leaves no new files (outfile_abort_all).
 * OUTFILE_NEW: the final name must not exist at commit (link(2), not rename): screenshots never
 * overwrite one another.
 * It does NOT fsync, lock, or write anywhere but the given path (or stdout).
 */
#ifndef FLUID_OUTFILE_H
#define FLUID_OUTFILE_H
#include <stdbool.h>
#include <stddef.h>

enum {
    OUTFILE_DASH = 1, /* "-" means stdout */
    OUTFILE_NEW = 2,  /* commit fails with EEXIST instead of replacing an existing file */
};

typedef struct outfile outfile;

/* Checks that `path` can be written, without touching anything; `flag` names it in err
 * ("--stats"). False with err when it cannot. */
bool outfile_check(const char *flag, const char *path, unsigned flags, char *err);

/* Checks, then opens: the temporary file (or the device, FIFO, stdout). NULL with err. */
outfile *outfile_open(const char *flag, const char *path, unsigned flags, char *err);

/* Buffered writes; an error is kept and reported by outfile_commit. */
void outfile_write(outfile *f, const void *data, size_t len);
void outfile_printf(outfile *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void outfile_flush(outfile *f); /* the rows so far reach the temporary file or the stream */

/* Where the data is being written now: the temporary file's path, or the path itself for a
 * device or FIFO, or NULL for stdout. For a writer that wants a path (it then writes that path
 * through outfile too, so a device stays a device). */
const char *outfile_write_path(const outfile *f);
bool outfile_is_direct(const outfile *f); /* stdout, a device or a FIFO: no temporary file */

/* Finishes: flushes and closes, then renames the temporary file to the final name. False with
 * err (and the temporary file removed) on any write error so far. Frees f either way. */
bool outfile_commit(outfile *f, char *err);
/* Closes and removes the temporary file; the target is left as it was. NULL is ignored. */
void outfile_abort(outfile *f);

#endif
