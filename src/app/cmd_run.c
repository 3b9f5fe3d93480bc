/* PLACEHOLDER: replaced by the real command. */
#include "app/cmd.h"
#include "core/log.h"
int cmd_run(int argc, char **argv) { log_error("CLI", "'run' is not built yet"); return 1; }
