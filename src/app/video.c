#include "app/video.h"
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
    int fd;              /* the write end of ffmpeg's stdin */
    int width, height, frames;
    char path[PATH_MAX], temp[PATH_MAX];
};

/* The ffmpeg on PATH, as a path, in out. */
static bool _video_ffmpeg(char *out, size_t len) {
    const char *path = getenv("PATH");
    if (!path || !*path) return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/ffmpeg", *dir ? dir : ".");
        struct stat st;
        found = stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* The folder of path ("." for a bare name) into dir. */
static void _video_dir(const char *path, char *dir, size_t len) {
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, len, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
}

/* A new empty file beside path (mkstemp), its name in temp; -1 with err when the folder takes none. */
static int _video_temp(const char *path, char *temp, size_t len, char *err) {
    if (snprintf(temp, len, "%s.XXXXXX", path) >= (int)len) return fail(err, "--video %s: the path is too long", path), -1;
    int fd = mkstemp(temp);
    if (fd < 0) {
        char dir[PATH_MAX];
        _video_dir(path, dir, sizeof dir);
        struct stat st;
        if (stat(dir, &st) != 0) fail(err, "--video %s: the folder %s does not exist", path, dir);
        else if (!S_ISDIR(st.st_mode)) fail(err, "--video %s: %s is not a folder", path, dir);
        else fail(err, "--video %s: cannot create a file in %s (%s)", path, dir, strerror(errno));
        return -1;
    }
    return fd;
}

bool video_check(const char *path, char *err) {
    char ffmpeg[PATH_MAX], temp[PATH_MAX];
    if (!path || !*path) return fail(err, "--video needs a file name, like --video fluid.mp4");
    size_t n = strlen(path);
    struct stat st;
    if (path[n - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return fail(err, "--video %s: that is a folder; give a file name, like %s%sfluid.mp4", path, path,
                    path[n - 1] == '/' ? "" : "/");
    if (!_video_ffmpeg(ffmpeg, sizeof ffmpeg))
        return fail(err, "--video %s: ffmpeg is not installed (not found on PATH); install it with apt-get install ffmpeg "
                         "(bash tools/setup.sh does)", path);
    int fd = _video_temp(path, temp, sizeof temp, err);
    if (fd < 0) return false;
    close(fd);
    unlink(temp);
    return true;
}

video *video_open(const char *path, int width, int height, int fps, char *err) {
    char ffmpeg[PATH_MAX];
    if (width <= 0 || height <= 0 || fps <= 0) return fail(err, "--video %s: a %dx%d video at %d fps", path, width, height, fps), NULL;
    if (!video_check(path, err) || !_video_ffmpeg(ffmpeg, sizeof ffmpeg)) return NULL;
    video *v = calloc(1, sizeof *v);
    v->width = width, v->height = height, v->fd = -1;
    snprintf(v->path, sizeof v->path, "%s", path);
    int tfd = _video_temp(path, v->temp, sizeof v->temp, err);
    if (tfd < 0) {
        free(v);
        return NULL;
    }
    /* The file takes the mode a new file gets here (mkstemp makes it 0600). */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(tfd, 0666 & ~mask);
    close(tfd);
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        unlink(v->temp);
        free(v);
        return fail(err, "--video %s: cannot make a pipe to ffmpeg (%s)", path, strerror(errno)), NULL;
    }
    fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
    char size[32], rate[16];
    snprintf(size, sizeof size, "%dx%d", width, height);
    snprintf(rate, sizeof rate, "%d", fps);
    char *argv[] = {ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                    "-video_size", size, "-framerate", rate, "-i", "pipe:0",
                    "-vf", "vflip,pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "veryfast",
                    "-crf", "20", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", v->temp, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[0], 0);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawn(&v->pid, ffmpeg, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[0]);
    if (rc != 0) {
        close(pipefd[1]);
        unlink(v->temp);
        free(v);
        return fail(err, "--video %s: cannot start %s (%s)", path, ffmpeg, strerror(rc)), NULL;
    }
    v->fd = pipefd[1];
    signal(SIGPIPE, SIG_IGN); /* ffmpeg stopping early is an error returned by write, not a signal */
    return v;
}

/* Waits for ffmpeg; its exit status, or -1. */
static int _video_wait(video *v) {
    int status = 0;
    while (waitpid(v->pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool video_frame(video *v, const uint8_t *rgba, char *err) {
    size_t left = (size_t)v->width * (size_t)v->height * 4;
    const uint8_t *p = rgba;
    while (left) {
        ssize_t n = write(v->fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return fail(err, "--video %s: ffmpeg stopped taking frames (%s); its messages are above", v->path, strerror(errno));
        p += n, left -= (size_t)n;
    }
    v->frames++;
    return true;
}

bool video_close(video *v, char *err) {
    if (!v) return true;
    close(v->fd);
    int status = _video_wait(v);
    bool ok = status == 0;
    if (!ok) fail(err, "--video %s: ffmpeg failed (exit status %d); its messages are above", v->path, status);
    else if (v->frames == 0) ok = fail(err, "--video %s: no frames were recorded", v->path);
    if (ok && rename(v->temp, v->path) != 0) ok = fail(err, "--video %s: cannot move the video into place (%s)", v->path, strerror(errno));
    if (!ok) unlink(v->temp);
    free(v);
    return ok;
}

void video_abort(video *v) {
    if (!v) return;
    close(v->fd);
    kill(v->pid, SIGTERM);
    _video_wait(v);
    unlink(v->temp);
    free(v);
}

int video_frame_count(const video *v) { return v ? v->frames : 0; }
const char *video_path(const video *v) { return v ? v->path : ""; }
