/* video: frames piped to ffmpeg, which encodes them as H.264 in an MP4 file.
 *
 *   if (!video_check("out.mp4", err)) ...    // before any work: ffmpeg is there, the folder takes files
 *   video *v = video_open("out.mp4", w, h, 60, err);
 *   each frame: video_frame(v, rgba, err);  // w*h*4 bytes, bottom row first (as GL reads them)
 *   video_close(v, err);                    // waits for ffmpeg; only now does out.mp4 appear
 *   (or video_abort(v): ffmpeg is stopped and nothing is left behind)
 *
 * ffmpeg writes a temporary file beside the target (made with mkstemp, so a planted name cannot
 * redirect it), renamed over the target when ffmpeg has finished well; on any failure it is
 * removed, so a failed run leaves no file. An odd width or height is padded by one pixel (H.264's
 * 4:2:0 needs even sizes).
 *
 * Errors (false/NULL with err, one line): ffmpeg not found on PATH, a folder that does not exist or
 * takes no files, a target that is a folder, ffmpeg that cannot start or stops early.
 * It does NOT render anything (app_render.c does) or scale frames.
 */
#ifndef FLUID_VIDEO_H
#define FLUID_VIDEO_H
#include <stdbool.h>
#include <stdint.h>

typedef struct video video;

bool video_check(const char *path, char *err);
video *video_open(const char *path, int width, int height, int fps, char *err);
bool video_frame(video *v, const uint8_t *rgba_bottom_up, char *err);
bool video_close(video *v, char *err);
void video_abort(video *v);
int video_frame_count(const video *v);
const char *video_path(const video *v);

#endif
