/* A signal at any moment of the output writer's work leaves no temporary file (issue 25: the
 * window's Ctrl-C while recording could leave .w6.mp4.XXXXXX). Without a GPU: a child process
 * opens, writes, commits and aborts outputs in a tight loop (outfile_open, outfile_commit,
 * outfile_commit_named with OUTFILE_NEW, outfile_abort), as the window and the commands do, and is
 * sent SIGINT, SIGTERM, SIGHUP or SIGQUIT at a moment that varies from round to round. Independent
 * model: the folder read back with readdir: no hidden name (".NAME.XXXXXX", ".NAME.old.XXXXXX") may
 * remain, and the child exits 130 (README: 130 for an interrupt, whichever signal it was). The
 * --stats kind (OUTFILE_KEEP) must hold whole rows when it is kept: every line ends in '\n' and
 * starts with "row,". On the code before the fix (the temporary made before it was registered for
 * the handler, and dropped from the handler's table before it was renamed or removed) hidden files
 * remained in most runs of 60 rounds.
 */
#define _GNU_SOURCE
#include "check.h"
#include "core/outfile.h"
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[PATH_MAX];

static const char *at(const char *name) { return check_join(dir, name); }

/* The writer's cycle, forever (until a signal ends the process). */
static void churn(void) {
    char err[ERR_LEN], name[PATH_MAX];
    for (unsigned i = 0;; i++) {
        outfile *a = outfile_open("--stats", at("s.csv"), OUTFILE_KEEP, err);
        outfile *b = outfile_open("--dump", at("d.csv"), 0, err);
        outfile *c = outfile_open("video", at("w.mp4"), OUTFILE_NEW, err);
        if (!a || !b || !c) _exit(3);
        for (int r = 0; r < 4; r++) {
            outfile_printf(a, "row,%u,%d\n", i, r);
            outfile_flush(a);
            outfile_printf(b, "%u\n", i);
            outfile_printf(c, "%u\n", i);
        }
        outfile *both[2] = {a, b};
        if (i % 3 == 0) outfile_abort(a), outfile_abort(b);
        else if (!outfile_commit_all(both, 2, err)) _exit(4);
        if (i % 2) outfile_abort(c);
        else if (!outfile_commit_named(c, name, sizeof name, err)) _exit(5);
        else unlink(name[0] == '/' ? name : at(name)); /* never 999 of them */
    }
}

static int hidden_files(char *first, size_t len) {
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            if (n++ == 0) snprintf(first, len, "%s", e->d_name);
    if (d) closedir(d);
    return n;
}

static bool whole_rows(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return true; /* not kept: fine */
    char line[256];
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) ok = strncmp(line, "row,", 4) == 0 && line[strlen(line) - 1] == '\n';
    fclose(f);
    return ok;
}

int main(void) {
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/fluid-outfile-signals-XXXXXX", base);
    CHECK(mkdtemp(dir) != NULL, "cannot make a folder under %s", base);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    int rounds = 60, left = 0, bad_exit = 0, bad_rows = 0;
    char first[NAME_MAX + 1] = "";
    for (int k = 0; k < rounds; k++) {
        int ready[2];
        CHECK(pipe(ready) == 0, "pipe");
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGINT, SIG_DFL); /* a background job of a script starts with SIGINT ignored */
            signal(SIGQUIT, SIG_DFL);
            outfile_guard_signals(); /* as fluid sort, bench and the window do first */
            close(ready[0]);
            close(ready[1]); /* the parent's read returns: the handlers are in */
            churn();
        }
        close(ready[1]);
        char c;
        while (read(ready[0], &c, 1) < 0) {}
        close(ready[0]);
        /* 2 to 14 ms into the loop, a different moment each round */
        struct timespec ts = {0, 2000000L + (long)(k * 7919 % 13) * 1000000L + (long)(k * 104729 % 997) * 1000L};
        nanosleep(&ts, NULL);
        int sig = sigs[k % 4], status = 0;
        kill(pid, sig);
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 130) {
            if (bad_exit++ == 0)
                printf("round %d (signal %d): %s %d, not exit 130\n", k, sig, WIFEXITED(status) ? "exit" : "killed by",
                       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        }
        char name[NAME_MAX + 1];
        int n = hidden_files(name, sizeof name);
        if (n && !left++) snprintf(first, sizeof first, "%s (round %d, signal %d)", name, k, sig);
        bad_rows += !whole_rows(at("s.csv"));
        /* the next round starts clean */
        DIR *d = opendir(dir);
        for (struct dirent *e; d && (e = readdir(d));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(at(e->d_name));
        if (d) closedir(d);
    }
    CHECK(left == 0, "%d of %d signalled runs left hidden temporary files, the first: %s", left, rounds, first);
    CHECK(bad_exit == 0, "%d of %d signalled runs did not exit 130", bad_exit, rounds);
    CHECK(bad_rows == 0, "%d of %d kept stats files hold a cut row", bad_rows, rounds);
    rmdir(dir);
    return check_done();
}
