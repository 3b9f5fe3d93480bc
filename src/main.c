/* fluid: an SPH fluid whose neighbour search is a GPU sort.
 *
 *   fluid [--headless] [options]   the fluid (a window, or headless)      cmd_run.c
 *   fluid sort ...                 sort a file of (key, value) pairs       cmd_sort.c
 *   fluid bench ...                time the GPU sorts against the CPU      cmd_bench.c
 *
 * `fluid --help` and `fluid COMMAND --help` list the options.
 */
#include "app/cmd.h"
#include "core/streams.h"
#include <string.h>

int main(int argc, char **argv) {
    streams_open_std(); /* before anything opens a file: a closed 2 must not become an output */
    int rc;
    if (argc > 1 && strcmp(argv[1], "sort") == 0) rc = cmd_sort(argc - 1, argv + 1);
    else if (argc > 1 && strcmp(argv[1], "bench") == 0) rc = cmd_bench(argc - 1, argv + 1);
    else rc = cmd_run(argc, argv);
    return streams_close_std(rc);
}
