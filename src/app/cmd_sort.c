/* cmd_sort: `fluid sort`, sorting a file of (key, value) pairs on the GPU with one of the sort
 * library's algorithms, so they can be checked and compared from the shell.
 *
 *   fluid sort --algo radix|onesweep|counting|bitonic|cpu [--bits B] --in FILE --out FILE [--data DIR]
 *
 * FILE holds little-endian uint32 pairs laid out key0 value0 key1 value1 ...; the result is
 * written in the same layout, atomically (file_write_atomic). A headless EGL context is made for
 * the sort; the cpu algorithm uses it too (read back, sort on the CPU, write back).
 *
 * Errors are one line on stderr naming the problem and what to do, with exit status 1: a bad
 * flag or value, an unknown algorithm, --bits outside 1..32, an input that cannot be read or whose
 * size is not a multiple of 8 bytes, a key that does not fit in --bits, an output that cannot be
 * written, a size the GPU cannot hold. On any error the --out file is removed if it exists (unless
 * it is the input file itself), so a stale or partial file is never mistaken for the result.
 * It does NOT stream: the whole file is held in memory (twice) and on the GPU at once.
 */
#include "app/cmd.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/gpu.h"
#include "sort/sort.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct _sort_opts {
    const char *algo, *in, *out, *data;
    uint32_t bits; /* 0: the bits of the largest key */
    bool help;
} _sort_opts;

static void _sort_usage(FILE *f) {
    fprintf(f,
            "usage: fluid sort [--algo radix|onesweep|counting|bitonic|cpu] [--bits B] --in FILE --out FILE [--data DIR]\n"
            "Sorts a file of little-endian uint32 (key, value) pairs, laid out key0 value0 key1 value1 ...,\n"
            "by key on the GPU, and writes them in the same layout.\n"
            "  --algo NAME  radix (default; stable; onesweep or reduce-then-scan by driver), onesweep (radix\n"
            "               forced onto its onesweep path), counting (keys of at most 22 bits; by key, then\n"
            "               value), bitonic (by key, then value) or cpu (reference)\n"
            "  --bits B     keys fit in B bits, 1..32 (default: the bits of the largest key)\n"
            "  --in FILE    the pairs to sort\n"
            "  --out FILE   where to write the sorted pairs; written only when the sort succeeds\n"
            "  --data DIR   the folder holding shaders/ (default: found beside the binary)\n");
}

/* Parses argv (argv[0] is "sort"); false with err on the first problem. */
static bool _sort_parse(int argc, char **argv, _sort_opts *o, char *err) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
            return true;
        }
        const char **dst = strcmp(a, "--algo") == 0 ? &o->algo
                           : strcmp(a, "--in") == 0 ? &o->in
                           : strcmp(a, "--out") == 0 ? &o->out
                           : strcmp(a, "--data") == 0 ? &o->data
                                                      : NULL;
        bool is_bits = strcmp(a, "--bits") == 0;
        if (!dst && !is_bits) {
            if (a[0] == '-')
                return fail(err, "unknown option '%s'; see fluid sort --help", a);
            return fail(err, "unexpected argument '%s'; files are given with --in FILE and --out FILE", a);
        }
        if (i + 1 >= argc || argv[i + 1][0] == 0 || strncmp(argv[i + 1], "--", 2) == 0)
            return fail(err, "%s needs a value; see fluid sort --help", a);
        const char *v = argv[++i];
        if (is_bits) {
            uint64_t b;
            if (!parse_u64(v, 1, 32, &b))
                return fail(err, "--bits '%s' is not a number from 1 to 32; give the bits the keys need, or leave it out", v);
            o->bits = (uint32_t)b;
        } else {
            *dst = v;
        }
    }
    if (!sort_algo_find(o->algo))
        return fail(err, "unknown sort algorithm '%s'; choose %s", o->algo, sort_algo_names());
    if (!o->in) return fail(err, "no input file; give one with --in FILE");
    if (!o->out) return fail(err, "no output file; give one with --out FILE");
    return true;
}

/* The output's folder must exist and be writable (checked before the GPU work). */
static bool _sort_check_out(const char *out, char *err) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    struct stat st;
    if (out[0] == 0 || out[strlen(out) - 1] == '/')
        return fail(err, "--out '%s' is not a file name; give a file path", out);
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode))
        return fail(err, "cannot write %s: it is a directory; give a file path with --out", out);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return fail(err, "cannot write %s: folder %s does not exist; create it or choose another --out", out, dir);
    if (access(dir, W_OK) != 0)
        return fail(err, "cannot write %s: folder %s is not writable; choose another --out", out, dir);
    return true;
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

