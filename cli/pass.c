/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Passwords for encrypted key files, from the sources `openssl` takes
 * (--passin / --passout): pass:PASSWORD, env:VAR, file:PATH (its first
 * line), fd:N (its first line), stdin (its first line), or, when none is
 * given, a prompt on the terminal (/dev/tty) with echo off.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

#define PASS_MAX 1024

/* Read the first line of fd into pw (at most PASS_MAX bytes, without its
 * line break). 0 or an errno value. */
static int read_line_fd(cli_buf *pw, int fd)
{
    pw->data = malloc(PASS_MAX + 1);
    if (!pw->data)
        return ENOMEM;
    pw->cap = PASS_MAX + 1;
    pw->len = 0;
    for (;;) {
        unsigned char c;
        ssize_t n = read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0 || c == '\n')
            break;
        if (pw->len == PASS_MAX)
            return E2BIG;
        pw->data[pw->len++] = c;
    }
    if (pw->len > 0 && pw->data[pw->len - 1] == '\r')
        pw->len--;
    pw->data[pw->len] = 0;
    return 0;
}

static int set_literal(cli_buf *pw, const char *s)
{
    size_t n = strlen(s);
    pw->data = malloc(n + 1);
    if (!pw->data)
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    memcpy(pw->data, s, n + 1);
    pw->len = n;
    pw->cap = n + 1;
    return CLI_EXIT_OK;
}

/* Ask on the terminal, echo off. */
static int prompt_tty(cli_buf *pw, const char *prompt)
{
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct termios old, quiet;
    int have_tc = tcgetattr(fd, &old) == 0;
    if (have_tc) {
        quiet = old;
        quiet.c_lflag &= (tcflag_t) ~(ECHO | ECHONL);
        quiet.c_lflag |= ICANON;
        /* TCSANOW, not TCSAFLUSH: a password typed (or sent) ahead of the
         * prompt is the answer, not noise to discard */
        tcsetattr(fd, TCSANOW, &quiet);
    }
    if (write(fd, prompt, strlen(prompt)) < 0) {
        /* the prompt is a courtesy; go on reading */
    }
    int err = read_line_fd(pw, fd);
    if (have_tc)
        tcsetattr(fd, TCSANOW, &old);
    if (write(fd, "\n", 1) < 0) {
        /* as above */
    }
    close(fd);
    return err;
}

int cli_password(cli_buf *pw, const char *spec, const char *what, int confirm)
{
    memset(pw, 0, sizeof(*pw));
    if (spec == NULL) {
        char prompt[256];
        snprintf(prompt, sizeof prompt, "Enter the password for %s: ", what);
        int err = prompt_tty(pw, prompt);
        if (err < 0)
            return cli_fail(CLI_EXIT_USAGE,
                            "%s needs a password (an encrypted private key) and there is no terminal to "
                            "ask on: give it with --pass%s pass:PASSWORD, env:VAR, file:PATH, fd:N or stdin",
                            what, confirm ? "out" : "in");
        if (err == 0 && confirm) {
            cli_buf again;
            memset(&again, 0, sizeof again);
            snprintf(prompt, sizeof prompt, "Again, to confirm: ");
            err = prompt_tty(&again, prompt);
            if (err == 0 && (again.len != pw->len || memcmp(again.data, pw->data, pw->len) != 0)) {
                cli_buf_free(&again);
                cli_buf_free(pw);
                return cli_fail(CLI_EXIT_USAGE, "the two passwords differ");
            }
            cli_buf_free(&again);
        }
        if (err != 0) {
            cli_buf_free(pw);
            return cli_fail(CLI_EXIT_USAGE, "cannot read the password: %s", strerror(err));
        }
        return CLI_EXIT_OK;
    }
    if (strncmp(spec, "pass:", 5) == 0)
        return set_literal(pw, spec + 5);
    if (strncmp(spec, "env:", 4) == 0) {
        const char *v = getenv(spec + 4);
        if (!v)
            return cli_fail(CLI_EXIT_USAGE, "the environment variable %s (for the password) is not set", spec + 4);
        return set_literal(pw, v);
    }
    int fd = -1, close_it = 0;
    if (strncmp(spec, "file:", 5) == 0) {
        fd = open(spec + 5, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return cli_fail(CLI_EXIT_USAGE, "cannot read the password file %s: %s", spec + 5, strerror(errno));
        close_it = 1;
    } else if (strncmp(spec, "fd:", 3) == 0) {
        char *end;
        long n = strtol(spec + 3, &end, 10);
        if (spec[3] == 0 || *end != 0 || n < 0 || n > 65535)
            return cli_fail(CLI_EXIT_USAGE, "bad password source '%s': fd:N takes a file descriptor number", spec);
        fd = (int)n;
    } else if (strcmp(spec, "stdin") == 0) {
        fd = STDIN_FILENO;
    } else {
        return cli_fail(CLI_EXIT_USAGE,
                        "bad password source '%s': use pass:PASSWORD, env:VAR, file:PATH, fd:N or stdin", spec);
    }
    /* stdin holds one input: a key read from it leaves no password after
     * it (the empty rest would be taken as an empty password). */
    if (!close_it && fd == STDIN_FILENO) {
        int rc = cli_claim_stdin("the password");
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    int err = read_line_fd(pw, fd);
    if (close_it)
        close(fd);
    if (err != 0) {
        cli_buf_free(pw);
        return cli_fail(CLI_EXIT_USAGE, "cannot read the password from %s: %s", spec,
                        err == E2BIG ? "longer than 1024 bytes" : strerror(err));
    }
    return CLI_EXIT_OK;
}
