/* SPDX-License-Identifier: Apache-2.0 */
/* The option parser shared by every subcommand: long options only,
 * "--opt VALUE" or "--opt=VALUE", switches, "--" ends the options. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_option *find_option(const cli_option *opts, size_t nopts, const char *arg, size_t namelen)
{
    for (size_t i = 0; i < nopts; i++)
        if (strlen(opts[i].name) == namelen && memcmp(opts[i].name, arg, namelen) == 0)
            return &opts[i];
    return NULL;
}

int cli_parse_options(int argc, char **argv, const cli_option *opts, size_t nopts, char **operands, int *noperands)
{
    int nops = 0, only_operands = 0;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        int is_option = !only_operands && arg[0] == '-' && arg[1] != '\0';
        if (!is_option) {
            if (!operands)
                return cli_fail(CLI_EXIT_USAGE, "unexpected argument '%s' (try --help)", arg);
            operands[nops++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            cli_command_help();
            exit(CLI_EXIT_OK);
        }
        const char *eq = strchr(arg, '=');
        size_t namelen = eq ? (size_t)(eq - arg) : strlen(arg);
        const cli_option *o = find_option(opts, nopts, arg, namelen);
        if (!o)
            return cli_fail(CLI_EXIT_USAGE, "unknown option '%.*s' (try --help)", (int)namelen, arg);
        if (o->flag) {
            if (eq)
                return cli_fail(CLI_EXIT_USAGE, "option %s takes no value", o->name);
            *o->flag = 1;
            continue;
        }
        const char *value;
        if (eq) {
            value = eq + 1;
        } else {
            if (i + 1 >= argc)
                return cli_fail(CLI_EXIT_USAGE, "option %s needs a value", o->name);
            value = argv[++i];
        }
        if (*o->value)
            return cli_fail(CLI_EXIT_USAGE, "option %s given twice", o->name);
        *o->value = value;
    }
    if (noperands)
        *noperands = nops;
    return CLI_EXIT_OK;
}

int cli_require(const char *value, const char *name)
{
    if (!value)
        return cli_fail(CLI_EXIT_USAGE, "%s is required (try --help)", name);
    return CLI_EXIT_OK;
}
