#include "app/session/video.h"
#include "core/outfile.h"
#include "core/util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct video {
    pid_t pid;
    int fd; /* the write end of ffmpeg's stdin */
    int width, height, frames;
    char path[PATH_MAX];       /* the name the user gave, for messages (printable) */
    char write_path[PATH_MAX]; /* what ffmpeg writes (the hidden temporary file) */
    FILE *log;                 /* ffmpeg's stderr, shown at the end with write_path replaced by path */
};

/* The signals whose cleanup stops ffmpeg (outfile_emergency), held back while ffmpeg runs but is
 * not registered (outfile_child_set) yet, or is reaped but still registered: a signal at that
 * moment would leave it writing (and creating its output again), or kill a reused pid. */
static void _video_hold(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT), sigaddset(&set, SIGTERM), sigaddset(&set, SIGHUP), sigaddset(&set, SIGQUIT);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* ffmpeg's messages, each line "fluid: VIDEO: ffmpeg: ..." with the temporary file's name replaced
 * by the name the user gave, so no message names the hidden file. */
static void _video_show_log(video *v) {
    if (!v->log) return;
    rewind(v->log);
    char line[1024];
    size_t wl = strlen(v->write_path);
    while (fgets(line, sizeof line, v->log)) {
        line[strcspn(line, "\n")] = 0;
        char shown[2048] = "", *at = line, *hit;
        while (wl && (hit = strstr(at, v->write_path))) {
            snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%.*s%s", (int)(hit - at), at, v->path);
            at = hit + wl;
        }
        snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%s", at);
        char safe[4096];
        fprintf(stderr, "fluid: VIDEO: ffmpeg: %s\n", outfile_printable(shown, safe, sizeof safe));
    }
    fclose(v->log);
    v->log = NULL;
}

/* The ffmpeg on PATH, as a path, in out. */
static bool _video_ffmpeg(char *out, size_t len) {
    const char *path = getenv("PATH");
    if (!path || !*path) return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        int n = snprintf(out, len, "%s/ffmpeg", *dir ? dir : ".");
        if (n < 0 || (size_t)n >= len) continue; /* cut short it would name another file: not there */
        struct stat st;
        found = stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0;
    }
    free(copy);
    return found;
}

bool video_check(const char *path, char *err) {
    char ffmpeg[PATH_MAX], shown[PATH_MAX];
    if (!outfile_check("--video", path, 0, err)) return false;
    outfile_printable(path, shown, sizeof shown);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return fail(err,
                    "--video %s is a %s: an MP4 is finished by seeking back into the file, so it needs a regular file; "
                    "give a file name",
                    shown, S_ISFIFO(st.st_mode) ? "FIFO" : "device");
    if (!_video_ffmpeg(ffmpeg, sizeof ffmpeg))
        return fail(err,
                    "--video %s: ffmpeg is not installed (not found on PATH); install it with apt-get install ffmpeg "
                    "(bash tools/setup.sh does)",
                    shown);
    return true;
}

video *video_open(const char *write_path, const char *name, int width, int height, int fps, char *err) {
    char ffmpeg[PATH_MAX];
    if (width <= 0 || height <= 0 || fps <= 0)
        return fail(err, "--video %s: a %dx%d video at %d fps", name, width, height, fps), NULL;
    if (!_video_ffmpeg(ffmpeg, sizeof ffmpeg))
        return fail(err, "--video %s: ffmpeg is not installed (not found on PATH); install it with apt-get install ffmpeg", name),
               NULL;
    video *v = calloc(1, sizeof *v);
    v->width = width, v->height = height, v->fd = -1;
    outfile_printable(name, v->path, sizeof v->path);
    snprintf(v->write_path, sizeof v->write_path, "%s", write_path);
    v->log = tmpfile(); /* unlinked at once: nothing left behind */
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        free(v);
        return fail(err, "--video %s: cannot make a pipe to ffmpeg (%s)", name, strerror(errno)), NULL;
    }
    fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
    char size[32], rate[16], out[PATH_MAX];
    snprintf(size, sizeof size, "%dx%d", width, height);
    snprintf(rate, sizeof rate, "%d", fps);
    snprintf(out, sizeof out, "%s", write_path);
    char *argv[] = {ffmpeg,
                    "-hide_banner",
                    "-loglevel",
                    "error",
                    "-y",
                    "-f",
                    "rawvideo",
                    "-pix_fmt",
                    "rgba",
                    "-video_size",
                    size,
                    "-framerate",
                    rate,
                    "-i",
                    "pipe:0",
                    "-vf",
                    "vflip,pad=ceil(iw/2)*2:ceil(ih/2)*2",
                    "-c:v",
                    "libx264",
                    "-preset",
                    "veryfast",
                    "-crf",
                    "20",
                    "-pix_fmt",
                    "yuv420p",
                    "-movflags",
                    "+faststart",
                    "-f",
                    "mp4",
                    out,
                    NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[0], 0);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (v->log) posix_spawn_file_actions_adddup2(&fa, fileno(v->log), 2);
    /* Its own process group: a terminal's Ctrl-C reaches fluid alone, which stops ffmpeg itself
     * (outfile_emergency, video_abort) and keeps the stats so far, not an "ffmpeg failed". */
    posix_spawnattr_t sa;
    posix_spawnattr_init(&sa);
    sigset_t held;
    _video_hold(&held); /* started and registered at once; ffmpeg itself gets the mask as it was */
    posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&sa, 0);
    posix_spawnattr_setsigmask(&sa, &held);
    int rc = posix_spawn(&v->pid, ffmpeg, &fa, &sa, argv, environ);
    if (rc == 0) outfile_child_set(v->pid); /* a signal's cleanup stops it before removing its temporary */
    sigprocmask(SIG_SETMASK, &held, NULL);
    posix_spawnattr_destroy(&sa);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[0]);
    if (rc != 0) {
        close(pipefd[1]);
        if (v->log) fclose(v->log);
        free(v);
        return fail(err, "--video %s: cannot start %s (%s)", name, ffmpeg, strerror(rc)), NULL;
    }
    v->fd = pipefd[1];
    signal(SIGPIPE, SIG_IGN); /* ffmpeg stopping early is an error returned by write, not a signal */
    return v;
}

