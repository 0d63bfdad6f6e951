/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2 sm4: SM4 (GB/T 32907) encryption of files: by default an
 * authenticated SM4-GCM stream whose nonces the program makes (nothing to
 * reuse by mistake), or for interop the raw modes of `openssl enc`
 * (ECB, CBC, CTR, OFB, CFB with -K and -iv). fastsm2 seal / open: a
 * digital envelope, SM2 encryption (GB/T 32918.4) of a fresh SM4 key in
 * front of the same SM4-GCM stream.
 *
 * The byte layouts (docs/SM4.md, "Command line"; all integers big-endian):
 *
 *   sm4 file   "FS2SM4" 00 01 | 10 | salt (16) | chunks
 *   seal file  "FS2SEAL" 01 | L (2) | wrapped key (L) | 10 | chunks
 *
 * The byte 10 is log2 of the chunk size (64 KiB). The wrapped key is the
 * GM/T 0009 DER SM2 ciphertext (SM3) of the 16-byte SM4 key, as
 * `fastsm2 decrypt` and `openssl pkeyutl -decrypt` read it. An sm4 file's
 * key is HMAC-SM3(K, "fastsm2 sm4 file key" || salt), first 16 bytes, for
 * the user's key K; a seal file's is the wrapped key itself. Chunks: each
 * 64 KiB of plaintext (the last one 0 to 64 KiB, and last even when full)
 * is SM4-GCM encrypted with the 12-byte nonce 00 00 00 || i (8 bytes, the
 * chunk's number from 0) || last (01 for the last chunk, else 00), the
 * whole header before the first chunk as AAD (then --aad's bytes), and a
 * 16-byte tag after it. A chunk out of order, a chunk missing, anything
 * appended, a changed header or a truncated file fail a tag.
 *
 * Decryption writes each chunk only after its tag matched: a file goes to
 * a temporary file renamed into place at the end (nothing is left of a
 * failed run); stdout and devices get the chunks as they check, and the
 * exit status says whether the whole file did.
 */
#define _DEFAULT_SOURCE /* getentropy */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif

#include "cli.h"

#define CHUNK_LOG 16
#define CHUNK     ((size_t)1 << CHUNK_LOG)
#define TAG       16
#define SALT      16
#define WRAP_MAX  512 /* the DER SM2 ciphertext of 16 bytes is about 110 */

static const unsigned char magic_sm4[8] = {'F', 'S', '2', 'S', 'M', '4', 0, 1};
static const unsigned char magic_seal[8] = {'F', 'S', '2', 'S', 'E', 'A', 'L', 1};
static const char key_label[] = "fastsm2 sm4 file key";

static int random_bytes(void *p, size_t n)
{
    unsigned char *b = p;
    while (n > 0) {
        size_t k = n < 256 ? n : 256;
        if (getentropy(b, k) != 0)
            return cli_fail(CLI_EXIT_USAGE, "cannot draw random bytes: %s", strerror(errno));
        b += k;
        n -= k;
    }
    return CLI_EXIT_OK;
}

/* ---- input: a file or stdin, read in order ------------------------------------ */

typedef struct {
    int fd;
    const char *name;
} sm4_in;

static int in_open(sm4_in *in, const char *path)
{
    in->fd = -1;
    in->name = cli_is_std(path) ? "stdin" : path;
    if (cli_is_std(path)) {
        int rc = cli_claim_stdin("the input");
        if (rc == CLI_EXIT_OK)
            in->fd = STDIN_FILENO;
        return rc;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    int rc = cli_claim_input(fd, path, "the input");
    if (rc != CLI_EXIT_OK) {
        close(fd);
        return rc;
    }
    in->fd = fd;
    return CLI_EXIT_OK;
}

static void in_close(sm4_in *in)
{
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
}

/* Read n bytes, fewer only at the end of the input (*got says how many). */
static int in_read(sm4_in *in, unsigned char *buf, size_t n, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = read(in->fd, buf + *got, n - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", in->name, strerror(errno));
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return CLI_EXIT_OK;
}

/* ---- output ----------------------------------------------------------------- */

/* A regular file is written into a temporary file and renamed into place at
 * the end (STAGED); stdout, a device or a FIFO is written as the data comes
 * (STREAM); another user's file that must be written in place (outfile.c)
 * is written as the data comes when encrypting, and held in memory until
 * the end when decrypting (MEMORY), so that no plaintext of a failed run
 * reaches it. */
enum { STAGED, STREAM, MEMORY };

typedef struct {
    cli_out out;
    int how, fd;
    const char *path, *name;
    cli_buf mem;
} sm4_out;

static int out_open(sm4_out *o, const char *path, int decrypting)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->path = path;
    o->name = cli_is_std(path) ? "stdout" : path;
    int rc = cli_out_open(&o->out, path, 0);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!o->out.direct) {
        o->how = STAGED;
        o->fd = o->out.fd;
        return CLI_EXIT_OK;
    }
    struct stat st;
    if (o->out.path && decrypting && stat(o->out.path, &st) == 0 && S_ISREG(st.st_mode)) {
        o->how = MEMORY;
        cli_out_abort(&o->out);
        return CLI_EXIT_OK;
    }
    o->how = STREAM;
    if (o->out.path == NULL) {
        fflush(stdout);
        o->fd = STDOUT_FILENO;
    } else {
        o->fd = open(o->out.path, O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (o->fd < 0) {
            int e = errno;
            cli_out_abort(&o->out);
            return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", path, strerror(e));
        }
    }
    cli_out_abort(&o->out); /* its path is not needed past here */
    return CLI_EXIT_OK;
}

static int out_write(sm4_out *o, const unsigned char *p, size_t n)
{
    if (o->how == MEMORY) {
        if (n > SIZE_MAX / 2 - o->mem.len)
            return cli_fail(CLI_EXIT_USAGE, "cannot write %s: out of memory", o->name);
        if (o->mem.cap - o->mem.len < n) {
            size_t cap = o->mem.cap ? o->mem.cap : CHUNK;
            while (cap - o->mem.len < n)
                cap *= 2;
            unsigned char *q = malloc(cap);
            if (!q)
                return cli_fail(CLI_EXIT_USAGE, "cannot write %s: out of memory", o->name);
            if (o->mem.len)
                memcpy(q, o->mem.data, o->mem.len);
            size_t len = o->mem.len;
            cli_buf_free(&o->mem);
            o->mem.data = q;
            o->mem.cap = cap;
            o->mem.len = len;
        }
        memcpy(o->mem.data + o->mem.len, p, n);
        o->mem.len += n;
        return CLI_EXIT_OK;
    }
    while (n) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", o->name, strerror(errno));
        p += w;
        n -= (size_t)w;
    }
    return CLI_EXIT_OK;
}

/* The run succeeded: the output in place. */
static int out_finish(sm4_out *o)
{
    int rc = CLI_EXIT_OK;
    if (o->how == STAGED) {
        rc = cli_out_commit(&o->out);
    } else if (o->how == MEMORY) {
        rc = cli_write_file(o->path, o->mem.data, o->mem.len, 0);
        cli_buf_free(&o->mem);
    } else if (o->fd > STDOUT_FILENO && close(o->fd) != 0) {
        rc = cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", o->name, strerror(errno));
    }
    o->fd = -1;
    return rc;
}

/* The run failed: a staged file goes, a held plaintext is wiped. */
static void out_abandon(sm4_out *o)
{
    if (o->how == STAGED)
        cli_out_abort(&o->out);
    else if (o->how == MEMORY)
        cli_buf_free(&o->mem);
    else if (o->fd > STDOUT_FILENO)
        close(o->fd);
    o->fd = -1;
}

/* ---- keys ------------------------------------------------------------------- */

static int hex_nibble(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Exactly 2 * n hex digits (whitespace around them allowed) into out. */
static int parse_hex_exact(unsigned char *out, size_t n, const char *s, size_t len)
{
    size_t d = 0;
    int hi = -1;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)s[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            if (hi >= 0 || (d > 0 && d < n))
                return 0; /* no whitespace inside the digits */
            continue;
        }
        int v = hex_nibble(c);
        if (v < 0 || d == n)
            return 0;
        if (hi < 0) {
            hi = v;
        } else {
            out[d++] = (unsigned char)(hi << 4 | v);
            hi = -1;
        }
    }
    return d == n && hi < 0;
}

/* The SM4 key: --key FILE (16 bytes, or 32 hex digits) or --key-hex HEX
 * (32 hex digits), exactly one; a key of any other length is refused, as
 * the one rule for every form (no padding of a short key). */
static int load_sm4_key(unsigned char k[16], const char *path, const char *hex)
{
    cli_secrets_held();
    if ((path != NULL) == (hex != NULL))
        return cli_fail(CLI_EXIT_USAGE, "give the SM4 key with --key FILE or --key-hex HEX (one of them)");
    if (hex) {
        size_t n = strlen(hex);
        int good = parse_hex_exact(k, 16, hex, n);
        cli_wipe((char *)hex, n); /* the command line's copy: no longer in /proc/PID/cmdline */
        if (!good)
            return cli_fail(CLI_EXIT_USAGE, "--key-hex takes an SM4 key: exactly 32 hex digits (%zu given)", n);
        return CLI_EXIT_OK;
    }
    cli_buf buf;
    int rc = cli_read_file_max(&buf, path, 64, "SM4 key file");
    if (rc != CLI_EXIT_OK)
        return rc;
    if (buf.len == 16)
        memcpy(k, buf.data, 16);
    else if (!parse_hex_exact(k, 16, (const char *)buf.data, buf.len))
        rc = cli_fail(CLI_EXIT_USAGE,
                      "%s is not an SM4 key file: it holds 16 bytes, or 32 hex digits (it has %zu bytes)",
                      cli_is_std(path) ? "stdin" : path, buf.len);
    cli_buf_free(&buf);
    return rc;
}

static int hex_arg(unsigned char *out, size_t n, const char *hex, const char *what)
{
    if (!parse_hex_exact(out, n, hex, strlen(hex)))
        return cli_fail(CLI_EXIT_USAGE, "%s takes exactly %zu hex digits", what, 2 * n);
    return CLI_EXIT_OK;
}

/* ---- the SM4-GCM stream --------------------------------------------------------- */

static void chunk_nonce(unsigned char nonce[12], uint64_t i, int last)
{
    memset(nonce, 0, 3);
    for (int b = 0; b < 8; b++)
        nonce[3 + b] = (unsigned char)(i >> (56 - 8 * b));
    nonce[11] = (unsigned char)(last ? 1 : 0);
}

/* hdr || aad2: every chunk's AAD. */
static unsigned char *join(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen)
{
    unsigned char *p = malloc(alen + blen + 1);
    if (p) {
        memcpy(p, a, alen);
        if (blen)
            memcpy(p + alen, b, blen);
    }
    return p;
}

static int stream_encrypt(sm4_in *in, sm4_out *out, const fastsm2_sm4_key *key, const unsigned char *hdr, size_t hdrlen,
                          const unsigned char *aad2, size_t aad2len)
{
    unsigned char *aad = join(hdr, hdrlen, aad2, aad2len), *buf = malloc(CHUNK + TAG);
    int rc = aad && buf ? out_write(out, hdr, hdrlen) : cli_fail(CLI_EXIT_USAGE, "out of memory");
    unsigned char pending = 0;
    int have_pending = 0;
    for (uint64_t i = 0; rc == CLI_EXIT_OK; i++) {
        size_t n = 0, got = 0, one = 0;
        if (have_pending)
            buf[n++] = pending;
        rc = in_read(in, buf + n, CHUNK - n, &got);
        n += got;
        int last = n < CHUNK;
        if (rc == CLI_EXIT_OK && !last) { /* a full chunk: is anything after it? */
            rc = in_read(in, &pending, 1, &one);
            have_pending = one == 1;
            last = one == 0;
        }
        if (rc != CLI_EXIT_OK)
            break;
        unsigned char nonce[12];
        chunk_nonce(nonce, i, last);
        int st = fastsm2_sm4_gcm_encrypt(buf, buf + n, TAG, key, nonce, 12, aad, hdrlen + aad2len, buf, n);
        if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "cannot encrypt: %s", fastsm2_strerror(st));
        else
            rc = out_write(out, buf, n + TAG);
        if (last)
            break;
    }
    if (buf)
        cli_wipe(buf, CHUNK + TAG);
    free(buf);
    free(aad);
    pending = 0;
    return rc;
}

