/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 speed: run fastsm2-speed, which sits next to this program (it links
 * OpenSSL for the side-by-side figures; this program does not). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define SPEED_NAME "fastsm2-speed"

int cmd_speed(int argc, char **argv)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n < 0)
        return cli_fail(CLI_EXIT_USAGE, "cannot find this program (/proc/self/exe): %s", strerror(errno));
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    size_t dirlen = slash ? (size_t)(slash - self) + 1 : 0;
    char path[PATH_MAX + sizeof(SPEED_NAME)];
    snprintf(path, sizeof(path), "%.*s%s", (int)dirlen, self, SPEED_NAME);

    /* argv[0] becomes the benchmark's path; its arguments are ours after
     * "speed", untouched. argv is NULL-terminated, as main() received it. */
    argv[0] = path;
    (void)argc;
    fflush(stdout);
    execv(path, argv);
    if (errno == ENOENT)
        return cli_fail(CLI_EXIT_USAGE,
                        "cannot run %s: %s (the benchmark is built only with FASTSM2_BENCH=ON, "
                        "and links OpenSSL 3)",
                        path, strerror(errno));
    return cli_fail(CLI_EXIT_USAGE, "cannot run %s: %s", path, strerror(errno));
}
