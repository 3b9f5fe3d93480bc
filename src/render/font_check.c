#include "render/font_check.h"
#include "core/err.h"
#include <string.h>

typedef struct _fc_font {
    const unsigned char *d;
    size_t len;
    size_t cmap, cmap_len, loca, loca_len, glyf, glyf_len;
    uint32_t glyphs;
    int loca_long;
} _fc_font;

static uint32_t _fc_u16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t _fc_u32(const unsigned char *p) { return _fc_u16(p) << 16 | _fc_u16(p + 2); }

/* The table tag's (offset, length), in bounds of the file; false if absent or out of bounds. */
static bool _fc_table(const _fc_font *f, const char *tag, size_t *off, size_t *len) {
    uint32_t tables = _fc_u16(f->d + 4);
    for (uint32_t t = 0; t < tables; t++) {
        const unsigned char *r = f->d + 12 + 16 * (size_t)t;
        if (memcmp(r, tag, 4) != 0) continue;
        uint64_t o = _fc_u32(r + 8), l = _fc_u32(r + 12);
        if (o + l > f->len) return false;
        *off = (size_t)o, *len = (size_t)l;
        return true;
    }
    return false;
}

/* Glyph g's byte range in glyf (empty glyphs have start == end). */
static void _fc_glyph(const _fc_font *f, uint32_t g, size_t *start, size_t *end) {
    const unsigned char *l = f->d + f->loca;
    *start = f->loca_long ? _fc_u32(l + 4 * g) : 2 * _fc_u16(l + 2 * g);
    *end = f->loca_long ? _fc_u32(l + 4 * g + 4) : 2 * _fc_u16(l + 2 * g + 2);
}

/* Glyph g and the glyphs it is made of: valid, and no glyph inside itself (depth bounds the walk). */
static bool _fc_composite(const _fc_font *f, uint32_t g, int depth, int *budget, char *err) {
    if (--*budget < 0) return fail(err, "its composite glyphs nest past any real font's");
    if (g >= f->glyphs) return fail(err, "a glyph index (%u) past the font's %u glyphs", g, f->glyphs);
    if (depth > 8) return fail(err, "glyph %u is made of itself (a cycle of composite glyphs)", g);
    size_t start, end;
    _fc_glyph(f, g, &start, &end);
    if (end - start < 10) return true; /* empty */
    const unsigned char *p = f->d + f->glyf + start, *stop = f->d + f->glyf + end;
    if ((int16_t)_fc_u16(p) >= 0) return true; /* a simple glyph */
    p += 10;
    for (;;) {
        if (p + 4 > stop) return fail(err, "composite glyph %u runs past its end", g);
        uint32_t flags = _fc_u16(p), part = _fc_u16(p + 2);
        if (!_fc_composite(f, part, depth + 1, budget, err)) return false;
        p += 4 + (flags & 1 ? 4 : 2) + (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
        if (!(flags & 0x20)) return true; /* no more components */
    }
}

bool font_check(const unsigned char *ttf, size_t len, char *err) {
    _fc_font f = {.d = ttf, .len = len};
    if (len < 12) return fail(err, "%zu bytes, too short for a font", len);
    uint32_t version = _fc_u32(ttf);
    if (version != 0x00010000u && memcmp(ttf, "true", 4) != 0) return fail(err, "not a TrueType font (its header)");
    uint32_t tables = _fc_u16(ttf + 4);
    if (12 + 16 * (size_t)tables > len) return fail(err, "cut short: its table directory needs %u tables", tables);
    size_t off, n, head, head_len, hhea, hhea_len, hmtx, hmtx_len;
    static const char *const need[] = {"head", "hhea", "hmtx", "maxp", "loca", "glyf", "cmap"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!_fc_table(&f, need[i], &off, &n)) return fail(err, "its '%s' table is missing or past the end of the file", need[i]);
    _fc_table(&f, "head", &head, &head_len);
    _fc_table(&f, "hhea", &hhea, &hhea_len);
    _fc_table(&f, "hmtx", &hmtx, &hmtx_len);
    _fc_table(&f, "maxp", &off, &n);
    if (n < 6 || head_len < 54 || hhea_len < 36) return fail(err, "its head, hhea or maxp table is too short");
    f.glyphs = _fc_u16(ttf + off + 4);
    f.loca_long = (int)_fc_u16(ttf + head + 50);
    if (f.loca_long > 1) return fail(err, "its loca format (%d) is neither 0 nor 1", f.loca_long);
    _fc_table(&f, "loca", &f.loca, &f.loca_len);
    _fc_table(&f, "glyf", &f.glyf, &f.glyf_len);
    _fc_table(&f, "cmap", &f.cmap, &f.cmap_len);
    if (f.loca_len < ((size_t)f.glyphs + 1) * (f.loca_long ? 4 : 2))
        return fail(err, "its loca table is shorter than its glyphs");
    for (uint32_t g = 0; g < f.glyphs; g++) {
        size_t s, e;
        _fc_glyph(&f, g, &s, &e);
        if (s > e || e > f.glyf_len) return fail(err, "glyph %u lies outside its glyf table", g);
    }
    uint32_t metrics = _fc_u16(ttf + hhea + 34);
    if (metrics == 0 || metrics > f.glyphs || 4 * (size_t)metrics + 2 * (size_t)(f.glyphs - metrics) > hmtx_len)
        return fail(err, "its hmtx table is shorter than its metrics");
    /* cmap: every subtable sized by its own counts, inside the table */
    if (f.cmap_len < 4) return fail(err, "its cmap table is too short");
    uint32_t subs = _fc_u16(ttf + f.cmap + 2);
    if (4 + 8 * (size_t)subs > f.cmap_len) return fail(err, "its cmap table is cut short");
    for (uint32_t i = 0; i < subs; i++) {
        const unsigned char *r = ttf + f.cmap + 4 + 8 * (size_t)i;
        size_t at = _fc_u32(r + 4), room = at < f.cmap_len ? f.cmap_len - at : 0;
        if (room < 8) return fail(err, "a cmap subtable lies outside its table");
        const unsigned char *s = ttf + f.cmap + at;
        uint32_t format = _fc_u16(s);
        size_t need_bytes = format == 0                    ? 262
                            : format == 4                  ? 16 + 8 * (size_t)(_fc_u16(s + 6) / 2)
                            : format == 6                  ? 10 + 2 * (size_t)_fc_u16(s + 8)
                            : format == 12 || format == 13 ? (room >= 16 ? 16 + 12 * (size_t)_fc_u32(s + 12) : 16)
                                                           : 0;
        if (need_bytes > room) return fail(err, "a cmap subtable (format %u) runs past its table", format);
    }
    for (uint32_t g = 0; g < f.glyphs; g++) {
        int budget = 4096; /* glyphs visited from one */
        if (!_fc_composite(&f, g, 0, &budget, err)) return false;
    }
    return true;
}
