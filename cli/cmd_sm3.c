/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 sm3: SM3 digests (GB/T 32905) in the format of sha256sum (and
 * its --check and --tag); HMAC-SM3 (--hmac); e = SM3(Z_A || M) of GB/T
 * 32918.2 (--pub / --cert), and Z_A itself (--z). */
#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define CHUNK (256 * 1024)

/* What is computed over each file: plain SM3, SM3 after a prefix (Z_A),
 * or HMAC-SM3 under a key. */
typedef struct {
    const unsigned char *prefix;   /* Z_A, or NULL */
    const unsigned char *hmac_key; /* NULL: no HMAC */
    size_t hmac_keylen;
} sm3_mode;

/* Hash a file (or stdin for "-") as a stream. 0, an errno value, or -1
 * after a message (stdin, by any name, already read for another input). */
static int hash_file(unsigned char digest[FASTSM2_SM3_DIGEST_SIZE], const char *path, unsigned char *chunk,
                     const sm3_mode *mode)
{
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    if (cli_claim_input(fd, path, strcmp(path, "-") ? path : "a FILE to hash") != CLI_EXIT_OK) {
        if (fd != STDIN_FILENO)
            close(fd);
        return -1;
    }
    fastsm2_sm3_ctx ctx;
    fastsm2_hmac_sm3_ctx hctx;
    fastsm2_sm3_init(&ctx);
    if (mode->hmac_key && fastsm2_hmac_sm3_init(&hctx, mode->hmac_key, mode->hmac_keylen) != FASTSM2_OK) {
        if (fd != STDIN_FILENO)
            close(fd);
        return EINVAL;
    }
    if (mode->prefix)
        fastsm2_sm3_update(&ctx, mode->prefix, FASTSM2_SM3_DIGEST_SIZE);
    int err = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            err = errno;
        if (n <= 0)
            break;
        if (mode->hmac_key)
            fastsm2_hmac_sm3_update(&hctx, chunk, (size_t)n);
        else
            fastsm2_sm3_update(&ctx, chunk, (size_t)n);
    }
    if (fd != STDIN_FILENO)
        close(fd);
    fastsm2_sm3_final(digest, &ctx);
    if (mode->hmac_key)
        fastsm2_hmac_sm3_final(digest, &hctx);
    return err;
}

/* "<hex>  <name>"; as in coreutils, a name holding a backslash or a line
 * break is escaped and the line starts with a backslash. */
static void print_line(const unsigned char digest[FASTSM2_SM3_DIGEST_SIZE], const char *name, const char *tag)
{
    int escape = strpbrk(name, "\\\n\r") != NULL;
    if (escape)
        putchar('\\');
    if (tag) {
        printf("%s (", tag);
    } else {
        for (int i = 0; i < FASTSM2_SM3_DIGEST_SIZE; i++)
            printf("%02x", digest[i]);
        fputs("  ", stdout);
    }
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
    if (tag) {
        fputs(") = ", stdout);
        for (int i = 0; i < FASTSM2_SM3_DIGEST_SIZE; i++)
            printf("%02x", digest[i]);
    }
    putchar('\n');
}

/* Undo print_line's escaping of a name in place. */
static void unescape(char *name)
{
    char *o = name;
    for (char *p = name; *p; p++) {
        if (*p == '\\' && p[1] == '\\')
            *o++ = '\\', p++;
        else if (*p == '\\' && p[1] == 'n')
            *o++ = '\n', p++;
        else if (*p == '\\' && p[1] == 'r')
            *o++ = '\r', p++;
        else
            *o++ = *p;
    }
    *o = 0;
}

static int parse_hex32(unsigned char out[32], const char *p)
{
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(p + 2 * i, "%2x", &v) != 1 || !isxdigit((unsigned char)p[2 * i]) ||
            !isxdigit((unsigned char)p[2 * i + 1]))
            return 0;
        out[i] = (unsigned char)v;
    }
    return 1;
}

