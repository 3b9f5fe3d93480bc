#include "gpu/shader.h"
#include "core/env.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string. */
typedef struct _str {
    char *p;
    size_t len, cap;
} _str;

static void _str_add(_str *s, const char *text, size_t n) {
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->p = realloc(s->p, s->cap);
    }
    memcpy(s->p + s->len, text, n);
    s->len += n;
    s->p[s->len] = 0;
}

/* The files one program's source came from, and for each line of the expanded text the file and
 * line it came from (drivers disagree on #line source numbers, so the map is kept here). */
#define SHADER_MAX_FILES 32 /* the fused dfsph step (step.comp) includes 20 */
typedef struct _sources {
    char names[SHADER_MAX_FILES][128];
    int count;
    int *line_file, *line_no; /* indexed by expanded line - 1 */
    int lines, cap;
} _sources;

static void _sources_line(_sources *src, int file, int line) {
    if (src->lines == src->cap) {
        src->cap = src->cap ? src->cap * 2 : 256;
        src->line_file = realloc(src->line_file, sizeof(int) * (size_t)src->cap);
        src->line_no = realloc(src->line_no, sizeof(int) * (size_t)src->cap);
    }
    src->line_file[src->lines] = file;
    src->line_no[src->lines] = line;
    src->lines++;
}

/* Appends text that is not from any file (defines) line by line to the map. */
static void _sources_text(_sources *src, _str *out, const char *text) {
    _str_add(out, text, strlen(text));
    for (const char *p = text; *p; p++)
        if (*p == '\n') _sources_line(src, 0, 0);
}

/* Appends `name` to out with its includes expanded in place (no #line: the map in src is the record). */
static bool _shader_expand(const char *name, const char *defines, _sources *src, _str *out, int depth, char *err) {
    if (depth > 8) return fail(err, "SHADER: shaders/%s: #include nested too deep (a cycle?)", name);
    if (src->count == SHADER_MAX_FILES) return fail(err, "SHADER: shaders/%s: too many included files", name);
    int id = src->count++;
    snprintf(src->names[id], sizeof src->names[id], "%s", name);
    char ferr[ERR_LEN];
    char *text = file_read(data_path("shaders", name), NULL, ferr);
    if (!text) return fail(err, "SHADER: %s; reinstall shaders/ or pass --data DIR", ferr);
    int line = 1;
    bool ok = true;
    for (char *p = text; *p && ok;) {
        char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, "#include", 8) == 0) {
            const char *a = strchr(q, '"'), *b = a ? strchr(a + 1, '"') : NULL;
            if (!a || !b || b > p + n) {
                ok = fail(err, "SHADER: shaders/%s:%d: #include needs a \"file\"", name, line);
                break;
            }
            char inc[128];
            if ((size_t)(b - a - 1) >= sizeof inc) { /* cut short it would name another file */
                ok = fail(err, "SHADER: shaders/%s:%d: #include names a file of more than %zu bytes", name, line, sizeof inc - 1);
                break;
            }
            snprintf(inc, sizeof inc, "%.*s", (int)(b - a - 1), a + 1);
            _str_add(out, "\n", 1); /* the #include line itself becomes blank */
            _sources_line(src, id, line);
            ok = _shader_expand(inc, NULL, src, out, depth + 1, err);
        } else {
            _str_add(out, p, n);
            _str_add(out, "\n", 1);
            _sources_line(src, id, line);
            if (depth == 0 && strncmp(q, "#version", 8) == 0 && defines) { /* right after it, wherever it is */
                _sources_text(src, out, defines);
                if (defines[0] && defines[strlen(defines) - 1] != '\n') _sources_text(src, out, "\n");
            }
        }
        line++;
        p = eol ? eol + 1 : p + n;
    }
    free(text);
    return ok;
}

/* Prints the driver's log with "F:L" / "F(L)" prefixes mapped to file names; puts the first
 * error line into err. */
