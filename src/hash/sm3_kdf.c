/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM2 key derivation function, GB/T 32918.4-2016 5.4.3:
 *   t = SM3(Z || ct=1) || SM3(Z || ct=2) || ... truncated to klen.
 *
 * Z is common to every counter, so it is absorbed once: its whole 64-byte
 * blocks are compressed into a saved chaining value, and its tail goes into
 * a template holding Z's tail || ct || 80 00 .. 00 || bit length (one block,
 * or two when the tail is longer than 51 bytes). Each 32 bytes of t then
 * cost one compression of the template (two for long tails) from the saved
 * value. For SM2 encryption Z = x2 || y2 is exactly one block, so every
 * counter block is one compression of a block that differs only in ct.
 *
 * The counter blocks are independent: the lanes engine compresses as many
 * at once as the SM3 table has SIMD lanes (8 with AVX2, 16 with AVX-512), the
 * seed of the design being Chen, Fu and Wang, "Optimized implementation of
 * SM2-KDF based on parallel SM3" (Journal of Cryptologic Research 10(4),
 * 2023). A group of fewer than FS2_KDF_MIN_LANES counters left at the end
 * goes through the scalar compression instead.
 *
 * Constant time: the branches depend on lengths and counters only; the
 * all-zero test ORs every byte of t into one accumulator.
 */
#include "backend/backend.h"
#include "hash/kdf.h"

/* Below this many counters, a lane call (which costs about as much as 2-3
 * scalar compressions whatever the number of live lanes) loses. */
#define FS2_KDF_MIN_LANES 3
#define FS2_KDF_MAX_LANES 16

/* Most bytes the KDF may produce: klen < (2^32 - 1) * v bits (5.4.3), i.e.
 * fewer than (2^32 - 1) * 32 bytes, so the 32-bit counter never wraps. */
#define FS2_KDF_MAX_BYTES ((uint64_t)0xFFFFFFFFu * 32u - 1u)

void fs2_kdf_init(fs2_kdf_ctx *k, const unsigned char *z, size_t zlen, int engine)
{
    /* GB/T 32905 4.1: IV */
    static const uint32_t iv[8] = {
        0x7380166Fu, 0x4914B2B9u, 0x172442D7u, 0xDA8A0600u, 0xA96F30BCu, 0x163138AAu, 0xE38DEE4Du, 0xB0FB0E4Eu,
    };
    const fs2_sm3_ops *sm3 = fs2_sm3();
    size_t whole = zlen / 64, rem = zlen % 64;

    memset(k, 0, sizeof *k);
    k->engine = engine;
    memcpy(k->base, iv, sizeof iv);
    if (whole)
        sm3->compress(k->base, z, whole);
    /* Z's tail || ct || 0x80 || zeros || 64-bit bit length of Z || ct */
    if (rem)
        memcpy(k->tmpl, z + 64 * whole, rem);
    k->ctoff = (uint32_t)rem;
    k->tmpl[rem + 4] = 0x80;
    k->nblk = rem + 4 + 1 + 8 <= 64 ? 1 : 2;
    fs2_store64_be(k->tmpl + 64 * k->nblk - 8, ((uint64_t)zlen + 4) << 3);
    k->ct = 1;
    k->kpos = 32;
}

/* One whole 32-byte block of t from the digest words h: out = in ^ t (in
 * NULL: t), word by word (byte stores followed by wide loads of the same
 * bytes would stall store forwarding); t's bits are ORed into *acc. */
static void fs2_kdf_emit32(unsigned char *out, const unsigned char *in, const uint32_t h[8], uint32_t *acc)
{
    uint32_t a = 0;
    for (int i = 0; i < 8; i++) {
        uint32_t t = __builtin_bswap32(h[i]), x = 0; /* t's bytes in memory order */
        a |= t;
        if (in)
            memcpy(&x, in + 4 * i, 4);
        x ^= t;
        memcpy(out + 4 * i, &x, 4);
    }
    *acc |= a;
}

/* One counter block with the scalar compression: h = SM3(Z || ct). */
static void fs2_kdf_one(fs2_kdf_ctx *k, uint32_t h[8], unsigned char *blk)
{
    memcpy(h, k->base, 32);
    fs2_store32_be(blk + k->ctoff, k->ct++);
    fs2_sm3()->compress(h, blk, k->nblk);
}