static int stream_decrypt(sm4_in *in, sm4_out *out, const fastsm2_sm4_key *key, const unsigned char *hdr, size_t hdrlen,
                          const unsigned char *aad2, size_t aad2len)
{
    unsigned char *aad = join(hdr, hdrlen, aad2, aad2len), *buf = malloc(CHUNK + TAG);
    int rc = aad && buf ? CLI_EXIT_OK : cli_fail(CLI_EXIT_USAGE, "out of memory");
    unsigned char pending = 0;
    int have_pending = 0;
    for (uint64_t i = 0; rc == CLI_EXIT_OK; i++) {
        size_t n = 0, got = 0, one = 0;
        if (have_pending)
            buf[n++] = pending;
        rc = in_read(in, buf + n, CHUNK + TAG - n, &got);
        n += got;
        int last = n < CHUNK + TAG;
        if (rc == CLI_EXIT_OK && !last) {
            rc = in_read(in, &pending, 1, &one);
            have_pending = one == 1;
            last = one == 0;
        }
        if (rc != CLI_EXIT_OK)
            break;
        if (n < TAG) {
            rc = cli_fail(CLI_EXIT_FAIL, "%s does not decrypt: it is truncated (chunk %llu has no tag)", in->name,
                          (unsigned long long)i);
            break;
        }
        unsigned char nonce[12];
        chunk_nonce(nonce, i, last);
        size_t m = n - TAG;
        int st = fastsm2_sm4_gcm_decrypt(buf, key, nonce, 12, aad, hdrlen + aad2len, buf, m, buf + m, TAG);
        if (st == FASTSM2_ERR_TAG) {
            rc = cli_fail(CLI_EXIT_FAIL,
                          "%s does not decrypt: chunk %llu fails its tag (a wrong key%s, or a changed, truncated or "
                          "extended file); nothing of it is written",
                          in->name, (unsigned long long)i, aad2 ? " or --aad" : "");
            break;
        }
        if (st != FASTSM2_OK) {
            rc = cli_fail(CLI_EXIT_USAGE, "cannot decrypt: %s", fastsm2_strerror(st));
            break;
        }
        rc = out_write(out, buf, m);
        if (last)
            break;
    }
    if (buf)
        cli_wipe(buf, CHUNK + TAG);
    free(buf);
    free(aad);
    return rc;
}

