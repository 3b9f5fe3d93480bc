#include "core/args.h"
#include "core/util.h"
#include <inttypes.h>
#include <string.h>

bool args_flag(const args_opt *opt, void *field, const char *value, char *err) {
    *(bool *)field = true;
    return true;
}

bool args_string(const args_opt *opt, void *field, const char *value, char *err) {
    *(const char **)field = value;
    return true;
}

static bool _args_number(const args_opt *opt, const char *value, uint64_t *out, char *err) {
    if (!parse_u64(value, opt->lo, opt->hi, out))
        return fail(err, "%s %s: not a whole number from %" PRIu64 " to %" PRIu64, opt->name, err_esc(value), opt->lo, opt->hi);
    return true;
}

bool args_u32(const args_opt *opt, void *field, const char *value, char *err) {
    uint64_t v;
    if (!_args_number(opt, value, &v, err)) return false;
    *(uint32_t *)field = (uint32_t)v;
    return true;
}

bool args_int(const args_opt *opt, void *field, const char *value, char *err) {
    uint64_t v;
    if (!_args_number(opt, value, &v, err)) return false;
    *(int *)field = (int)v;
    return true;
}

bool args_u64(const args_opt *opt, void *field, const char *value, char *err) {
    return _args_number(opt, value, (uint64_t *)field, err);
}

bool args_size(const args_opt *opt, void *field, const char *value, char *err) {
    char part[2][32];
    const char *x = strchr(value, 'x');
    uint64_t w, h;
    bool ok = x && x - value < 32 && strlen(x + 1) < 32;
    if (ok) {
        snprintf(part[0], sizeof part[0], "%.*s", (int)(x - value), value);
        snprintf(part[1], sizeof part[1], "%s", x + 1);
        ok = parse_u64(part[0], opt->lo, opt->hi, &w) && parse_u64(part[1], opt->lo, opt->hi, &h);
    }
    if (!ok)
        return fail(err, "%s %s: expected WxH, each a whole number from %" PRIu64 " to %" PRIu64 " (like 1280x720)", opt->name,
                    err_esc(value), opt->lo, opt->hi);
    ((int *)field)[0] = (int)w;
    ((int *)field)[1] = (int)h;
    return true;
}

bool args_parse(const char *cmd, const args_opt *opts, size_t count, void *base, int argc, char **argv, bool *help, char *err) {
    *help = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            *help = true;
            return true;
        }
        if (a[0] != '-' || a[1] == 0)
            return fail(err, "unexpected argument '%s'; every value follows its --option; see %s --help", err_esc(a), cmd);
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const args_opt *opt = NULL;
        for (size_t k = 0; k < count && !opt; k++)
            if (strlen(opts[k].name) == len && strncmp(opts[k].name, a, len) == 0) opt = &opts[k];
        if (!opt) {
            char name[ERR_LEN];
            snprintf(name, sizeof name, "%.*s", (int)len, a);
            return fail(err, "unknown option '%s'; see %s --help", err_esc(name), cmd);
        }
        const char *value = NULL;
        if (opt->value) {
            value = eq ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
            if (!value || !value[0] || strncmp(value, "--", 2) == 0)
                return fail(err, "%s needs a value (%s); see %s --help", opt->name, opt->value, cmd);
            if (!eq) i++;
        } else if (eq) {
            return fail(err, "%s takes no value; see %s --help", opt->name, cmd);
        }
        if (!opt->set(opt, (char *)base + opt->at, value, err)) return false;
    }
    return true;
}

void args_help(FILE *f, const args_opt *opts, size_t count) {
    for (size_t k = 0; k < count; k++) {
        const args_opt *o = &opts[k];
        if (!o->help) continue;
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
        fprintf(f, "  %-22s", head);
        if (strlen(head) > 22) fprintf(f, "\n  %-22s", "");
        for (const char *p = o->help; *p; p++) {
            fputc(*p, f);
            if (*p == '\n') fprintf(f, "  %-22s", "");
        }
        if (o->lo || o->hi) fprintf(f, " (%" PRIu64 " to %" PRIu64 ")", o->lo, o->hi);
        fputc('\n', f);
    }
}
