/* hud: 2D overlay drawing in pixels (y down): text from a TrueType font atlas, solid rectangles
 * and colour-map bars, batched into ONE draw per frame.
 *
 *   hud *h = hud_make(&(hud_desc){ .pixel_height = 15 }, err);
 *   each frame:  hud_begin(h, width, height);
 *                hud_rect(h, x0, y0, x1, y1, HUD_RGBA(0, 0, 0, 160));
 *                hud_text(h, x, y, HUD_RGBA(230, 230, 230, 255), "27,648 particles");  // y: top of the line
 *                hud_draw(h, framebuffer);  // blends over what is there
 *   hud_destroy(h);
 *
 * Text is UTF-8; the atlas holds ASCII and Latin-1 (µ, ², ³, ·, ...); other characters show as '?'.
 * The font is assets/fonts/DejaVuSansMono.ttf in the data folder, else the system's DejaVu Sans
 * Mono. Errors: hud_make returns NULL with err when neither font can be read or a shader fails.
 * It does NOT lay out paragraphs or wrap lines.
 */
#ifndef FLUID_HUD_H
#define FLUID_HUD_H
#include "gpu/gpu.h"
#include <stdbool.h>
#include <stdint.h>

#define HUD_RGBA(r, g, b, a) ((uint32_t)(r) | (uint32_t)(g) << 8 | (uint32_t)(b) << 16 | (uint32_t)(a) << 24)

typedef struct hud_desc {
    float pixel_height; /* font size in pixels (default 15) */
    const char *font;   /* a .ttf path (default: see above) */
} hud_desc;

typedef struct hud hud;
hud *hud_make(const hud_desc *desc, char *err);
void hud_destroy(hud *h);
void hud_begin(hud *h, int width, int height);
void hud_rect(hud *h, float x0, float y0, float x1, float y1, uint32_t rgba);
/* A bar of the particle colour map of mode `color` (render_color), left = 0, right = 1. */
void hud_colormap(hud *h, float x0, float y0, float x1, float y1, int color);
/* Draws text with its line's top at y; returns the x where it ends. */
float hud_text(hud *h, float x, float y, uint32_t rgba, const char *utf8);
float hud_text_width(const hud *h, const char *utf8);
float hud_line_height(const hud *h);
/* Text drawn `scale` times the font's size (1: as made); hud_text_width and hud_line_height
 * follow it. The overlay sets it from the window's size, so the HUD scales with the window. */
void hud_set_scale(hud *h, float scale);
float hud_scale(const hud *h);
int hud_quad_count(const hud *h); /* quads batched since hud_begin */
void hud_draw(hud *h, GLuint framebuffer);

#endif
