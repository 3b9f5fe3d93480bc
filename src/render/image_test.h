/* image_test: test-only helpers of image.c (the tests' pixel counts); not for the app. */
#ifndef FLUID_IMAGE_TEST_H
#define FLUID_IMAGE_TEST_H
#include <stdbool.h>
#include <stdint.h>

/* Whether a pixel (RGBA8) is the plain backdrop's colour (RENDER_CLEAR_*, within 6 of 255). */
bool image_is_background(const uint8_t *px);
/* Pixels of [x0, x1) x [y0, y1) (clipped) that are not the backdrop's colour. */
int image_count_drawn(const uint8_t *rgba, int width, int height, int x0, int y0, int x1, int y1);

#endif
