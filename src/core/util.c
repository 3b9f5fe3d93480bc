#include "core/util.h"
#include "core/env.h"
#include "core/outfile.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *file_read(const char *path, size_t *len, char *err) {
    /* O_NONBLOCK: a FIFO must not hang the open (it is refused below, as is a folder) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fail(err, "cannot open %s: %s", err_esc(path), strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fail(err, "cannot stat %s: %s", err_esc(path), strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        fail(err, "%s is not a regular file (%s)", err_esc(path),
             S_ISDIR(st.st_mode)    ? "a folder"
             : S_ISFIFO(st.st_mode) ? "a FIFO"
                                    : "a device or socket");
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size + 1);
    while (buf && got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != size) {
        fail(err, "cannot read %s (%zu of %zu bytes)", err_esc(path), got, size);
        free(buf);
        return NULL;
    }
    buf[size] = 0;
    if (len) *len = size;
    return buf;
}

bool file_write_atomic(const char *path, const void *data, size_t len, char *err) {
    outfile *f = outfile_open(NULL, path, 0, err);
    if (!f) return false;
    outfile_write(f, data, len);
    return outfile_commit(f, err);
}

static char _data_dir[PATH_MAX];

/* The longest data folder: room is left for "/shaders/NAME" (data_path), NAME at most 127 bytes
 * (shader.c refuses a longer #include), so no path under it is ever cut short. */
#define DATA_DIR_MAX (PATH_MAX - 160)

static bool _has_shaders(const char *dir) {
    char p[PATH_MAX];
    struct stat st;
    return strlen(dir) <= DATA_DIR_MAX && snprintf(p, sizeof p, "%s/shaders/common.glsl", dir) < (int)sizeof p &&
           stat(p, &st) == 0;
}

static bool _data_dir_fits(const char *what, const char *dir, char *err) {
    if (strlen(dir) <= DATA_DIR_MAX) return true;
    return fail(err,
                "%s: the folder's path is %zu bytes, longer than %d (the files under it would not fit in a path); move it "
                "or use a shorter path to it",
                what, strlen(dir), DATA_DIR_MAX);
}

bool data_dir_init(const char *override, char *err) {
    if (override) {
        if (!_data_dir_fits("--data", override, err)) return false;
        if (!_has_shaders(override))
            return fail(err, "--data %s: no shaders/common.glsl there; point it at the folder holding shaders/",
                        err_esc(override));
        snprintf(_data_dir, sizeof _data_dir, "%s", override);
        return true;
    }
    const char *env = env_str(ENV_DATA_DIR);
    if (env) {
        if (!_data_dir_fits("FLUID_DATA_DIR", env, err)) return false;
        if (!_has_shaders(env))
            return fail(err, "FLUID_DATA_DIR=%s: no shaders/common.glsl there; unset it or fix it", err_esc(env));
        snprintf(_data_dir, sizeof _data_dir, "%s", env);
        return true;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash) break;
            *slash = 0;
            if (_has_shaders(exe)) {
                snprintf(_data_dir, sizeof _data_dir, "%s", exe);
                return true;
            }
        }
    }
    if (_has_shaders(FLUID_SOURCE_DIR)) {
        snprintf(_data_dir, sizeof _data_dir, "%s", FLUID_SOURCE_DIR);
        return true;
    }
    return fail(err, "cannot find the shaders/ folder beside the binary or in %s; pass --data DIR", FLUID_SOURCE_DIR);
}

const char *data_path(const char *sub, const char *name) {
    static char ring[8][PATH_MAX];
    static int next;
    char *p = ring[next++ & 7];
    snprintf(p, PATH_MAX, "%s/%s/%s", _data_dir, sub, name); /* fits: DATA_DIR_MAX, and NAME within 127 bytes */
    return p;
}

double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
