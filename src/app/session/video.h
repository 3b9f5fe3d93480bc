/* video: frames piped to ffmpeg, which encodes them as H.264 in an MP4 file.
 *
 *   if (!video_check("out.mp4", err)) ...    // before any work: ffmpeg is there, the path can be written
 *   outfile *f = outfile_open("--video", "out.mp4", 0, err);   // core/outfile.h: a temporary file
 *   video *v = video_open(outfile_write_path(f), "out.mp4", w, h, 60, err);
 *   each frame: video_frame(v, rgba, err);  // w*h*4 bytes, bottom row first (as GL reads them)
 *   video_close(v, err) ? outfile_commit(f, err) : outfile_abort(f);   // waits for ffmpeg
 *   (or video_abort(v) and outfile_abort(f): ffmpeg is stopped and nothing is left behind)
 *
 * ffmpeg writes the outfile's temporary file (made with mkstemp beside the target, so a planted
 * name cannot redirect it), which the caller commits when ffmpeg has finished well, so a failed
 * run leaves no file. An odd width or height is padded by one pixel (H.264's 4:2:0 needs even sizes).
 *
 * Errors (false/NULL with err, one line): ffmpeg not found on PATH, a path outfile_check refuses
 * (a missing folder, a folder, ...), a path that is not a regular file (a FIFO, a device: an MP4 is
 * finished by seeking back), ffmpeg that cannot start or stops early, no frames.
 * It does NOT render anything (app_render.c does), scale frames or write the file itself.
 */
#ifndef FLUID_VIDEO_H
#define FLUID_VIDEO_H
#include <stdbool.h>
#include <stdint.h>

typedef struct video video;

bool video_check(const char *path, char *err);
/* ffmpeg writing write_path; name is the path the user gave, for messages. */
video *video_open(const char *write_path, const char *name, int width, int height, int fps, char *err);
bool video_frame(video *v, const uint8_t *rgba_bottom_up, char *err);
bool video_close(video *v, char *err);
void video_abort(video *v);
int video_frame_count(const video *v);
const char *video_path(const video *v);
/* Reads the finished MP4 at path back: its top-level boxes tile the file and hold ftyp, moov and
 * mdat (ffmpeg can exit 0 without the trailer on a full disk). For outfile_set_check. */
bool video_file_check(const char *path, char *why);

#endif
