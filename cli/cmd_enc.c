/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2 encrypt, fastsm2 decrypt (GB/T 32918.4), through the streaming
 * API, so that no file is ever held twice in memory:
 *  - a regular input file to a regular output file streams in pieces of
 *    CLI_CHUNK bytes (constant memory): the ciphertext's prefix, then C2,
 *    then C3 written at its place. Decryption writes into the temporary file
 *    that cli_out_open made (mode 0600) and renames it into place only after C3 has
 *    matched (GB/T 32918.4 7.1 B6): no plaintext is released before;
 *  - stdin, stdout or another non-regular file: the input is read whole
 *    once and processed in place (C2 replaced by the plaintext, or the
 *    plaintext by C2), and written only after final succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define CLI_CHUNK (1u << 20)

/* --raw and --c1c2c3 to FASTSM2_CT_* flags. DER has a single field order,
 * so --c1c2c3 without --raw is refused rather than silently ignored. */
static int ct_flags(int *flags, int raw, int c1c2c3)
{
    if (c1c2c3 && !raw)
        return cli_fail(CLI_EXIT_USAGE, "--c1c2c3 needs --raw (DER always holds C3 before C2)");
    *flags = (raw ? FASTSM2_CT_RAW : FASTSM2_CT_DER) | (c1c2c3 ? FASTSM2_CT_C1C2C3 : FASTSM2_CT_C1C3C2);
    return CLI_EXIT_OK;
}

/* ---- plain I/O helpers ----------------------------------------------------- */

/* Open path for reading if it is a regular file (not stdin); its size in
 * *size. -1 when the input must be read whole instead (stdin by any name,
 * a FIFO) or cannot be opened: cli_read_file then claims stdin or reports
 * the error. */
