/* streams: the standard streams kept honest.
 *
 *   int main(...) { streams_open_std(); int rc = run(); return streams_close_std(rc); }
 *
 * streams_open_std makes sure descriptors 0, 1 and 2 are open (to /dev/null where a caller closed
 * one, `2>&-`), so no output file the program opens can take one of them and receive its log
 * lines. streams_close_std flushes stdout and stderr and turns a failed write to either (a full
 * disk, a closed pipe) into exit status 1 with a one-line message where stderr still works: a
 * failed write is never success. It does NOT redirect anything that is open.
 */
#ifndef FLUID_CORE_STREAMS_H
#define FLUID_CORE_STREAMS_H

void streams_open_std(void);
/* rc, or 1 where rc is 0 and a write to stdout or stderr failed. */
int streams_close_std(int rc);

#endif
