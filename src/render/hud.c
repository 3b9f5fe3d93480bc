#include "render/hud.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "render/font_check.h"
#include "render/render_common.h"
#include <math.h>
#include <stb_truetype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HUD_ATLAS 512
#define HUD_FIRST_A 32 /* ASCII 32..126 */
#define HUD_COUNT_A 95
#define HUD_FIRST_B 160 /* Latin-1 160..255 */
#define HUD_COUNT_B 96
#define HUD_SYSTEM_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

struct hud {
    GLuint program, atlas, vao, buffer;
    size_t buffer_quads; /* capacity of buffer */
    stbtt_packedchar chars[HUD_COUNT_A + HUD_COUNT_B];
    float ascent, line_height; /* of the atlas, in its pixels */
    float scale;               /* hud_set_scale: text and metrics are drawn this much larger */
    hud_quad *quads;
    int count, cap;
    int width, height;
};

static bool _hud_atlas(hud *h, const char *path_in, float px, char *err) {
    const char *path = path_in ? path_in : data_path("assets", "fonts/DejaVuSansMono.ttf");
    char ferr[ERR_LEN];
    size_t len = 0;
    unsigned char *ttf = (unsigned char *)file_read(path, &len, ferr);
    if (!ttf && !path_in) ttf = (unsigned char *)file_read(path = HUD_SYSTEM_FONT, &len, NULL);
    if (!ttf) return fail(err, "HUD: no font: %s; reinstall assets/ (or Debian's fonts-dejavu-core)", ferr);
    /* checked before stb reads it, with zeros after it (font_check.h says why) */
    unsigned char *padded = realloc(ttf, len + FONT_CHECK_PAD);
    if (!padded) {
        free(ttf);
        return fail(err, "HUD: out of host memory for the font %s", path);
    }
    ttf = padded;
    memset(ttf + len, 0, FONT_CHECK_PAD);
    char cerr[ERR_LEN] = "stb_truetype refused it";
    stbtt_fontinfo info;
    if (!font_check(ttf, len, cerr) || !stbtt_InitFont(&info, ttf, stbtt_GetFontOffsetForIndex(ttf, 0))) {
        free(ttf);
        return fail(err, "HUD: the font %s is damaged (%s); reinstall assets/fonts/ (or pass --data DIR)", path, cerr);
    }
    int asc, desc, gap;
    stbtt_GetFontVMetrics(&info, &asc, &desc, &gap);
    float scale = stbtt_ScaleForPixelHeight(&info, px);
    h->ascent = roundf((float)asc * scale);
    h->line_height = roundf((float)(asc - desc + gap) * scale) + 1;
    unsigned char *pixels = calloc(HUD_ATLAS, HUD_ATLAS);
    stbtt_pack_context pc;
    stbtt_pack_range ranges[2] = {
        {.font_size = px,
         .first_unicode_codepoint_in_range = HUD_FIRST_A,
         .num_chars = HUD_COUNT_A,
         .chardata_for_range = h->chars},
        {.font_size = px,
         .first_unicode_codepoint_in_range = HUD_FIRST_B,
         .num_chars = HUD_COUNT_B,
         .chardata_for_range = h->chars + HUD_COUNT_A},
    };
    bool ok = stbtt_PackBegin(&pc, pixels, HUD_ATLAS, HUD_ATLAS, 0, 1, NULL);
    if (ok) {
        stbtt_PackSetOversampling(&pc, 1, 1);
        ok = stbtt_PackFontRanges(&pc, ttf, 0, ranges, 2);
        stbtt_PackEnd(&pc);
    }
    free(ttf);
    if (!ok) {
        free(pixels);
        return fail(err, "HUD: the font at %.0f px does not fit a %d px atlas; use a smaller size", px, HUD_ATLAS);
    }
    glCreateTextures(GL_TEXTURE_2D, 1, &h->atlas);
    glTextureStorage2D(h->atlas, 1, GL_R8, HUD_ATLAS, HUD_ATLAS);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(h->atlas, 0, 0, 0, HUD_ATLAS, HUD_ATLAS, GL_RED, GL_UNSIGNED_BYTE, pixels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTextureParameteri(h->atlas, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(h->atlas, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glObjectLabel(GL_TEXTURE, h->atlas, -1, "hud-font-atlas");
    gpu_count_object(1);
    free(pixels);
    return true;
}

hud *hud_make(const hud_desc *desc, char *err) {
    hud *h = calloc(1, sizeof *h);
    float px = desc && desc->pixel_height > 0 ? desc->pixel_height : 15.0f;
    if (!_hud_atlas(h, desc ? desc->font : NULL, px, err)) {
        free(h);
        return NULL;
    }
    h->program = shader_make_graphics("render/hud.vert", "render/hud.frag", render_shader_defines(), err);
    if (!h->program) {
        hud_destroy(h);
        return NULL;
    }
    h->vao = gpu_vao_make("hud-empty-vao");
    h->scale = 1;
    return h;
}

void hud_destroy(hud *h) {
    if (!h) return;
    shader_destroy(&h->program);
    gpu_buffer_destroy(&h->buffer);
    if (h->atlas) {
        glDeleteTextures(1, &h->atlas);
        gpu_count_object(-1);
    }
    gpu_vao_destroy(&h->vao);
    free(h->quads);
    free(h);
}

void hud_begin(hud *h, int width, int height) {
    h->count = 0;
    h->width = width;
    h->height = height;
}

static hud_quad *_hud_push(hud *h) {
    if (h->count == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 1024;
        h->quads = realloc(h->quads, sizeof *h->quads * (size_t)h->cap);
    }
    hud_quad *q = &h->quads[h->count++];
    memset(q, 0, sizeof *q);
    return q;
}

void hud_rect(hud *h, float x0, float y0, float x1, float y1, uint32_t rgba) {
    hud_quad *q = _hud_push(h);
    *q = (hud_quad){.rect = {x0, y0, x1, y1}, .color = rgba, .kind = HUD_KIND_SOLID};
}

void hud_colormap(hud *h, float x0, float y0, float x1, float y1, int color) {
    hud_quad *q = _hud_push(h);
    *q = (hud_quad){.rect = {x0, y0, x1, y1},
                    .uv = {0, 0, 1, 1},
                    .color = HUD_RGBA(255, 255, 255, 255),
                    .kind = HUD_KIND_COLORMAP + (uint32_t)color};
}

/* Next code point of a UTF-8 string (invalid bytes read as '?'). */
static uint32_t _hud_utf8(const char **s) {
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = p[0];
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) {
        *s += 1;
        return '?';
    }
    if (n) c &= 0x3Fu >> n;
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *s += i;
            return '?';
        }
        c = c << 6 | (p[i] & 0x3F);
    }
    *s += n + 1;
    return c;
}

