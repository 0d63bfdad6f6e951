/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 sign, fastsm2 verify (GB/T 32918.2). */
#include <stdio.h>

#include "cli.h"

int cmd_sign(int argc, char **argv)
{
    const char *key_path = NULL, *id_str = NULL, *id_hex = NULL, *in_path = NULL, *out_path = NULL;
    int raw = 0, hex = 0, digest = 0;
    const cli_option opts[] = {
        {"--key", &key_path, NULL}, {"--id", &id_str, NULL},     {"--id-hex", &id_hex, NULL},
        {"--in", &in_path, NULL},   {"--out", &out_path, NULL},  {"--raw", NULL, &raw},
        {"--hex", NULL, &hex},      {"--digest", NULL, &digest}, CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc == CLI_EXIT_OK && digest && (id_str || id_hex))
        rc = cli_fail(CLI_EXIT_USAGE, "--digest signs a given e = SM3(Z_A || M): the ID is already in it");
    if (rc != CLI_EXIT_OK)
        return rc;

    cli_id id;
    fastsm2_privkey key;
    cli_buf msg = {0};
    rc = cli_id_parse(&id, id_str, id_hex);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_load_privkey(&key, key_path);
    if (rc == CLI_EXIT_OK)
        rc = cli_read_file(&msg, in_path);
    if (rc == CLI_EXIT_OK && digest)
        rc = cli_read_digest(&msg);
    if (rc == CLI_EXIT_OK) {
        unsigned char sig[FASTSM2_SIG_RAW_SIZE], der[FASTSM2_SIG_DER_MAX];
        size_t derlen = sizeof(der);
        int st = digest ? fastsm2_sign_digest(sig, &key, msg.data)
                        : fastsm2_sign(sig, &key, id.ptr, id.len, msg.data, msg.len);
        if (st == FASTSM2_OK && !raw)
            st = fastsm2_sig_to_der(der, &derlen, sig);
        if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "cannot sign: %s", fastsm2_strerror(st));
        else
            rc = cli_write_maybe_hex(out_path, raw ? sig : der, raw ? sizeof(sig) : derlen, hex);
    }
    fastsm2_privkey_clear(&key);
    cli_buf_free(&msg);
    cli_id_free(&id);
    return rc;
}

/* Decode the signature file into r || s. A file that is not a signature is
 * an invalid signature (exit 1), as with `openssl dgst -verify`. */
static int decode_signature(unsigned char sig[FASTSM2_SIG_RAW_SIZE], cli_buf *in, int raw, int hex)
{
    if (hex && cli_hex_decode(in, "the signature") != CLI_EXIT_OK)
        return CLI_EXIT_FAIL; /* not a signature: a negative answer */
    if (raw) {
        if (in->len != FASTSM2_SIG_RAW_SIZE)
            return cli_fail(CLI_EXIT_FAIL, "bad signature encoding: a raw signature is %d bytes, not %zu",
                            FASTSM2_SIG_RAW_SIZE, in->len);
        for (size_t i = 0; i < FASTSM2_SIG_RAW_SIZE; i++)
            sig[i] = in->data[i];
        return CLI_EXIT_OK;
    }
    int st = fastsm2_sig_from_der(sig, in->data, in->len);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_FAIL, "bad signature encoding: %s", fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

int cmd_verify(int argc, char **argv)
{
    const char *pub_path = NULL, *id_str = NULL, *id_hex = NULL, *in_path = NULL, *sig_path = NULL;
    int raw = 0, quiet = 0, hex = 0, digest = 0;
    const cli_option opts[] = {
        {"--pub", &pub_path, NULL},  {"--id", &id_str, NULL},
        {"--id-hex", &id_hex, NULL}, {"--in", &in_path, NULL},
        {"--sig", &sig_path, NULL},  {"--raw", NULL, &raw},
        {"--quiet", NULL, &quiet},   {"--hex", NULL, &hex},
        {"--digest", NULL, &digest}, CLI_OPT_CERT,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK && !pub_path && !cli_cert)
        rc = cli_require(pub_path, "--pub (or --cert)");
    if (rc == CLI_EXIT_OK)
        rc = cli_require(sig_path, "--sig");
    if (rc == CLI_EXIT_OK && digest && (id_str || id_hex))
        rc = cli_fail(CLI_EXIT_USAGE, "--digest verifies a given e = SM3(Z_A || M): the ID is already in it");
    if (rc != CLI_EXIT_OK)
        return rc;

    cli_id id;
    fastsm2_pubkey pub;
    cli_buf msg = {0}, sigfile = {0};
    unsigned char sig[FASTSM2_SIG_RAW_SIZE];
    rc = cli_id_parse(&id, id_str, id_hex);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_load_pub_arg(&pub, pub_path);
    if (rc == CLI_EXIT_OK)
        rc = cli_read_file_max(&sigfile, sig_path, CLI_SIGFILE_MAX, "signature file");
    if (rc == CLI_EXIT_OK)
        rc = cli_read_file(&msg, in_path);
    if (rc == CLI_EXIT_OK && digest)
        rc = cli_read_digest(&msg);
    if (rc == CLI_EXIT_OK)
        rc = decode_signature(sig, &sigfile, raw, hex);
    if (rc == CLI_EXIT_OK) {
        int st = digest ? fastsm2_verify_digest_status(&pub, msg.data, sig)
                        : fastsm2_verify_status(&pub, id.ptr, id.len, msg.data, msg.len, sig);
        if (st == FASTSM2_OK) {
            if (!quiet)
                printf("Verified OK\n");
        } else if (st == FASTSM2_ERR_BAD_SIGNATURE || st == FASTSM2_ERR_SIG_RANGE) {
            rc = cli_fail(CLI_EXIT_FAIL, "verification failure: %s", fastsm2_strerror(st));
        } else {
            rc = cli_fail(CLI_EXIT_USAGE, "cannot verify: %s", fastsm2_strerror(st));
        }
    }
    cli_buf_free(&msg);
    cli_buf_free(&sigfile);
    cli_id_free(&id);
    return rc;
}