/* Sorts keys/vals (n pairs) on the GPU with `algo`, in place; false with err. */
static bool _sort_on_gpu(const char *algo, uint32_t *keys, uint32_t *vals, uint32_t n, uint32_t bits, char *err) {
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true}, err);
    if (!gpu) return false;
    bool ok = false;
    GLuint kb = 0, vb = 0;
    sorter *s = sort_make(algo, &(sort_desc){.capacity = n ? n : 1, .key_bits = bits, .label = "sort-cli"},
                          gpu_get_caps(gpu), err);
    if (s) {
        kb = gpu_buffer_make(4ull * n, keys, "sort-cli.keys", err);
        if (kb) vb = gpu_buffer_make(4ull * n, vals, "sort-cli.vals", err);
    }
    if (s && kb && vb) {
        char desc[256];
        sort_describe(s, n, bits, desc, sizeof desc);
        log_info("SORT", "%u pairs, %s, keys of %u bits: %s", n, algo, bits, desc);
        sort_pairs out = sort_run(s, (sort_pairs){kb, vb}, n, bits, NULL);
        if (n) {
            glGetNamedBufferSubData(out.keys, 0, 4ll * n, keys);
            glGetNamedBufferSubData(out.vals, 0, 4ll * n, vals);
        }
        GLenum e = glGetError();
        ok = e == GL_NO_ERROR;
        if (!ok) fail(err, "the GPU reported error 0x%04x while sorting; run with a debug driver or try --algo cpu", e);
    }
    gpu_buffer_destroy(&kb);
    gpu_buffer_destroy(&vb);
    sort_destroy(s);
    gpu_destroy(gpu);
    return ok;
}

static bool _sort_file(const _sort_opts *o, char *err) {
    if (!data_dir_init(o->data, err)) return false;
    if (!_sort_check_out(o->out, err)) return false;
    struct stat st;
    if (stat(o->in, &st) == 0 && S_ISDIR(st.st_mode))
        return fail(err, "--in %s is a folder; give the file of pairs", o->in);
    size_t len = 0;
    char ferr[ERR_LEN];
    unsigned char *data = (unsigned char *)file_read(o->in, &len, ferr);
    if (!data) return fail(err, "%s; check the --in path", ferr);
    if (len % 8 != 0) {
        free(data);
        return fail(err, "%s is %zu bytes, not a whole number of 8-byte (key, value) pairs; is it the right file?", o->in,
                    len);
    }
    if (len / 8 > UINT32_MAX) {
        free(data);
        return fail(err, "%s holds %zu pairs, more than 4,294,967,295; split it", o->in, len / 8);
    }
    uint32_t n = (uint32_t)(len / 8);
    uint32_t *keys = malloc(4ull * n + 4), *vals = malloc(4ull * n + 4);
    if (!keys || !vals) {
        free(data);
        free(keys);
        free(vals);
        return fail(err, "out of memory for %u pairs", n);
    }
    uint32_t max_key = 0;
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = _sort_le32(data + 8ull * i);
        vals[i] = _sort_le32(data + 8ull * i + 4);
        if (keys[i] > max_key) max_key = keys[i];
    }
    bool ok = true;
    uint32_t bits = o->bits;
    if (bits && bits < 32) {
        for (uint32_t i = 0; i < n && ok; i++)
            if (keys[i] >> bits)
                ok = fail(err, "pair %u has key %u (0x%x), which does not fit in --bits %u; use --bits %u or more, or leave it out",
                          i, keys[i], keys[i], bits, sort_bits_for(keys[i]));
    }
    if (!bits) bits = sort_bits_for(max_key);
    uint32_t max_bits = sort_algo_max_bits(sort_algo_find(o->algo));
    if (ok && bits > max_bits)
        ok = fail(err, "--algo %s sorts keys of at most %u bits, and these need %u (largest key %u); use --algo radix",
                  o->algo, max_bits, bits, max_key);
    if (ok) ok = _sort_on_gpu(o->algo, keys, vals, n, bits, err);
    if (ok) {
        for (uint32_t i = 0; i < n; i++) {
            _sort_put_le32(data + 8ull * i, keys[i]);
            _sort_put_le32(data + 8ull * i + 4, vals[i]);
        }
        ok = file_write_atomic(o->out, data, len, err);
    }
    free(data);
    free(keys);
    free(vals);
    return ok;
}

int cmd_sort(int argc, char **argv) {
    char err[ERR_LEN] = "";
    _sort_opts o = {.algo = "radix"};
    bool ok = _sort_parse(argc, argv, &o, err);
    if (ok && o.help) {
        _sort_usage(stdout);
        return 0;
    }
    if (ok) ok = _sort_file(&o, err);
    if (!ok) {
        /* The output is written atomically at the very end, so nothing was written: an existing
         * file at --out is left exactly as it was. */
        log_error("SORT", "%s", err);
        return 1;
    }
    return 0;
}
