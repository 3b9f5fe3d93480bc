/* The program's commands; main.c picks one from argv[1].
 *   fluid sort ...      cmd_sort.c    sort a file of pairs on the GPU
 *   fluid bench ...     cmd_bench.c   time the sorts (--sim: cmd_bench_sim.c, the simulation;
 *                                     --render: cmd_bench_render.c, the render styles)
 *   fluid [options]     cmd_run.c     the fluid: a window, or --headless
 * Each returns the process exit status and prints one-line errors itself. argv[0] is the command.
 */
#ifndef FLUID_CMD_H
#define FLUID_CMD_H

int cmd_sort(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_sim(int argc, char **argv);    /* fluid bench --sim (cmd_bench_sim.c): the simulation per frame */
int cmd_bench_render(int argc, char **argv); /* fluid bench --render (cmd_bench_render.c): a frame of each style */
int cmd_run(int argc, char **argv);

#include "gpu/gpu.h"
/* The data folder (--data DIR or found) and a headless GL context, for the benchmark commands;
 * NULL with a one-line error logged (under `tag`) when either fails. */
gpu_ctx *cmd_gpu_headless(const char *data, const char *tag);

#endif