void fs2_kdf_stream(fs2_kdf_ctx *k, unsigned char *out, const unsigned char *in, size_t len)
{
    const fs2_sm3_ops *sm3 = fs2_sm3();
    unsigned lanes = k->engine == FS2_KDF_LANES ? sm3->lanes : 1;
    uint32_t h[FS2_KDF_MAX_LANES][8];
    unsigned char blk[FS2_KDF_MAX_LANES][128];
    const unsigned char *ptr[FS2_KDF_MAX_LANES];
    size_t blen = 64 * (size_t)k->nblk;

    if (lanes > FS2_KDF_MAX_LANES)
        lanes = FS2_KDF_MAX_LANES;
    if (len == 0)
        return;

    /* What is left of the current block of t. */
    if (k->kpos < 32) {
        size_t n = 32 - k->kpos;
        if (n > len)
            n = len;
        uint32_t a = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char t = k->kbuf[k->kpos + i];
            a |= t;
            out[i] = (unsigned char)((in ? in[i] : 0) ^ t);
        }
        k->acc |= a;
        k->kpos += (uint32_t)n;
        out += n;
        if (in)
            in += n;
        len -= n;
    }

    /* Whole blocks of t, a group of lanes at a time. */
    size_t nfull = len / 32;
    unsigned ready = 0; /* lane templates copied so far */
    while (nfull >= FS2_KDF_MIN_LANES && lanes > 1) {
        unsigned m = nfull < lanes ? (unsigned)nfull : lanes;
        for (; ready < lanes; ready++)
            memcpy(blk[ready], k->tmpl, blen);
        for (unsigned i = 0; i < lanes; i++) {
            /* lanes past m recompute the last counter; their output is dropped */
            unsigned src = i < m ? i : m - 1;
            memcpy(h[i], k->base, 32);
            fs2_store32_be(blk[i] + k->ctoff, k->ct + src);
            ptr[i] = blk[i];
        }
        k->ct += m;
        sm3->compress_lanes(h, ptr, k->nblk);
        for (unsigned i = 0; i < m; i++) {
            fs2_kdf_emit32(out, in, h[i], &k->acc);
            out += 32;
            if (in)
                in += 32;
        }
        nfull -= m;
        len -= 32 * (size_t)m;
    }
    if (len) {
        if (!ready)
            memcpy(blk[0], k->tmpl, blen);
        while (len >= 32) {
            fs2_kdf_one(k, h[0], blk[0]);
            fs2_kdf_emit32(out, in, h[0], &k->acc);
            out += 32;
            if (in)
                in += 32;
            len -= 32;
        }
        if (len) {
            /* A part of a block: keep the rest for the next call. */
            fs2_kdf_one(k, h[0], blk[0]);
            for (int i = 0; i < 8; i++)
                fs2_store32_be(k->kbuf + 4 * i, h[0][i]);
            k->kpos = 0;
            fs2_kdf_stream(k, out, in, len);
        }
    }
    fs2_wipe(h, sizeof h);
    fs2_wipe(blk, sizeof blk);
}

int fs2_kdf_nonzero(const fs2_kdf_ctx *k)
{
    /* acc < 2^32: (acc + 2^32 - 1) >> 32 is 1 iff acc != 0. */
    return (int)(((uint64_t)k->acc + 0xFFFFFFFFu) >> 32);
}

/*
 * len == 0 returns 1: an empty t has nothing to reject, and returning 0
 * would send a caller that retries with a fresh k (as A5 says) into an
 * endless loop on an empty message.
 */
int fs2_kdf_xor_ex(unsigned char *out, const unsigned char *in, size_t len, const unsigned char *z, size_t zlen,
                   int engine)
{
    fs2_kdf_ctx k;
    int r;
    if (len == 0)
        return 1;
    fs2_kdf_init(&k, z, zlen, engine);
    fs2_kdf_stream(&k, out, in, len);
    r = fs2_kdf_nonzero(&k);
    fs2_wipe(&k, sizeof k);
    return r;
}

int fs2_kdf_xor(unsigned char *out, const unsigned char *in, size_t len, const unsigned char *z, size_t zlen)
{
    return fs2_kdf_xor_ex(out, in, len, z, zlen, FS2_KDF_LANES);
}

int fastsm2_kdf(unsigned char *out, size_t outlen, const void *z, size_t zlen)
{
    if (outlen == 0)
        return FASTSM2_OK;
    if (out == NULL || (uint64_t)outlen > FS2_KDF_MAX_BYTES)
        return FASTSM2_ERR_ARG;
    if (z == NULL && zlen > 0) {
        memset(out, 0, outlen);
        return FASTSM2_ERR_ARG;
    }
    (void)fs2_kdf_xor(out, NULL, outlen, z, zlen);
    return FASTSM2_OK;
}
