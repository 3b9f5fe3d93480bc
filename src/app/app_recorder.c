/* app_recorder: the video recorder and the names of the window's pictures (see app_recorder.h). */
#include "app/app_recorder.h"
#include "core/util.h"
#include "render/image.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void app_picture_name(char *out, size_t len, const char *ext) {
    char base[1024];
    image_timestamp_name(base, sizeof base);
    char *dot = strrchr(base, '.');
    if (dot) snprintf(dot, sizeof base - (size_t)(dot - base), "%s", ext);
    snprintf(out, len, "%s", base);
    struct stat st;
    for (int k = 2; lstat(out, &st) == 0 && k < 1000; k++) {
        dot = strrchr(base, '.');
        snprintf(out, len, "%.*s-%d%s", (int)(dot - base), base, k, dot);
    }
}

bool app_recorder_start(app_recorder *rec, outfile *out, const char *path, int w, int h_px, int fps, char *err) {
    *rec = (app_recorder){.width = w, .height = h_px};
    if (!out) out = outfile_open("--video", path, 0, err);
    if (!out) return false;
    if (!render_target_make(&rec->target, w, h_px, "video", err)) {
        outfile_abort(out);
        return false;
    }
    rec->rgba = malloc((size_t)w * (size_t)h_px * 4);
    rec->video = rec->rgba ? video_open(outfile_write_path(out), path, w, h_px, fps, err) : NULL;
    if (!rec->video) {
        if (!rec->rgba) fail(err, "--video %s: out of host memory for %dx%d frames", path, w, h_px);
        render_target_destroy(&rec->target);
        free(rec->rgba);
        outfile_abort(out);
        *rec = (app_recorder){0};
        return false;
    }
    rec->out = out;
    return true;
}

bool app_recorder_frame(app_recorder *rec, renderer *r, hud *h, const sim *s, const gpu_prof *prof, const app_view *v,
                        char *err) {
    if (!rec->video) return true;
    app_render_frame(r, h, s, prof, v, &rec->target, rec->width, rec->height, NULL);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    size_t bytes = (size_t)rec->width * (size_t)rec->height * 4;
    glGetTextureImage(rec->target.color, 0, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)bytes, rec->rgba); /* bottom row first */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return video_frame(rec->video, rec->rgba, err);
}

static void _app_recorder_free(app_recorder *rec) {
    render_target_destroy(&rec->target);
    free(rec->rgba);
    *rec = (app_recorder){0};
}

bool app_recorder_stop(app_recorder *rec, char *err) {
    if (!rec->video) return true;
    bool ok = video_close(rec->video, err);
    if (ok) ok = outfile_commit(rec->out, err);
    else outfile_abort(rec->out);
    _app_recorder_free(rec);
    return ok;
}

void app_recorder_abort(app_recorder *rec) {
    if (rec->video) video_abort(rec->video);
    outfile_abort(rec->out);
    _app_recorder_free(rec);
}

