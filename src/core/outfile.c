#define _GNU_SOURCE /* realpath, ftello */
#include "core/outfile.h"
#include "core/err.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The longest NAME kept in a temporary or backup name (".NAME.old.XXXXXX" within NAME_MAX). */
#define OUTFILE_TMP_BASE 200
#define OUTFILE_LIVE_MAX 32

typedef enum _outfile_kind { _OUTFILE_STDOUT, _OUTFILE_DIRECT, _OUTFILE_FILE } _outfile_kind;

struct outfile {
    char who[PATH_MAX + 64]; /* "--stats out.csv", for messages (printable) */
    char final[PATH_MAX];    /* the name the data ends up under (a symlink's target) */
    char dir[PATH_MAX];
    char tmp[PATH_MAX];    /* the temporary file; "" when written directly */
    char backup[PATH_MAX]; /* the old file kept aside during the commit; "" if none */
    char placed[PATH_MAX]; /* the name it got (OUTFILE_NEW) */
    FILE *fp;
    _outfile_kind kind;
    unsigned flags;
    int error; /* errno of the first failed write, 0 if none */
    int live;  /* its slot in _outfile_live, -1 if none */
    bool (*check)(const char *path, char *why);
};

/* What a checked path turned out to be. */
typedef struct _outfile_plan {
    _outfile_kind kind;
    char final[PATH_MAX];
    char dir[PATH_MAX];
    bool exists;
    struct stat old;
} _outfile_plan;

/* ---- the temporary files alive now, for a signal handler (async-signal-safe reads only) ---- */

typedef struct _outfile_live_slot {
    volatile sig_atomic_t used; /* set last, cleared first */
    volatile sig_atomic_t keep;
    int fd;
    volatile off_t flushed;
    char tmp[PATH_MAX], final[PATH_MAX];
} _outfile_live_slot;
static _outfile_live_slot _outfile_live[OUTFILE_LIVE_MAX];

static int _outfile_live_add(const outfile *f, int fd) {
    for (int i = 0; i < OUTFILE_LIVE_MAX; i++) {
        _outfile_live_slot *s = &_outfile_live[i];
        if (s->used) continue;
        memcpy(s->tmp, f->tmp, sizeof s->tmp);
        memcpy(s->final, f->final, sizeof s->final);
        s->fd = fd;
        s->flushed = 0;
        s->keep = (f->flags & OUTFILE_KEEP) && !(f->flags & OUTFILE_NEW);
        s->used = 1;
        return i;
    }
    return -1; /* more than OUTFILE_LIVE_MAX at once: still written, not cleaned by a signal */
}

static void _outfile_live_drop(outfile *f) {
    if (f->live >= 0) _outfile_live[f->live].used = 0;
    f->live = -1;
}

/* The signals whose handlers clean up (outfile_emergency), held back while the table above and
 * the folder disagree: a temporary made but not yet in the table, one out of the table but not yet
 * renamed or removed, a descriptor closing. A signal then waits the few system calls, and finds
 * every temporary in the table whichever moment it came. */
