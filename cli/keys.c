/* SPDX-License-Identifier: Apache-2.0 */
/* Key files and signer IDs for the subcommands. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_load_privkey(fastsm2_privkey *key, const char *path)
{
    cli_buf buf;
    int rc = cli_read_file(&buf, path);
    if (rc != CLI_EXIT_OK)
        return rc;
    int st = fastsm2_privkey_parse(key, buf.data, buf.len);
    cli_buf_free(&buf); /* wipes the key file's bytes */
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "bad private key %s: %s", cli_is_std(path) ? "stdin" : path,
                        fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

int cli_load_pubkey(fastsm2_pubkey *pub, const char *path)
{
    cli_buf buf;
    int rc = cli_read_file(&buf, path);
    if (rc != CLI_EXIT_OK)
        return rc;
    int st = fastsm2_pubkey_parse(pub, buf.data, buf.len);
    if (st != FASTSM2_OK) {
        /* A private key file holds the public key too. */
        fastsm2_privkey key;
        if (fastsm2_privkey_parse(&key, buf.data, buf.len) == FASTSM2_OK &&
            fastsm2_privkey_pubkey(pub, &key) == FASTSM2_OK)
            st = FASTSM2_OK;
        fastsm2_privkey_clear(&key);
    }
    cli_buf_free(&buf);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "bad public key %s: %s", cli_is_std(path) ? "stdin" : path,
                        fastsm2_strerror(st));
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
    if (id->len < 1 || id->len > FASTSM2_MAX_ID_LEN) {
        cli_id_free(id);
        return cli_fail(CLI_EXIT_USAGE, "the ID must be 1 to %d bytes", FASTSM2_MAX_ID_LEN);
    }
    return CLI_EXIT_OK;
}

void cli_id_free(cli_id *id)
{
    free(id->owned);
    memset(id, 0, sizeof(*id));
}
