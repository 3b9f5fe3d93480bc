/* cmd_sort: `fluid sort`, sorting a file of (key, value) pairs on the GPU with one of the sort
 * library's algorithms, so they can be checked and compared from the shell.
 *
 *   fluid sort --algo NAME (sort_algos[]) [--bits B] --in FILE --out FILE [--data DIR]
 *
 * FILE holds little-endian uint32 pairs laid out key0 value0 key1 value1 ...; the result is
 * written in the same layout through the one writer (core/outfile.h): a temporary file renamed
 * over --out only when the sort succeeded, a device or FIFO written directly, `-` for stdout.
 * `--in -` reads the pairs from stdin. A headless EGL context is made for the sort; the cpu
 * algorithm uses it too (read back, sort on the CPU, write back).
 *
 * The order is: flags, the --out path, the --in file's size (stat: a whole number of pairs, at
 * most 4,294,967,295), the GPU and the sorter for that many pairs (the GPU's buffer limit), and
 * only then the input is read. So a file too big for the GPU is refused in a moment, unread.
 *
 * Errors are one line on stderr naming the problem and what to do, with exit status 1: a bad
 * flag or value, an unknown algorithm, --bits outside 1..32, an input that cannot be read or whose
 * size is not a multiple of 8 bytes, a key that does not fit in --bits, an output that cannot be
 * written, a size the GPU cannot hold. On any error nothing is written: an existing file at --out
 * is left exactly as it was (a device or FIFO receives nothing).
 * It does NOT stream: the whole file is held in memory (twice) and on the GPU at once.
 */
#include "app/cmd/cmd.h"
#include "app/session/registry.h"
#include "core/args.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "sort/sort.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct _sort_opts {
    const char *algo, *in, *out, *data;
    uint32_t bits; /* 0: the bits of the largest key */
} _sort_opts;

static bool _sort_algo(const args_opt *opt, void *field, const char *v, char *err) {
    if (!sort_algo_find(v)) return fail(err, "unknown sort algorithm '%s'; choose %s", v, registry_list(REGISTRY_SORTS));
    *(const char **)field = v;
    return true;
}

/* The options of `fluid sort`: parsing and help. Add a flag by adding a line. */
static args_opt _sort_args[] = {
    {"--algo", "NAME", ARGS_AT(_sort_opts, algo), _sort_algo, 0, 0, NULL}, /* help: from the registry, _sort_usage */
    {"--bits", "B", ARGS_AT(_sort_opts, bits), args_u32, 1, 32, "keys fit in B bits (default: the bits of the largest key)"},
    {"--in", "FILE", ARGS_AT(_sort_opts, in), args_string, 0, 0, "the pairs to sort; - reads them from stdin"},
    {"--out", "FILE", ARGS_AT(_sort_opts, out), args_string, 0, 0,
     "where to write the sorted pairs, only when the sort succeeds;\n- for stdout"},
    {"--data", "DIR", ARGS_AT(_sort_opts, data), args_string, 0, 0,
     "the folder holding shaders/ (default: found beside the binary)"},
};

static void _sort_usage(FILE *f) {
    /* --algo's help: a line per sort of the library's registry, its own summary. */
    static char help[1024];
    if (!help[0]) {
        snprintf(help, sizeof help, "%s", registry_list(REGISTRY_SORTS));
        for (int i = 0; i < registry_count(REGISTRY_SORTS); i++) {
            const sort_algo *a = sort_algo_find(registry_name(REGISTRY_SORTS, i));
            snprintf(help + strlen(help), sizeof help - strlen(help), "\n  %s: %s", a->name, a->summary);
            if (sort_algo_max_bits(a) < 32)
                snprintf(help + strlen(help), sizeof help - strlen(help), "; keys of at most %u bits", sort_algo_max_bits(a));
        }
        _sort_args[0].help = help;
    }
    char names[256];
    fprintf(f,
            "usage: fluid sort [--algo %s] [--bits B] --in FILE --out FILE [--data DIR]\n"
            "Sorts a file of little-endian uint32 (key, value) pairs, laid out key0 value0 key1 value1 ...,\n"
            "by key on the GPU, and writes them in the same layout.\n",
            registry_join(REGISTRY_SORTS, "|", names, sizeof names));
    args_help(f, _sort_args, ARRAY_LEN(_sort_args));
    fprintf(f, "Every user error is one line on stderr and exit status 1, with nothing written.\n");
}

