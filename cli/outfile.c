/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Output files: written whole or not at all, never readable by others
 * before they are complete, never left behind by an interrupted run.
 *
 *  - A regular destination (or a new one) is written into a temporary file
 *    in its directory: an unnamed one (O_TMPFILE) where the kernel and the
 *    file system have it, which vanishes with the process whatever kills
 *    it; else a named ".<name>.XXXXXX" that SIGINT, SIGTERM, SIGHUP, SIGQUIT
 *    and SIGPIPE remove. Either has mode 0600 until commit.
 *  - Commit gives the file its final mode, syncs it and renames it into
 *    place (an unnamed file is first linked under a temporary name). The
 *    final mode: an existing destination's own (never widened; a secret
 *    never more than 0600); for a new file 0666, or 0600 for a secret,
 *    less the umask.
 *  - Anything else (stdout, a device, a FIFO) is written at commit, as it
 *    cannot be replaced or taken back.
 *
 * The rename must not let the CLI do what `>` could not (the kernel checks
 * the target's permissions at open, not at a rename in the directory):
 *  - each symbolic link on the way is followed only where the kernel's
 *    protected-symlinks rule allows it (fs.protected_symlinks = 1), whether
 *    or not that rule is on: a link in a sticky world-writable directory
 *    is followed only if the caller or the directory's owner owns it;
 *  - an existing target must open for writing (as `>` opens it): a file
 *    the caller may not write is refused, not replaced;
 *  - the replacement keeps the target's owner and group (and mode, a secret
 *    narrowed to 0600); where the caller cannot give the new file the
 *    target's owner (another user's file the caller may write), the file
 *    is written in place as `>` writes it (not atomically), and a secret is
 *    refused rather than written into a file another user owns.
 */
#define _GNU_SOURCE /* O_TMPFILE, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- temporary names removed on a fatal signal ----------------------- */

#define SLOTS 4
static char slot_name[SLOTS][PATH_MAX];
static volatile sig_atomic_t slot_used[SLOTS];
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

static void on_fatal_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i])
            unlink(slot_name[i]);
    /* Die of the signal, as without the handler (it is blocked until the
     * handler returns). */
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