/* An sm4 file's key from the user's key and the file's salt. */
static int file_key(fastsm2_sm4_key *key, const unsigned char k[16], const unsigned char salt[SALT])
{
    unsigned char msg[sizeof key_label - 1 + SALT], mac[32];
    memcpy(msg, key_label, sizeof key_label - 1);
    memcpy(msg + sizeof key_label - 1, salt, SALT);
    int st = fastsm2_hmac_sm3(mac, k, 16, msg, sizeof msg);
    if (st == FASTSM2_OK)
        st = fastsm2_sm4_key_init(key, mac);
    cli_wipe(mac, sizeof mac);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot make the file key: %s", fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

/* What a file that is not the expected kind is. */
static int wrong_kind(const char *name, const unsigned char *head, size_t n, int want_seal)
{
    if (n >= 8 && memcmp(head, magic_seal, 8) == 0 && !want_seal)
        return cli_fail(CLI_EXIT_USAGE, "%s is a sealed file: open it with 'fastsm2 open --key KEY'", name);
    if (n >= 8 && memcmp(head, magic_sm4, 8) == 0 && want_seal)
        return cli_fail(CLI_EXIT_USAGE, "%s is an 'fastsm2 sm4' file: decrypt it with 'fastsm2 sm4 -d'", name);
    if (n >= 6 && (memcmp(head, magic_sm4, 6) == 0 || memcmp(head, magic_seal, 7) == 0))
        return cli_fail(CLI_EXIT_USAGE, "%s is of a newer format version than this fastsm2 reads", name);
    if (n < 8)
        return cli_fail(CLI_EXIT_FAIL, "%s does not decrypt: it is too short for a header", name);
    return cli_fail(CLI_EXIT_USAGE, "%s is not %s file", name, want_seal ? "a sealed" : "an 'fastsm2 sm4'");
}

/* ---- the raw modes of openssl enc ----------------------------------------------- */

static int raw_crypt(sm4_in *in, sm4_out *out, const fastsm2_sm4_key *key, int mode, int enc, int pad,
                     const unsigned char *iv)
{
    fastsm2_sm4_ctx ctx;
    int st = fastsm2_sm4_init(&ctx, mode, enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT,
                              pad ? FASTSM2_SM4_PAD_PKCS7 : FASTSM2_SM4_PAD_NONE, key, iv, iv ? 16 : 0);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot start SM4: %s", fastsm2_strerror(st));
    unsigned char *buf = malloc(CHUNK), *o = malloc(CHUNK + 32);
    int rc = buf && o ? CLI_EXIT_OK : cli_fail(CLI_EXIT_USAGE, "out of memory");
    for (;;) {
        size_t got = 0, cap = CHUNK + 32;
        if (rc == CLI_EXIT_OK)
            rc = in_read(in, buf, CHUNK, &got);
        if (rc != CLI_EXIT_OK)
            break;
        if (got == 0)
            break;
        st = fastsm2_sm4_update(&ctx, o, &cap, buf, got);
        if (st != FASTSM2_OK) {
            rc = cli_fail(CLI_EXIT_USAGE, "cannot %s: %s", enc ? "encrypt" : "decrypt", fastsm2_strerror(st));
            break;
        }
        rc = out_write(out, o, cap);
    }
    if (rc == CLI_EXIT_OK) {
        size_t cap = CHUNK + 32;
        st = fastsm2_sm4_final(&ctx, o, &cap);
        if (st == FASTSM2_ERR_PADDING)
            rc = cli_fail(CLI_EXIT_FAIL,
                          "%s does not decrypt: its padding is wrong (a wrong key or IV, or not padded "
                          "(--nopad))",
                          in->name);
        else if (st == FASTSM2_ERR_LENGTH)
            rc = cli_fail(CLI_EXIT_USAGE, "%s is not a whole number of 16-byte blocks, as --nopad needs", in->name);
        else if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "cannot %s: %s", enc ? "encrypt" : "decrypt", fastsm2_strerror(st));
        else
            rc = out_write(out, o, cap);
    } else {
        fastsm2_sm4_ctx_clear(&ctx);
    }
    if (buf)
        cli_wipe(buf, CHUNK);
    if (o)
        cli_wipe(o, CHUNK + 32);
    free(buf);
    free(o);
    return rc;
}

