/* app_actions: the window's controls: ONE table, app_bindings (app_actions.c), gives the key
 * handling, the help overlay's lines and the --script names (app_script.h), and every key goes
 * through app_handle_action; tests/test_controls.c checks that README.md and docs/CONTROLS.md list
 * the same keys. So a test drives exactly the code path of a key press.
 * It does NOT own the simulation's options: cmd_run.c parses them into run_opts.
 */
#ifndef FLUID_APP_ACTIONS_H
#define FLUID_APP_ACTIONS_H
#include <stdbool.h>

typedef enum app_action {
    APP_QUIT,
    APP_HELP,
    APP_PAUSE,
    APP_STEP,
    APP_RESET,
    APP_SORT_NEXT,
    APP_SORT_RADIX,
    APP_SORT_BITONIC,
    APP_SCENE_1,
    APP_SCENE_2,
    APP_SCENE_3,
    APP_MORE,
    APP_FEWER,
    APP_COLOR,
    APP_STYLE,
    APP_VSYNC,
    APP_SCREENSHOT,
    APP_HUD,
    APP_CAMERA_RESET,
    APP_PAN_LEFT,
    APP_PAN_RIGHT,
    APP_PAN_UP,
    APP_PAN_DOWN,
    APP_ZOOM_IN,
    APP_ZOOM_OUT,
    APP_SOLVER_NEXT,
    APP_RECORD,
    APP_TRACE,
    APP_COMPARE,
    APP_DIFFUSE,
    APP_ACTION_COUNT
} app_action;

/* The one table of the window's controls. A row is a line of the help overlay and of the key
 * tables in README.md and docs/CONTROLS.md (tests/test_controls.c holds them to it), and says
 * what its keys do. A new key: an app_action value above, a line in app_bindings (app_actions.c),
 * a case in app_handle_action, and the same row in both documents. */
#define APP_BINDING_ACTS 4
#define APP_BINDING_KEYS 3
enum {
    APP_HELD = 1,   /* acts every frame while a key is held (pan, zoom), not once a press */
    APP_REPEAT = 2, /* a held key's repeats act too */
};
typedef struct app_binding_act {
    app_action action;
    const char *name;           /* its --script name */
    int keys[APP_BINDING_KEYS]; /* GLFW key codes (0: none) */
} app_binding_act;
typedef struct app_binding {
    const char *keys;                       /* the key column, Markdown as in the docs: "`N` or `.`" */
    const char *help;                       /* the help overlay's text, and the docs' action column */
    unsigned flags;                         /* APP_HELD, APP_REPEAT */
    app_binding_act acts[APP_BINDING_ACTS]; /* none: a mouse gesture, handled by the callbacks */
} app_binding;
extern const app_binding app_bindings[];
extern const int app_binding_count;

/* The action a key press gives (false: none); its row's flags in *flags. */
bool app_key_action(int key, app_action *out, unsigned *flags);
/* The action named `name` in the table (false: none). */
bool app_action_by_name(const char *name, app_action *out);
const char *app_action_name(app_action a);
/* The help overlay's lines, from the table (NULL-terminated, static). */
const char *const *app_help_lines(void);

typedef struct app app;
/* Carries out one action; returns false (with a message on screen and in the log) when it could
 * not (a sim rebuild that failed, a screenshot that could not be written). */
bool app_handle_action(app *a, app_action action);

#endif
