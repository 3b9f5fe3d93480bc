/* image: screenshots as PNG files, and a check that a rendered frame shows what it should.
 *
 *   image_write_png("shot.png", rgba, w, h, err);   // atomically: PATH.tmp, then renamed
 *   uint8_t *px = image_read_png("shot.png", &w, &h, err);  free(px);
 *   if (!render_image_check(rgba, empty, w, h, &layout, why)) ...  // why: one line saying what is missing
 *   image_timestamp_name(buf, sizeof buf);          // "fluid-20240131-235959.png"
 *
 * render_image_check is given where the overlay's panels went (overlay_layout, from the
 * overlay_draw that drew the image) and the same view drawn without particles and HUD (`empty`;
 * NULL: the plain backdrop's colour, render_common.h): it checks that the image is not blank, that
 * the stats panel holds text (bright glyph pixels on its dark panel), and that outside the HUD's
 * panels enough pixels differ from the empty view for particles (the tank's outline alone is far
 * fewer). It does NOT compare with a reference image.
 * Errors: the PNG functions return false/NULL with err.
 */
#ifndef FLUID_IMAGE_H
#define FLUID_IMAGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct overlay_layout overlay_layout; /* render/overlay.h: where the HUD's panels went */

bool image_write_png(const char *path, const uint8_t *rgba, int width, int height, char *err);
/* The PNG file's bytes in memory (malloc'd), or NULL: for a writer of its own (core/outfile.h). */
uint8_t *image_encode_png(const uint8_t *rgba, int width, int height, size_t *len);
uint8_t *image_read_png(const char *path, int *width, int *height, char *err);
void image_timestamp_name(char *out, size_t len);
bool render_image_check(const uint8_t *rgba, const uint8_t *empty, int width, int height, const overlay_layout *layout,
                        char *why);

#endif
