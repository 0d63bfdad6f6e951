/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Passwords for encrypted key files, from the sources `openssl` takes
 * (--passin / --passout): pass:PASSWORD, env:VAR, file:PATH (its first
 * line), fd:N (its first line), stdin (its first line), or, when none is
 * given, a prompt on the terminal (/dev/tty) with echo off.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction under -std=c11 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

#define PASS_MAX FASTSM2_PASSWORD_MAX

/* Read the first line of fd into buf (at most cap bytes, without its line
 * break); its length in *len. 0 or an errno value (E2BIG: too long). */
static int read_line_into(unsigned char *buf, size_t cap, size_t *len, int fd)
{
    size_t n = 0;
    for (;;) {
        unsigned char c;
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0 || c == '\n')
            break;
        if (n == cap)
            return E2BIG;
        buf[n++] = c;
        c = 0;
    }
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    *len = n;
    return 0;
}

/* ---- the terminal: echo off while the password is typed, back on
 * whatever ends the prompt (a signal included) and while the job is
 * stopped (Ctrl-Z) ------------------------------------------------------- */

static int tty_fd = -1;
static struct termios tty_saved, tty_silent;
static volatile sig_atomic_t tty_quiet; /* echo is off: restore on exit */
static const char *tty_prompt;          /* asked again after a stop */
static size_t tty_prompt_len;
static const int tty_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP};
#define TTY_NSIG (sizeof tty_signals / sizeof tty_signals[0])
static struct sigaction tty_old[TTY_NSIG];
static int tty_caught[TTY_NSIG];

static void tty_restore(void)
{
    if (tty_quiet) {
        tcsetattr(tty_fd, TCSANOW, &tty_saved);
        tty_quiet = 0;
    }
}

/* A fatal signal at the prompt: the terminal as it was, then the action
 * the signal had before (default: the process dies of it; outfile.c's
 * handler: it removes its temporary files first). The signal raised here
 * is blocked until this handler returns, then delivered to that action. */
static void tty_on_signal(int sig)
{
    int saved = errno;
    tty_restore();
    for (size_t i = 0; i < TTY_NSIG; i++)
        if (tty_signals[i] == sig)
            sigaction(sig, &tty_old[i], NULL);
    raise(sig);
    errno = saved;
}

/* Ctrl-Z (SIGTSTP) at the prompt: the terminal as it was, stop (the
 * default action, unblocked here for that moment), and once continued
 * (fg) echo off again and the prompt again: the kernel dropped the line
 * typed so far. Back in the background (bg), setting the terminal stops
 * the job (SIGTTOU, not blocked here) until it is in the foreground. */
static void tty_on_stop(int sig)
{
    int saved = errno;
    struct sigaction dfl, mine;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    if (tty_quiet)
        tcsetattr(tty_fd, TCSANOW, &tty_saved);
    sigaction(sig, &dfl, &mine);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    raise(sig); /* pending: blocked in this handler */
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    /* stopped here until SIGCONT */
    sigprocmask(SIG_BLOCK, &only, NULL);
    sigaction(sig, &mine, NULL);
    if (tty_quiet) {
        tcsetattr(tty_fd, TCSANOW, &tty_silent);
        if (write(tty_fd, tty_prompt, tty_prompt_len) < 0) {
            /* the prompt is a courtesy */
        }
    }
    errno = saved;
}

