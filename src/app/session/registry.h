/* registry: the app's words for the four families, read from their registries so that help text,
 * error messages and key cycles never list a name twice:
 *   sorts    sort_algos[]    (src/sort/sort.c)
 *   solvers  sim_solvers[]   (src/sim/sim.c)
 *   scenes   sim_scenes[]    (src/sim/scene.c)
 *   styles   render_styles[] (src/render/render_style.c)
 *
 *   registry_list(REGISTRY_SORTS)   -> "radix (default), onesweep, counting, bitonic or cpu"
 *   registry_find(REGISTRY_SCENES, "drop") -> 1 (-1: unknown)
 *
 * The first entry of each registry is the default. It does NOT own the registries.
 */
#ifndef FLUID_APP_REGISTRY_H
#define FLUID_APP_REGISTRY_H
#include <stddef.h>

typedef enum registry_family {
    REGISTRY_SORTS,
    REGISTRY_SOLVERS,
    REGISTRY_SCENES,
    REGISTRY_STYLES,
    REGISTRY_COUNT
} registry_family;

int registry_count(registry_family f);
const char *registry_name(registry_family f, int i); /* the name a flag or --script takes */
int registry_find(registry_family f, const char *name);
/* "a (default), b, c or d" (static buffer per family). */
const char *registry_list(registry_family f);
/* The same, with " -> " between the names and no "(default)": a key's cycle. */
const char *registry_cycle(registry_family f);
/* The names with sep between them ("radix|onesweep|..."), into buf; returns buf. */
const char *registry_join(registry_family f, const char *sep, char *buf, size_t len);
/* The entry's one-line summary (the registry's own words; "" where it has none). */
const char *registry_summary(registry_family f, int i);

#endif
