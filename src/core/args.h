/* args: the one command-line parser of every command (fluid, fluid sort, fluid bench). A
 * command is a static table, one line per flag, which gives both the parsing and the help:
 *
 *   static const args_opt _sort_args[] = {
 *       {"--algo", "NAME", ARGS_AT(my_opts, algo), args_string, 0, 0, "radix (default), bitonic or cpu"},
 *       {"--bits", "B", ARGS_AT(my_opts, bits), args_u32, 1, 32, "keys fit in B bits"},
 *       {"--detail", NULL, ARGS_AT(my_opts, detail), args_flag, 0, 0, "time every dispatch"},
 *   };
 *   if (!args_parse("fluid sort", _sort_args, ARRAY_LEN(_sort_args), &opts, argc, argv, &help, err)) ...
 *   if (help) args_help(stdout, _sort_args, ARRAY_LEN(_sort_args));
 *
 * Adding a flag is adding a line (a setter of its own where the built-in ones do not fit).
 *
 * Rules, the same for every command:
 *   --name VALUE or --name=VALUE; a VALUE that is missing, empty or starts with "--" is an error
 *     ("--stats --headless" never writes a file named --headless); "-" alone is a value (stdout).
 *   Numbers are whole, decimal, with an optional k (1024) or M (1048576), checked for overflow and
 *     against [lo, hi]; the help prints that range from the same table.
 *   -h / --help stops parsing and sets *help.
 *   An unknown option or a stray argument is an error naming it.
 * Errors: args_parse returns false with one line in err; the command prints it and exits 1 (the
 * exit status of every user error).
 * It does NOT touch files or the GPU.
 */
#ifndef FLUID_ARGS_H
#define FLUID_ARGS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct args_opt args_opt;
/* Stores `value` (NULL for a flag without a value) into `field`; false with err. */
typedef bool (*args_setter)(const args_opt *opt, void *field, const char *value, char *err);

struct args_opt {
    const char *name;  /* "--particles" */
    const char *value; /* the value's name in the help ("N", "FILE"); NULL: takes no value */
    size_t at;         /* ARGS_AT(struct, field): where the setter writes */
    args_setter set;
    uint64_t lo, hi;  /* the range of a number (args_u32, args_int, args_u64); shown in the help */
    const char *help; /* the help text ('\n' for more lines); NULL: not shown (hidden test options) */
};

#define ARGS_AT(type, field) offsetof(type, field)

/* Built-in setters. */
bool args_flag(const args_opt *opt, void *field, const char *value, char *err);   /* bool = true */
bool args_string(const args_opt *opt, void *field, const char *value, char *err); /* const char * = value */
bool args_u32(const args_opt *opt, void *field, const char *value, char *err);    /* uint32_t in [lo, hi] */
bool args_int(const args_opt *opt, void *field, const char *value, char *err);    /* int in [lo, hi] */
bool args_u64(const args_opt *opt, void *field, const char *value, char *err);    /* uint64_t in [lo, hi] */
/* "WxH", each from lo to hi: field is int[2]. */
bool args_size(const args_opt *opt, void *field, const char *value, char *err);

/* Parses argv[1..] (argv[0] is the command, `cmd` its name for messages: "fluid sort") into the
 * struct at `base`. */
bool args_parse(const char *cmd, const args_opt *opts, size_t count, void *base, int argc, char **argv, bool *help, char *err);
/* The option lines of the help, from the table. */
void args_help(FILE *f, const args_opt *opts, size_t count);

#endif
