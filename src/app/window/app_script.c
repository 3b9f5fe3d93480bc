/* app_script: the window's --script language (app_script.h). */
#include "app/window/app_script.h"
#include "app/window/app_actions.h"
#include "app/window/app_io.h"
#include "app/window/app_state.h"
#include "core/log.h"
#include "core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum app_script_kind {
    APP_SCRIPT_ACTION,
    APP_SCRIPT_FRAMES,
    APP_SCRIPT_RESIZE,
    APP_SCRIPT_SHOT,
    APP_SCRIPT_CHECK,
    APP_SCRIPT_EXPECT_SORT,
    APP_SCRIPT_EXPECT_MESSAGE
} app_script_kind;
typedef struct app_script_step {
    app_script_kind kind;
    app_action action;
    int a, b;
    char text[PATH_MAX];
} app_script_step;

/* "pause, step, reset, ...": every action's script name that starts with prefix, from the table. */
static void _script_action_list(char *out, size_t len, const char *prefix) {
    out[0] = 0;
    for (int r = 0; r < app_binding_count; r++)
        for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++) {
            const char *name = app_bindings[r].acts[k].name;
            if (strncmp(name, prefix, strlen(prefix)) == 0)
                snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? ", " : "", name);
        }
}

bool app_script_parse(app *a, const char *text, char *err) {
    char *copy = strdup(text), *save = NULL;
    int cap = 16;
    a->steps = calloc((size_t)cap, sizeof *a->steps);
    bool ok = true;
    for (char *tok = strtok_r(copy, ";", &save); tok && ok; tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ') tok++;
        if (!*tok) continue;
        if (a->nsteps == cap) a->steps = realloc(a->steps, sizeof *a->steps * (size_t)(cap *= 2));
        app_script_step *st = &a->steps[a->nsteps];
        memset(st, 0, sizeof *st);
        char *arg = strchr(tok, ':');
        if (arg) *arg++ = 0;
        char name[64], list[512];
        uint64_t n = 0;
        if (!arg) {
            st->kind = APP_SCRIPT_ACTION;
            _script_action_list(list, sizeof list, "");
            ok = app_action_by_name(tok, &st->action) || fail(err, "--script: unknown action '%s'; actions: %s", tok, list);
        } else if (strcmp(tok, "frames") == 0) {
            st->kind = APP_SCRIPT_FRAMES;
            ok = parse_u64(arg, 0, 1000000, &n) || fail(err, "--script: frames:%s is not a count of frames", arg);
            st->a = (int)n;
        } else if (strcmp(tok, "sort") == 0 || strcmp(tok, "scene") == 0) {
            st->kind = APP_SCRIPT_ACTION;
            snprintf(name, sizeof name, "%s-%s", tok, arg);
            char prefix[16];
            snprintf(prefix, sizeof prefix, "%s-", tok);
            _script_action_list(list, sizeof list, prefix);
            ok = app_action_by_name(name, &st->action) ||
                 fail(err, "--script: no action %s (%s:X is the action %s-X: %s)", name, tok, tok, list);
        } else if (strcmp(tok, "resize") == 0) {
            st->kind = APP_SCRIPT_RESIZE;
            ok = sscanf(arg, "%dx%d", &st->a, &st->b) == 2 && st->a >= 0 && st->b >= 0 && st->a <= 16384 && st->b <= 16384;
            if (!ok) fail(err, "--script: resize:%s is not WIDTHxHEIGHT (0x0 minimises)", arg);
        } else if (strcmp(tok, "shot") == 0 || strcmp(tok, "check") == 0 || strcmp(tok, "expect-sort") == 0 ||
                   strcmp(tok, "expect-message") == 0) {
            st->kind = tok[0] == 's'                     ? APP_SCRIPT_SHOT
                       : tok[0] == 'c'                   ? APP_SCRIPT_CHECK
                       : strcmp(tok, "expect-sort") == 0 ? APP_SCRIPT_EXPECT_SORT
                                                         : APP_SCRIPT_EXPECT_MESSAGE;
            snprintf(st->text, sizeof st->text, "%s", arg);
            ok = arg[0] || fail(err, "--script: %s: needs a value", tok);
            if (ok && strlen(arg) >= sizeof st->text)
                ok = fail(err, "--script: %s: the value is %zu bytes, longer than %zu; choose a shorter path", tok, strlen(arg),
                          sizeof st->text - 1);
        } else {
            ok = fail(
                err,
                "--script: unknown step '%s:%s'; steps: ACTION, frames:N, sort:NAME, scene:K, resize:WxH, shot:FILE, check:FILE, expect-sort:NAME, "
                "expect-message:TEXT",
                tok, arg);
        }
        if (ok) a->nsteps++;
    }
    free(copy);
    return ok;
}

static void _script_check(app *a, const char *path) {
    char why[ERR_LEN];
    session *ss = &a->ss;
    if (strcmp(path, a->shot_path) != 0) {
        log_error("APP", "check %s: not the last screenshot taken (%s); take it with shot:%s first", path,
                  a->shot_path[0] ? a->shot_path : "none", path);
        a->status = 1;
    } else if (!app_render_check(ss->r, ss->h, ss->s, ss->prof, &ss->view, path, &a->shot_layout, why)) {
        log_error("APP", "check %s: %s", path, why);
        a->status = 1;
    } else {
        log_info("APP", "check %s: not blank, HUD text and particles present", path);
    }
}

/* expect-message:TEXT: the message on screen holds TEXT; expect-message:!TEXT: it does not. */
static void _script_expect_message(app *a, const char *text) {
    bool neg = text[0] == '!', has = strstr(a->ss.view.message, text + neg) != NULL;
    if (has == neg) {
        log_error("APP", "expect-message: the message on screen is \"%s\", expected %s\"%s\"", a->ss.view.message,
                  neg ? "none holding " : "one holding ", text + neg);
        a->status = 1;
    } else {
        log_info("APP", "expect-message: \"%s\" on screen", a->ss.view.message);
    }
}

bool app_script_advance(app *a) {
    while (a->frames_left == 0) {
        if (a->next_step == a->nsteps) return false;
        app_script_step *st = &a->steps[a->next_step++];
        switch (st->kind) {
        case APP_SCRIPT_ACTION: app_handle_action(a, st->action); break;
        case APP_SCRIPT_FRAMES: a->frames_left = st->a; break;
        case APP_SCRIPT_RESIZE: app_window_resize(a, st->a, st->b); break;
        case APP_SCRIPT_SHOT:
            if (!app_screenshot(a, st->text)) a->status = 1;
            break;
        case APP_SCRIPT_CHECK: _script_check(a, st->text); break;
        case APP_SCRIPT_EXPECT_SORT:
            if (strcmp(sim_sort_name(a->ss.s), st->text) != 0) {
                log_error("APP", "expect-sort: the sim sorts with %s, expected %s", sim_sort_name(a->ss.s), st->text);
                a->status = 1;
            }
            break;
        case APP_SCRIPT_EXPECT_MESSAGE: _script_expect_message(a, st->text); break;
        }
        if (a->quit) return false;
    }
    a->frames_left--;
    return true;
}

void app_script_free(app *a) {
    free(a->steps);
    a->steps = NULL;
    a->nsteps = 0;
}
