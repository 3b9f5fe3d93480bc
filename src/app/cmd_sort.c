/* PLACEHOLDER: replaced by the real command. */
#include "app/cmd.h"
#include "core/log.h"
int cmd_sort(int argc, char **argv) { log_error("CLI", "'sort' is not built yet"); return 1; }
