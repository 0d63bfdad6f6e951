/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 hash (GB/T 32905-2016), streaming and one-shot, over the selected
 * SM3 table's compression (fs2_sm3(), src/backend/backend.h; the tables
 * are in src/sm3/).
 */
#include "backend/backend.h"

/* ------------------------------------------------------------------ */
/* Streaming hash (GB/T 32905 clause 5)                                 */
/* ------------------------------------------------------------------ */

/* What fastsm2_sm3_ctx holds. may_alias: the public type is a uint64_t
 * array and we reach it through a pointer cast. */
typedef struct {
    uint32_t h[8];   /* chaining value V(i) */
    uint64_t nbytes; /* bytes absorbed so far */
    unsigned char buf[64];
    uint32_t buflen; /* bytes waiting in buf, always < 64 */
} __attribute__((may_alias)) fs2_sm3_state;

_Static_assert(sizeof(fs2_sm3_state) <= sizeof(fastsm2_sm3_ctx), "fastsm2_sm3_ctx too small");
_Static_assert(_Alignof(fs2_sm3_state) <= _Alignof(fastsm2_sm3_ctx), "fastsm2_sm3_ctx under-aligned");

static void fs2_sm3_state_init(fs2_sm3_state *s)
{
    /* GB/T 32905 4.1: IV */
    static const uint32_t iv[8] = {
        0x7380166Fu, 0x4914B2B9u, 0x172442D7u, 0xDA8A0600u, 0xA96F30BCu, 0x163138AAu, 0xE38DEE4Du, 0xB0FB0E4Eu,
    };
    memcpy(s->h, iv, sizeof iv);
    s->nbytes = 0;
    memset(s->buf, 0, sizeof s->buf);
    s->buflen = 0;
}

static void fs2_sm3_state_update(fs2_sm3_state *s, const unsigned char *p, size_t len)
{
    const fs2_sm3_ops *sm3;
    if (len == 0)
        return;
    sm3 = fs2_sm3();
    s->nbytes += len;
    if (s->buflen) {
        size_t take = 64 - s->buflen;
        if (take > len)
            take = len;
        memcpy(s->buf + s->buflen, p, take);
        s->buflen += (uint32_t)take;
        p += take;
        len -= take;
        if (s->buflen < 64)
            return;
        sm3->compress(s->h, s->buf, 1);
        s->buflen = 0;
    }
    if (len >= 64) {
        size_t n = len / 64;
        sm3->compress(s->h, p, n);
        p += 64 * n;
        len -= 64 * n;
    }
    if (len) {
        memcpy(s->buf, p, len);
        s->buflen = (uint32_t)len;
    }
}

/* GB/T 32905 5.2 padding and 5.3 output; wipes s. */
static void fs2_sm3_state_final(unsigned char out[32], fs2_sm3_state *s)
{
    const fs2_sm3_ops *sm3 = fs2_sm3();
    size_t n = s->buflen;
    s->buf[n++] = 0x80;
    if (n > 56) {
        memset(s->buf + n, 0, 64 - n);
        sm3->compress(s->h, s->buf, 1);
        n = 0;
    }
    memset(s->buf + n, 0, 56 - n);
    fs2_store64_be(s->buf + 56, s->nbytes << 3);
    sm3->compress(s->h, s->buf, 1);
    for (int i = 0; i < 8; i++)
        fs2_store32_be(out + 4 * i, s->h[i]);
    fs2_wipe(s, sizeof *s);
}

void fastsm2_sm3_init(fastsm2_sm3_ctx *ctx)
{
    if (ctx == NULL)
        return;
    memset(ctx, 0, sizeof *ctx);
    fs2_sm3_state_init((fs2_sm3_state *)ctx);
}

void fastsm2_sm3_update(fastsm2_sm3_ctx *ctx, const void *data, size_t len)
{
    /* A void function cannot report a bad argument: NULL is ignored. */
    if (ctx == NULL || data == NULL)
        return;
    fs2_sm3_state_update((fs2_sm3_state *)ctx, data, len);
}

void fastsm2_sm3_final(unsigned char out[32], fastsm2_sm3_ctx *ctx)
{
    if (ctx == NULL)
        return;
    if (out == NULL) {
        fs2_wipe(ctx, sizeof *ctx);
        return;
    }
    fs2_sm3_state_final(out, (fs2_sm3_state *)ctx);
}

void fastsm2_sm3(unsigned char out[32], const void *data, size_t len)
{
    fs2_sm3_state s;
    if (out == NULL)
        return;
    fs2_sm3_state_init(&s);
    if (data != NULL)
        fs2_sm3_state_update(&s, data, len);
    fs2_sm3_state_final(out, &s);
}

/* The KDF (GB/T 32918.4 5.4.3) is in sm3_kdf.c, the multi-buffer hash in
 * sm3_lanes.c. */
