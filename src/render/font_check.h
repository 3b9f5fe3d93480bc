/* font_check: a TrueType file checked before stb_truetype reads it.
 *
 *   size_t padded;  unsigned char *ttf = ...;           // the file, FONT_CHECK_PAD zero bytes after it
 *   if (!font_check(ttf, len, err)) -> a one-line error naming what is wrong
 *
 * stb_truetype trusts its input: a truncated or corrupt font made it read past the buffer (a crash
 * in stbtt_InitFont). font_check verifies what stb reads by offset, in bounds of the file: the
 * table directory and the tables it needs (head, hhea, hmtx, maxp, loca, glyf, cmap), the loca
 * entries (in order, inside glyf), every cmap subtable's arrays (formats 4, 6, 12 and 13 sized by
 * their counts), and that every glyph's composite references are valid glyphs without a cycle (stb follows them by recursion). What stb then reads
 * from an in-bounds start is bounded by 16-bit counts and offsets; the caller keeps FONT_CHECK_PAD
 * zero bytes after the file so that such a read of a corrupt glyph lands in them, not past the
 * buffer. It does NOT check hinting, kerning or OpenType layout tables (the HUD uses none), nor
 * font collections (one font a file).
 */
#ifndef FLUID_RENDER_FONT_CHECK_H
#define FLUID_RENDER_FONT_CHECK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FONT_CHECK_PAD (1u << 20) /* > 65,536 points x 5 bytes of one glyph's outline */

bool font_check(const unsigned char *ttf, size_t len, char *err);

#endif