static void _shader_report(const char *what, const char *log, const _sources *src, char *err) {
    bool first = true;
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        int n = eol ? (int)(eol - p) : (int)strlen(p);
        int file = -1, line = -1, used = 0;
        if (sscanf(p, "%d:%d%n", &file, &line, &used) == 2 || sscanf(p, "%d(%d)%n", &file, &line, &used) == 2) {
            const char *rest = p + used;
            while (rest < p + n && strchr("():0123456789 ", *rest)) rest++;
            /* The driver's line counts the expanded text; map it back to the file it came from. */
            const char *fname = "?";
            if (line >= 1 && line <= src->lines) {
                fname = src->names[src->line_file[line - 1]];
                line = src->line_no[line - 1];
            }
            int rn = (int)(p + n - rest);
            log_error("SHADER", "shaders/%s:%d: %.*s", fname, line, rn, rest);
            if (first) fail(err, "SHADER: shaders/%s:%d: %s failed: %.*s", fname, line, what, rn, rest);
            first = false;
        } else if (n > 0) {
            log_error("SHADER", "%.*s", n, p);
        }
        p = eol ? eol + 1 : p + n;
    }
    if (first) fail(err, "SHADER: %s failed (shaders/%s), with no log from the driver", what, src->names[0]);
}

/* The program cache: a program is linked once per context for each distinct source text (the file,
 * the defines and every included file's content all end up in the expanded text, so the text is the
 * key). shader_make_* hands out the same program again, counting references; shader_destroy drops
 * one. A program nobody holds stays linked until its context goes (with its objects; the first
 * make in the next context, gpu_serial, forgets them), so that remaking a sorter or a sim in one
 * process links nothing new. Programs carry no state the callers rely on between a make and a
 * dispatch: every caller sets its uniforms before it dispatches or draws. */
typedef struct _cached {
    char *text; /* expanded source of every stage, each followed by '|' */
    size_t len;
    uint64_t hash;
    GLuint prog;
    int refs;
} _cached;
static _cached *_cache;
static int _cache_count, _cache_cap;
static uint32_t _cache_serial; /* the context the cached programs belong to (gpu_serial) */

static uint64_t _cache_hash(const char *text, size_t len) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)text[i]) * 1099511628211ull;
    return h;
}

static _cached *_cache_find(const char *text, size_t len, uint64_t hash) {
    for (int i = 0; i < _cache_count; i++)
        if (_cache[i].hash == hash && _cache[i].len == len && memcmp(_cache[i].text, text, len) == 0) return &_cache[i];
    return NULL;
}

static void _cache_add(char *text, size_t len, uint64_t hash, GLuint prog) {
    if (_cache_count == _cache_cap) {
        _cache_cap = _cache_cap ? _cache_cap * 2 : 64;
        _cache = realloc(_cache, sizeof *_cache * (size_t)_cache_cap);
    }
    _cache[_cache_count++] = (_cached){text, len, hash, prog, 1};
}

/* Forgets the programs of an earlier context (they went with it: no GL call). */
static void _cache_follow_context(void) {
    if (_cache_serial == gpu_serial()) return;
    for (int i = 0; i < _cache_count; i++) free(_cache[i].text);
    _cache_count = 0;
    _cache_serial = gpu_serial();
}

/* A stage's expanded source and its line map. */
typedef struct _stage_src {
    _sources src;
    _str text;
} _stage_src;

static void _stage_free(_stage_src *st) {
    free(st->text.p);
    free(st->src.line_file);
    free(st->src.line_no);
}

static GLuint _shader_compile(GLenum stage, _stage_src *st, char *err) {
    GLuint s = glCreateShader(stage);
    const char *p = st->text.p;
    glShaderSource(s, 1, &p, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint len = 0;
        glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
        char *log = calloc(1, (size_t)len + 1);
        glGetShaderInfoLog(s, len, NULL, log);
        _shader_report("compile", log, &st->src, err);
        free(log);
        glDeleteShader(s);
        s = 0;
    }
    return s;
}

/* FLUID_DUMP_PROGRAMS=DIR: every linked program's driver binary goes to DIR/<file>-<n>.bin, for
 * profiling (NVIDIA's binaries hold the assembly it compiled: registers, local memory). */
