/* render_common: the constants C shares with the render shaders, as #define text (see render_common.h). */
#include "render/render_common.h"
#include "render/render_types.h"
#include <stdio.h>
#include <stdlib.h>

const char *render_shader_defines(void) {
    static char text[8192];
    if (text[0]) return text;
    size_t n = 0;
#define RENDER_DEFINE_LINE(name) n += (size_t)snprintf(text + n, sizeof text - n, "#define " #name " %s\n", RENDER_STR(name));
    RENDER_SHADER_CONSTANTS(RENDER_DEFINE_LINE)
#undef RENDER_DEFINE_LINE
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "#define RENDER_COLOR_SPEED %d\n#define RENDER_COLOR_DENSITY %d\n#define RENDER_COLOR_CELL %d\n"
                          "#define RENDER_BACKDROP_SCENE %d\n#define RENDER_BACKDROP_PLAIN %d\n",
                          RENDER_COLOR_SPEED, RENDER_COLOR_DENSITY, RENDER_COLOR_CELL, RENDER_BACKDROP_SCENE,
                          RENDER_BACKDROP_PLAIN);
    if (n >= sizeof text) abort(); /* the table outgrew the buffer: a programmer's error */
    return text;
}
