/* fluid: an SPH fluid whose neighbour search is a GPU sort.
 *
 *   fluid [--headless] [options]   the fluid (a window, or headless)      cmd_run.c
 *   fluid sort ...                 sort a file of (key, value) pairs       cmd_sort.c
 *   fluid bench ...                time the GPU sorts against the CPU      cmd_bench.c
 *
 * `fluid --help` and `fluid COMMAND --help` list the options.
 * The radix sort's tuning (FLUID_RADIX_*, FLUID_ONESWEEP_*) is read here, once, for every command.
 */
#include "app/cmd/cmd.h"
#include "core/err.h"
#include "core/log.h"
#include "sort/sort.h"
#include <string.h>

int main(int argc, char **argv) {
    char err[ERR_LEN];
    sort_radix_desc tuning;
    if (!sort_radix_desc_from_env(&tuning, err)) {
        log_error("SORT", "%s", err);
        return 1;
    }
    sort_radix_tuning_set(&tuning);
    if (argc > 1 && strcmp(argv[1], "sort") == 0) return cmd_sort(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "bench") == 0) return cmd_bench(argc - 1, argv + 1);
    return cmd_run(argc, argv);
}
