/* The output writer's promises, without a GPU (core/outfile.h, app/video.h's trailer check, and the
 * window's time policy app/pacing.h), each against an independent model: what the files hold
 * afterwards, read back with stdio and stat.
 *   - the transaction: a rename that fails part-way (the second target turned into a folder)
 *     puts the first output's old file back, and leaves no hidden file;
 *   - OUTFILE_NEW: three writers of one name, all opened before any commits (three windows saving
 *     in the same second), give three files, none overwritten;
 *   - outfile_emergency (as a signal handler calls it): the KEEP output holds exactly the rows
 *     flushed, the others are removed;
 *   - modes: set-id bits are never copied; identity: ./x, x and a link to x are one file;
 *   - video_file_check: a real MP4 from ffmpeg passes, the same cut short or without moov fails;
 *   - pacing: a render that alone passes the budget still leaves at least one solver step a frame,
 *     and the frame's time recovers to 1/60 s within a few frames once frames get cheap.
 */
#define _GNU_SOURCE
#include "app/window/pacing.h"
#include "app/session/video.h"
#include "check.h"
#include "core/outfile.h"
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[PATH_MAX];

static const char *at(const char *name) { return check_join(dir, name); }

static void put(const char *name, const char *text) {
    FILE *f = fopen(at(name), "w");
    fputs(text, f);
    fclose(f);
}