static void _outfile_hold(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    /* (never around a write to a FIFO, a device or stdout, which may wait on a reader) */
    sigaddset(&set, SIGINT), sigaddset(&set, SIGTERM), sigaddset(&set, SIGHUP), sigaddset(&set, SIGQUIT);
    sigaddset(&set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &set, old);
}
static void _outfile_release(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* The encoder writing into a temporary (ffmpeg): stopped and waited for before the temporaries go,
 * or it would create its output again after the unlink. */
static volatile pid_t _outfile_child;
void outfile_child_set(pid_t pid) { _outfile_child = pid; }

void outfile_emergency(void) {
    pid_t child = _outfile_child;
    if (child > 0) {
        _outfile_child = 0;
        kill(child, SIGKILL);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    }
    for (int i = 0; i < OUTFILE_LIVE_MAX; i++) {
        _outfile_live_slot *s = &_outfile_live[i];
        if (!s->used) continue;
        s->used = 0;
        /* kept only with whole rows flushed: an empty file (a signal before the header) never
         * replaces an old one */
        if (s->keep && s->flushed > 0 && (s->fd < 0 || ftruncate(s->fd, s->flushed) == 0) && rename(s->tmp, s->final) == 0)
            continue; /* fd -1: closed, every row written */
        unlink(s->tmp);
    }
}

void outfile_emergency_exit(int sig) {
    outfile_emergency();
    if (sig != SIGPIPE) _exit(130); /* an interrupt: 130 whichever signal it was (README) */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* SIGPIPE ignored */
}

void outfile_guard_signals(void) {
    static bool done;
    if (done) return;
    done = true;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = outfile_emergency_exit;
        sigemptyset(&sa.sa_mask); /* the others wait while one is handled: no cleanup runs inside another */
        for (size_t j = 0; j < sizeof sigs / sizeof sigs[0]; j++) sigaddset(&sa.sa_mask, sigs[j]);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* ---- names ---- */

const char *outfile_printable(const char *s, char *buf, size_t len) { return err_printable(s, buf, len); }

static void _outfile_who(char *who, size_t n, const char *flag, const char *path) {
    char p[PATH_MAX * 2];
    outfile_printable(path, p, sizeof p);
    if (flag && *flag) snprintf(who, n, "%s %s", flag, p);
    else snprintf(who, n, "%s", p);
}

static bool _outfile_is_stdout(const struct stat *st) {
    struct stat o;
    return fstat(STDOUT_FILENO, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* dir of "a/b/c" is "a/b"; of "c" is "."; of "/c" is "/". */
static void _outfile_dir(const char *path, char *dir, size_t n) {
    snprintf(dir, n, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, n, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
}

static const char *_outfile_base(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* ".NAME<tag>" in dir, NAME cut to OUTFILE_TMP_BASE bytes, then the random suffix a caller adds. */
static bool _outfile_hidden_name(char *out, size_t n, const char *dir, const char *final, const char *tag) {
    return snprintf(out, n, "%s/.%.*s%s", dir, OUTFILE_TMP_BASE, _outfile_base(final), tag) < (int)n - 8;
}

static bool _outfile_plan_make(const char *flag, const char *path, unsigned flags, _outfile_plan *p, char *err) {
    char who[PATH_MAX + 64];
    memset(p, 0, sizeof *p);
    if (!path || !*path) return fail(err, "%s needs a file name", flag && *flag ? flag : "an output");
    _outfile_who(who, sizeof who, flag, path);
    if (strcmp(path, "-") == 0) {
        if (!(flags & OUTFILE_DASH)) return fail(err, "%s: this output cannot go to stdout; give a file name", who);
        p->kind = _OUTFILE_STDOUT;
        return true;
    }
    size_t len = strlen(path);
    if (len >= PATH_MAX - 16) return fail(err, "%s: the path is too long; choose a shorter one", who);
    if (path[len - 1] == '/')
        return fail(err, "%s: ends with '/', so it names a folder; give a file path (a name after the '/')", who);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (_outfile_is_stdout(&st) && !(flags & OUTFILE_NEW)) {
            p->kind = _OUTFILE_STDOUT;
            return true;
        }
        if (S_ISDIR(st.st_mode)) return fail(err, "%s is a folder; give a file path", who);
        if (S_ISSOCK(st.st_mode)) return fail(err, "%s is a socket; give a file path", who);
        if (!S_ISREG(st.st_mode)) { /* a device node or a FIFO: written directly */
            if (access(path, W_OK) != 0) return fail(err, "%s is not writable (%s); choose another path", who, strerror(errno));
            p->kind = _OUTFILE_DIRECT;
            snprintf(p->final, sizeof p->final, "%s", path);
            return true;
        }
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            /* Written through the link: its final target is the file replaced. */
            char real[PATH_MAX];
            if (!realpath(path, real)) return fail(err, "%s: cannot follow the symbolic link (%s)", who, strerror(errno));
            snprintf(p->final, sizeof p->final, "%s", real);
        } else {
            snprintf(p->final, sizeof p->final, "%s", path);
        }
        /* A careful tool replaces only what the user could have written. */
        if (!(flags & OUTFILE_NEW) && access(path, W_OK) != 0)
            return fail(err,
                        "%s: you cannot write this file (mode %04o), so it is not replaced; choose another path or "
                        "change its mode",
                        who, (unsigned)(st.st_mode & 07777));
        p->exists = true;
        p->old = st;
    } else if (errno == ENOENT) {
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            return fail(err, "%s is a symbolic link to a missing file; remove the link or create its target", who);
        snprintf(p->final, sizeof p->final, "%s", path);
    } else if (errno == ENOTDIR) {
        return fail(err, "%s: a part of the path before the file name is not a folder; fix the path", who);
    } else if (errno == ENAMETOOLONG) {
        return fail(err, "%s: a name in the path is longer than the file system allows (%d bytes); choose a shorter one", who,
                    NAME_MAX);
    } else {
        return fail(err, "%s: %s; choose another path", who, strerror(errno));
    }
    p->kind = _OUTFILE_FILE;
    _outfile_dir(p->final, p->dir, sizeof p->dir);
    char pdir[PATH_MAX * 2];
    outfile_printable(p->dir, pdir, sizeof pdir);
    if (stat(p->dir, &st) != 0) {
        if (errno == ENOENT) return fail(err, "%s: folder %s does not exist; create it or choose another path", who, pdir);
        return fail(err, "%s: folder %s: %s; choose another path", who, pdir, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) return fail(err, "%s: %s is not a folder; fix the path", who, pdir);
    if (access(p->dir, W_OK | X_OK) != 0) return fail(err, "%s: folder %s is not writable; choose another path", who, pdir);
    /* The replace itself: in a sticky folder (/tmp) only the file's or the folder's owner (or root)
     * may rename over a file, so another user's file fails there at the end, after the work. */
    uid_t me = geteuid();
    if (p->exists && !(flags & OUTFILE_NEW) && (st.st_mode & S_ISVTX) && me != 0 && me != p->old.st_uid && me != st.st_uid)
        return fail(err,
                    "%s: the file belongs to another user in the sticky folder %s, so it cannot be replaced; choose "
                    "another path",
                    who, pdir);
    return true;
}

bool outfile_check(const char *flag, const char *path, unsigned flags, char *err) {
    _outfile_plan p;
    return _outfile_plan_make(flag, path, flags, &p, err);
}

/* ---- identity ---- */

typedef struct _outfile_id {
    dev_t dev;
    ino_t ino;
    char name[NAME_MAX + 1]; /* "" for an existing file; a new one's name in its folder */
    bool stream, chardev;    /* stdout; a character device */
} _outfile_id;

static bool _outfile_identify(const char *path, _outfile_id *id) {
    memset(id, 0, sizeof *id);
    struct stat st;
    if (strcmp(path, "-") == 0) {
        if (fstat(STDOUT_FILENO, &st) != 0) return false;
        id->stream = true;
    } else if (stat(path, &st) == 0) {
        id->stream = _outfile_is_stdout(&st);
    } else {
        /* A new name: its folder's identity and the name. */
        char dir[PATH_MAX];
        _outfile_dir(path, dir, sizeof dir);
        if (stat(dir, &st) != 0) return false;
        snprintf(id->name, sizeof id->name, "%s", _outfile_base(path));
    }
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    id->chardev = !id->name[0] && S_ISCHR(st.st_mode);
    return true;
}

bool outfile_check_distinct(int n, const char *const *flags, const char *const *paths, char *err) {
    _outfile_id ids[16];
    bool known[16] = {0};
    if (n > 16) n = 16;
    for (int k = 0; k < n; k++) {
        if (!paths[k]) continue;
        known[k] = _outfile_identify(paths[k], &ids[k]);
        for (int j = 0; j < k && known[k]; j++) {
            if (!known[j] || ids[j].dev != ids[k].dev || ids[j].ino != ids[k].ino || strcmp(ids[j].name, ids[k].name)) continue;
            if (ids[k].chardev) continue; /* /dev/null, a terminal: shared */
            char a[PATH_MAX], b[PATH_MAX];
            outfile_printable(paths[j], a, sizeof a);
            outfile_printable(paths[k], b, sizeof b);
            if (ids[k].stream)
                return fail(err, "%s %s and %s %s both go to stdout; give each its own file", flags[j], a, flags[k], b);
            return fail(err, "%s %s and %s %s name the same file; give each its own file", flags[j], a, flags[k], b);
        }
    }
    return true;
}

/* ---- writing ---- */

static mode_t _outfile_umask(void) {
    mode_t m = umask(0);
    umask(m);
    return m;
}

outfile *outfile_open(const char *flag, const char *path, unsigned flags, char *err) {
    _outfile_plan p;
    if (!_outfile_plan_make(flag, path, flags, &p, err)) return NULL;
    outfile_guard_signals();
    outfile *f = calloc(1, sizeof *f);
    f->live = -1;
    _outfile_who(f->who, sizeof f->who, flag, path);
    snprintf(f->final, sizeof f->final, "%s", p.final);
    snprintf(f->dir, sizeof f->dir, "%s", p.dir);
    f->kind = p.kind;
    f->flags = flags;
    if (p.kind == _OUTFILE_STDOUT) {
        f->fp = stdout;
        return f;
    }
    int fd = -1;
    if (p.kind == _OUTFILE_DIRECT) {
        fd = open(p.final, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            fail(err, "%s: cannot open it for writing: %s", f->who, strerror(errno));
            free(f);
            return NULL;
        }
    }
    sigset_t held;
    _outfile_hold(&held); /* the temporary is in the table before a signal can see the folder */
    if (p.kind == _OUTFILE_FILE) {
        if (!_outfile_hidden_name(f->tmp, sizeof f->tmp, p.dir, p.final, ".XXXXXX")) {
            _outfile_release(&held);
            fail(err, "%s: the path is too long; choose a shorter one", f->who);
            free(f);
            return NULL;
        }
        fd = mkstemp(f->tmp);
        if (fd < 0) {
            _outfile_release(&held);
            char pdir[PATH_MAX * 2];
            fail(err, "%s: cannot make a file in folder %s: %s; choose another path", f->who,
                 outfile_printable(p.dir, pdir, sizeof pdir), strerror(errno));
            free(f);
            return NULL;
        }
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        if (p.exists && !(flags & OUTFILE_NEW)) {
            /* The replaced file's owner and permission bits; never its set-id or sticky bits. */
            if (fchown(fd, p.old.st_uid, p.old.st_gid) != 0) { /* not ours to give away: keep ours */
            }
            fchmod(fd, p.old.st_mode & 0777);
        } else {
            fchmod(fd, 0666 & ~_outfile_umask());
        }
        f->live = _outfile_live_add(f, fd);
    }
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        fail(err, "%s: %s", f->who, strerror(errno));
        close(fd);
        _outfile_live_drop(f);
        if (f->tmp[0]) unlink(f->tmp);
        _outfile_release(&held);
        free(f);
        return NULL;
    }
    _outfile_release(&held);
    return f;
}

void outfile_write(outfile *f, const void *data, size_t len) {
    if (f->error || !len) return;
    if (fwrite(data, 1, len, f->fp) != len) f->error = errno ? errno : EIO;
}

void outfile_printf(outfile *f, const char *fmt, ...) {
    if (f->error) return;
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(f->fp, fmt, ap) < 0) f->error = errno ? errno : EIO;
    va_end(ap);
}

void outfile_flush(outfile *f) {
    if (!f->error && fflush(f->fp) != 0) f->error = errno ? errno : EIO;
    if (!f->error && f->live >= 0) _outfile_live[f->live].flushed = ftello(f->fp);
}

bool outfile_failed(const outfile *f, char *err) {
    if (!f || !f->error) return false;
    return !fail(err, "%s: writing failed: %s%s", f->who, strerror(f->error),
                 f->error == EPIPE ? " (the reader of the pipe went away)" : "");
}

void outfile_set_check(outfile *f, bool (*check)(const char *path, char *why)) { f->check = check; }

const char *outfile_write_path(const outfile *f) {
    return f->kind == _OUTFILE_STDOUT ? NULL : f->kind == _OUTFILE_DIRECT ? f->final : f->tmp;
}

bool outfile_is_direct(const outfile *f) { return f->kind != _OUTFILE_FILE; }

/* ---- the commit ---- */

/* Flushes and closes; the write errors and the output's own check. */
static bool _outfile_finish(outfile *f, char *err) {
    errno = 0;
    if (!f->error && fflush(f->fp) != 0) f->error = errno ? errno : EIO;
    sigset_t held;
    bool hold = f->kind == _OUTFILE_FILE;
    if (hold) _outfile_hold(&held); /* the handler never sees a closed descriptor: fd -1, every row written */
    if (f->live >= 0 && !f->error) _outfile_live[f->live].flushed = ftello(f->fp);
    if (f->live >= 0) _outfile_live[f->live].fd = -1;
    if (f->kind != _OUTFILE_STDOUT && fclose(f->fp) != 0 && !f->error) f->error = errno ? errno : EIO;
    f->fp = NULL;
    if (hold) _outfile_release(&held);
    if (f->error) return fail(err, "%s: writing failed: %s", f->who, strerror(f->error));
    if (f->check && f->tmp[0]) {
        char why[ERR_LEN];
        if (!f->check(f->tmp, why)) return fail(err, "%s: %s", f->who, why);
    }
    return true;
}

/* link(from, ".NAME.old.XXXXXX" beside final) under a fresh random name, into f->backup. */
static bool _outfile_keep_old(outfile *f) {
    static unsigned counter;
    char base[PATH_MAX];
    if (!_outfile_hidden_name(base, sizeof base, f->dir, f->final, ".old")) return false;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_sec;
    for (int tries = 0; tries < 100; tries++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull + counter++;
        snprintf(f->backup, sizeof f->backup, "%s.%06x", base, (unsigned)(x >> 40) & 0xffffff);
        if (link(f->final, f->backup) == 0) return true;
        if (errno != EEXIST) break;
    }
    f->backup[0] = 0;
    return false;
}

/* NAME, then NAME-2, NAME-3, ... before the extension: link(2) never replaces. */
static bool _outfile_place_new(outfile *f, char *err) {
    const char *base = _outfile_base(f->final), *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - f->final) : strlen(f->final);
    for (int k = 1; k < 1000; k++) {
        if (k == 1) snprintf(f->placed, sizeof f->placed, "%s", f->final);
        else snprintf(f->placed, sizeof f->placed, "%.*s-%d%s", (int)stem, f->final, k, f->final + stem);
        if (link(f->tmp, f->placed) == 0) return true;
        if (errno != EEXIST) return fail(err, "%s: cannot put the file in place: %s", f->who, strerror(errno));
    }
    return fail(err, "%s: 999 files of that name exist already; choose another name", f->who);
}

/* Puts f in place. */
static bool _outfile_place(outfile *f, char *err) {
    if (f->flags & OUTFILE_NEW) return _outfile_place_new(f, err);
    struct stat st;
    if (lstat(f->final, &st) == 0 && S_ISREG(st.st_mode) && !_outfile_keep_old(f))
        return fail(err, "%s: cannot keep the old file aside while replacing it (%s); choose another path", f->who,
                    strerror(errno));
    if (rename(f->tmp, f->final) != 0) {
        int e = errno;
        if (f->backup[0]) unlink(f->backup), f->backup[0] = 0;
        return fail(err, "%s: cannot put the file in place: %s", f->who, strerror(e));
    }
    snprintf(f->placed, sizeof f->placed, "%s", f->final);
    f->tmp[0] = 0; /* it is the final file now */
    return true;
}

/* Takes a placed f back: the old file returns (or the new name goes). */
static void _outfile_unplace(outfile *f) {
    if (f->flags & OUTFILE_NEW) unlink(f->placed);
    else if (f->backup[0]) rename(f->backup, f->final), f->backup[0] = 0;
    else unlink(f->final);
}

static void _outfile_free(outfile *f) {
    sigset_t held;
    bool hold = f->kind == _OUTFILE_FILE;
    if (hold) _outfile_hold(&held); /* out of the table and off the disk at once */
    _outfile_live_drop(f);
    if (f->fp && f->kind != _OUTFILE_STDOUT) fclose(f->fp);
    else if (f->fp) fflush(stdout);
    if (f->tmp[0]) unlink(f->tmp);
    if (f->backup[0]) unlink(f->backup);
    if (hold) _outfile_release(&held);
    free(f);
}

bool outfile_commit_all(outfile **fs, int n, char *err) {
    bool ok = true;
    for (int k = 0; k < n && ok; k++)
        if (fs[k]) ok = _outfile_finish(fs[k], err);
    /* No signal between the first rename and the last: the set is put in place or taken back. */
    sigset_t old;
    _outfile_hold(&old);
    int placed = 0;
    for (; placed < n && ok; placed++)
        if (fs[placed] && fs[placed]->tmp[0]) {
            _outfile_live_drop(fs[placed]);
            ok = _outfile_place(fs[placed], err);
            if (!ok) break;
        }
    if (!ok)
        for (int k = placed - 1; k >= 0; k--)
            if (fs[k] && fs[k]->placed[0]) _outfile_unplace(fs[k]);
    for (int k = 0; k < n; k++)
        if (fs[k]) {
            if ((fs[k]->flags & OUTFILE_NEW) && fs[k]->placed[0] && ok) unlink(fs[k]->tmp), fs[k]->tmp[0] = 0;
            _outfile_free(fs[k]);
            fs[k] = NULL;
        }
    _outfile_release(&old);
    return ok;
}

bool outfile_commit(outfile *f, char *err) { return outfile_commit_all(&f, 1, err); }

bool outfile_commit_named(outfile *f, char *name, size_t len, char *err) {
    char placed[PATH_MAX];
    snprintf(placed, sizeof placed, "%s", f->kind == _OUTFILE_STDOUT ? "stdout" : f->final);
    bool ok = _outfile_finish(f, err);
    sigset_t held;
    _outfile_hold(&held); /* out of the table and in place (or removed) at once */
    if (ok && f->tmp[0]) {
        _outfile_live_drop(f);
        ok = _outfile_place(f, err);
        if (ok) snprintf(placed, sizeof placed, "%s", f->placed);
        if (ok && (f->flags & OUTFILE_NEW)) unlink(f->tmp), f->tmp[0] = 0;
    }
    _outfile_free(f);
    _outfile_release(&held);
    if (name) outfile_printable(placed, name, len);
    return ok;
}

void outfile_abort(outfile *f) {
    if (f) _outfile_free(f);
}