static void _shader_dump_binary(GLuint prog, const char *label) {
    static int serial;
    const char *dir = env_str(ENV_DUMP_PROGRAMS);
    if (!dir) return;
    GLint len = 0;
    glGetProgramiv(prog, GL_PROGRAM_BINARY_LENGTH, &len);
    if (len <= 0) return;
    char *bin = malloc((size_t)len), path[512], name[128];
    GLenum format;
    glGetProgramBinary(prog, len, NULL, &format, bin);
    snprintf(name, sizeof name, "%s", label);
    for (char *c = name; *c; c++)
        if (*c == '/') *c = '-';
    int used = snprintf(path, sizeof path, "%s/%s-%d.bin", dir, name, serial++);
    if (used < 0 || (size_t)used >= sizeof path) { /* cut short it would name a file outside DIR */
        log_warn("SHADER", "FLUID_DUMP_PROGRAMS: the folder's path is longer than %zu bytes; %s not dumped", sizeof path - 40,
                 name);
        free(bin);
        return;
    }
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(bin, 1, (size_t)len, f);
        fclose(f);
    } else {
        log_warn("SHADER", "FLUID_DUMP_PROGRAMS: cannot write %s", path);
    }
    free(bin);
}

static GLuint _shader_link(GLuint *stages, int n, const char *label, char *err) {
    GLuint prog = glCreateProgram();
    for (int i = 0; i < n; i++) glAttachShader(prog, stages[i]);
    glLinkProgram(prog);
    for (int i = 0; i < n; i++) glDeleteShader(stages[i]);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {0};
        glGetProgramInfoLog(prog, sizeof log - 1, NULL, log);
        log_error("SHADER", "shaders/%s: link error: %s", label, log);
        fail(err, "SHADER: shaders/%s: link failed: %.200s", label, log);
        glDeleteProgram(prog);
        return 0;
    }
    glObjectLabel(GL_PROGRAM, prog, -1, label);
    _shader_dump_binary(prog, label);
    return prog;
}

/* Expands every stage, returns the cached program for that text or compiles and links a new one. */
static GLuint _shader_make(int n, const GLenum *stages, const char *const *paths, const char *defines, char *err) {
    _stage_src st[2] = {0};
    GLuint prog = 0;
    _cache_follow_context();
    for (int i = 0; i < n; i++)
        if (!_shader_expand(paths[i], defines, &st[i].src, &st[i].text, 0, err)) goto done;
    size_t klen = 0;
    for (int i = 0; i < n; i++) klen += st[i].text.len + 1;
    _str key = {malloc(klen), 0, klen};
    for (int i = 0; i < n; i++) {
        if (st[i].text.len) memcpy(key.p + key.len, st[i].text.p, st[i].text.len);
        key.len += st[i].text.len;
        key.p[key.len++] = '|'; /* after each stage */
    }
    uint64_t hash = _cache_hash(key.p, key.len);
    _cached *hit = _cache_find(key.p, key.len, hash);
    if (hit) {
        hit->refs++;
        prog = hit->prog;
        free(key.p);
        gpu_count_object(1);
        goto done;
    }
    GLuint sh[2] = {0};
    for (int i = 0; i < n; i++) {
        sh[i] = _shader_compile(stages[i], &st[i], err);
        if (!sh[i]) {
            for (int j = 0; j < i; j++) glDeleteShader(sh[j]);
            free(key.p);
            goto done;
        }
    }
    prog = _shader_link(sh, n, paths[0], err);
    if (prog) {
        _cache_add(key.p, key.len, hash, prog);
        gpu_count_object(1);
    } else {
        free(key.p);
    }
done:
    for (int i = 0; i < n; i++) _stage_free(&st[i]);
    return prog;
}

GLuint shader_make_compute(const char *path, const char *defines, char *err) {
    return _shader_make(1, (const GLenum[]){GL_COMPUTE_SHADER}, (const char *const[]){path}, defines, err);
}

GLuint shader_make_graphics(const char *vert_path, const char *frag_path, const char *defines, char *err) {
    return _shader_make(2, (const GLenum[]){GL_VERTEX_SHADER, GL_FRAGMENT_SHADER}, (const char *const[]){vert_path, frag_path},
                        defines, err);
}

void shader_destroy(GLuint *program) {
    if (!*program) return;
    gpu_count_object(-1);
    if (_cache_serial != gpu_serial()) { /* made in a context that has gone, and the program with it */
        *program = 0;
        return;
    }
    for (int i = 0; i < _cache_count; i++)
        if (_cache[i].prog == *program) {
            _cache[i].refs--; /* kept linked at 0 refs: the next make of the same text takes it */
            *program = 0;
            return;
        }
    glDeleteProgram(*program); /* not from the cache (cannot happen: every program is) */
    *program = 0;
}
