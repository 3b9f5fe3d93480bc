/* The window's controls: one table (app_bindings) that gives the key handling, the help overlay's
 * lines and the --script names. README.md and docs/CONTROLS.md list the same rows, key column and
 * action text alike (tests/test_controls.c). A new key is a line here (and an app_action, a case in
 * app_handle_action, the row in both documents). */
#include "app/app_window.h"
#include "core/util.h"
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <string.h>

const app_binding app_bindings[] = {
    {"left drag", "orbit the camera", 0, {{0}}},
    {"wheel, `Q` / `E`", "zoom out / in", APP_HELD,
     {{APP_ZOOM_OUT, "zoom-out", {GLFW_KEY_Q}}, {APP_ZOOM_IN, "zoom-in", {GLFW_KEY_E}}}},
    {"right drag, `W` `A` `S` `D`, arrows", "pan", APP_HELD,
     {{APP_PAN_LEFT, "pan-left", {GLFW_KEY_A, GLFW_KEY_LEFT}}, {APP_PAN_RIGHT, "pan-right", {GLFW_KEY_D, GLFW_KEY_RIGHT}},
      {APP_PAN_UP, "pan-up", {GLFW_KEY_W, GLFW_KEY_UP}}, {APP_PAN_DOWN, "pan-down", {GLFW_KEY_S, GLFW_KEY_DOWN}}}},
    {"`Shift` + left drag", "push the fluid", 0, {{0}}},
    {"`Ctrl` + left drag", "pull the fluid", 0, {{0}}},
    {"`Space`", "pause / resume", 0, {{APP_PAUSE, "pause", {GLFW_KEY_SPACE}}}},
    {"`N` or `.`", "one step (pauses)", APP_REPEAT, {{APP_STEP, "step", {GLFW_KEY_N, GLFW_KEY_PERIOD}}}},
    {"`R` or `Backspace`", "reset the scene", 0, {{APP_RESET, "reset", {GLFW_KEY_R, GLFW_KEY_BACKSPACE}}}},
    {"`Tab`", "switch sort: radix -> bitonic -> counting (live)", 0, {{APP_SORT_NEXT, "sort-next", {GLFW_KEY_TAB}}}},
    {"`M`", "switch solver: dfsph <-> wcsph (live)", 0, {{APP_SOLVER_NEXT, "solver-next", {GLFW_KEY_M}}}},
    {"`1` / `2`", "sort: radix / bitonic", 0,
     {{APP_SORT_RADIX, "sort-radix", {GLFW_KEY_1}}, {APP_SORT_BITONIC, "sort-bitonic", {GLFW_KEY_2}}}},
    {"`F1` `F2` `F3` or `3` `4` `5`", "scene: dambreak, drop, double-dambreak", 0,
     {{APP_SCENE_1, "scene-1", {GLFW_KEY_F1, GLFW_KEY_3}}, {APP_SCENE_2, "scene-2", {GLFW_KEY_F2, GLFW_KEY_4}},
      {APP_SCENE_3, "scene-3", {GLFW_KEY_F3, GLFW_KEY_5}}}},
    {"`+` / `-`", "more / fewer particles (4,096 ... 884,736)", 0,
     {{APP_MORE, "more", {GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD}}, {APP_FEWER, "fewer", {GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT}}}},
    {"`C`", "colour: speed, density, cell hash (from the water: spheres by cell hash)", 0, {{APP_COLOR, "color", {GLFW_KEY_C}}}},
    {"`F`", "style: water surface -> spheres -> raster spheres", 0, {{APP_STYLE, "style", {GLFW_KEY_F}}}},
    {"`G`", "start / stop a video: fluid-YYYYMMDD-HHMMSS.mp4", 0, {{APP_RECORD, "record", {GLFW_KEY_G}}}},
    {"`V`", "vsync on / off", 0, {{APP_VSYNC, "vsync", {GLFW_KEY_V}}}},
    {"`F12` or `P`", "screenshot: fluid-YYYYMMDD-HHMMSS.png", 0, {{APP_SCREENSHOT, "screenshot", {GLFW_KEY_F12, GLFW_KEY_P}}}},
    {"`U`", "hide / show the HUD", 0, {{APP_HUD, "hud", {GLFW_KEY_U}}}},
    {"`0` or `Home`", "reset the camera", 0, {{APP_CAMERA_RESET, "camera-reset", {GLFW_KEY_0, GLFW_KEY_HOME}}}},
    {"`H`", "help on screen", 0, {{APP_HELP, "help", {GLFW_KEY_H}}}},
    {"`Esc`", "quit", 0, {{APP_QUIT, "quit", {GLFW_KEY_ESCAPE}}}},
};
const int app_binding_count = (int)ARRAY_LEN(app_bindings);

static const app_binding_act *_app_act_find(bool (*match)(const app_binding_act *, const void *), const void *what,
                                            unsigned *flags) {
    for (int r = 0; r < app_binding_count; r++)
        for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++)
            if (match(&app_bindings[r].acts[k], what)) {
                if (flags) *flags = app_bindings[r].flags;
                return &app_bindings[r].acts[k];
            }
    return NULL;
}

static bool _app_match_key(const app_binding_act *a, const void *what) {
    for (int i = 0; i < APP_BINDING_KEYS; i++)
        if (a->keys[i] && a->keys[i] == *(const int *)what) return true;
    return false;
}
static bool _app_match_name(const app_binding_act *a, const void *what) { return strcmp(a->name, what) == 0; }
static bool _app_match_action(const app_binding_act *a, const void *what) { return a->action == *(const app_action *)what; }

bool app_key_action(int key, app_action *out, unsigned *flags) {
    const app_binding_act *a = _app_act_find(_app_match_key, &key, flags);
    if (a) *out = a->action;
    return a != NULL;
}

bool app_action_by_name(const char *name, app_action *out) {
    const app_binding_act *a = _app_act_find(_app_match_name, name, NULL);
    if (a) *out = a->action;
    return a != NULL;
}

const char *app_action_name(app_action act) {
    const app_binding_act *a = _app_act_find(_app_match_action, &act, NULL);
    return a ? a->name : "?";
}

const char *const *app_help_lines(void) {
    static char text[ARRAY_LEN(app_bindings)][128];
    static const char *lines[ARRAY_LEN(app_bindings) + 2];
    if (lines[0]) return lines;
    lines[0] = "Keys (H closes this)";
    for (int r = 0; r < app_binding_count; r++) {
        char keys[64];
        int n = 0;
        for (const char *p = app_bindings[r].keys; *p && n < (int)sizeof keys - 1; p++)
            if (*p != '`') keys[n++] = *p; /* the docs' Markdown off */
        keys[n] = 0;
        snprintf(text[r], sizeof text[r], "%-30s %s", keys, app_bindings[r].help);
        lines[r + 1] = text[r];
    }
    return lines;
}
