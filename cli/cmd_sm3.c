/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 sm3: SM3 digests (GB/T 32905) in the format of sha256sum. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define CHUNK (256 * 1024)

/* Hash a file (or stdin for "-") as a stream. 0, or an errno value. */
static int hash_file(unsigned char digest[FASTSM2_SM3_DIGEST_SIZE], const char *path, unsigned char *chunk)
{
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    fastsm2_sm3_ctx ctx;
    fastsm2_sm3_init(&ctx);
    int err = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            err = errno;
        if (n <= 0)
            break;
        fastsm2_sm3_update(&ctx, chunk, (size_t)n);
    }
    if (fd != STDIN_FILENO)
        close(fd);
    fastsm2_sm3_final(digest, &ctx);
    return err;
}

/* "<hex>  <name>"; as in coreutils, a name holding a backslash or a line
 * break is escaped and the line starts with a backslash. */
static void print_line(const unsigned char digest[FASTSM2_SM3_DIGEST_SIZE], const char *name)
{
    int escape = strpbrk(name, "\\\n\r") != NULL;
    if (escape)
        putchar('\\');
    for (int i = 0; i < FASTSM2_SM3_DIGEST_SIZE; i++)
        printf("%02x", digest[i]);
    fputs("  ", stdout);
    for (const char *p = name; *p; p++) {
        if (escape && *p == '\\')
            fputs("\\\\", stdout);
        else if (escape && *p == '\n')
            fputs("\\n", stdout);
        else if (escape && *p == '\r')
            fputs("\\r", stdout);
        else
            putchar(*p);
    }
    putchar('\n');
}

int cmd_sm3(int argc, char **argv)
{
    char **files = malloc(sizeof(char *) * (size_t)argc);
    unsigned char *chunk = malloc(CHUNK);
    if (!files || !chunk) {
        free(files);
        free(chunk);
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    }
    int nfiles = 0, failed = 0;
    int rc = cli_parse_options(argc, argv, NULL, 0, files, &nfiles);
    if (rc == CLI_EXIT_OK && nfiles == 0)
        files[nfiles++] = "-";
    for (int i = 0; rc == CLI_EXIT_OK && i < nfiles; i++) {
        unsigned char digest[FASTSM2_SM3_DIGEST_SIZE];
        int err = hash_file(digest, files[i], chunk);
        if (err) {
            /* Go on with the other files, as sha256sum does; exit 2 at the end. */
            cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", strcmp(files[i], "-") ? files[i] : "stdin",
                     strerror(err));
            failed = 1;
            continue;
        }
        print_line(digest, files[i]);
    }
    if (rc == CLI_EXIT_OK && failed)
        rc = CLI_EXIT_USAGE;
    free(files);
    free(chunk);
    return rc;
}
