/* shader: GLSL programs loaded from the data folder's shaders/, with #include and defines.
 *
 *   GLuint p = shader_make_compute("sort/radix_count.comp", "#define WG 256\n", err);
 *   GLuint r = shader_make_graphics("render/hud.vert", "render/hud.frag", NULL, err);
 *   ...
 *   shader_destroy(&p);
 *
 * `#include "name"` inside a shader is resolved against shaders/ (recursively, up to 8 deep and 16
 * files a program; an #include line becomes a blank line, no #line is emitted); `defines` is text
 * inserted right after the #version line. The loader keeps its own map from every line of the
 * expanded text to (file, line), because drivers disagree on #line source numbers. On a compile or
 * link error the result is 0 and err holds the first error as "shaders/FILE:LINE: message"; the
 * whole driver log is printed to stderr, each line mapped back to the file and line it came from.
 *
 * Programs are cached per context, keyed by the expanded text (file, defines and every included
 * file's content): a second make of the same text returns the same program with one more reference,
 * and shader_destroy drops one (gpu_live_objects counts makes minus destroys). A program with no
 * reference left stays linked for the next make until its context goes (the objects go with it;
 * the first make in a new context, gpu_serial, empties the cache), so a process that remakes a
 * sorter or a sim per case compiles each program once. Callers must set a program's
 * uniforms before each dispatch or draw (another holder may have changed them).
 */
#ifndef FLUID_SHADER_H
#define FLUID_SHADER_H
#include <epoxy/gl.h>

GLuint shader_make_compute(const char *path, const char *defines, char *err);
GLuint shader_make_graphics(const char *vert_path, const char *frag_path, const char *defines, char *err);
void shader_destroy(GLuint *program); /* sets *program to 0; 0 is ignored */

#endif
