/* render_passes: named pass timers (see render_passes.h). */
#include "render/render_passes.h"

void render_passes_on(render_passes *t, bool on) {
    if (on && !t->marks[0]) glGenQueries(RENDER_PASSES_MAX + 1, t->marks);
    t->on = on;
    t->count = 0;
}

void render_passes_destroy(render_passes *t) {
    if (t->marks[0]) glDeleteQueries(RENDER_PASSES_MAX + 1, t->marks);
    *t = (render_passes){0};
}

/* The pass's debug group (KHR_debug), timed or not: a capture shows each pass by name. */
static void _render_passes_close(render_passes *t) {
    if (t->group) glPopDebugGroup();
    t->group = false;
}

void render_passes_reset(render_passes *t) {
    if (!t) return;
    _render_passes_close(t);
    t->count = 0;
}

void render_passes_begin(render_passes *t, const char *name) {
    if (!t) return;
    _render_passes_close(t);
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, name);
    t->group = true;
    if (!t->on || t->count == RENDER_PASSES_MAX) return;
    t->names[t->count] = name;
    glQueryCounter(t->marks[t->count++], GL_TIMESTAMP);
}

void render_passes_end(render_passes *t) {
    if (t) _render_passes_close(t);
    if (t && t->on && t->count) glQueryCounter(t->marks[t->count], GL_TIMESTAMP);
}

int render_passes_read(const render_passes *t, const char **names, double *us, int max) {
    if (!t->on) return 0;
    int n = t->count < max ? t->count : max;
    GLuint64 prev = 0, at;
    if (n) glGetQueryObjectui64v(t->marks[0], GL_QUERY_RESULT, &prev);
    for (int k = 0; k < n; k++) {
        glGetQueryObjectui64v(t->marks[k + 1], GL_QUERY_RESULT, &at);
        names[k] = t->names[k];
        us[k] = (double)(at - prev) / 1e3;
        prev = at;
    }
    return n;
}
