#include "render/image.h"
#include "render/image_test.h"
#include "render/overlay.h"
#include "core/util.h"
#include "render/render_common.h"
#include <stb_image.h>
#include <stb_image_write.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct _image_buf {
    uint8_t *p;
    size_t len, cap;
} _image_buf;

static void _image_append(void *ctx, void *data, int size) {
    _image_buf *b = ctx;
    if (b->len + (size_t)size > b->cap) {
        b->cap = (b->len + (size_t)size) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, data, (size_t)size);
    b->len += (size_t)size;
}

uint8_t *image_encode_png(const uint8_t *rgba, int width, int height, size_t *len) {
    _image_buf b = {0};
    *len = 0;
    if (width <= 0 || height <= 0 || !stbi_write_png_to_func(_image_append, &b, width, height, 4, rgba, width * 4)) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

bool image_write_png(const char *path, const uint8_t *rgba, int width, int height, char *err) {
    if (width <= 0 || height <= 0) return fail(err, "cannot write %s: the image is %dx%d pixels", path, width, height);
    _image_buf b = {0};
    if (!stbi_write_png_to_func(_image_append, &b, width, height, 4, rgba, width * 4)) {
        free(b.p);
        return fail(err, "cannot encode %s as PNG (%dx%d)", path, width, height);
    }
    bool ok = file_write_atomic(path, b.p, b.len, err);
    free(b.p);
    return ok;
}

uint8_t *image_read_png(const char *path, int *width, int *height, char *err) {
    int n = 0;
    uint8_t *p = stbi_load(path, width, height, &n, 4);
    if (!p) fail(err, "cannot read image %s: %s", path, stbi_failure_reason());
    return p;
}

void image_timestamp_name(char *out, size_t len) {
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(out, len, "fluid-%Y%m%d-%H%M%S.png", &tm);
}

bool image_is_background(const uint8_t *px) {
    const int bg[3] = {(int)(RENDER_CLEAR_R * 255 + 0.5f), (int)(RENDER_CLEAR_G * 255 + 0.5f),
                       (int)(RENDER_CLEAR_B * 255 + 0.5f)};
    for (int c = 0; c < 3; c++)
        if (abs((int)px[c] - bg[c]) > 6) return false;
    return true;
}

int image_count_drawn(const uint8_t *rgba, int width, int height, int x0, int y0, int x1, int y1) {
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > width) x1 = width;
    if (y1 > height) y1 = height;
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) n += !image_is_background(rgba + 4 * ((size_t)y * (size_t)width + (size_t)x));
    return n;
}

static bool _image_in(const float r[4], int x, int y) {
    return (float)x >= r[0] && (float)x < r[2] && (float)y >= r[1] && (float)y < r[3];
}

/* Whether pixel i of rgba shows something drawn over the backdrop: it differs from the empty
 * view's pixel (or, without one, from the plain background). */
static bool _image_drawn(const uint8_t *rgba, const uint8_t *empty, size_t i) {
    const uint8_t *p = rgba + 4 * i;
    if (!empty) return !image_is_background(p);
    const uint8_t *e = empty + 4 * i;
    return abs(p[0] - e[0]) > 6 || abs(p[1] - e[1]) > 6 || abs(p[2] - e[2]) > 6;
}

bool render_image_check(const uint8_t *rgba, const uint8_t *empty, int w, int h, const overlay_layout *layout, char *why) {
    if (w < 64 || h < 64) return fail(why, "image of %dx%d pixels is too small to check (64x64 at least)", w, h);
    size_t total = (size_t)w * (size_t)h;
    int distinct = 0; /* pixels unlike the first: a blank (one colour) image has none */
    for (size_t i = 0; i < total; i++)
        distinct += abs(rgba[4 * i] - rgba[0]) + abs(rgba[4 * i + 1] - rgba[1]) + abs(rgba[4 * i + 2] - rgba[2]) > 12;
    if ((double)distinct < 0.01 * (double)total)
        return fail(why, "image is blank: only %d of %zu pixels differ from its first pixel", distinct, total);
    if (!empty) {
        int drawn = image_count_drawn(rgba, w, h, 0, 0, w, h);
        if ((double)drawn > 0.995 * (double)total)
            return fail(why, "image has no background left (%d of %zu pixels drawn): not the fluid view", drawn, total);
    }
    /* The stats panel: bright glyph pixels on a dark panel. */
    const float *st = layout->rect[OVERLAY_STATS];
    int bright = 0, dark = 0;
    for (int y = (int)st[1]; y < (int)st[3] && y < h; y++)
        for (int x = (int)st[0]; x < (int)st[2] && x < w; x++) {
            const uint8_t *p = rgba + 4 * ((size_t)y * (size_t)w + (size_t)x);
            int lum = (p[0] * 3 + p[1] * 6 + p[2]) / 10;
            bright += lum > 150;
            dark += lum < 40 && _image_drawn(rgba, empty, (size_t)y * (size_t)w + (size_t)x); /* the panel darkens the backdrop */
        }
    if (bright < 150 || dark < 1000)
        return fail(why, "no HUD text in the stats panel (%d bright glyph pixels, %d dark panel pixels)", bright, dark);
    /* Outside the panels: particles, not only the tank's lines (a few pixels wide). */
    size_t free_px = 0, scene = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            bool in_hud = false;
            for (int k = 0; k < OVERLAY_PANELS && !in_hud; k++) in_hud = _image_in(layout->rect[k], x, y);
            if (in_hud) continue;
            free_px++;
            scene += _image_drawn(rgba, empty, (size_t)y * (size_t)w + (size_t)x);
        }
    double share = free_px ? (double)scene / (double)free_px : 0;
    if (share < 0.02)
        return fail(why, "no particles drawn: %.2f%% of the pixels outside the HUD differ from the empty view (2%% needed)",
                    100 * share);
    return true;
}
