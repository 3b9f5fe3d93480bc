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
#include "core/streams.h"
#include "sort/sort.h"
#include <string.h>

int main(int argc, char **argv) {
    streams_open_std(); /* before anything opens a file: a closed 2 must not become an output */
    char err[ERR_LEN];
    sort_radix_desc tuning;
    if (!sort_radix_desc_from_env(&tuning, err)) {
        log_error("SORT", "%s", err);
        return streams_close_std(1);
    }
    sort_radix_tuning_set(&tuning);
    int rc;
    if (argc > 1 && strcmp(argv[1], "sort") == 0) rc = cmd_sort(argc - 1, argv + 1);
    else if (argc > 1 && strcmp(argv[1], "bench") == 0) rc = cmd_bench(argc - 1, argv + 1);
    else rc = cmd_run(argc, argv);
    return streams_close_std(rc);
}
