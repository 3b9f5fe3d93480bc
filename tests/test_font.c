/* Fonts that are truncated or corrupt (issue 25, item 9: a damaged font crashed the program in
 * stbtt_InitFont). Every damaged copy of the HUD's font must either load and draw its glyphs, or
 * give one error naming the file and what to do: never a crash or a read out of bounds (the
 * sanitizer run builds this test with ASan). Invariant checks, over: the font cut at 80 lengths,
 * 160 copies with 1 to 8 bytes overwritten (seeded; half in the first 2 KB, where the tables' offsets
 * are), and two crafted ones: a composite glyph made of itself, and a table past the file's end.
 * The real font must load. Renders headless on GL 4.5; skips (77) without it. */
#include "check.h"
#include "core/util.h"
#include "render/font_check.h"
#include "render/hud.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *g_font;
static size_t g_len;
static int g_loaded, g_refused;

static uint32_t _u16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t _u32(const unsigned char *p) { return _u16(p) << 16 | _u16(p + 2); }

/* hud_make on bytes written to a file: a HUD that draws, or an error naming the file. */
static void _try(const unsigned char *bytes, size_t len, const char *what) {
    const char *path = check_path("damaged.ttf");
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
        CHECK(false, "cannot write %s", path);
        return;
    }
    char err[ERR_LEN] = "";
    hud *h = hud_make(&(hud_desc){.font = path}, err);
    if (h) {
        hud_begin(h, 64, 32);
        hud_text(h, 1, 1, HUD_RGBA(255, 255, 255, 255), "Az09 \xc2\xb5\xc3\xa9");
        hud_destroy(h);
        g_loaded++;
    } else {
        g_refused++;
        CHECK(strstr(err, "damaged.ttf") && !strchr(err, '\n') && strstr(err, "reinstall"),
              "%s: the error does not name the file and what to do in one line: %s", what, err);
    }
}

/* A copy of the font whose first composite glyph lists itself as its first component. */
static bool _self_composite(unsigned char *d, size_t len) {
    size_t loca = 0, glyf = 0, head = 0, maxp = 0;
    for (uint32_t t = 0; t < _u16(d + 4); t++) {
        const unsigned char *r = d + 12 + 16 * t;
        size_t *slot = !memcmp(r, "loca", 4)   ? &loca
                       : !memcmp(r, "glyf", 4) ? &glyf
                       : !memcmp(r, "head", 4) ? &head
                       : !memcmp(r, "maxp", 4) ? &maxp
                                               : NULL;
        if (slot) *slot = _u32(r + 8);
    }
    if (!loca || !glyf || !head || !maxp) return false;
    bool lng = _u16(d + head + 50) == 1;
    for (uint32_t g = 0; g < _u16(d + maxp + 4); g++) {
        size_t s = lng ? _u32(d + loca + 4 * g) : 2 * _u16(d + loca + 2 * g);
        if (glyf + s + 14 > len || (int16_t)_u16(d + glyf + s) >= 0) continue;
        d[glyf + s + 12] = (unsigned char)(g >> 8), d[glyf + s + 13] = (unsigned char)g; /* first component := g */
        return true;
    }
    return false;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    char err[ERR_LEN];
    g_font = (unsigned char *)file_read(data_path("assets", "fonts/DejaVuSansMono.ttf"), &g_len, err);
    CHECK(g_font != NULL, "the HUD's font: %s", err);
    if (!g_font) return check_done();
    CHECK(font_check(g_font, g_len, err), "the real font fails its check: %s", err);
    _try(g_font, g_len, "the real font");
    CHECK(g_loaded == 1, "the real font did not load");
    unsigned char *copy = malloc(g_len);
    for (int i = 0; i < 80; i++) { /* cut short: 0 bytes up to all but one */
        size_t cut = (size_t)((double)g_len * i / 80.0);
        _try(g_font, cut, "a truncated font");
    }
    uint32_t seed = 2025;
    for (int i = 0; i < 160; i++) {
        memcpy(copy, g_font, g_len);
        int bytes = 1 + (int)(check_rand(&seed) % 8);
        for (int b = 0; b < bytes; b++) {
            size_t at = (i % 2 ? check_rand(&seed) % 2048 : check_rand(&seed) % g_len);
            copy[at] = (unsigned char)check_rand(&seed);
        }
        _try(copy, g_len, "a corrupt font");
    }
    memcpy(copy, g_font, g_len);
    CHECK(_self_composite(copy, g_len), "no composite glyph found to make a cycle of");
    CHECK(!font_check(copy, g_len, err) && strstr(err, "itself"), "a composite glyph made of itself passed: %s", err);
    _try(copy, g_len, "a composite glyph made of itself");
    memcpy(copy, g_font, g_len);
    for (uint32_t t = 0; t < _u16(copy + 4); t++) /* the glyf table's offset far past the end */
        if (!memcmp(copy + 12 + 16 * t, "glyf", 4)) copy[12 + 16 * t + 8] = 0x7f;
    CHECK(!font_check(copy, g_len, err) && strstr(err, "past the end"), "a table past the end passed: %s", err);
    printf("%d damaged fonts loaded, %d refused with a one-line error\n", g_loaded - 1, g_refused);
    CHECK(g_refused > 40, "only %d of the damaged fonts were refused", g_refused);
    free(copy);
    free(g_font);
    gpu_destroy(gpu);
    return check_done();
}
