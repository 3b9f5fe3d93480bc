/* PLACEHOLDER: replaced by the real command. */
#include "app/cmd.h"
#include "core/log.h"
int cmd_bench(int argc, char **argv) { log_error("CLI", "'bench' is not built yet"); return 1; }
