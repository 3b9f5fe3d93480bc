#include "core/streams.h"
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void streams_open_std(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        /* open returns the lowest free descriptor: this one (the ones below it are open by now) */
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got != fd) _exit(1); /* no /dev/null, or a descriptor race: nothing safe to write to */
    }
}

int streams_close_std(int rc) {
    bool out_failed = fflush(stdout) != 0 || ferror(stdout);
    int out_errno = errno;
    if (out_failed) fprintf(stderr, "fluid: writing the standard output failed: %s\n", strerror(out_errno ? out_errno : EIO));
    bool err_failed = fflush(stderr) != 0 || ferror(stderr);
    return rc ? rc : (out_failed || err_failed) ? 1 : 0;
}
