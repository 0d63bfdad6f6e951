/* SPDX-License-Identifier: Apache-2.0 */
/* Inputs read whole; outputs written whole or not at all. */
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

static int stdin_used;

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
    int fd;
    buf->data = NULL;
    buf->len = buf->cap = 0;
    if (cli_is_std(path)) {
        if (stdin_used)
            return cli_fail(CLI_EXIT_USAGE, "stdin can be used for only one input");
        stdin_used = 1;
        fd = STDIN_FILENO;
    } else {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    }
    struct stat st;
    size_t hint = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size < SIZE_MAX / 4)
        hint = (size_t)st.st_size + 1; /* +1: see end of file without growing */
    int err = 0;
    if (hint && !buf_reserve(buf, hint))
        err = ENOMEM;
    while (!err) {
        if (buf->len == buf->cap && !buf_reserve(buf, 1)) {
            err = ENOMEM;
            break;
        }
        ssize_t n = read(fd, buf->data + buf->len, buf->cap - buf->len);
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
    if (err) {
        cli_buf_free(buf);
        return cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", display_name(path), strerror(err));
    }
    return CLI_EXIT_OK;
}

static int write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* "dir/.name.XXXXXX" beside path. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    return t;
}

static mode_t default_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* path with its symbolic links followed, as open(O_CREAT) follows them, so
 * that the rename replaces the target and not the link. The target need not
 * exist yet. A new string, or NULL with errno set. */
static char *resolve_links(const char *path)
{
    char *cur = strdup(path);
    for (int depth = 0; cur && depth < 40; depth++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* not a link (or not there yet): this is the file */
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof(target) - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        target[n] = '\0';
        /* A relative target is relative to the link's directory. */
        const char *slash = strrchr(cur, '/');
        size_t dirlen = (target[0] != '/' && slash) ? (size_t)(slash - cur) + 1 : 0;
        size_t len = dirlen + (size_t)n + 1;
        char *next = malloc(len);
        if (next)
            snprintf(next, len, "%.*s%s", (int)dirlen, cur, target);
        free(cur);
        cur = next;
    }
    if (cur) {
        free(cur);
        errno = ELOOP;
        return NULL;
    }
    errno = ENOMEM;
    return NULL;
}

void cli_out_abort(cli_out *out)
{
    if (out->tmp) {
        unlink(out->tmp);
        free(out->tmp);
    }
    free(out->path);
    memset(out, 0, sizeof(*out));
}

int cli_out_stage(cli_out *out, const char *path, const void *data, size_t len, int secret)
{
    memset(out, 0, sizeof(*out));
    out->data = data;
    out->len = len;
    if (cli_is_std(path)) {
        out->direct = 1;
        return CLI_EXIT_OK;
    }
    /* Write through a symlink to its target, as `>` would; write straight
     * into an existing non-regular file (a device, a FIFO), which a rename
     * would replace. Everything else goes through a temporary file. */
    out->path = resolve_links(path);
    if (!out->path)
        return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
    struct stat st;
    if (stat(out->path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            cli_out_abort(out);
            return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(EISDIR));
        }
        out->direct = 1;
        return CLI_EXIT_OK;
    }
    out->tmp = temp_name(out->path);
    if (!out->tmp) {
        cli_out_abort(out);
        return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(ENOMEM));
    }
    int fd = mkstemp(out->tmp); /* mode 0600 */
    if (fd < 0) {
        int e = errno;
        free(out->tmp);
        out->tmp = NULL;
        cli_out_abort(out);
        return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(e));
    }
    int err = 0;
    if (!secret && fchmod(fd, default_mode()) != 0)
        err = errno;
    if (!err && write_all(fd, data, len) != 0)
        err = errno;
    if (!err && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (err) {
        cli_out_abort(out);
        return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(err));
    }
    return CLI_EXIT_OK;
}

int cli_out_commit(cli_out *out)
{
    int err = 0;
    const char *name = out->path ? out->path : "stdout";
    if (out->direct && !out->path) {
        fflush(stdout);
        if (write_all(STDOUT_FILENO, out->data, out->len) != 0)
            err = errno;
    } else if (out->direct) {
        int fd = open(out->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0 || write_all(fd, out->data, out->len) != 0)
            err = errno;
        if (fd >= 0 && close(fd) != 0 && !err)
            err = errno;
    } else if (rename(out->tmp, out->path) != 0) {
        err = errno;
    } else {
        free(out->tmp);
        out->tmp = NULL;
    }
    int rc = err ? cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", name, strerror(err))
                 : CLI_EXIT_OK;
    cli_out_abort(out);
    return rc;
}

int cli_write_file(const char *path, const void *data, size_t len, int secret)
{
    cli_out out;
    int rc = cli_out_stage(&out, path, data, len, secret);
    if (rc != CLI_EXIT_OK)
        return rc;
    return cli_out_commit(&out);
}
