/* SPDX-License-Identifier: Apache-2.0 */
/* Hex text for --hex (signatures, ciphertexts, digests): lower-case digits
 * and a final line break out; any case and any whitespace in. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_hex_encode(cli_buf *out, const unsigned char *data, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    memset(out, 0, sizeof(*out));
    out->data = malloc(2 * len + 2);
    if (!out->data)
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    out->cap = 2 * len + 2;
    for (size_t i = 0; i < len; i++) {
        out->data[2 * i] = (unsigned char)digits[data[i] >> 4];
        out->data[2 * i + 1] = (unsigned char)digits[data[i] & 15];
    }
    out->data[2 * len] = '\n';
    out->len = 2 * len + 1;
    return CLI_EXIT_OK;
}

static int nibble(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int cli_hex_decode(cli_buf *buf, const char *what)
{
    size_t o = 0;
    int hi = -1;
    for (size_t i = 0; i < buf->len; i++) {
        int c = buf->data[i];
        if (isspace(c))
            continue;
        int v = nibble(c);
        if (v < 0)
            return cli_fail(CLI_EXIT_USAGE, "%s is not hex (found '%c')", what, isprint(c) ? c : '?');
        if (hi < 0) {
            hi = v;
        } else {
            buf->data[o++] = (unsigned char)(hi << 4 | v);
            hi = -1;
        }
    }
    if (hi >= 0)
        return cli_fail(CLI_EXIT_USAGE, "%s has an odd number of hex digits", what);
    buf->len = o;
    return CLI_EXIT_OK;
}

int cli_read_digest(cli_buf *buf)
{
    /* 32 bytes as they are, or 64 hex digits (with a line break). */
    if (buf->len != FASTSM2_SM3_DIGEST_SIZE && cli_hex_decode(buf, "the digest") != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    if (buf->len != FASTSM2_SM3_DIGEST_SIZE)
        return cli_fail(CLI_EXIT_USAGE, "--digest takes e = SM3(Z_A || M): 32 bytes or 64 hex digits, not %zu bytes",
                        buf->len);
    return CLI_EXIT_OK;
}

int cli_write_maybe_hex(const char *path, const unsigned char *data, size_t len, int hex)
{
    if (!hex)
        return cli_write_file(path, data, len, 0);
    cli_buf h;
    int rc = cli_hex_encode(&h, data, len);
    if (rc == CLI_EXIT_OK)
        rc = cli_write_file(path, h.data, h.len, 0);
    cli_buf_free(&h);
    return rc;
}
