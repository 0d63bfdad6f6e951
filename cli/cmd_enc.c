/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 encrypt, fastsm2 decrypt (GB/T 32918.4). */
#include <stdlib.h>

#include "cli.h"

/* --raw and --c1c2c3 to FASTSM2_CT_* flags. DER has a single field order,
 * so --c1c2c3 without --raw is refused rather than silently ignored. */
static int ct_flags(int *flags, int raw, int c1c2c3)
{
    if (c1c2c3 && !raw)
        return cli_fail(CLI_EXIT_USAGE, "--c1c2c3 needs --raw (DER always holds C3 before C2)");
    *flags = (raw ? FASTSM2_CT_RAW : FASTSM2_CT_DER) | (c1c2c3 ? FASTSM2_CT_C1C2C3 : FASTSM2_CT_C1C3C2);
    return CLI_EXIT_OK;
}

int cmd_encrypt(int argc, char **argv)
{
    const char *pub_path = NULL, *in_path = NULL, *out_path = NULL;
    int raw = 0, c1c2c3 = 0, flags = 0;
    const cli_option opts[] = {
        {"--pub", &pub_path, NULL}, {"--in", &in_path, NULL},         {"--out", &out_path, NULL},
        {"--raw", NULL, &raw},      {"--c1c2c3", NULL, &c1c2c3},
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(pub_path, "--pub");
    if (rc == CLI_EXIT_OK)
        rc = ct_flags(&flags, raw, c1c2c3);
    if (rc != CLI_EXIT_OK)
        return rc;

    fastsm2_pubkey pub;
    cli_buf msg = {0};
    rc = cli_load_pubkey(&pub, pub_path);
    if (rc == CLI_EXIT_OK)
        rc = cli_read_file(&msg, in_path);
    if (rc == CLI_EXIT_OK) {
        size_t ctlen = fastsm2_ciphertext_size(msg.len, flags);
        unsigned char *ct = ctlen ? malloc(ctlen) : NULL;
        int st = ct ? fastsm2_encrypt(ct, &ctlen, &pub, msg.data, msg.len, flags) : FASTSM2_ERR_NO_MEMORY;
        if (st == FASTSM2_OK)
            rc = cli_write_file(out_path, ct, ctlen, 0);
        else
            rc = cli_fail(CLI_EXIT_USAGE, "cannot encrypt: %s", fastsm2_strerror(st));
        free(ct);
    }
    cli_buf_free(&msg);
    return rc;
}

int cmd_decrypt(int argc, char **argv)
{
    const char *key_path = NULL, *in_path = NULL, *out_path = NULL;
    int raw = 0, c1c2c3 = 0, flags = 0;
    const cli_option opts[] = {
        {"--key", &key_path, NULL}, {"--in", &in_path, NULL},         {"--out", &out_path, NULL},
        {"--raw", NULL, &raw},      {"--c1c2c3", NULL, &c1c2c3},
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc == CLI_EXIT_OK)
        rc = ct_flags(&flags, raw, c1c2c3);
    if (rc != CLI_EXIT_OK)
        return rc;

    fastsm2_privkey key;
    cli_buf ct = {0}, pt = {0};
    rc = cli_load_privkey(&key, key_path);
    if (rc == CLI_EXIT_OK)
        rc = cli_read_file(&ct, in_path);
    if (rc == CLI_EXIT_OK) {
        /* The plaintext is shorter than the ciphertext; +1 so that an empty
         * ciphertext still gets a buffer. */
        pt.cap = ct.len + 1;
        pt.data = malloc(pt.cap);
        pt.len = pt.cap;
        int st = pt.data ? fastsm2_decrypt(pt.data, &pt.len, &key, ct.data, ct.len, flags)
                         : FASTSM2_ERR_NO_MEMORY;
        if (st == FASTSM2_OK)
            rc = cli_write_file(out_path, pt.data, pt.len, 0);
        else if (st == FASTSM2_ERR_DECRYPT || st == FASTSM2_ERR_CIPHERTEXT || st == FASTSM2_ERR_POINT)
            rc = cli_fail(CLI_EXIT_FAIL, "the ciphertext does not decrypt: %s", fastsm2_strerror(st));
        else
            rc = cli_fail(CLI_EXIT_USAGE, "cannot decrypt: %s", fastsm2_strerror(st));
    }
    fastsm2_privkey_clear(&key);
    cli_buf_free(&ct);
    cli_buf_free(&pt);
    return rc;
}
