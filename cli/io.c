/* SPDX-License-Identifier: Apache-2.0 */
/* Inputs read whole (outputs: outfile.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* What stdin was read for (a message's words); empty while unread. */
static char stdin_user[160];

int cli_claim_stdin(const char *what)
{
    if (stdin_user[0])
        return cli_fail(CLI_EXIT_USAGE,
                        "stdin can be used for only one input: it holds %s, so %s cannot come from it too "
                        "(give one of them as a file)",
                        stdin_user, what);
    snprintf(stdin_user, sizeof stdin_user, "%s", what);
    return CLI_EXIT_OK;
}

int cli_fd_is_stdin(int fd)
{
    struct stat a, b;
    if (fd == STDIN_FILENO)
        return 1;
    if (fstat(fd, &a) != 0 || fstat(STDIN_FILENO, &b) != 0)
        return 0;
    if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return 0;
    /* /dev/null, /dev/zero, /dev/urandom: each reader gets bytes of its
     * own, nothing is taken from another; a terminal is shared. */
    return !S_ISCHR(a.st_mode) || isatty(fd);
}

int cli_claim_input(int fd, const char *name, const char *what)
{
    if (!cli_fd_is_stdin(fd))
        return CLI_EXIT_OK;
    if (fd == STDIN_FILENO)
        return cli_claim_stdin(what);
    char words[sizeof stdin_user];
    snprintf(words, sizeof words, "%s (%s, which is stdin)", what, name);
    return cli_claim_stdin(words);
}

int cli_is_std(const char *path)
{
    return path == NULL || strcmp(path, "-") == 0;
}

static const char *display_name(const char *path)
{
    return cli_is_std(path) ? "stdin" : path;
}

void cli_wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void cli_buf_free(cli_buf *buf)
{
    if (buf->data) {
        cli_wipe(buf->data, buf->cap);
        free(buf->data);
    }
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

/* Make room for at least `more` bytes after len. Growing copies into a fresh
 * block and wipes the old one, so no secret is left behind by realloc. */
static int buf_reserve(cli_buf *buf, size_t more)
{
    if (buf->cap - buf->len >= more)
        return 1;
    if (more > SIZE_MAX / 2 - buf->len)
        return 0;
    size_t cap = buf->cap ? buf->cap : 4096;
    while (cap - buf->len < more)
        cap *= 2;
    unsigned char *p = malloc(cap);
    if (!p)
        return 0;
    if (buf->data) {
        memcpy(p, buf->data, buf->len);
        cli_wipe(buf->data, buf->cap);
        free(buf->data);
    }
    buf->data = p;
    buf->cap = cap;
    return 1;
}

int cli_read_file(cli_buf *buf, const char *path)
{
    return cli_read_file_max(buf, path, 0, "the input");
}

int cli_read_file_max(cli_buf *buf, const char *path, size_t max, const char *what)
{
    int fd;
    buf->data = NULL;
    buf->len = buf->cap = 0;
    if (cli_is_std(path)) {
        int rc = cli_claim_stdin(what);
        if (rc != CLI_EXIT_OK)
            return rc;
        fd = STDIN_FILENO;
    } else {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
        int rc = cli_claim_input(fd, path, what);
        if (rc != CLI_EXIT_OK) {
            close(fd);
            return rc;
        }
    }
    struct stat st;
    size_t hint = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX / 4)
        hint = (size_t)st.st_size + 1; /* +1: see end of file without growing */
    if (max && (hint == 0 || hint > max + 1))
        hint = max + 1; /* one byte past the limit tells it is passed */
    int err = 0;
    if (hint && !buf_reserve(buf, hint))
        err = ENOMEM;
    while (!err) {
        if (max && buf->len > max) {
            err = EFBIG; /* stop reading: no parser takes this much */
            break;
        }
        if (buf->len == buf->cap && !buf_reserve(buf, 1)) {
            err = ENOMEM;
            break;
        }
        size_t room = buf->cap - buf->len;
        if (max && room > max + 1 - buf->len)
            room = max + 1 - buf->len;
        ssize_t n = read(fd, buf->data + buf->len, room);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
        } else if (n == 0) {
            break;
        } else {
            buf->len += (size_t)n;
        }
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (err == EFBIG) {
        cli_buf_free(buf);
        return cli_fail(CLI_EXIT_USAGE, "%s is larger than any %s (over %zu bytes): is it the right file?",
                        display_name(path), what, max);
    }
    if (err) {
        cli_buf_free(buf);
        return cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", display_name(path), strerror(err));
    }
    return CLI_EXIT_OK;
}