/* --check: each line "<hex>  <name>" (or " *<name>") or "<TAG> (<name>) =
 * <hex>"; prints "<name>: OK" or "<name>: FAILED" as sha256sum -c does.
 * Exit 1 if a digest differs, 2 if a file cannot be read or no line is
 * well formed. */
static int check_list(const char *list, unsigned char *chunk, const sm3_mode *mode, const char *tag, int quiet)
{
    cli_buf buf;
    int rc = cli_read_file(&buf, list);
    if (rc != CLI_EXIT_OK)
        return rc;
    int bad = 0, unreadable = 0, lines = 0, malformed = 0;
    char *text = (char *)buf.data;
    size_t pos = 0;
    while (pos < buf.len) {
        char *line = text + pos;
        size_t n = 0;
        while (pos + n < buf.len && text[pos + n] != '\n')
            n++;
        pos += n + 1;
        if (n > 0 && line[n - 1] == '\r')
            n--;
        line[n] = 0;
        if (n == 0)
            continue;
        int escaped = line[0] == '\\';
        char *l = line + escaped, *name = NULL;
        unsigned char want[32], got[32];
        size_t tl = strlen(tag);
        if (strncmp(l, tag, tl) == 0 && l[tl] == ' ' && l[tl + 1] == '(') {
            char *eq = strstr(l, ") = ");
            if (eq && strlen(eq + 4) == 64 && parse_hex32(want, eq + 4)) {
                *eq = 0;
                name = l + tl + 2;
            }
        } else if (strlen(l) > 66 && parse_hex32(want, l) && l[64] == ' ' && (l[65] == ' ' || l[65] == '*')) {
            name = l + 66;
        }
        if (!name) {
            malformed++;
            continue;
        }
        if (escaped)
            unescape(name);
        lines++;
        int err = hash_file(got, name, chunk, mode);
        if (err) {
            printf("%s: FAILED open or read\n", name);
            if (err > 0)
                cli_fail(CLI_EXIT_USAGE, "%s: %s", name, strerror(err));
            unreadable++;
        } else if (memcmp(got, want, 32) != 0) {
            printf("%s: FAILED\n", name);
            bad++;
        } else if (!quiet) {
            printf("%s: OK\n", name);
        }
    }
    cli_buf_free(&buf);
    if (malformed)
        cli_fail(CLI_EXIT_OK, "WARNING: %d line%s improperly formatted", malformed, malformed == 1 ? " is" : "s are");
    if (bad)
        cli_fail(CLI_EXIT_OK, "WARNING: %d computed checksum%s did NOT match", bad, bad == 1 ? "" : "s");
    if (lines == 0)
        return cli_fail(CLI_EXIT_USAGE, "%s: no properly formatted checksum lines found",
                        cli_is_std(list) ? "stdin" : list);
    if (unreadable)
        return CLI_EXIT_USAGE;
    return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
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
    const char *hmac = NULL, *hmac_hex = NULL, *pub_path = NULL, *id_str = NULL, *id_hex = NULL;
    int check = 0, check_short = 0, tag = 0, zonly = 0, quiet = 0, failed = 0, nfiles = 0;
    const cli_option opts[] = {
        {"--hmac", &hmac, NULL},
        {"--hmac-hex", &hmac_hex, NULL},
        {"--check", NULL, &check},
        {"-c", NULL, &check_short},
        {"--tag", NULL, &tag},
        {"--z", NULL, &zonly},
        {"--pub", &pub_path, NULL},
        {"--id", &id_str, NULL},
        {"--id-hex", &id_hex, NULL},
        {"--quiet", NULL, &quiet},
        CLI_OPT_CERT,
    };
    sm3_mode mode = {0};
    cli_buf hkey = {0};
    cli_id id = {0};
    unsigned char z[FASTSM2_SM3_DIGEST_SIZE];
    const char *label = "SM3";
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), files, &nfiles);
    check |= check_short;
    int with_key = pub_path || cli_cert;
    if (rc == CLI_EXIT_OK && hmac && hmac_hex)
        rc = cli_fail(CLI_EXIT_USAGE, "give --hmac or --hmac-hex, not both");
    if (rc == CLI_EXIT_OK && (hmac || hmac_hex) && with_key)
        rc = cli_fail(CLI_EXIT_USAGE, "--hmac and --pub/--cert do not go together");
    if (rc == CLI_EXIT_OK && (zonly || id_str || id_hex) && !with_key)
        rc = cli_fail(CLI_EXIT_USAGE, "--z, --id and --id-hex need --pub PUB or --cert CERT");
    if (rc == CLI_EXIT_OK && zonly && (nfiles || check || tag))
        rc = cli_fail(CLI_EXIT_USAGE, "--z prints Z_A alone: no FILE, --check or --tag");
    if (rc == CLI_EXIT_OK && (hmac || hmac_hex)) {
        if (hmac) {
            size_t n = strlen(hmac);
            hkey.data = malloc(n + 1);
            if (!hkey.data)
                rc = cli_fail(CLI_EXIT_USAGE, "out of memory");
            else
                memcpy(hkey.data, hmac, n + 1), hkey.len = n, hkey.cap = n + 1;
        } else {
            size_t n = strlen(hmac_hex);
            hkey.data = malloc(n + 1);
            if (!hkey.data)
                rc = cli_fail(CLI_EXIT_USAGE, "out of memory");
            else {
                memcpy(hkey.data, hmac_hex, n + 1), hkey.len = n, hkey.cap = n + 1;
                rc = cli_hex_decode(&hkey, "--hmac-hex");
            }
        }
        mode.hmac_key = hkey.data;
        mode.hmac_keylen = hkey.len;
        label = "HMAC-SM3";
    }
    if (rc == CLI_EXIT_OK && with_key) {
        fastsm2_pubkey pub;
        rc = cli_id_parse(&id, id_str, id_hex);
        if (rc == CLI_EXIT_OK)
            rc = cli_load_pub_arg(&pub, pub_path);
        if (rc == CLI_EXIT_OK) {
            int st = fastsm2_compute_z(z, &pub, id.ptr ? id.ptr : FASTSM2_DEFAULT_ID,
                                       id.ptr ? id.len : FASTSM2_DEFAULT_ID_LEN);
            if (st != FASTSM2_OK)
                rc = cli_fail(CLI_EXIT_USAGE, "cannot compute Z_A: %s", fastsm2_strerror(st));
        }
        if (rc == CLI_EXIT_OK && zonly) {
            for (int i = 0; i < FASTSM2_SM3_DIGEST_SIZE; i++)
                printf("%02x", z[i]);
            printf("\n");
            goto out;
        }
        mode.prefix = z;
        label = "SM3(Z_A||M)";
    }
    if (rc == CLI_EXIT_OK && check) {
        if (nfiles == 0)
            files[nfiles++] = "-";
        for (int i = 0; i < nfiles; i++) {
            int r = check_list(files[i], chunk, &mode, label, quiet);
            if (r > rc)
                rc = r;
        }
        goto out;
    }
    if (rc == CLI_EXIT_OK && nfiles == 0)
        files[nfiles++] = "-";
    for (int i = 0; rc == CLI_EXIT_OK && i < nfiles; i++) {
        unsigned char digest[FASTSM2_SM3_DIGEST_SIZE];
        int err = hash_file(digest, files[i], chunk, &mode);
        if (err) {
            /* Go on with the other files, as sha256sum does; exit 2 at the end. */
            if (err > 0)
                cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", strcmp(files[i], "-") ? files[i] : "stdin",
                         strerror(err));
            failed = 1;
            continue;
        }
        print_line(digest, files[i], tag ? label : NULL);
    }
    if (rc == CLI_EXIT_OK && failed)
        rc = CLI_EXIT_USAGE;
out:
    cli_buf_free(&hkey);
    cli_id_free(&id);
    free(files);
    free(chunk);
    return rc;
}
