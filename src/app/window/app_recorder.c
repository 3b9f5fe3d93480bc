/* app_recorder: the video recorder and the names of the window's pictures (see app_recorder.h). */
#include "app/window/app_recorder.h"
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
    outfile_set_check(out, video_file_check); /* the MP4's trailer, read back at the commit */
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

outfile *app_recorder_finish(app_recorder *rec, char *err) {
    if (!rec->video) return NULL;
    outfile *out = rec->out;
    if (!video_close(rec->video, err)) {
        outfile_abort(out);
        out = NULL;
    }
    _app_recorder_free(rec);
    return out;
}

bool app_recorder_stop(app_recorder *rec, char *saved, size_t saved_len, char *err) {
    if (!rec->video) return true;
    outfile *out = app_recorder_finish(rec, err);
    return out && outfile_commit_named(out, saved, saved_len, err);
}

void app_recorder_abort(app_recorder *rec) {
    if (rec->video) video_abort(rec->video);
    outfile_abort(rec->out);
    _app_recorder_free(rec);
}
