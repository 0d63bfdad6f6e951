/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 keygen, fastsm2 pubkey. */
#include "cli.h"

#define KEYFILE_MAX 1024 /* a PEM PKCS#8 SM2 key is about 250 bytes */

/* SPKI of pub into out (PEM, or DER when der is set). */
static int serialize_pub(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, int der)
{
    *outlen = KEYFILE_MAX;
    int st = fastsm2_pubkey_serialize(out, outlen, pub, der ? FASTSM2_KEYFMT_DER : FASTSM2_KEYFMT_PEM);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot encode the public key: %s", fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

int cmd_keygen(int argc, char **argv)
{
    const char *out_path = NULL, *pub_path = NULL;
    int der = 0;
    const cli_option opts[] = {
        {"--out", &out_path, NULL},
        {"--pubout", &pub_path, NULL},
        {"--der", NULL, &der},
        CLI_OPTS_PASSOUT,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (cli_is_std(out_path) && cli_is_std(pub_path) && pub_path)
        return cli_fail(CLI_EXIT_USAGE, "the private and the public key cannot both go to stdout");
    if (pub_path && cli_same_output(out_path, pub_path))
        return cli_fail(CLI_EXIT_USAGE, "--out and --pubout name the same file: the private key would be lost");

    fastsm2_privkey key;
    unsigned char keyfile[KEYFILE_MAX], pubfile[KEYFILE_MAX];
    size_t keylen = sizeof(keyfile), publen = 0;
    cli_secrets_held();
    int st = fastsm2_privkey_generate(&key);
    if (st != FASTSM2_OK) {
        rc = cli_fail(CLI_EXIT_USAGE, "cannot make a key: %s", fastsm2_strerror(st));
        goto done;
    }
    rc = cli_serialize_privkey(keyfile, &keylen, &key,
                               FASTSM2_KEYFMT_PKCS8 | (der ? FASTSM2_KEYFMT_DER : FASTSM2_KEYFMT_PEM));
    if (rc != CLI_EXIT_OK)
        goto done;
    if (pub_path) {
        fastsm2_pubkey pub;
        st = fastsm2_privkey_pubkey(&pub, &key);
        if (st != FASTSM2_OK) {
            rc = cli_fail(CLI_EXIT_USAGE, "cannot make a key: %s", fastsm2_strerror(st));
            goto done;
        }
        rc = serialize_pub(pubfile, &publen, &pub, der);
        if (rc != CLI_EXIT_OK)
            goto done;
    }

    /* Both files are staged before either is put in place, and put in
     * place together: both or neither. */
    cli_out outs[2];
    size_t nout = 0;
    rc = cli_out_stage(&outs[nout++], out_path, keyfile, keylen, 1);
    if (rc == CLI_EXIT_OK && pub_path) {
        rc = cli_out_stage(&outs[nout++], pub_path, pubfile, publen, 0);
        if (rc != CLI_EXIT_OK)
            cli_out_abort(&outs[0]);
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_out_commit_all(outs, nout);
done:
    fastsm2_privkey_clear(&key);
    cli_wipe(keyfile, sizeof(keyfile));
    return rc;
}

int cmd_pubkey(int argc, char **argv)
{
    const char *key_path = NULL, *out_path = NULL, *pub_path = NULL;
    int der = 0, text = 0;
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--out", &out_path, NULL},
        {"--der", NULL, &der},
        {"--pub", &pub_path, NULL},
        {"--text", NULL, &text},
        CLI_OPT_PASSIN,
        CLI_OPT_CERT,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK && (!!key_path + !!pub_path + !!cli_cert) != 1)
        rc = cli_fail(CLI_EXIT_USAGE, "give one of --key, --pub, --cert (try --help)");
    if (rc != CLI_EXIT_OK)
        return rc;

    fastsm2_pubkey pub;
    unsigned char pubfile[KEYFILE_MAX];
    size_t publen;
    if (key_path) {
        fastsm2_privkey key;
        rc = cli_load_privkey(&key, key_path);
        if (rc != CLI_EXIT_OK)
            return rc;
        int st = fastsm2_privkey_pubkey(&pub, &key);
        fastsm2_privkey_clear(&key);
        if (st != FASTSM2_OK)
            return cli_fail(CLI_EXIT_USAGE, "cannot derive the public key: %s", fastsm2_strerror(st));
    } else {
        rc = cli_load_pub_arg(&pub, pub_path);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    if (text)
        return cli_pubkey_text(out_path, &pub);
    rc = serialize_pub(pubfile, &publen, &pub, der);
    if (rc != CLI_EXIT_OK)
        return rc;
    return cli_write_file(out_path, pubfile, publen, 0);
}