/* Waits for ffmpeg's end (a signal meanwhile still finds it registered, and stops it), then reaps
 * and unregisters it at once; its exit status, or -1. */
static int _video_wait(video *v) {
    siginfo_t info;
    while (waitid(P_PID, v->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
    sigset_t held;
    _video_hold(&held);
    int status = 0;
    pid_t got;
    while ((got = waitpid(v->pid, &status, 0)) < 0 && errno == EINTR) {}
    outfile_child_set(0);
    sigprocmask(SIG_SETMASK, &held, NULL);
    return got == v->pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool video_frame(video *v, const uint8_t *rgba, char *err) {
    size_t left = (size_t)v->width * (size_t)v->height * 4;
    const uint8_t *p = rgba;
    while (left) {
        ssize_t n = write(v->fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return fail(err, "--video %s: ffmpeg stopped taking frames (%s); its messages are above", v->path, strerror(errno));
        p += n, left -= (size_t)n;
    }
    v->frames++;
    return true;
}

bool video_close(video *v, char *err) {
    if (!v) return true;
    close(v->fd);
    int status = _video_wait(v);
    _video_show_log(v);
    bool ok = status == 0;
    if (!ok) fail(err, "--video %s: ffmpeg failed (exit status %d); its messages are above", v->path, status);
    else if (v->frames == 0) ok = fail(err, "--video %s: no frames were recorded", v->path);
    free(v);
    return ok;
}

void video_abort(video *v) {
    if (!v) return;
    close(v->fd);
    kill(v->pid, SIGTERM);
    _video_wait(v);
    _video_show_log(v);
    free(v);
}

int video_frame_count(const video *v) { return v ? v->frames : 0; }
const char *video_path(const video *v) { return v ? v->path : ""; }

/* Big-endian integers of an MP4 box header. */
static uint64_t _video_be(const uint8_t *p, int n) {
    uint64_t x = 0;
    for (int i = 0; i < n; i++) x = x << 8 | p[i];
    return x;
}

bool video_file_check(const char *path, char *why) {
    FILE *f = fopen(path, "rb");
    if (!f) return fail(why, "cannot read the finished video back (%s)", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        fclose(f);
        return fail(why, "cannot read the finished video back (%s)", strerror(errno));
    }
    /* The top-level boxes must tile the file exactly, and hold ftyp, moov and mdat: ffmpeg that
     * failed writing the trailer (a full disk) has exited 0 with no moov, or a cut one. */
    uint64_t at = 0, size = (uint64_t)st.st_size;
    bool ftyp = false, moov = false, mdat = false;
    while (at < size) {
        uint8_t h[16];
        if (fseeko(f, (off_t)at, SEEK_SET) != 0 || fread(h, 1, 8, f) != 8) break;
        uint64_t len = _video_be(h, 4), head = 8;
        if (len == 1) {
            if (fread(h + 8, 1, 8, f) != 8) break;
            len = _video_be(h + 8, 8), head = 16;
        } else if (len == 0) {
            len = size - at;
        }
        if (len < head || len > size - at) break;
        ftyp |= !memcmp(h + 4, "ftyp", 4);
        moov |= !memcmp(h + 4, "moov", 4);
        mdat |= !memcmp(h + 4, "mdat", 4);
        at += len;
    }
    fclose(f);
    if (at != size)
        return fail(why, "the MP4 ffmpeg wrote is cut short (a box runs past byte %llu of %llu; a full disk?)",
                    (unsigned long long)at, (unsigned long long)size);
    if (!ftyp || !moov || !mdat)
        return fail(why, "the MP4 ffmpeg wrote has no %s (its ending was not written; a full disk?)",
                    !moov   ? "moov atom"
                    : !ftyp ? "ftyp box"
                            : "mdat box");
    return true;
}
