/* registry: the families' names, read from their registries (see registry.h). */
#include "app/session/registry.h"
#include "core/util.h"
#include "render/render_style.h"
#include "sim/scene.h"
#include "sim/solver.h"
#include "sort/sort.h"
#include <stdio.h>
#include <string.h>

int registry_count(registry_family f) {
    int n = 0;
    switch (f) {
    case REGISTRY_SORTS: return sort_algo_count;
    case REGISTRY_SOLVERS:
        while (sim_solvers[n]) n++;
        return n;
    case REGISTRY_SCENES: return sim_scene_count;
    case REGISTRY_STYLES: return RENDER_STYLE_COUNT;
    case REGISTRY_COUNT: break;
    }
    return 0;
}

const char *registry_name(registry_family f, int i) {
    if (i < 0 || i >= registry_count(f)) return NULL;
    switch (f) {
    case REGISTRY_SORTS: return sort_algos[i]->name;
    case REGISTRY_SOLVERS: return sim_solvers[i]->name;
    case REGISTRY_SCENES: return sim_scenes[i].name;
    case REGISTRY_STYLES: return render_styles[i]->key;
    case REGISTRY_COUNT: break;
    }
    return NULL;
}

int registry_find(registry_family f, const char *name) {
    for (int i = 0; name && i < registry_count(f); i++)
        if (strcmp(registry_name(f, i), name) == 0) return i;
    return -1;
}

/* The family's names, in registry order (at most 32). */
static int _registry_names(registry_family f, const char **names) {
    int n = registry_count(f) < 32 ? registry_count(f) : 32;
    for (int i = 0; i < n; i++) names[i] = registry_name(f, i);
    return n;
}

static const char *_registry_join(registry_family f, bool cycle, char *buf, size_t len) {
    const char *names[32];
    char first[128];
    int n = _registry_names(f, names);
    if (!cycle && n) { /* "a (default), b or c" */
        snprintf(first, sizeof first, "%s (default)", names[0]);
        names[0] = first;
    }
    names_join(buf, len, names, 0, n, cycle ? " -> " : ", ", cycle ? NULL : " or ");
    return buf;
}

const char *registry_list(registry_family f) {
    static char lists[REGISTRY_COUNT][256];
    return _registry_join(f, false, lists[f], sizeof lists[f]);
}

const char *registry_cycle(registry_family f) {
    static char lists[REGISTRY_COUNT][256];
    return _registry_join(f, true, lists[f], sizeof lists[f]);
}

const char *registry_join(registry_family f, const char *sep, char *buf, size_t len) {
    const char *names[32];
    names_join(buf, len, names, 0, _registry_names(f, names), sep, NULL);
    return buf;
}

const char *registry_summary(registry_family f, int i) {
    if (i < 0 || i >= registry_count(f)) return "";
    switch (f) {
    case REGISTRY_SORTS: return sort_algos[i]->summary ? sort_algos[i]->summary : "";
    case REGISTRY_SOLVERS: return sim_solvers[i]->summary ? sim_solvers[i]->summary : "";
    case REGISTRY_SCENES: return sim_scenes[i].summary ? sim_scenes[i].summary : "";
    case REGISTRY_STYLES: return render_styles[i]->name;
    case REGISTRY_COUNT: break;
    }
    return "";
}