static void install_handlers(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction old;
        /* A signal the caller ignores (nohup) stays ignored. */
        if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

static void block_fatal(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaddset(&set, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Put name in a free slot: -1 if none is free or it is too long (then it
 * would survive a signal; never the case for the CLI's at most two). */
static int slot_add(const char *name)
{
    size_t n = strlen(name);
    if (n >= PATH_MAX)
        return -1;
    sigset_t old;
    block_fatal(&old);
    int slot = -1;
    for (int i = 0; i < SLOTS && slot < 0; i++)
        if (!slot_used[i]) {
            memcpy(slot_name[i], name, n + 1);
            slot_used[i] = 1;
            slot = i;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return slot;
}

static void slot_drop(int slot)
{
    if (slot >= 0)
        slot_used[slot] = 0;
}

/* ---- helpers ------------------------------------------------------------ */

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

static mode_t current_umask(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return mask;
}

static char *dir_of(const char *path);

/* May a symbolic link (lst, at path) be followed under the kernel's
 * protected-symlinks rule? Not when it sits in a sticky world-writable
 * directory and neither the caller (effective uid) nor that directory's
 * owner owns it. */
static int link_followable(const char *path, const struct stat *lst)
{
    if (lst->st_uid == geteuid())
        return 1;
    char *dir = dir_of(path);
    struct stat dst;
    int okay = dir && stat(dir, &dst) == 0 &&
               (!(dst.st_mode & S_ISVTX) || !(dst.st_mode & S_IWOTH) || dst.st_uid == lst->st_uid);
    free(dir);
    return okay;
}

/* path with its symbolic links followed, as open(O_CREAT) follows them, so
 * that the rename replaces the target and not the link. The target need not
 * exist yet. A link that protected-symlinks would refuse is EACCES. A new
 * string, or NULL with errno set. */
static char *resolve_links(const char *path)
{
    char *cur = strdup(path);
    for (int depth = 0; cur && depth < 40; depth++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* not a link (or not there yet): this is the file */
        if (!link_followable(cur, &st)) {
            free(cur);
            errno = EACCES;
            return NULL;
        }
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

/* The directory part of path ("." when none), a new string. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* "dir/.name.XXXXXX" beside path: a template for mkstemp, or with
 * random_tail a name to link to. */
static char *temp_name(const char *path, int random_tail)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    char *t = malloc(n);
    if (!t)
        return NULL;
    snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    if (random_tail) {
        static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid() << 32 ^ (uint64_t)rand();
        for (char *p = t + strlen(t) - 6; *p; p++, x /= 62)
            *p = abc[x % 62];
    }
    return t;
}

/* The mode the output gets at commit (see the top of the file), and, for
 * an existing file, its group put on fd (or the group's bits dropped when
 * that is not allowed, so that another group never gains access). */
static mode_t final_mode(int fd, const struct stat *existing, int secret)
{
    if (!existing)
        return (secret ? 0600 : 0666) & ~current_umask();
    mode_t mode = existing->st_mode & 0777;
    if (secret)
        mode &= 0600;
    if (existing->st_gid != getegid() && fchown(fd, (uid_t)-1, existing->st_gid) != 0)
        mode &= ~(mode_t)0070;
    return mode;
}

/* An existing regular target: may the caller write it, as `>` would open
 * it (the kernel's permission checks, and its own link rules, on the path
 * as given)? Then 0 and *inplace = 1 when its owner cannot be kept by a
 * replacement (another user's file: written in place). Else an errno. */
static int check_target(const char *path, const struct stat *st, int *inplace)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat now;
    int e = fstat(fd, &now) != 0 ? errno : (now.st_dev != st->st_dev || now.st_ino != st->st_ino) ? EAGAIN : 0;
    close(fd);
    /* Only a privileged caller can give a new file another user's owner. */
    *inplace = st->st_uid != geteuid() && geteuid() != 0;
    return e;
}

/* ---- the public functions (cli.h) --------------------------------------- */

void cli_out_abort(cli_out *out)
{
    if (out->fd >= 0)
        close(out->fd);
    if (out->tmp) {
        unlink(out->tmp);
        free(out->tmp);
    }
    slot_drop(out->slot);
    free(out->path);
    memset(out, 0, sizeof(*out));
    out->fd = -1;
    out->slot = -1;
}

static int out_fail(cli_out *out, const char *path, int err)
{
    cli_out_abort(out);
    return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(err));
}

int cli_out_open(cli_out *out, const char *path, int secret)
{
    memset(out, 0, sizeof(*out));
    out->fd = -1;
    out->slot = -1;
    if (cli_is_std(path)) {
        out->direct = 1;
        return CLI_EXIT_OK;
    }
    /* Write through a symlink to its target, as `>` would; write straight
     * into an existing non-regular file (a device, a FIFO), which a rename
     * would replace. Everything else goes through a temporary file. */
    out->path = resolve_links(path);
    if (!out->path)
        return out_fail(out, path, errno);
    struct stat st;
    int exists = stat(out->path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return out_fail(out, path, EISDIR);
        out->direct = 1;
        return CLI_EXIT_OK;
    }
    if (exists) {
        int inplace = 0, e = check_target(path, &st, &inplace);
        if (e)
            return out_fail(out, path, e);
        if (inplace) {
            if (secret) {
                cli_out_abort(out);
                return cli_fail(CLI_EXIT_USAGE,
                                "cannot write %s: it belongs to another user, who would own the private key "
                                "(remove it first, or write elsewhere)",
                                path);
            }
            out->direct = 1; /* written in place at commit, keeping owner, group and mode */
            return CLI_EXIT_OK;
        }
    }
    out->existed = exists;
    install_handlers();
#ifdef O_TMPFILE
    /* linkat() of an unnamed file goes through /proc/self/fd. The tests
     * set FASTSM2_CLI_NAMED_TEMP to run the named files' path too. */
    if (access("/proc/self/fd", X_OK) == 0 && !getenv("FASTSM2_CLI_NAMED_TEMP")) {
        char *dir = dir_of(out->path);
        if (!dir)
            return out_fail(out, path, ENOMEM);
        out->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        free(dir);
    }
#endif
    if (out->fd < 0) {
        out->tmp = temp_name(out->path, 0);
        if (!out->tmp)
            return out_fail(out, path, ENOMEM);
        sigset_t old;
        block_fatal(&old);                       /* named and registered as one step */
        out->fd = mkostemp(out->tmp, O_CLOEXEC); /* mode 0600 */
        int e = errno;
        if (out->fd >= 0)
            out->slot = slot_add(out->tmp);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (out->fd < 0) {
            free(out->tmp);
            out->tmp = NULL;
            return out_fail(out, path, e);
        }
    }
    /* 0600 until commit whatever the umask made of it (an existing file's
     * group is set now, before any byte is written). */
    out->mode = final_mode(out->fd, exists ? &st : NULL, secret);
    /* A privileged caller replacing another user's file gives it back. */
    if (exists && st.st_uid != geteuid() && fchown(out->fd, st.st_uid, st.st_gid) != 0)
        return out_fail(out, path, errno);
    if (fchmod(out->fd, 0600 & out->mode) != 0)
        return out_fail(out, path, errno);
    return CLI_EXIT_OK;
}

int cli_out_stage(cli_out *out, const char *path, const void *data, size_t len, int secret)
{
    int rc = cli_out_open(out, path, secret);
    if (rc != CLI_EXIT_OK)
        return rc;
    out->data = data;
    out->len = len;
    if (!out->direct && write_all(out->fd, data, len) != 0)
        return out_fail(out, path, errno);
    return CLI_EXIT_OK;
}

/* A staged file: final mode, sync, then into place. 0 or an errno. */
static int put_in_place(cli_out *out)
{
    if (fchmod(out->fd, out->mode) != 0 || fsync(out->fd) != 0)
        return errno;
    if (!out->tmp) {
        /* The unnamed file gets a temporary name, then the real one. */
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", out->fd);
        for (int tries = 0; !out->tmp; tries++) {
            char *name = temp_name(out->path, 1);
            if (!name)
                return ENOMEM;
            sigset_t old;
            block_fatal(&old);
            if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) {
                out->tmp = name;
                out->slot = slot_add(name);
            }
            int e = errno;
            sigprocmask(SIG_SETMASK, &old, NULL);
            if (!out->tmp) {
                free(name);
                if (e != EEXIST || tries > 100)
                    return e;
            }
        }
    }
    if (rename(out->tmp, out->path) != 0)
        return errno;
    out->placed = 1;
    slot_drop(out->slot);
    out->slot = -1;
    free(out->tmp);
    out->tmp = NULL;
    return 0;
}

/* Direct output: stdout, or an existing device or FIFO. 0 or an errno. */
static int write_direct(cli_out *out)
{
    int err = 0;
    if (!out->path) {
        fflush(stdout);
        if (write_all(STDOUT_FILENO, out->data, out->len) != 0)
            err = errno;
        return err;
    }
    int fd = open(out->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0 || write_all(fd, out->data, out->len) != 0)
        err = errno;
    if (fd >= 0 && close(fd) != 0 && !err)
        err = errno;
    return err;
}

int cli_out_commit_all(cli_out *outs, size_t n)
{
    /* What cannot be taken back goes first: a failed device write then
     * leaves no file in place. */
    size_t failed = n;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++)
        if (outs[i].direct && (err = write_direct(&outs[i])) != 0)
            failed = i;
    for (size_t i = 0; i < n && !err; i++)
        if (!outs[i].direct && (err = put_in_place(&outs[i])) != 0)
            failed = i;
    int rc = CLI_EXIT_OK;
    if (err) {
        /* Undo what was put in place as a new file (a replaced file cannot
         * come back; a rename in the directory just used rarely fails). */
        for (size_t i = 0; i < failed; i++)
            if (outs[i].placed && !outs[i].existed)
                unlink(outs[i].path);
        rc = cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", outs[failed].path ? outs[failed].path : "stdout",
                      strerror(err));
    }
    for (size_t i = 0; i < n; i++)
        cli_out_abort(&outs[i]); /* closes the files, removes what was not placed */
    return rc;
}

int cli_out_commit(cli_out *out)
{
    return cli_out_commit_all(out, 1);
}

int cli_write_file(const char *path, const void *data, size_t len, int secret)
{
    cli_out out;
    int rc = cli_out_stage(&out, path, data, len, secret);
    if (rc != CLI_EXIT_OK)
        return rc;
    return cli_out_commit(&out);
}

int cli_same_output(const char *a, const char *b)
{
    struct stat sa, sb;
    int ha, hb;
    if (cli_is_std(a) && cli_is_std(b))
        return 1;
    ha = cli_is_std(a) ? fstat(STDOUT_FILENO, &sa) == 0 : stat(a, &sa) == 0;
    hb = cli_is_std(b) ? fstat(STDOUT_FILENO, &sb) == 0 : stat(b, &sb) == 0;
    if (ha && hb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ha || hb || cli_is_std(a) || cli_is_std(b))
        return 0; /* one exists and the other not: different */
    /* Neither exists yet: the same directory and the same name. */
    char *ra = resolve_links(a), *rb = resolve_links(b);
    int same = 0;
    if (ra && rb) {
        char *da = dir_of(ra), *db = dir_of(rb);
        char *pa = da ? realpath(da, NULL) : NULL, *pb = db ? realpath(db, NULL) : NULL;
        const char *ba = strrchr(ra, '/'), *bb = strrchr(rb, '/');
        ba = ba ? ba + 1 : ra;
        bb = bb ? bb + 1 : rb;
        same = pa && pb && strcmp(pa, pb) == 0 && strcmp(ba, bb) == 0;
        free(da), free(db), free(pa), free(pb);
    }
    free(ra), free(rb);
    return same;
}