/* ---- fastsm2 sm4 ------------------------------------------------------------------ */

static const struct {
    const char *name;
    int mode;
} raw_modes[] = {{"ecb", FASTSM2_SM4_ECB},
                 {"cbc", FASTSM2_SM4_CBC},
                 {"ctr", FASTSM2_SM4_CTR},
                 {"ofb", FASTSM2_SM4_OFB},
                 {"cfb", FASTSM2_SM4_CFB}};

static int genkey(const char *out_path)
{
    unsigned char k[16];
    char text[34];
    static const char digits[] = "0123456789abcdef";
    cli_secrets_held();
    int rc = random_bytes(k, sizeof k);
    if (rc != CLI_EXIT_OK)
        return rc;
    for (int i = 0; i < 16; i++) {
        text[2 * i] = digits[k[i] >> 4];
        text[2 * i + 1] = digits[k[i] & 15];
    }
    text[32] = '\n';
    rc = cli_write_file(out_path, text, 33, 1);
    cli_wipe(k, sizeof k);
    cli_wipe(text, sizeof text);
    return rc;
}

int cmd_sm4(int argc, char **argv)
{
    const char *key_path = NULL, *key_hex = NULL, *mode_name = NULL, *iv_hex = NULL, *aad = NULL, *in_path = NULL,
               *out_path = NULL;
    int enc = 0, enc_short = 0, dec = 0, dec_short = 0, gen = 0, nopad = 0;
    const cli_option opts[] = {
        {"--encrypt", NULL, &enc},     {"-e", NULL, &enc_short},     {"--decrypt", NULL, &dec},
        {"-d", NULL, &dec_short},      {"--genkey", NULL, &gen},     {"--key", &key_path, NULL},
        {"--key-hex", &key_hex, NULL}, {"--mode", &mode_name, NULL}, {"--iv", &iv_hex, NULL},
        {"--nopad", NULL, &nopad},     {"--aad", &aad, NULL},        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    enc |= enc_short;
    dec |= dec_short;
    if (enc + dec + gen != 1)
        return cli_fail(CLI_EXIT_USAGE, "give one of --encrypt (-e), --decrypt (-d) or --genkey");
    if (gen) {
        if (key_path || key_hex || mode_name || iv_hex || aad || in_path || nopad)
            return cli_fail(CLI_EXIT_USAGE, "--genkey takes --out only");
        return genkey(out_path);
    }
    int mode = 0; /* 0: the GCM stream */
    if (mode_name && strcasecmp(mode_name, "gcm") != 0) {
        for (size_t i = 0; i < sizeof raw_modes / sizeof raw_modes[0]; i++)
            if (strcasecmp(mode_name, raw_modes[i].name) == 0)
                mode = raw_modes[i].mode;
        if (!mode)
            return cli_fail(CLI_EXIT_USAGE, "--mode takes gcm (the default), cbc, ctr, ecb, ofb or cfb");
    }
    unsigned char iv[16];
    if (mode == 0 && (iv_hex || nopad))
        return cli_fail(CLI_EXIT_USAGE, "--iv and --nopad are for the raw modes (--mode cbc, ...): the GCM stream "
                                        "makes its own nonces");
    if (mode != 0 && aad)
        return cli_fail(CLI_EXIT_USAGE, "--aad is for the GCM stream (the raw modes authenticate nothing)");
    if (nopad && mode != FASTSM2_SM4_ECB && mode != FASTSM2_SM4_CBC)
        return cli_fail(CLI_EXIT_USAGE, "--nopad is for --mode ecb and cbc");
    if (mode != 0 && mode != FASTSM2_SM4_ECB) {
        if (!iv_hex)
            return cli_fail(CLI_EXIT_USAGE, "--mode %s needs --iv HEX (16 bytes; never the same twice under one key)",
                            mode_name);
        if ((rc = hex_arg(iv, 16, iv_hex, "--iv")) != CLI_EXIT_OK)
            return rc;
    } else if (mode == FASTSM2_SM4_ECB && iv_hex) {
        return cli_fail(CLI_EXIT_USAGE, "--mode ecb takes no IV");
    }

    unsigned char k[16];
    fastsm2_sm4_key key;
    rc = load_sm4_key(k, key_path, key_hex);
    if (rc != CLI_EXIT_OK)
        return rc;
    sm4_in in;
    sm4_out out;
    rc = in_open(&in, in_path);
    if (rc == CLI_EXIT_OK) {
        rc = out_open(&out, out_path, dec);
        if (rc != CLI_EXIT_OK)
            in_close(&in);
    }
    if (rc != CLI_EXIT_OK) {
        cli_wipe(k, sizeof k);
        return rc;
    }
    const unsigned char *ad = (const unsigned char *)aad;
    size_t adlen = aad ? strlen(aad) : 0;
    if (mode != 0) {
        int st = fastsm2_sm4_key_init(&key, k);
        int pad = !nopad && (mode == FASTSM2_SM4_ECB || mode == FASTSM2_SM4_CBC);
        rc = st == FASTSM2_OK ? raw_crypt(&in, &out, &key, mode, enc, pad, mode == FASTSM2_SM4_ECB ? NULL : iv)
                              : cli_fail(CLI_EXIT_USAGE, "bad SM4 key: %s", fastsm2_strerror(st));
    } else if (enc) {
        unsigned char hdr[8 + 1 + SALT];
        memcpy(hdr, magic_sm4, 8);
        hdr[8] = CHUNK_LOG;
        rc = random_bytes(hdr + 9, SALT);
        if (rc == CLI_EXIT_OK)
            rc = file_key(&key, k, hdr + 9);
        if (rc == CLI_EXIT_OK)
            rc = stream_encrypt(&in, &out, &key, hdr, sizeof hdr, ad, adlen);
    } else {
        unsigned char hdr[8 + 1 + SALT];
        size_t got = 0;
        rc = in_read(&in, hdr, sizeof hdr, &got);
        if (rc == CLI_EXIT_OK && (got < 9 || memcmp(hdr, magic_sm4, 8) != 0))
            rc = wrong_kind(in.name, hdr, got, 0);
        else if (rc == CLI_EXIT_OK && hdr[8] != CHUNK_LOG) /* fixed in format version 1 */
            rc = cli_fail(CLI_EXIT_FAIL, "%s does not decrypt: its header is damaged", in.name);
        else if (rc == CLI_EXIT_OK && got < sizeof hdr)
            rc = cli_fail(CLI_EXIT_FAIL, "%s does not decrypt: it is truncated in its header", in.name);
        if (rc == CLI_EXIT_OK)
            rc = file_key(&key, k, hdr + 9);
        if (rc == CLI_EXIT_OK)
            rc = stream_decrypt(&in, &out, &key, hdr, sizeof hdr, ad, adlen);
    }
    fastsm2_sm4_key_clear(&key);
    cli_wipe(k, sizeof k);
    in_close(&in);
    if (rc == CLI_EXIT_OK)
        return out_finish(&out);
    out_abandon(&out);
    return rc;
}

/* ---- fastsm2 seal / open ------------------------------------------------------------ */

int cmd_seal(int argc, char **argv)
{
    const char *pub_path = NULL, *in_path = NULL, *out_path = NULL;
    const cli_option opts[] = {
        {"--pub", &pub_path, NULL},
        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
        CLI_OPT_CERT,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    fastsm2_pubkey pub;
    rc = cli_load_pub_arg(&pub, pub_path);
    if (rc != CLI_EXIT_OK)
        return rc;
    cli_secrets_held(); /* the fresh SM4 key */
    unsigned char k[16], hdr[8 + 2 + WRAP_MAX + 1];
    size_t wlen = 0;
    rc = random_bytes(k, sizeof k);
    for (int tries = 0; rc == CLI_EXIT_OK; tries++) {
        wlen = WRAP_MAX;
        int st = fastsm2_encrypt(hdr + 10, &wlen, &pub, k, sizeof k, FASTSM2_CT_DER);
        if (st == FASTSM2_OK)
            break;
        if (st != FASTSM2_ERR_KDF_ZERO || tries > 8)
            rc = cli_fail(CLI_EXIT_USAGE, "cannot wrap the key: %s", fastsm2_strerror(st));
    }
    fastsm2_sm4_key key;
    int have_key = 0;
    if (rc == CLI_EXIT_OK) {
        memcpy(hdr, magic_seal, 8);
        hdr[8] = (unsigned char)(wlen >> 8);
        hdr[9] = (unsigned char)wlen;
        hdr[10 + wlen] = CHUNK_LOG;
        int st = fastsm2_sm4_key_init(&key, k);
        have_key = st == FASTSM2_OK;
        if (!have_key)
            rc = cli_fail(CLI_EXIT_USAGE, "cannot make the SM4 key: %s", fastsm2_strerror(st));
    }
    cli_wipe(k, sizeof k);
    sm4_in in;
    sm4_out out;
    if (rc == CLI_EXIT_OK)
        rc = in_open(&in, in_path);
    if (rc == CLI_EXIT_OK) {
        rc = out_open(&out, out_path, 0);
        if (rc != CLI_EXIT_OK)
            in_close(&in);
    }
    if (rc == CLI_EXIT_OK) {
        rc = stream_encrypt(&in, &out, &key, hdr, 10 + wlen + 1, NULL, 0);
        in_close(&in);
        if (rc == CLI_EXIT_OK)
            rc = out_finish(&out);
        else
            out_abandon(&out);
    }
    if (have_key)
        fastsm2_sm4_key_clear(&key);
    return rc;
}

int cmd_open(int argc, char **argv)
{
    const char *key_path = NULL, *in_path = NULL, *out_path = NULL;
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
        CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc != CLI_EXIT_OK)
        return rc;
    fastsm2_privkey priv;
    rc = cli_load_privkey(&priv, key_path);
    if (rc != CLI_EXIT_OK)
        return rc;
    sm4_in in;
    sm4_out out;
    rc = in_open(&in, in_path);
    if (rc != CLI_EXIT_OK) {
        fastsm2_privkey_clear(&priv);
        return rc;
    }
    unsigned char hdr[8 + 2 + WRAP_MAX + 1], k[32];
    size_t got = 0, wlen = 0, klen = sizeof k;
    rc = in_read(&in, hdr, 10, &got);
    if (rc == CLI_EXIT_OK && (got < 8 || memcmp(hdr, magic_seal, 8) != 0))
        rc = wrong_kind(in.name, hdr, got, 1);
    else if (rc == CLI_EXIT_OK && got < 10)
        rc = cli_fail(CLI_EXIT_FAIL, "%s does not open: it is truncated in its header", in.name);
    if (rc == CLI_EXIT_OK) {
        wlen = (size_t)hdr[8] << 8 | hdr[9];
        if (wlen > WRAP_MAX)
            rc = cli_fail(CLI_EXIT_FAIL,
                          "%s does not open: its wrapped key is %zu bytes long, not an SM2 "
                          "ciphertext of an SM4 key",
                          in.name, wlen);
    }
    if (rc == CLI_EXIT_OK) {
        rc = in_read(&in, hdr + 10, wlen + 1, &got);
        if (rc == CLI_EXIT_OK && got < wlen + 1)
            rc = cli_fail(CLI_EXIT_FAIL, "%s does not open: it is truncated in its header", in.name);
        else if (rc == CLI_EXIT_OK && hdr[10 + wlen] != CHUNK_LOG) /* fixed in format version 1 */
            rc = cli_fail(CLI_EXIT_FAIL, "%s does not open: its header is damaged", in.name);
    }
    if (rc == CLI_EXIT_OK) {
        int st = fastsm2_decrypt(k, &klen, &priv, hdr + 10, wlen, FASTSM2_CT_DER);
        if (st != FASTSM2_OK || klen != 16)
            rc = cli_fail(CLI_EXIT_FAIL,
                          "%s does not open with this key: it was sealed for another key, or its header is "
                          "corrupted (%s)",
                          in.name, st != FASTSM2_OK ? fastsm2_strerror(st) : "the wrapped key is not 16 bytes");
    }
    fastsm2_privkey_clear(&priv);
    fastsm2_sm4_key key;
    int have_key = 0;
    if (rc == CLI_EXIT_OK) {
        int st = fastsm2_sm4_key_init(&key, k);
        have_key = st == FASTSM2_OK;
        if (!have_key)
            rc = cli_fail(CLI_EXIT_USAGE, "bad SM4 key: %s", fastsm2_strerror(st));
    }
    cli_wipe(k, sizeof k);
    if (rc == CLI_EXIT_OK)
        rc = out_open(&out, out_path, 1);
    if (rc == CLI_EXIT_OK) {
        rc = stream_decrypt(&in, &out, &key, hdr, 10 + wlen + 1, NULL, 0);
        if (rc == CLI_EXIT_OK)
            rc = out_finish(&out);
        else
            out_abandon(&out);
    }
    if (have_key)
        fastsm2_sm4_key_clear(&key);
    in_close(&in);
    return rc;
}
