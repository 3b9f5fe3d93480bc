/* The render style registry (src/render/render_style.h) against itself and the renderer, on a
 * headless context: every style has a unique --style key and a name, draws a block of particles
 * into an offscreen target (hundreds of pixels differ from the same view drawn without particles), and reports its passes by name in the
 * order it runs them (render_pass_times): the surface's five then the blit, the spheres' two then
 * the blit, the raster's one. The names are checked; the times are not (llvmpipe's timer queries
 * read 0). An independent check of the interface's contract, not of the shading. */
#include "check.h"
#include "render/camera.h"
#include "render/render.h"
#include "render/render_common.h"
#include "render/render_style.h"
#include <string.h>

#define W 160
#define H 120
#define N 512

static bool _background(const uint8_t *px) {
    const int bg[3] = {(int)(RENDER_CLEAR_R * 255 + 0.5f), (int)(RENDER_CLEAR_G * 255 + 0.5f),
                       (int)(RENDER_CLEAR_B * 255 + 0.5f)};
    for (int c = 0; c < 3; c++)
        if (abs((int)px[c] - bg[c]) > 6) return false;
    return true;
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    char err[ERR_LEN];
    /* The registry: unique keys, names, one entry per render_style. */
    for (int k = 0; k < RENDER_STYLE_COUNT; k++) {
        CHECK(render_styles[k] && render_styles[k]->key && render_styles[k]->name && render_styles[k]->make &&
                  render_styles[k]->draw,
              "render_styles[%d] is incomplete", k);
        for (int j = 0; j < k; j++)
            CHECK(strcmp(render_styles[j]->key, render_styles[k]->key), "styles %d and %d share a key", j, k);
    }
    /* A block of 8x8x8 particles in the middle of a unit tank. */
    float pos[4 * N];
    for (int i = 0; i < N; i++) {
        pos[4 * i] = 0.4f + 0.025f * (float)(i % 8), pos[4 * i + 1] = 0.1f + 0.025f * (float)(i / 8 % 8);
        pos[4 * i + 2] = 0.4f + 0.025f * (float)(i / 64), pos[4 * i + 3] = 0;
    }
    GLuint buf = gpu_buffer_make(sizeof pos, pos, "test-positions", err);
    render_particles p = {.positions = buf, .count = N, .radius = 0.0125f, .lo = {0, 0, 0}, .hi = {1, 1, 1}};
    int live0 = gpu_live_objects();
    renderer *r = render_make(err);
    CHECK(r, "render_make: %s", err);
    render_target t;
    CHECK(render_target_make(&t, W, H, "test-styles", err), "%s", err);
    if (!r || !t.fbo) return check_done();
    camera cam;
    camera_fit(&cam, p.lo, p.hi);
    static const char *const want[RENDER_STYLE_COUNT][8] = {
        [RENDER_STYLE_SURFACE] = {"shadow", "visibility", "spray", "smoothing", "diffuse", "shading", "blit"},
        [RENDER_STYLE_SPHERES] = {"visibility", "shading", "blit"},
        [RENDER_STYLE_RASTER] = {"raster"},
        [RENDER_STYLE_SURFACE_ISO] = {"shadow", "visibility", "spray", "smoothing", "diffuse", "shading", "blit"},
    };
    static uint8_t rgba[W * H * 4], empty[W * H * 4];
    for (int k = 0; k < RENDER_STYLE_COUNT; k++) {
        render_view v = {.framebuffer = t.fbo,
                         .color_texture = t.color,
                         .width = W,
                         .height = H,
                         .style = (render_style)k,
                         .backdrop = RENDER_BACKDROP_PLAIN,
                         .color = RENDER_COLOR_SPEED};
        camera_matrices(&cam, W, H, v.view, v.proj);
        render_time_passes(r, true);
        render_scene(r, &p, &v);
        const char *names[RENDER_PASSES_MAX];
        double us[RENDER_PASSES_MAX];
        int n = render_pass_times(r, names, us, RENDER_PASSES_MAX), m = 0;
        while (m < 8 && want[k][m]) m++;
        CHECK(n == m, "style %s ran %d passes, expected %d", render_styles[k]->key, n, m);
        for (int i = 0; i < n && i < m; i++)
            CHECK(strcmp(names[i], want[k][i]) == 0, "style %s: pass %d is %s, expected %s", render_styles[k]->key, i, names[i],
                  want[k][i]);
        render_time_passes(r, false);
        render_target_read(&t, rgba);
        render_particles none = p;
        none.count = 0;
        render_scene(r, &none, &v);
        render_target_read(&t, empty);
        int drawn = 0, ink = 0;
        for (int i = 0; i < W * H; i++) {
            drawn += memcmp(rgba + 4 * i, empty + 4 * i, 3) != 0;
            ink += !_background(rgba + 4 * i);
        }
        CHECK(drawn > 200, "style %s: %d pixels differ from the same view without particles", render_styles[k]->key, drawn);
        CHECK(ink >= drawn / 2, "style %s: of %d pixels drawn, %d differ from the plain backdrop", render_styles[k]->key, drawn,
              ink);
    }
    /* The raster spheres in the same lit scene as the compute spheres: with the scene backdrop and
     * no particles the two pictures are the same (the floor and sky, not the plain colour). */
    {
        static uint8_t a[W * H * 4], b[W * H * 4];
        render_particles none = p;
        none.count = 0;
        render_view v = {.framebuffer = t.fbo, .color_texture = t.color, .width = W, .height = H};
        camera_matrices(&cam, W, H, v.view, v.proj);
        v.style = RENDER_STYLE_SPHERES;
        render_scene(r, &none, &v);
        render_target_read(&t, a);
        v.style = RENDER_STYLE_RASTER;
        render_scene(r, &none, &v);
        render_target_read(&t, b);
        int differ = 0, plain = 0;
        for (int i = 0; i < W * H; i++) differ += memcmp(a + 4 * i, b + 4 * i, 3) != 0, plain += _background(b + 4 * i);
        CHECK(differ < W * H / 100 && plain < W * H / 10,
              "raster on the scene backdrop: %d pixels differ from the compute style's (the tank lines may), %d plain", differ,
              plain);
    }
    render_target_destroy(&t);
    render_destroy(r);
    CHECK(gpu_live_objects() == live0, "%d GL objects alive after render_destroy, %d before render_make", gpu_live_objects(),
          live0);
    gpu_buffer_destroy(&buf);
    gpu_destroy(gpu);
    return check_done();
}