static const char *get(const char *name) {
    static char buf[4096];
    buf[0] = 0;
    FILE *f = fopen(at(name), "r");
    if (!f) return "(missing)";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int hidden_files(void) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void test_transaction(void) {
    char err[ERR_LEN];
    put("a.csv", "old a");
    put("b.csv", "old b");
    outfile *fs[2] = {outfile_open("--stats", at("a.csv"), 0, err), outfile_open("--dump", at("b.csv"), 0, err)};
    CHECK(fs[0] && fs[1], "open: %s", err);
    outfile_printf(fs[0], "new a");
    outfile_printf(fs[1], "new b");
    /* b's rename will fail: its name is now a folder that is not empty. */
    unlink(at("b.csv"));
    mkdir(at("b.csv"), 0755);
    put("b.csv/x", "x");
    CHECK(!outfile_commit_all(fs, 2, err), "a rename over a folder succeeded");
    CHECK(strstr(err, "--dump"), "the error does not name --dump: %s", err);
    CHECK(!strcmp(get("a.csv"), "old a"), "a.csv is '%s' after the failed transaction, not its old content", get("a.csv"));
    CHECK(hidden_files() == 0, "%d hidden files left", hidden_files());
    /* And a transaction that succeeds replaces both. */
    put("c.csv", "old c");
    outfile *gs[2] = {outfile_open("--stats", at("a.csv"), 0, err), outfile_open("--dump", at("c.csv"), 0, err)};
    outfile_printf(gs[0], "new a");
    outfile_printf(gs[1], "new c");
    CHECK(outfile_commit_all(gs, 2, err), "commit: %s", err);
    CHECK(!strcmp(get("a.csv"), "new a") && !strcmp(get("c.csv"), "new c"), "a '%s', c '%s'", get("a.csv"), get("c.csv"));
    CHECK(hidden_files() == 0, "%d hidden files left after a good commit", hidden_files());
}

static void test_new_names(void) {
    char err[ERR_LEN], name[3][PATH_MAX];
    outfile *fs[3];
    for (int k = 0; k < 3; k++) {
        fs[k] = outfile_open("screenshot", at("shot.png"), OUTFILE_NEW, err);
        CHECK(fs[k], "open %d: %s", k, err);
        outfile_printf(fs[k], "picture %d", k);
    }
    for (int k = 0; k < 3; k++) CHECK(outfile_commit_named(fs[k], name[k], sizeof name[k], err), "commit %d: %s", k, err);
    CHECK(!strcmp(get("shot.png"), "picture 0") && !strcmp(get("shot-2.png"), "picture 1") &&
              !strcmp(get("shot-3.png"), "picture 2"),
          "three writers of one name: '%s' '%s' '%s'", get("shot.png"), get("shot-2.png"), get("shot-3.png"));
    CHECK(!strcmp(name[2], at("shot-3.png")), "the third got '%s'", name[2]);
    CHECK(hidden_files() == 0, "%d hidden files left", hidden_files());
}

static void test_emergency(void) {
    put("s.csv", "old stats");
    pid_t pid = fork();
    if (pid == 0) {
        char err[ERR_LEN];
        outfile *s = outfile_open("--stats", at("s.csv"), OUTFILE_KEEP, err);
        outfile *d = outfile_open("--dump", at("d.csv"), 0, err);
        if (!s || !d) _exit(2);
        outfile_printf(s, "step,time\n1,0.1\n");
        outfile_flush(s);
        outfile_printf(s, "2,0."); /* half a row: reaches the file (below), is cut back */
        fflush(NULL);
        outfile_printf(d, "dump");
        outfile_flush(d);
        outfile_emergency();
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed");
    CHECK(!strcmp(get("s.csv"), "step,time\n1,0.1\n"), "--stats after the emergency: '%s'", get("s.csv"));
    CHECK(access(at("d.csv"), F_OK) != 0, "--dump was put in place by the emergency");
    CHECK(hidden_files() == 0, "%d hidden files left", hidden_files());
}

static void test_modes_identity(void) {
    char err[ERR_LEN];
    put("m.csv", "x");
    chmod(at("m.csv"), 06755);
    outfile *f = outfile_open("--stats", at("m.csv"), 0, err);
    outfile_printf(f, "y");
    CHECK(outfile_commit(f, err), "commit: %s", err);
    struct stat st;
    stat(at("m.csv"), &st);
    CHECK((st.st_mode & 07777) == 0755, "mode %04o, not 0755", (unsigned)(st.st_mode & 07777));
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
    if (chdir(dir) != 0) return;
    symlink("m.csv", "l.csv");
    const char *flags[] = {"--stats", "--dump"};
    const char *pairs[][2] = {{"m.csv", "./m.csv"}, {"l.csv", "m.csv"}, {"new.csv", "./new.csv"}, {"-", "/dev/stdout"}};
    for (int k = 0; k < 4; k++) {
        if (k == 3) { /* stdout as a file */
            if (!freopen(at("out.txt"), "w", stdout)) continue;
        }
        CHECK(!outfile_check_distinct(2, flags, pairs[k], err), "%s and %s passed as distinct", pairs[k][0], pairs[k][1]);
    }
    const char *nul[] = {"/dev/null", "/dev/null"}, *two[] = {"m.csv", "n.csv"};
    CHECK(outfile_check_distinct(2, flags, nul, err), "/dev/null twice: %s", err);
    CHECK(outfile_check_distinct(2, flags, two, err), "two files: %s", err);
    unlink("l.csv");
    unlink("out.txt");
    if (chdir(cwd) != 0) return;
    char shown[64];
    outfile_printable("a\nb\x1b[1m", shown, sizeof shown);
    CHECK(!strcmp(shown, "a\\nb\\x1b[1m"), "printable: %s", shown);
}

static void test_video_check(void) {
    char why[ERR_LEN], cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd,
             "ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=64x48:rate=60 -frames:v 20 -c:v libx264 "
             "-pix_fmt yuv420p -movflags +faststart -y %s 2>/dev/null",
             at("v.mp4"));
    if (system(cmd) != 0) {
        printf("SKIP (video_file_check): ffmpeg could not make an MP4\n");
        return;
    }
    CHECK(video_file_check(at("v.mp4"), why), "a real MP4 refused: %s", why);
    struct stat st;
    stat(at("v.mp4"), &st);
    CHECK(truncate(at("v.mp4"), st.st_size - 100) == 0, "truncate");
    CHECK(!video_file_check(at("v.mp4"), why), "an MP4 cut by 100 bytes passed");
    /* Boxes that tile the file but have no moov (the trailer never written). */
    const unsigned char no_moov[] = {0, 0, 0, 16, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm', 0, 0,
                                     2, 0, 0, 0,  0,   12,  'm', 'd', 'a', 't', 1,   2,   3, 4};
    FILE *f = fopen(at("n.mp4"), "wb");
    fwrite(no_moov, 1, sizeof no_moov, f);
    fclose(f);
    CHECK(!video_file_check(at("n.mp4"), why), "an MP4 without moov passed");
    CHECK(strstr(why, "moov"), "the reason does not name moov: %s", why);
}

static void test_pacing(void) {
    /* A model machine: a solver step of 2.5 ms of fluid costs 400 ms; the render 300 ms (it alone
     * is ten times the 33 ms budget). */
    app_pacing p = {0};
    double step = 0.0025, cost_ms_per_s = 400 / step, simulated = 0, sec = APP_PACING_FRAME;
    for (int frame = 0; frame < 45; frame++) {
        double advanced = sec <= step ? step : sec; /* the window runs one step when asked for less */
        simulated += advanced;
        sec = app_pacing_next(&p, &(app_pacing_in){.sim_ms = advanced * cost_ms_per_s,
                                                   .render_ms = 300,
                                                   .simulated = advanced,
                                                   .step_seconds = step,
                                                   .budget_ms = 1e3 / 30});
        CHECK(sec >= step, "frame %d asks %g s, less than a step", frame, sec);
    }
    CHECK(simulated >= 0.1, "45 slow frames simulated %.4f s", simulated);
    /* Frames get cheap (a smaller window): back to 1/60 s within 8 frames. */
    int frames = 0;
    for (; frames < 30 && sec < APP_PACING_FRAME; frames++)
        sec = app_pacing_next(
            &p,
            &(app_pacing_in){.sim_ms = sec * 10, .render_ms = 1, .simulated = sec, .step_seconds = step, .budget_ms = 1e3 / 30});
    CHECK(frames <= 8 && fabs(sec - APP_PACING_FRAME) < 1e-12, "recovered to %g s after %d frames", sec, frames);
    CHECK(fabs(p.slow - 1) < 1e-9, "slow %g at real time", p.slow);
    /* A GPU that just keeps up (7 ms of simulation a 1/60 s, 1 ms of render, a 1/120 s budget)
     * stays at real time: no slow motion where the frame fits. */
    app_pacing q = {0};
    for (int frame = 0; frame < 20; frame++)
        sec = app_pacing_next(
            &q, &(app_pacing_in){
                    .sim_ms = 7 * sec * 60, .render_ms = 1, .simulated = sec, .step_seconds = 0.002, .budget_ms = 1e3 / 120});
    CHECK(fabs(sec - APP_PACING_FRAME) < 1e-12, "a GPU that keeps up was slowed to %g s a frame", sec);
}

/* A printable copy cut short says so ("..." in place of the rest, whole escapes only); one that fits
 * is whole. Model: the expected strings, written out by hand. */
static void test_printable_cut(void) {
    char buf[16];
    CHECK(!strcmp(outfile_printable("abc\ndef", buf, sizeof buf), "abc\\ndef"), "fits: '%s'", buf);
    CHECK(!strcmp(outfile_printable("abcdefghijklmnop", buf, sizeof buf), "abcdefghijk..."), "cut: '%s'", buf);
    CHECK(!strcmp(outfile_printable("abcdefghij\x1b[31m", buf, sizeof buf), "abcdefghij..."), "cut at an escape: '%s'", buf);
}

int main(void) {
    test_printable_cut();
    snprintf(dir, sizeof dir, "/tmp/test_outfile.XXXXXX");
    if (!mkdtemp(dir)) return 1;
    test_transaction();
    test_new_names();
    test_emergency();
    test_modes_identity();
    test_video_check();
    test_pacing();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_done();
}
