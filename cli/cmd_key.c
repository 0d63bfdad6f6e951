/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2 key: read a private key file of any kind fastsm2 reads (plain or
 * password-encrypted PKCS#8, SEC1, PEM or DER) and write it again in the
 * form asked for: the bridge between GmSSL's and OpenSSL's key files.
 * Also the text form of a public key (fastsm2 pubkey --text). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define KEYFILE_MAX 1024

int cmd_key(int argc, char **argv)
{
    const char *key_path = NULL, *out_path = NULL;
    int der = 0, sec1 = 0;
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--out", &out_path, NULL},
        {"--der", NULL, &der},
        {"--sec1", NULL, &sec1},
        CLI_OPT_PASSIN,
        CLI_OPTS_PASSOUT,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc != CLI_EXIT_OK)
        return rc;
    fastsm2_privkey key;
    unsigned char file[KEYFILE_MAX];
    size_t len = sizeof(file);
    rc = cli_load_privkey(&key, key_path);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_serialize_privkey(file, &len, &key,
                               (sec1 ? FASTSM2_KEYFMT_SEC1 : FASTSM2_KEYFMT_PKCS8) |
                                   (der ? FASTSM2_KEYFMT_DER : FASTSM2_KEYFMT_PEM));
    fastsm2_privkey_clear(&key);
    if (rc == CLI_EXIT_OK)
        rc = cli_write_file(out_path, file, len, 1);
    cli_wipe(file, sizeof(file));
    return rc;
}

static void hex_into(char *out, const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    out[2 * n] = 0;
}

int cli_pubkey_text(const char *out_path, const fastsm2_pubkey *pub)
{
    unsigned char u[65], c[33], z[32];
    size_t ul = sizeof(u), cl = sizeof(c);
    char hu[131], hc[67], hz[65], hx[65], hy[65], text[1024];
    if (fastsm2_pubkey_to_bytes(u, &ul, pub, 0) != FASTSM2_OK ||
        fastsm2_pubkey_to_bytes(c, &cl, pub, 1) != FASTSM2_OK || fastsm2_compute_z(z, pub, NULL, 0) != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot encode the public key");
    hex_into(hu, u, ul);
    hex_into(hc, c, cl);
    hex_into(hz, z, 32);
    hex_into(hx, u + 1, 32);
    hex_into(hy, u + 33, 32);
    int n = snprintf(text, sizeof(text),
                     "SM2 public key (curve sm2p256v1, OID 1.2.156.10197.1.301)\n"
                     "x:            %s\n"
                     "y:            %s\n"
                     "uncompressed: %s\n"
                     "compressed:   %s\n"
                     "Z_A (default ID " FASTSM2_DEFAULT_ID "): %s\n",
                     hx, hy, hu, hc, hz);
    return cli_write_file(out_path, text, (size_t)n, 0);
}
