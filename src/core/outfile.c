#define _XOPEN_SOURCE 700 /* realpath */
#include "core/outfile.h"
#include "core/err.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum _outfile_kind { _OUTFILE_STDOUT, _OUTFILE_DIRECT, _OUTFILE_FILE } _outfile_kind;

struct outfile {
    char who[PATH_MAX + 64];  /* "--stats out.csv", for messages */
    char final[PATH_MAX];     /* the name the data ends up under (a symlink's target) */
    char tmp[PATH_MAX];       /* the temporary file; "" when written directly */
    FILE *fp;
    _outfile_kind kind;
    unsigned flags;
    int error;                /* errno of the first failed write, 0 if none */
};

/* What a checked path turned out to be. */
typedef struct _outfile_plan {
    _outfile_kind kind;
    char final[PATH_MAX];
    char dir[PATH_MAX];
    bool exists;
    struct stat old;
} _outfile_plan;

static void _outfile_who(char *who, size_t n, const char *flag, const char *path) {
    if (flag && *flag)
        snprintf(who, n, "%s %s", flag, path);
    else
        snprintf(who, n, "%s", path);
}

static bool _outfile_is_stdout(const struct stat *st) {
    struct stat o;
    return fstat(STDOUT_FILENO, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* dir of "a/b/c" is "a/b"; of "c" is "."; of "/c" is "/". */
static void _outfile_dir(const char *path, char *dir, size_t n) {
    snprintf(dir, n, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
}

static bool _outfile_plan_make(const char *flag, const char *path, unsigned flags, _outfile_plan *p, char *err) {
    char who[PATH_MAX + 64];
    memset(p, 0, sizeof *p);
    if (!path || !*path) return fail(err, "%s needs a file name", flag && *flag ? flag : "an output");
    _outfile_who(who, sizeof who, flag, path);
    if (strcmp(path, "-") == 0) {
        if (!(flags & OUTFILE_DASH))
            return fail(err, "%s: this output cannot go to stdout; give a file name", who);
        p->kind = _OUTFILE_STDOUT;
        return true;
    }
    size_t len = strlen(path);
    if (len >= PATH_MAX - 16) return fail(err, "%s: the path is too long; choose a shorter one", who);
    if (path[len - 1] == '/')
        return fail(err, "%s: ends with '/', so it names a folder; give a file path (a name after the '/')", who);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (_outfile_is_stdout(&st)) {
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
        p->exists = true;
        p->old = st;
    } else if (errno == ENOENT) {
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            return fail(err, "%s is a symbolic link to a missing file; remove the link or create its target", who);
        snprintf(p->final, sizeof p->final, "%s", path);
    } else if (errno == ENOTDIR) {
        return fail(err, "%s: a part of the path before the file name is not a folder; fix the path", who);
    } else {
        return fail(err, "%s: %s; choose another path", who, strerror(errno));
    }
    p->kind = _OUTFILE_FILE;
    _outfile_dir(p->final, p->dir, sizeof p->dir);
    if (stat(p->dir, &st) != 0) {
        if (errno == ENOENT) return fail(err, "%s: folder %s does not exist; create it or choose another path", who, p->dir);
        return fail(err, "%s: folder %s: %s; choose another path", who, p->dir, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) return fail(err, "%s: %s is not a folder; fix the path", who, p->dir);
    if (access(p->dir, W_OK | X_OK) != 0)
        return fail(err, "%s: folder %s is not writable; choose another path", who, p->dir);
    return true;
}

bool outfile_check(const char *flag, const char *path, unsigned flags, char *err) {
    _outfile_plan p;
    return _outfile_plan_make(flag, path, flags, &p, err);
}

static mode_t _outfile_umask(void) {
    mode_t m = umask(0);
    umask(m);
    return m;
}

outfile *outfile_open(const char *flag, const char *path, unsigned flags, char *err) {
    _outfile_plan p;
    if (!_outfile_plan_make(flag, path, flags, &p, err)) return NULL;
    outfile *f = calloc(1, sizeof *f);
    _outfile_who(f->who, sizeof f->who, flag, path);
    snprintf(f->final, sizeof f->final, "%s", p.final);
    f->kind = p.kind;
    f->flags = flags;
    if (p.kind == _OUTFILE_STDOUT) {
        f->fp = stdout;
        return f;
    }
    int fd;
    if (p.kind == _OUTFILE_DIRECT) {
        fd = open(p.final, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            fail(err, "%s: cannot open it for writing: %s", f->who, strerror(errno));
            free(f);
            return NULL;
        }
    } else {
        const char *base = strrchr(p.final, '/');
        base = base ? base + 1 : p.final;
        if (snprintf(f->tmp, sizeof f->tmp, "%s/.%s.XXXXXX", p.dir, base) >= (int)sizeof f->tmp) {
            fail(err, "%s: the path is too long; choose a shorter one", f->who);
            free(f);
            return NULL;
        }
        fd = mkstemp(f->tmp);
        if (fd < 0) {
            fail(err, "%s: cannot make a file in folder %s: %s; choose another path", f->who, p.dir, strerror(errno));
            free(f);
            return NULL;
        }
        if (p.exists) {
            /* The replaced file's owner and mode (chown first: it clears set-id bits). */
            if (fchown(fd, p.old.st_uid, p.old.st_gid) != 0) { /* not ours to give away: keep ours */ }
            fchmod(fd, p.old.st_mode & 07777);
        } else {
            fchmod(fd, 0666 & ~_outfile_umask());
        }
    }
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        fail(err, "%s: %s", f->who, strerror(errno));
        close(fd);
        if (f->tmp[0]) unlink(f->tmp);
        free(f);
        return NULL;
    }
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
}

const char *outfile_write_path(const outfile *f) {
    return f->kind == _OUTFILE_STDOUT ? NULL : f->kind == _OUTFILE_DIRECT ? f->final : f->tmp;
}

bool outfile_is_direct(const outfile *f) { return f->kind != _OUTFILE_FILE; }

bool outfile_commit(outfile *f, char *err) {
    errno = 0;
    if (!f->error && fflush(f->fp) != 0) f->error = errno ? errno : EIO;
    if (f->kind != _OUTFILE_STDOUT && fclose(f->fp) != 0 && !f->error) f->error = errno ? errno : EIO;
    f->fp = NULL;
    bool ok = !f->error;
    if (!ok) fail(err, "%s: writing failed: %s", f->who, strerror(f->error));
    if (ok && f->tmp[0]) {
        if (f->flags & OUTFILE_NEW) {
            ok = link(f->tmp, f->final) == 0;
            if (!ok) fail(err, "%s: %s", f->who, errno == EEXIST ? "a file of that name appeared; choose another name" : strerror(errno));
        } else {
            ok = rename(f->tmp, f->final) == 0;
            if (!ok) fail(err, "%s: cannot put the file in place: %s", f->who, strerror(errno));
        }
    }
    if (f->tmp[0] && (!ok || (f->flags & OUTFILE_NEW))) unlink(f->tmp);
    free(f);
    return ok;
}

void outfile_abort(outfile *f) {
    if (!f) return;
    if (f->kind == _OUTFILE_STDOUT)
        fflush(stdout);
    else if (f->fp)
        fclose(f->fp);
    if (f->tmp[0]) unlink(f->tmp);
    free(f);
}