static int open_regular(const char *path, uint64_t *size)
{
    struct stat st;
    if (cli_is_std(path))
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || cli_fd_is_stdin(fd)) {
        close(fd);
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

static int read_full(int fd, unsigned char *p, size_t n, uint64_t off)
{
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO; /* the file shrank under us */
            return -1;
        }
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

static int write_full(int fd, const unsigned char *p, size_t n, uint64_t off)
{
    while (n) {
        ssize_t r = pwrite(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

/* Stage the output: a temporary file when path is a regular file (or new),
 * open for writing in out->fd (owned by out: cli_out_abort or
 * cli_out_commit closes it). 0 when staged; 1 when the output is direct
 * (stdout, a device, a FIFO: nothing staged); else minus an exit code. */
static int stage_output(cli_out *out, const char *path)
{
    int rc = cli_out_open(out, path, 0);
    if (rc != CLI_EXIT_OK)
        return -rc;
    if (out->direct) {
        cli_out_abort(out);
        return 1;
    }
    return 0;
}

static int io_error(cli_out *out, const char *what, const char *path)
{
    int e = errno;
    cli_out_abort(out);
    return cli_fail(CLI_EXIT_USAGE, "cannot %s %s: %s", what, path, strerror(e));
}

/* Give up on a stream: final wipes its secrets; its outcome no longer
 * matters. */
static void enc_abort(fastsm2_encrypt_stream *s)
{
    unsigned char c3[32];
    if (fastsm2_encrypt_stream_final(s, c3) != FASTSM2_OK)
        return;
}

static void dec_abort(fastsm2_decrypt_stream *s)
{
    static const unsigned char zero[32];
    if (fastsm2_decrypt_stream_final(s, zero) != FASTSM2_OK)
        return;
}

static int encrypt_status(int st)
{
    return cli_fail(CLI_EXIT_USAGE, "cannot encrypt: %s", fastsm2_strerror(st));
}

static int decrypt_status(int st)
{
    if (st == FASTSM2_ERR_DECRYPT || st == FASTSM2_ERR_CIPHERTEXT || st == FASTSM2_ERR_POINT)
        return cli_fail(CLI_EXIT_FAIL, "the ciphertext does not decrypt: %s", fastsm2_strerror(st));
    return cli_fail(CLI_EXIT_USAGE, "cannot decrypt: %s", fastsm2_strerror(st));
}

/* ---- encrypt --------------------------------------------------------------- */

/* Regular file to staged file, in pieces. GB/T 32918.4 6.1 A5: when t is
 * all zero, C2 = M and the attempt starts again with a fresh k (the staged
 * file is truncated, as the new C1 may have another DER length). */
static int encrypt_file(const fastsm2_pubkey *pub, int in, uint64_t size, const char *in_path, const char *out_path,
                        int flags, cli_out *out)
{
    for (int tries = 0;; tries++) {
        fastsm2_encrypt_stream s;
        unsigned char prefix[FASTSM2_CT_PREFIX_MAX], c3[32];
        size_t prelen = sizeof prefix;
        uint64_t c3off;
        if (tries > 0 && ftruncate(out->fd, 0) != 0)
            return io_error(out, "write", out_path);
        int st = fastsm2_encrypt_stream_init(&s, prefix, &prelen, &c3off, pub, size, flags);
        if (st != FASTSM2_OK) {
            cli_out_abort(out);
            return encrypt_status(st);
        }
        unsigned char *buf = malloc(CLI_CHUNK);
        if (!buf) {
            errno = ENOMEM;
            enc_abort(&s);
            return io_error(out, "write", out_path);
        }
        int rc = CLI_EXIT_OK;
        if (write_full(out->fd, prefix, prelen, 0) != 0)
            rc = io_error(out, "write", out_path);
        for (uint64_t at = 0; rc == CLI_EXIT_OK && at < size;) {
            size_t n = size - at < CLI_CHUNK ? (size_t)(size - at) : CLI_CHUNK;
            if (read_full(in, buf, n, at) != 0) {
                rc = io_error(out, "read", in_path);
                break;
            }
            st = fastsm2_encrypt_stream_update(&s, buf, buf, n);
            if (st != FASTSM2_OK) {
                cli_out_abort(out);
                rc = encrypt_status(st);
            } else if (write_full(out->fd, buf, n, prelen + at) != 0) {
                rc = io_error(out, "write", out_path);
            }
            at += n;
        }
        cli_wipe(buf, CLI_CHUNK);
        free(buf);
        st = fastsm2_encrypt_stream_final(&s, c3); /* always: it wipes s */
        if (rc != CLI_EXIT_OK)
            return rc;
        if (st == FASTSM2_ERR_KDF_ZERO && tries < 15)
            continue;
        if (st != FASTSM2_OK) {
            cli_out_abort(out);
            return encrypt_status(st);
        }
        if (write_full(out->fd, c3, 32, c3off) != 0)
            return io_error(out, "write", out_path);
        return cli_out_commit(out); /* final mode, sync, rename */
    }
}

/* Whole input in memory (stdin, or a direct output): C2 in place. */
/* hex: the ciphertext written as hex text (--hex). */
static int encrypt_memory(const fastsm2_pubkey *pub, const char *in_path, const char *out_path, int flags, int hex)
{
    cli_buf msg = {0};
    int rc = cli_read_file(&msg, in_path);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* Room for the prefix in front and C3 behind. */
    size_t head = FASTSM2_CT_PREFIX_MAX;
    if (msg.len > SIZE_MAX - head - 32) {
        cli_buf_free(&msg);
        return encrypt_status(FASTSM2_ERR_LENGTH);
    }
    unsigned char *ct = malloc(head + msg.len + 32);
    if (!ct) {
        cli_buf_free(&msg);
        return encrypt_status(FASTSM2_ERR_NO_MEMORY);
    }
    if (msg.len)
        memcpy(ct + head, msg.data, msg.len);
    size_t len = msg.len;
    cli_buf_free(&msg); /* from here the message is held once, in ct */

    fastsm2_encrypt_stream s;
    unsigned char prefix[FASTSM2_CT_PREFIX_MAX], c3[32];
    size_t prelen;
    uint64_t c3off;
    int st;
    /* GB/T 32918.4 6.1 A5: t all zero left C2 = M in place; a fresh k */
    for (int tries = 0; tries < 16; tries++) {
        prelen = sizeof prefix;
        st = fastsm2_encrypt_stream_init(&s, prefix, &prelen, &c3off, pub, len, flags);
        if (st == FASTSM2_OK)
            st = fastsm2_encrypt_stream_update(&s, ct + head, ct + head, len);
        int fin = fastsm2_encrypt_stream_final(&s, c3); /* always: it wipes s */
        if (st == FASTSM2_OK)
            st = fin;
        if (st != FASTSM2_ERR_KDF_ZERO)
            break;
    }
    if (st == FASTSM2_OK) {
        unsigned char *start = ct + head - prelen;
        memcpy(start, prefix, prelen);
        memcpy(start + c3off, c3, 32);
        size_t total = prelen + len + ((c3off >= prelen) ? 32 : 0);
        rc = cli_write_maybe_hex(out_path, start, total, hex);
    } else {
        rc = encrypt_status(st);
    }
    cli_wipe(ct, head + len + 32);
    free(ct);
    return rc;
}

int cmd_encrypt(int argc, char **argv)
{
    const char *pub_path = NULL, *in_path = NULL, *out_path = NULL;
    int raw = 0, c1c2c3 = 0, hex = 0, flags = 0;
    const cli_option opts[] = {
        {"--pub", &pub_path, NULL},
        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
        {"--raw", NULL, &raw},
        {"--c1c2c3", NULL, &c1c2c3},
        {"--hex", NULL, &hex},
        CLI_OPT_CERT,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK && !cli_cert)
        rc = cli_require(pub_path, "--pub (or --cert)");
    if (rc == CLI_EXIT_OK)
        rc = ct_flags(&flags, raw, c1c2c3);
    if (rc != CLI_EXIT_OK)
        return rc;

    fastsm2_pubkey pub;
    rc = cli_load_pub_arg(&pub, pub_path);
    if (rc != CLI_EXIT_OK)
        return rc;
    uint64_t size = 0;
    int in = open_regular(in_path, &size);
    if (in >= 0 && size > 0 && !hex) {
        cli_out out;
        int staged = stage_output(&out, out_path);
        if (staged < 0) {
            close(in);
            return -staged;
        }
        if (staged == 0) {
            rc = encrypt_file(&pub, in, size, in_path, out_path ? out_path : "stdout", flags, &out);
            close(in);
            return rc;
        }
    }
    if (in >= 0)
        close(in);
    return encrypt_memory(&pub, in_path, out_path, flags, hex);
}

/* ---- decrypt --------------------------------------------------------------- */

/* Regular file to staged file: the plaintext goes into the temporary file,
 * renamed into place only once C3 matched. */
static int decrypt_file(const fastsm2_privkey *key, int in, uint64_t size, const char *in_path, const char *out_path,
                        int flags, cli_out *out)
{
    fastsm2_decrypt_stream s;
    unsigned char prefix[FASTSM2_CT_PREFIX_MAX], c3[32];
    size_t prelen = size < sizeof prefix ? (size_t)size : sizeof prefix;
    uint64_t c2off, c2len, c3off;
    if (read_full(in, prefix, prelen, 0) != 0)
        return io_error(out, "read", in_path);
    int st = fastsm2_decrypt_stream_init(&s, &c2off, &c2len, &c3off, key, prefix, prelen, size, flags);
    if (st == FASTSM2_OK && read_full(in, c3, 32, c3off) != 0) {
        dec_abort(&s);
        return io_error(out, "read", in_path);
    }
    if (st != FASTSM2_OK) {
        cli_out_abort(out);
        return decrypt_status(st);
    }
    unsigned char *buf = malloc(CLI_CHUNK);
    if (!buf) {
        errno = ENOMEM;
        dec_abort(&s);
        return io_error(out, "write", out_path);
    }
    int rc = CLI_EXIT_OK;
    for (uint64_t at = 0; rc == CLI_EXIT_OK && at < c2len;) {
        size_t n = c2len - at < CLI_CHUNK ? (size_t)(c2len - at) : CLI_CHUNK;
        if (read_full(in, buf, n, c2off + at) != 0) {
            rc = io_error(out, "read", in_path);
            break;
        }
        st = fastsm2_decrypt_stream_update(&s, buf, buf, n);
        if (st != FASTSM2_OK) {
            cli_out_abort(out);
            rc = decrypt_status(st);
        } else if (write_full(out->fd, buf, n, at) != 0) {
            rc = io_error(out, "write", out_path);
        }
        at += n;
    }
    cli_wipe(buf, CLI_CHUNK);
    free(buf);
    st = fastsm2_decrypt_stream_final(&s, c3); /* always: it wipes s */
    if (rc != CLI_EXIT_OK)
        return rc;
    if (st != FASTSM2_OK) {
        /* B6 failed: the temporary file with the unauthenticated output goes. */
        cli_out_abort(out);
        return decrypt_status(st);
    }
    return cli_out_commit(out); /* final mode, sync, rename */
}

/* Whole ciphertext in memory: C2 replaced by the plaintext in place. */
/* hex: the ciphertext is read as hex text (--hex). */
static int decrypt_memory(const fastsm2_privkey *key, const char *in_path, const char *out_path, int flags, int hex)
{
    cli_buf ct = {0};
    int rc = cli_read_file(&ct, in_path);
    if (rc == CLI_EXIT_OK && hex)
        rc = cli_hex_decode(&ct, "the ciphertext");
    if (rc != CLI_EXIT_OK) {
        cli_buf_free(&ct);
        return rc;
    }
    fastsm2_decrypt_stream s;
    uint64_t c2off, c2len, c3off;
    static const unsigned char none[1];
    const unsigned char *data = ct.data ? ct.data : none;
    size_t prelen = ct.len < FASTSM2_CT_PREFIX_MAX ? ct.len : FASTSM2_CT_PREFIX_MAX;
    int st = fastsm2_decrypt_stream_init(&s, &c2off, &c2len, &c3off, key, data, prelen, ct.len, flags);
    if (st == FASTSM2_OK) {
        unsigned char c3[32];
        memcpy(c3, ct.data + c3off, 32);
        st = fastsm2_decrypt_stream_update(&s, ct.data + c2off, ct.data + c2off, (size_t)c2len);
        int fin = fastsm2_decrypt_stream_final(&s, c3); /* always: it wipes s */
        if (st == FASTSM2_OK)
            st = fin;
    }
    if (st == FASTSM2_OK)
        rc = cli_write_file(out_path, ct.data + c2off, (size_t)c2len, 0);
    else
        rc = decrypt_status(st);
    cli_buf_free(&ct); /* wipes the plaintext, released or not */
    return rc;
}

int cmd_decrypt(int argc, char **argv)
{
    const char *key_path = NULL, *in_path = NULL, *out_path = NULL;
    int raw = 0, c1c2c3 = 0, hex = 0, flags = 0;
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
        {"--raw", NULL, &raw},
        {"--c1c2c3", NULL, &c1c2c3},
        {"--hex", NULL, &hex},
        CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc == CLI_EXIT_OK)
        rc = ct_flags(&flags, raw, c1c2c3);
    if (rc != CLI_EXIT_OK)
        return rc;

    fastsm2_privkey key;
    rc = cli_load_privkey(&key, key_path);
    if (rc != CLI_EXIT_OK)
        return rc;
    uint64_t size = 0;
    int in = open_regular(in_path, &size);
    int done = 0;
    if (in >= 0 && !hex) {
        cli_out out;
        int staged = stage_output(&out, out_path);
        if (staged < 0) {
            rc = -staged;
            done = 1;
        } else if (staged == 0) {
            rc = decrypt_file(&key, in, size, in_path, out_path ? out_path : "stdout", flags, &out);
            done = 1;
        }
        close(in);
    }
    if (!done)
        rc = decrypt_memory(&key, in_path, out_path, flags, hex);
    fastsm2_privkey_clear(&key);
    return rc;
}