static uint32_t _sort_le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void _sort_put_le32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* The input's size in bytes, by stat, before anything is read. */
static bool _sort_in_size(const char *in, uint64_t *len, char *err) {
    struct stat st;
    if (stat(in, &st) != 0) return fail(err, "cannot open %s: %s; check the --in path", in, strerror(errno));
    if (S_ISDIR(st.st_mode)) return fail(err, "--in %s is a folder; give the file of pairs", in);
    if (!S_ISREG(st.st_mode)) return fail(err, "--in %s is not a regular file; give the file of pairs, or - for stdin", in);
    if (access(in, R_OK) != 0) return fail(err, "cannot open %s: %s; check the --in path", in, strerror(errno));
    *len = (uint64_t)st.st_size;
    return true;
}

static bool _sort_check_len(const char *in, uint64_t len, char *err) {
    if (len % 8 != 0)
        return fail(err, "%s is %llu bytes, not a whole number of 8-byte (key, value) pairs; is it the right file?", in,
                    (unsigned long long)len);
    if (len / 8 > UINT32_MAX)
        return fail(err, "%s holds %llu pairs, more than 4,294,967,295; split it", in, (unsigned long long)(len / 8));
    return true;
}

/* Reads all of stdin, refusing it once it passes `limit` bytes. NULL with err. */
static unsigned char *_sort_read_stdin(uint64_t limit, uint64_t *len, char *err) {
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            unsigned char *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                fail(err, "out of memory reading stdin (%zu bytes so far)", n);
                return NULL;
            }
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, stdin);
        n += got;
        if (n > limit) {
            free(buf);
            fail(err, "stdin holds more than %llu bytes of pairs, more than this GPU can sort at once; split it",
                 (unsigned long long)limit);
            return NULL;
        }
        if (got == 0) break;
    }
    if (ferror(stdin)) {
        free(buf);
        fail(err, "cannot read stdin: %s", strerror(errno));
        return NULL;
    }
    *len = n;
    return buf;
}

