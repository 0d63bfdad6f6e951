/* SPDX-License-Identifier: Apache-2.0 */
/* Key files and signer IDs for the subcommands. */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli.h"

const char *cli_passin, *cli_passout, *cli_pbe, *cli_iter, *cli_cert, *cli_max_iter;

void cli_secrets_held(void)
{
    static int done;
    if (done)
        return;
    done = 1;
#ifdef __linux__
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

/* What a key file that did not parse is, and what to do: one message for
 * each named error of the key parsers. */
static int key_error(const char *role, const char *path, int st, const cli_buf *file, uint32_t iterations,
                     uint32_t limit)
{
    const char *name = cli_is_std(path) ? "stdin" : path;
    switch (st) {
    case FASTSM2_ERR_ITERATIONS:
        return cli_fail(CLI_EXIT_USAGE,
                        "%s asks for %lu PBKDF2 iterations, more than the limit of %lu (a hostile file could make "
                        "each load cost minutes): if you trust the file, raise the limit with --max-iter %lu",
                        name, (unsigned long)iterations, (unsigned long)limit, (unsigned long)iterations);
    case FASTSM2_ERR_ENCRYPTED_KEY:
        return cli_fail(CLI_EXIT_USAGE, "%s is an encrypted private key: give its password with --passin", name);
    case FASTSM2_ERR_PASSWORD:
        return cli_fail(CLI_EXIT_USAGE, "wrong password for %s (or the encrypted key is corrupted)", name);
    case FASTSM2_ERR_KEY_CIPHER:
        if (file && memmem(file->data, file->len, "Proc-Type:", 10))
            return cli_fail(CLI_EXIT_USAGE,
                            "%s is encrypted in the legacy PEM format (Proc-Type: 4,ENCRYPTED), which fastsm2 does "
                            "not read: convert it to encrypted PKCS#8 with 'openssl pkcs8 -topk8 -v2 aes-256-cbc "
                            "-in %s -out KEY.p8'",
                            name, name);
        return cli_fail(CLI_EXIT_USAGE,
                        "%s is encrypted with a scheme fastsm2 does not read (it reads PBES2 with PBKDF2-HMAC-SM3 or "
                        "-SHA256 and SM4-CBC or AES-256-CBC): re-encrypt it with 'openssl pkcs8 -topk8 -v2 "
                        "aes-256-cbc' or 'fastsm2 key'",
                        name);
    case FASTSM2_ERR_CURVE:
        return cli_fail(CLI_EXIT_USAGE,
                        "%s is a key on another elliptic curve (e.g. P-256), not SM2 (sm2p256v1): use an SM2 key "
                        "('fastsm2 keygen', 'openssl genpkey -algorithm SM2')",
                        name);
    case FASTSM2_ERR_KEY_FORMAT:
        return cli_fail(CLI_EXIT_USAGE, "%s is not an SM2 %s key (another algorithm, e.g. RSA or Ed25519)", name, role);
    case FASTSM2_ERR_PUBLIC_KEY:
        return cli_fail(CLI_EXIT_USAGE, "%s is a public key, not a private key: give the private key file", name);
    case FASTSM2_ERR_CERTIFICATE:
        if (!strcmp(role, "private"))
            return cli_fail(CLI_EXIT_USAGE, "%s is an X.509 certificate, not a private key file", name);
        return cli_fail(CLI_EXIT_USAGE,
                        "%s is an X.509 certificate, not a public key file: give it with --cert %s (the "
                        "certificate's own signature is not checked)",
                        name, name);
    case FASTSM2_ERR_TOO_LARGE:
        return cli_fail(CLI_EXIT_USAGE, "%s is larger than any SM2 %s key file: is it the right file?", name, role);
    default: return cli_fail(CLI_EXIT_USAGE, "bad %s key %s: %s", role, name, fastsm2_strerror(st));
    }
}

/* --max-iter N: 0 (the library's default) when not given. */
static int max_iterations(uint32_t *max)
{
    *max = 0;
    if (!cli_max_iter)
        return CLI_EXIT_OK;
    char *end;
    unsigned long v = strtoul(cli_max_iter, &end, 10);
    if (*cli_max_iter < '0' || *cli_max_iter > '9' || *end != 0 || v < 1 || v > UINT32_MAX)
        return cli_fail(CLI_EXIT_USAGE, "--max-iter takes a count from 1 to %lu", (unsigned long)UINT32_MAX);
    *max = (uint32_t)v;
    return CLI_EXIT_OK;
}

typedef struct {
    const char *what; /* names the key in the prompt */
    int rc;           /* the password source's failure, after its message */
} ask_ctx;

/* The library asks for the password once it knows the file is encrypted,
 * and it is read straight into the library's buffer (wiped there). */
static int ask_password(void *buf, size_t cap, size_t *len, void *arg)
{
    ask_ctx *a = arg;
    a->rc = cli_password_into(buf, cap, len, cli_passin, a->what, 0);
    return a->rc == CLI_EXIT_OK;
}

/* Parse a private key file once, asking for the password only when it is
 * encrypted. */
static int parse_privkey(fastsm2_privkey *key, const cli_buf *buf, const char *path)
{
    uint32_t max, iterations = 0;
    int rc = max_iterations(&max);
    if (rc != CLI_EXIT_OK)
        return rc;
    ask_ctx a = {cli_is_std(path) ? "the private key" : path, CLI_EXIT_OK};
    int st = fastsm2_privkey_parse_cb(key, buf->data, buf->len, ask_password, &a, max, &iterations);
    if (a.rc != CLI_EXIT_OK)
        return a.rc; /* the password could not be read: said already */
    if (st != FASTSM2_OK)
        return key_error("private", path, st, buf, iterations, max ? max : FASTSM2_PBE_MAX_ITERATIONS);
    return CLI_EXIT_OK;
}

int cli_load_privkey(fastsm2_privkey *key, const char *path)
{
    cli_buf buf;
    cli_secrets_held(); /* the file's bytes are the key */
    int rc = cli_read_file_max(&buf, path, CLI_KEYFILE_MAX, "SM2 key file");
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = parse_privkey(key, &buf, path);
    cli_buf_free(&buf); /* wipes the key file's bytes */
    return rc;
}

int cli_load_pubkey(fastsm2_pubkey *pub, const char *path)
{
    cli_buf buf;
    int rc = cli_read_file_max(&buf, path, CLI_KEYFILE_MAX, "SM2 key file");
    if (rc != CLI_EXIT_OK)
        return rc;
    int st = fastsm2_pubkey_parse(pub, buf.data, buf.len);
    if (st == FASTSM2_ERR_PEM || st == FASTSM2_ERR_DER) {
        /* A private key file holds the public key too (plain ones only:
         * no password is asked for a public key). */
        fastsm2_privkey key;
        cli_secrets_held(); /* it may be a private key: its bytes are one */
        int pst = fastsm2_privkey_parse(&key, buf.data, buf.len);
        if (pst == FASTSM2_OK && fastsm2_privkey_pubkey(pub, &key) == FASTSM2_OK)
            st = FASTSM2_OK;
        else if (pst != FASTSM2_ERR_PEM && pst != FASTSM2_ERR_DER && pst != FASTSM2_ERR_PUBLIC_KEY &&
                 pst != FASTSM2_ERR_CERTIFICATE)
            st = pst; /* the file is a private key: say what is wrong with it */
        fastsm2_privkey_clear(&key);
    }
    if (st == FASTSM2_ERR_ENCRYPTED_KEY)
        rc = cli_fail(CLI_EXIT_USAGE,
                      "%s is an encrypted private key: give its public key ('fastsm2 pubkey --key %s') instead",
                      cli_is_std(path) ? "stdin" : path, cli_is_std(path) ? "KEY" : path);
    else if (st != FASTSM2_OK)
        rc = key_error("public", path, st, &buf, 0, 0);
    cli_buf_free(&buf);
    return rc;
}

int cli_load_cert(fastsm2_pubkey *pub, const char *path)
{
    cli_buf buf;
    int rc = cli_read_file_max(&buf, path, CLI_CERT_MAX, "certificate fastsm2 reads");
    if (rc != CLI_EXIT_OK)
        return rc;
    int st = fastsm2_pubkey_parse_certificate(pub, buf.data, buf.len);
    if (st == FASTSM2_ERR_PEM && fastsm2_pubkey_parse(pub, buf.data, buf.len) == FASTSM2_OK)
        rc = cli_fail(CLI_EXIT_USAGE, "%s is a public key file, not a certificate: give it with --pub",
                      cli_is_std(path) ? "stdin" : path);
    else if (st != FASTSM2_OK)
        rc = key_error("certificate's public", path, st, &buf, 0, 0);
    cli_buf_free(&buf);
    return rc;
}

int cli_load_pub_arg(fastsm2_pubkey *pub, const char *pub_path)
{
    if (pub_path && cli_cert)
        return cli_fail(CLI_EXIT_USAGE, "give --pub or --cert, not both");
    if (cli_cert)
        return cli_load_cert(pub, cli_cert);
    if (!pub_path)
        return cli_fail(CLI_EXIT_USAGE, "--pub (or --cert) is required (try --help)");
    return cli_load_pubkey(pub, pub_path);
}

int cli_serialize_privkey(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, int fmt)
{
    int st, scheme = FASTSM2_PBE_SM3_SM4;
    unsigned long iter = 0;
    if ((cli_pbe || cli_iter) && !cli_passout)
        return cli_fail(CLI_EXIT_USAGE, "--pbe and --iter go with --passout");
    if (!cli_passout) {
        st = fastsm2_privkey_serialize(out, outlen, key, fmt);
    } else {
        if (fmt & FASTSM2_KEYFMT_SEC1)
            return cli_fail(CLI_EXIT_USAGE, "an encrypted key is PKCS#8: --sec1 and --passout do not go together");
        if (cli_pbe == NULL || strcmp(cli_pbe, "sm3-sm4") == 0)
            scheme = FASTSM2_PBE_SM3_SM4;
        else if (strcmp(cli_pbe, "sha256-sm4") == 0)
            scheme = FASTSM2_PBE_SHA256_SM4;
        else if (strcmp(cli_pbe, "sha256-aes256") == 0)
            scheme = FASTSM2_PBE_SHA256_AES256;
        else
            return cli_fail(CLI_EXIT_USAGE, "--pbe takes sm3-sm4 (GmSSL's), sha256-sm4 or sha256-aes256 (OpenSSL's)");
        if (cli_iter) {
            char *end;
            iter = strtoul(cli_iter, &end, 10);
            if (*cli_iter == 0 || *end != 0 || iter < 1 || iter > FASTSM2_PBE_MAX_ITERATIONS)
                return cli_fail(CLI_EXIT_USAGE, "--iter takes a count from 1 to %d", FASTSM2_PBE_MAX_ITERATIONS);
        }
        cli_buf pw;
        int rc = cli_password(&pw, strcmp(cli_passout, "prompt") == 0 ? NULL : cli_passout, "the new key file", 1);
        if (rc != CLI_EXIT_OK)
            return rc;
        st = fastsm2_privkey_serialize_encrypted(out, outlen, key, fmt & FASTSM2_KEYFMT_PEM, scheme, (uint32_t)iter,
                                                 pw.data, pw.len);
        cli_buf_free(&pw);
    }
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot encode the private key: %s", fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cli_id_parse(cli_id *id, const char *id_str, const char *id_hex)
{
    memset(id, 0, sizeof(*id));
    if (id_str && id_hex)
        return cli_fail(CLI_EXIT_USAGE, "give --id or --id-hex, not both");
    if (id_str) {
        id->ptr = id_str;
        id->len = strlen(id_str);
    } else if (id_hex) {
        size_t n = strlen(id_hex);
        if (n % 2 != 0)
            return cli_fail(CLI_EXIT_USAGE, "--id-hex needs an even number of hex digits");
        id->owned = malloc(n / 2 + 1);
        if (!id->owned)
            return cli_fail(CLI_EXIT_USAGE, "out of memory");
        for (size_t i = 0; i < n / 2; i++) {
            int hi = hex_digit(id_hex[2 * i]), lo = hex_digit(id_hex[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                cli_id_free(id);
                return cli_fail(CLI_EXIT_USAGE, "--id-hex: '%s' is not hex", id_hex);
            }
            id->owned[i] = (unsigned char)(hi << 4 | lo);
        }
        id->ptr = id->owned;
        id->len = n / 2;
    } else {
        return CLI_EXIT_OK; /* the default ID */
    }
    /* length 0 (--id '' or --id-hex ''): the empty ID, with a non-NULL
     * pointer (include/fastsm2.h): what OpenSSL signs with when no distid
     * is set */
    if (id->len > FASTSM2_MAX_ID_LEN) {
        cli_id_free(id);
        return cli_fail(CLI_EXIT_USAGE, "the ID must be at most %d bytes", FASTSM2_MAX_ID_LEN);
    }
    return CLI_EXIT_OK;
}

void cli_id_free(cli_id *id)
{
    free(id->owned);
    memset(id, 0, sizeof(*id));
}