static int _hud_glyph(uint32_t c) {
    if (c >= HUD_FIRST_A && c < HUD_FIRST_A + HUD_COUNT_A) return (int)(c - HUD_FIRST_A);
    if (c >= HUD_FIRST_B && c < HUD_FIRST_B + HUD_COUNT_B) return HUD_COUNT_A + (int)(c - HUD_FIRST_B);
    return '?' - HUD_FIRST_A;
}

float hud_text(hud *h, float x, float y, uint32_t rgba, const char *s) {
    /* Laid out in the atlas's pixels from (0, ascent), then scaled about (x, y). */
    float px = 0, py = h->ascent, sc = h->scale, ox = roundf(x), oy = roundf(y);
    while (*s) {
        uint32_t c = _hud_utf8(&s);
        if (c == '\n') continue;
        stbtt_aligned_quad aq;
        stbtt_GetPackedQuad(h->chars, HUD_ATLAS, HUD_ATLAS, _hud_glyph(c), &px, &py, &aq, 1);
        if (c == ' ') continue;
        hud_quad *q = _hud_push(h);
        *q = (hud_quad){.rect = {ox + aq.x0 * sc, oy + aq.y0 * sc, ox + aq.x1 * sc, oy + aq.y1 * sc},
                        .uv = {aq.s0, aq.t0, aq.s1, aq.t1},
                        .color = rgba,
                        .kind = HUD_KIND_GLYPH};
    }
    return ox + px * sc;
}

float hud_text_width(const hud *h, const char *s) {
    float w = 0;
    while (*s) w += h->chars[_hud_glyph(_hud_utf8(&s))].xadvance;
    return w * h->scale;
}

float hud_line_height(const hud *h) { return h->line_height * h->scale; }

void hud_set_scale(hud *h, float scale) { h->scale = scale > 0 ? scale : 1; }
float hud_scale(const hud *h) { return h->scale; }
int hud_quad_count(const hud *h) { return h->count; }

static void _hud_draw(hud *h, GLuint framebuffer);
void hud_draw(hud *h, GLuint framebuffer) {
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "hud"); /* a capture's render pass, by name */
    _hud_draw(h, framebuffer);
    glPopDebugGroup();
}

static void _hud_draw(hud *h, GLuint framebuffer) {
    if (!h->count || h->width <= 0 || h->height <= 0) return;
    size_t bytes = sizeof(hud_quad) * (size_t)h->count;
    if ((size_t)h->count > h->buffer_quads) {
        gpu_buffer_destroy(&h->buffer);
        size_t cap = (size_t)h->cap;
        h->buffer = gpu_buffer_make(sizeof(hud_quad) * cap, NULL, "hud-quads", NULL);
        if (!h->buffer) {
            log_error("HUD", "no GPU memory for %zu HUD quads; the HUD is not drawn", cap);
            h->buffer_quads = 0;
            return;
        }
        h->buffer_quads = cap;
    }
    /* Orphan, then fill: the driver hands a fresh block while last frame's draw still reads. */
    glInvalidateBufferData(h->buffer);
    glNamedBufferSubData(h->buffer, 0, (GLsizeiptr)bytes, h->quads);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, h->width, h->height);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(h->program);
    glBindVertexArray(h->vao);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, RENDER_BIND_HUD_QUADS, h->buffer);
    glBindTextureUnit(RENDER_UNIT_ATLAS, h->atlas);
    glUniform2f(RENDER_LOC_SIZE, (float)h->width, (float)h->height);
    glDrawArrays(GL_TRIANGLES, 0, 6 * h->count);
    glDisable(GL_BLEND);
    glBindTextureUnit(RENDER_UNIT_ATLAS, 0);
    glBindVertexArray(0);
    glUseProgram(0);
}