static bool _sort_file(const _sort_opts *o, char *err) {
    outfile_guard_signals(); /* an interrupt at any moment: the temporary removed, exit 130 (README) */
    if (!outfile_check("--out", o->out, OUTFILE_DASH, err)) return false;
    if (!data_dir_init(o->data, err)) return false;
    bool from_stdin = strcmp(o->in, "-") == 0;
    uint64_t len = 0;
    if (!from_stdin && (!_sort_in_size(o->in, &len, err) || !_sort_check_len(o->in, len, err))) return false;
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true}, err);
    if (!gpu) return false;
    const gpu_caps *caps = gpu_get_caps(gpu);
    unsigned char *data = NULL;
    sorter *s = NULL;
    GLuint kb = 0, vb = 0;
    outfile *out = NULL;
    bool ok = true;
    if (from_stdin) {
        uint64_t limit = 8ull * ((uint64_t)caps->max_ssbo_bytes / 4);
        ok = (data = _sort_read_stdin(limit, &len, err)) && _sort_check_len("stdin", len, err);
    }
    uint32_t n = (uint32_t)(len / 8);
    /* The sorter first: it refuses a size the GPU cannot hold before a byte is read. Counting's
     * count array is sized by the key width: --bits, or the widest it takes until the keys are read. */
    uint32_t max_bits = sort_algo_max_bits(sort_algo_find(o->algo));
    if (ok && o->bits > max_bits)
        ok = fail(err, "--algo %s sorts keys of at most %u bits, and these need %u (--bits); use --algo %s", o->algo, max_bits,
                  o->bits, registry_name(REGISTRY_SORTS, 0));
    if (ok)
        ok = (s = sort_make(o->algo,
                            &(sort_desc){.capacity = n ? n : 1, .key_bits = o->bits ? o->bits : max_bits, .label = "sort-cli"},
                            caps, err)) != NULL;
    if (ok && !from_stdin) {
        size_t got = 0;
        ok = (data = (unsigned char *)file_read(o->in, &got, err)) != NULL;
        if (ok && got != len) ok = fail(err, "%s changed size while it was read; try again", o->in);
    }
    uint32_t *keys = NULL, *vals = NULL;
    if (ok) {
        keys = malloc(4ull * n + 4);
        vals = malloc(4ull * n + 4);
        if (!keys || !vals) ok = fail(err, "out of memory for %u pairs", n);
    }
    uint32_t max_key = 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        keys[i] = _sort_le32(data + 8ull * i);
        vals[i] = _sort_le32(data + 8ull * i + 4);
        if (keys[i] > max_key) max_key = keys[i];
    }
    uint32_t bits = o->bits;
    if (ok && bits && bits < 32) {
        for (uint32_t i = 0; i < n && ok; i++)
            if (keys[i] >> bits)
                ok = fail(err,
                          "pair %u has key %u (0x%x), which does not fit in --bits %u; use --bits %u or more, or leave it out", i,
                          keys[i], keys[i], bits, sort_bits_for(keys[i]));
    }
    if (!bits) bits = sort_bits_for(max_key);
    if (ok && bits > max_bits)
        ok = fail(err, "--algo %s sorts keys of at most %u bits, and these need %u (largest key %u); use --algo radix", o->algo,
                  max_bits, bits, max_key);
    if (ok) ok = (out = outfile_open("--out", o->out, OUTFILE_DASH, err)) != NULL;
    if (ok)
        ok = (kb = gpu_buffer_make(4ull * n, keys, "sort-cli.keys", err)) &&
             (vb = gpu_buffer_make(4ull * n, vals, "sort-cli.vals", err));
    if (ok) {
        char desc[256];
        sort_describe(s, n, bits, desc, sizeof desc);
        log_info("SORT", "%u pairs, %s, keys of %u bits: %s", n, o->algo, bits, desc);
        sort_pairs res = sort_run(s, (sort_pairs){kb, vb}, n, bits, NULL);
        if (n) {
            glGetNamedBufferSubData(res.keys, 0, 4ll * n, keys);
            glGetNamedBufferSubData(res.vals, 0, 4ll * n, vals);
        }
        GLenum e = glGetError();
        if (e != GL_NO_ERROR)
            ok = fail(err, "the GPU reported error 0x%04x while sorting; run with a debug driver or try --algo cpu", e);
    }
    if (ok) {
        for (uint32_t i = 0; i < n; i++) {
            _sort_put_le32(data + 8ull * i, keys[i]);
            _sort_put_le32(data + 8ull * i + 4, vals[i]);
        }
        outfile_write(out, data, len);
        ok = outfile_commit(out, err);
        out = NULL;
    }
    outfile_abort(out);
    gpu_buffer_destroy(&kb);
    gpu_buffer_destroy(&vb);
    sort_destroy(s);
    gpu_destroy(gpu);
    free(data);
    free(keys);
    free(vals);
    return ok;
}

int cmd_sort(int argc, char **argv) {
    char err[ERR_LEN] = "";
    _sort_opts o = {.algo = registry_name(REGISTRY_SORTS, 0)}; /* the registry's first: the default */
    bool help = false;
    bool ok = args_parse("fluid sort", _sort_args, ARRAY_LEN(_sort_args), &o, argc, argv, &help, err);
    if (ok && help) {
        _sort_usage(stdout);
        return 0;
    }
    if (ok && !o.in) ok = fail(err, "no input file; give one with --in FILE");
    if (ok && !o.out) ok = fail(err, "no output file; give one with --out FILE");
    if (ok) ok = _sort_file(&o, err);
    if (!ok) {
        /* Nothing was written: the output goes through a temporary file put in place at the very
         * end, so an existing file at --out is left exactly as it was. */
        log_error("SORT", "%s", err);
        return 1;
    }
    return 0;
}