static void tty_catch(void)
{
    struct sigaction sa;
    for (size_t i = 0; i < TTY_NSIG; i++) {
        tty_caught[i] = 0;
        /* A signal the caller ignores (nohup) stays ignored. */
        if (sigaction(tty_signals[i], NULL, &tty_old[i]) != 0 || tty_old[i].sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        if (tty_signals[i] == SIGTSTP) {
            /* the fatal signals wait; SIGTTOU may stop it in the handler */
            sa.sa_handler = tty_on_stop;
            sigemptyset(&sa.sa_mask);
            for (size_t j = 0; j < TTY_NSIG; j++)
                sigaddset(&sa.sa_mask, tty_signals[j]);
        } else {
            sa.sa_handler = tty_on_signal;
            sigfillset(&sa.sa_mask);
        }
        tty_caught[i] = sigaction(tty_signals[i], &sa, NULL) == 0;
    }
}

static void tty_release(void)
{
    for (size_t i = 0; i < TTY_NSIG; i++)
        if (tty_caught[i])
            sigaction(tty_signals[i], &tty_old[i], NULL);
}

/* Ask on the terminal, echo off; -1 when there is no terminal, else 0 or an
 * errno value. */
static int prompt_tty(unsigned char *buf, size_t cap, size_t *len, const char *prompt)
{
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int have_tc = tcgetattr(fd, &tty_saved) == 0;
    if (have_tc) {
        tty_fd = fd;
        tty_prompt = prompt;
        tty_prompt_len = strlen(prompt);
        tty_silent = tty_saved;
        tty_silent.c_lflag &= (tcflag_t) ~(ECHO | ECHONL);
        tty_silent.c_lflag |= ICANON;
        tty_catch();
        /* TCSANOW, not TCSAFLUSH: a password typed (or sent) ahead of the
         * prompt is the answer, not noise to discard */
        tty_quiet = 1;
        tcsetattr(fd, TCSANOW, &tty_silent);
    }
    if (write(fd, prompt, strlen(prompt)) < 0) {
        /* the prompt is a courtesy; go on reading */
    }
    int err = read_line_into(buf, cap, len, fd);
    if (have_tc) {
        tty_restore();
        tty_release();
        tty_fd = -1;
    }
    if (write(fd, "\n", 1) < 0) {
        /* as above */
    }
    close(fd);
    return err;
}

static int too_long(const char *from)
{
    return cli_fail(CLI_EXIT_USAGE, "the password from %s is longer than %d bytes", from, PASS_MAX);
}

int cli_password_into(unsigned char *buf, size_t cap, size_t *len, const char *spec, const char *what, int confirm)
{
    *len = 0;
    cli_secrets_held();
    if (spec == NULL) {
        char prompt[256];
        snprintf(prompt, sizeof prompt, "Enter the password for %s: ", what);
        int err = prompt_tty(buf, cap, len, prompt);
        if (err < 0)
            return cli_fail(CLI_EXIT_USAGE,
                            "%s needs a password (an encrypted private key) and there is no terminal to "
                            "ask on: give it with --pass%s pass:PASSWORD, env:VAR, file:PATH, fd:N or stdin",
                            what, confirm ? "out" : "in");
        if (err == 0 && confirm) {
            unsigned char again[PASS_MAX];
            size_t alen = 0;
            err = prompt_tty(again, sizeof again, &alen, "Again, to confirm: ");
            int differ = err == 0 && (alen != *len || memcmp(again, buf, alen) != 0);
            cli_wipe(again, sizeof again);
            if (differ) {
                cli_wipe(buf, cap);
                *len = 0;
                return cli_fail(CLI_EXIT_USAGE, "the two passwords differ");
            }
        }
        if (err != 0) {
            cli_wipe(buf, cap);
            *len = 0;
            if (err == E2BIG)
                return too_long("the terminal");
            return cli_fail(CLI_EXIT_USAGE, "cannot read the password: %s", strerror(err));
        }
        return CLI_EXIT_OK;
    }
    if (strncmp(spec, "pass:", 5) == 0 || strncmp(spec, "env:", 4) == 0) {
        const char *v = spec + 5;
        if (spec[0] == 'e') {
            v = getenv(spec + 4);
            if (!v)
                return cli_fail(CLI_EXIT_USAGE, "the environment variable %s (for the password) is not set", spec + 4);
        }
        size_t n = strlen(v);
        if (n > cap)
            return too_long(spec[0] == 'e' ? "the environment" : "the command line");
        memcpy(buf, v, n);
        *len = n;
        /* The command line's copy is not needed again: wiped, it leaves
         * neither a core file nor /proc/PID/cmdline from now on. */
        if (spec[0] == 'p')
            cli_wipe((char *)v, n);
        return CLI_EXIT_OK;
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
     * it (the empty rest would be taken as an empty password). By any name:
     * file:/dev/stdin, fd:3 duplicated from 0, ... */
    int rc = cli_claim_input(fd, spec, "the password");
    if (rc != CLI_EXIT_OK) {
        if (close_it)
            close(fd);
        return rc;
    }
    int err = read_line_into(buf, cap, len, fd);
    if (close_it)
        close(fd);
    if (err != 0) {
        cli_wipe(buf, cap);
        *len = 0;
        if (err == E2BIG)
            return too_long(spec);
        return cli_fail(CLI_EXIT_USAGE, "cannot read the password from %s: %s", spec, strerror(err));
    }
    return CLI_EXIT_OK;
}

int cli_password(cli_buf *pw, const char *spec, const char *what, int confirm)
{
    memset(pw, 0, sizeof(*pw));
    pw->data = malloc(PASS_MAX + 1);
    if (!pw->data)
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    pw->cap = PASS_MAX + 1;
    int rc = cli_password_into(pw->data, PASS_MAX, &pw->len, spec, what, confirm);
    if (rc != CLI_EXIT_OK)
        cli_buf_free(pw);
    return rc;
}
