/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 (GB/T 32907-2016) keys, and the modes without authentication
 * (include/fastsm2.h): ECB, CBC with PKCS#7 padding or none, CTR with a
 * 128-bit counter, and the streaming ECB, CBC, CTR, OFB and CFB-128 of
 * NIST SP 800-38A. The block cipher comes from the SM4 table in use
 * (src/sm4/sm4_ops.h).
 */
#include "sm4_modes.h"
#include "sym.h"

/* ---- keys ---------------------------------------------------------------- */

int fastsm2_sm4_key_init(fastsm2_sm4_key *key, const unsigned char k[16])
{
    if (key == NULL)
        return FASTSM2_ERR_ARG;
    fs2_wipe(key, sizeof *key);
    if (k == NULL)
        return FASTSM2_ERR_ARG;
    fs2_sm4_key_expand((fs2_sm4_key *)key, k);
    return FASTSM2_OK;
}

void fastsm2_sm4_key_clear(fastsm2_sm4_key *key)
{
    if (key != NULL)
        fs2_wipe(key, sizeof *key);
}

/* ---- ECB ------------------------------------------------------------------ */

static int ecb(unsigned char *out, const fastsm2_sm4_key *key, const unsigned char *in, size_t len, int enc)
{
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (out == NULL && len != 0)
        return FASTSM2_ERR_ARG;
    if (k == NULL || (in == NULL && len != 0)) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_ARG;
    }
    if (len % 16 != 0) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_LENGTH;
    }
    fs2_sm4()->blocks(enc ? k->rk : k->rkd, out, in, len / 16);
    return FASTSM2_OK;
}

int fastsm2_sm4_ecb_encrypt(unsigned char *out, const fastsm2_sm4_key *key, const unsigned char *in, size_t len)
{
    return ecb(out, key, in, len, 1);
}

int fastsm2_sm4_ecb_decrypt(unsigned char *out, const fastsm2_sm4_key *key, const unsigned char *in, size_t len)
{
    return ecb(out, key, in, len, 0);
}

/* ---- CBC ------------------------------------------------------------------ */

/* The checks that every (out, *outlen) call makes first: *cap = the
 * capacity, *outlen = 0. FASTSM2_OK or FASTSM2_ERR_ARG (out zeroed when it
 * can be). */
static int outbuf_begin(unsigned char *out, size_t *outlen, size_t *cap)
{
    *cap = 0;
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    *cap = *outlen;
    *outlen = 0;
    return out == NULL && *cap != 0 ? FASTSM2_ERR_ARG : FASTSM2_OK;
}

int fastsm2_sm4_cbc_encrypt(unsigned char *out, size_t *outlen, const fastsm2_sm4_key *key, const unsigned char iv[16],
                            int padding, const unsigned char *in, size_t inlen)
{
    size_t cap, need;
    int st = outbuf_begin(out, outlen, &cap);
    if (st != FASTSM2_OK)
        return st;
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (k == NULL || iv == NULL || (in == NULL && inlen != 0) ||
        (padding != FASTSM2_SM4_PAD_NONE && padding != FASTSM2_SM4_PAD_PKCS7)) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_ARG;
    }
    if (padding == FASTSM2_SM4_PAD_NONE ? inlen % 16 != 0 : inlen > SIZE_MAX - 16) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_LENGTH;
    }
    need = padding == FASTSM2_SM4_PAD_NONE ? inlen : (inlen / 16 + 1) * 16;
    if (cap < need) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    unsigned char chain[16], last[16];
    size_t n = inlen / 16, r = inlen % 16;
    memcpy(chain, iv, 16);
    t->cbc_enc(k->rk, out, in, n, chain);
    if (padding == FASTSM2_SM4_PAD_PKCS7) {
        /* the last block: the r bytes left and 16 - r bytes of 16 - r */
        memset(last, (int)(16 - r), 16);
        if (r != 0)
            memcpy(last, in + 16 * n, r);
        t->cbc_enc(k->rk, out + 16 * n, last, 1, chain);
        fs2_wipe(last, sizeof last);
    }
    *outlen = need;
    return FASTSM2_OK;
}

int fastsm2_sm4_cbc_decrypt(unsigned char *out, size_t *outlen, const fastsm2_sm4_key *key, const unsigned char iv[16],
                            int padding, const unsigned char *in, size_t inlen)
{
    size_t cap;
    int st = outbuf_begin(out, outlen, &cap);
    if (st != FASTSM2_OK)
        return st;
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (k == NULL || iv == NULL || (in == NULL && inlen != 0) ||
        (padding != FASTSM2_SM4_PAD_NONE && padding != FASTSM2_SM4_PAD_PKCS7)) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_ARG;
    }
    if (inlen % 16 != 0 || (padding == FASTSM2_SM4_PAD_PKCS7 && inlen == 0)) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_LENGTH;
    }
    if (cap < inlen) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    unsigned char chain[16];
    memcpy(chain, iv, 16);
    fs2_sm4()->cbc_dec(k->rkd, out, in, inlen / 16, chain);
    if (padding == FASTSM2_SM4_PAD_PKCS7) {
        uint32_t p, ok = fs2_sm4_pkcs7_ok(out + inlen - 16, &p);
        /* Public by design: whether the padding is good (the status), then
         * its length (*outlen). */
        fs2_declassify(&ok, sizeof ok);
        if (!ok) {
            fs2_sm4_zero(out, cap);
            return FASTSM2_ERR_PADDING;
        }
        fs2_declassify(&p, sizeof p);
        *outlen = inlen - p;
    } else {
        *outlen = inlen;
    }
    return FASTSM2_OK;
}

/* ---- CTR ------------------------------------------------------------------- */

int fastsm2_sm4_ctr(unsigned char *out, const fastsm2_sm4_key *key, const unsigned char iv[16], const unsigned char *in,
                    size_t len)
{
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (out == NULL && len != 0)
        return FASTSM2_ERR_ARG;
    if (k == NULL || iv == NULL || (in == NULL && len != 0)) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_ARG;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    unsigned char ctr[16], ks[16];
    size_t n = len / 16, r = len % 16;
    memcpy(ctr, iv, 16);
    fs2_sm4_ctr_blocks(t, k->rk, out, in, n, ctr, 1);
    if (r != 0) {
        fs2_sm4_ctr_block(t, k->rk, ks, ctr, 1);
        for (size_t i = 0; i < r; i++)
            out[16 * n + i] = in[16 * n + i] ^ ks[i];
        fs2_wipe(ks, sizeof ks);
    }
    return FASTSM2_OK;
}

/* ---- streaming ------------------------------------------------------------- */

/* What fastsm2_sm4_ctx holds. */
typedef struct {
    uint32_t rk[32];      /* encryption round keys; decryption ones for ECB/CBC decryption */
    unsigned char iv[16]; /* CBC: the chaining value; CTR: the next counter block; OFB, CFB: the register */
    unsigned char buf[16];
    /* ECB, CBC: buf holds buflen bytes of input not yet processed.
     * CTR, OFB, CFB: buf holds the key stream block of the current
     * position, of which buflen bytes are used (16: none left). */
    uint32_t buflen;
    uint8_t mode, enc, padding, pad_;
    uint64_t check;
} __attribute__((may_alias)) fs2_sm4_stream;

_Static_assert(sizeof(fs2_sm4_stream) <= sizeof(fastsm2_sm4_ctx), "fastsm2_sm4_ctx too small");
_Static_assert(_Alignof(fs2_sm4_stream) <= _Alignof(fastsm2_sm4_ctx), "fastsm2_sm4_ctx under-aligned");

#define FS2_SM4_STREAM_CHECK 0x534D345374726D31ULL /* "SM4Strm1" */

/* The context, or NULL if ctx is NULL or not in progress. */
static fs2_sm4_stream *stream_get(fastsm2_sm4_ctx *ctx)
{
    if (ctx == NULL)
        return NULL;
    fs2_sm4_stream *s = (fs2_sm4_stream *)ctx;
    /* Public by design: the context's tag and its mode. */
    fs2_declassify(&s->check, sizeof s->check);
    fs2_declassify(&s->mode, 4);
    fs2_declassify(&s->buflen, sizeof s->buflen);
    return s->check == FS2_SM4_STREAM_CHECK ? s : NULL;
}

int fastsm2_sm4_init(fastsm2_sm4_ctx *ctx, int mode, int enc, int padding, const fastsm2_sm4_key *key,
                     const unsigned char *iv, size_t ivlen)
{
    if (ctx == NULL)
        return FASTSM2_ERR_ARG;
    fs2_wipe(ctx, sizeof *ctx);
    fs2_sm4_stream *s = (fs2_sm4_stream *)ctx;
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    int block_mode = mode == FASTSM2_SM4_ECB || mode == FASTSM2_SM4_CBC;
    if (k == NULL || mode < FASTSM2_SM4_ECB || mode > FASTSM2_SM4_CFB ||
        (enc != FASTSM2_SM4_ENCRYPT && enc != FASTSM2_SM4_DECRYPT) ||
        (padding != FASTSM2_SM4_PAD_NONE && !(block_mode && padding == FASTSM2_SM4_PAD_PKCS7)))
        return FASTSM2_ERR_ARG;
    if (mode == FASTSM2_SM4_ECB ? ivlen != 0 : (ivlen != 16 || iv == NULL))
        return FASTSM2_ERR_IV;
    s->mode = (uint8_t)mode;
    s->enc = (uint8_t)enc;
    s->padding = (uint8_t)padding;
    memcpy(s->rk, block_mode && enc == FASTSM2_SM4_DECRYPT ? k->rkd : k->rk, sizeof s->rk);
    if (mode != FASTSM2_SM4_ECB)
        memcpy(s->iv, iv, 16);
    s->buflen = block_mode ? 0 : 16;
    s->check = FS2_SM4_STREAM_CHECK;
    return FASTSM2_OK;
}

/* Blocks per pass of the ECB/CBC stream (a stack buffer). */
#define STREAM_CHUNK 32

/* ECB or CBC on n whole blocks. */
static void block_mode_run(const fs2_sm4_ops *t, fs2_sm4_stream *s, unsigned char *out, const unsigned char *in,
                           size_t n)
{
    if (s->mode == FASTSM2_SM4_ECB)
        t->blocks(s->rk, out, in, n);
    else if (s->enc)
        t->cbc_enc(s->rk, out, in, n, s->iv);
    else
        t->cbc_dec(s->rk, out, in, n, s->iv);
}

/* ECB, CBC: whole blocks of the b bytes held and the input, the output
 * running b bytes ahead of the input. In place (out == in), each pass
 * first reads every input byte that its output overwrites: the b bytes
 * after its blocks' input are carried to the next pass. */
static int update_blocks(const fs2_sm4_ops *t, fs2_sm4_stream *s, unsigned char *out, size_t *outlen,
                         const unsigned char *in, size_t inlen, size_t cap)
{
    size_t b = s->buflen, total = b + inlen, nblk = total / 16;
    /* decrypting with padding: the last whole block waits for final */
    if (!s->enc && s->padding == FASTSM2_SM4_PAD_PKCS7 && nblk > 0 && total % 16 == 0)
        nblk--;
    if (cap < 16 * nblk) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    unsigned char tmp[16 * STREAM_CHUNK], carry[16];
    size_t q = 0, done = 0;
    memcpy(carry, s->buf, b);
    if (nblk == 0) {
        if (inlen != 0)
            memcpy(s->buf + b, in, inlen);
        s->buflen = (uint32_t)total;
        return FASTSM2_OK;
    }
    while (done < nblk) {
        size_t m = nblk - done < STREAM_CHUNK ? nblk - done : STREAM_CHUNK;
        memcpy(tmp, carry, b);
        memcpy(tmp + b, in + q, 16 * m - b);
        if (done + m < nblk) {
            memcpy(carry, in + q + 16 * m - b, b);
        } else {
            size_t left = total - 16 * nblk; /* from in + q + 16 m - b to the end */
            memcpy(s->buf, in + q + 16 * m - b, left);
            s->buflen = (uint32_t)left;
        }
        block_mode_run(t, s, out + q, tmp, m);
        q += 16 * m;
        done += m;
    }
    fs2_wipe(tmp, sizeof tmp);
    fs2_wipe(carry, sizeof carry);
    *outlen = 16 * nblk;
    return FASTSM2_OK;
}

/* CTR, OFB, CFB: exactly inlen bytes out. */
static void update_stream(const fs2_sm4_ops *t, fs2_sm4_stream *s, unsigned char *out, const unsigned char *in,
                          size_t inlen)
{
    size_t i = 0;
    while (i < inlen) {
        if (s->buflen == 16) {
            size_t n = (inlen - i) / 16;
            if (n > 0 && s->mode == FASTSM2_SM4_CTR) {
                fs2_sm4_ctr_blocks(t, s->rk, out + i, in + i, n, s->iv, 1);
                i += 16 * n;
                continue;
            }
            if (n > 0 && s->mode == FASTSM2_SM4_CFB && !s->enc) {
                /* decryption in parallel: key stream block j is E(c_j-1) */
                unsigned char c[16 * STREAM_CHUNK], ks[16 * STREAM_CHUNK];
                size_t m = n < STREAM_CHUNK ? n : STREAM_CHUNK;
                memcpy(c, s->iv, 16);
                memcpy(c + 16, in + i, 16 * (m - 1));
                memcpy(s->iv, in + i + 16 * (m - 1), 16);
                t->blocks(s->rk, ks, c, m);
                for (size_t j = 0; j < 16 * m; j++)
                    out[i + j] = in[i + j] ^ ks[j];
                fs2_wipe(ks, sizeof ks);
                i += 16 * m;
                continue;
            }
            /* the next key stream block */
            if (s->mode == FASTSM2_SM4_CTR) {
                fs2_sm4_ctr_block(t, s->rk, s->buf, s->iv, 1);
            } else {
                t->blocks(s->rk, s->buf, s->iv, 1);
                if (s->mode == FASTSM2_SM4_OFB)
                    memcpy(s->iv, s->buf, 16);
            }
            s->buflen = 0;
        }
        size_t m = 16 - s->buflen;
        if (m > inlen - i)
            m = inlen - i;
        for (size_t j = 0; j < m; j++) {
            unsigned char x = in[i + j], y = (unsigned char)(x ^ s->buf[s->buflen + j]);
            out[i + j] = y;
            if (s->mode == FASTSM2_SM4_CFB) /* the register takes the ciphertext */
                s->iv[s->buflen + j] = s->enc ? y : x;
        }
        s->buflen += (uint32_t)m;
        i += m;
    }
}

int fastsm2_sm4_update(fastsm2_sm4_ctx *ctx, unsigned char *out, size_t *outlen, const unsigned char *in, size_t inlen)
{
    size_t cap;
    int st = outbuf_begin(out, outlen, &cap);
    if (st != FASTSM2_OK)
        return st;
    if (ctx == NULL || (in == NULL && inlen != 0)) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_ARG;
    }
    fs2_sm4_stream *s = stream_get(ctx);
    if (s == NULL) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_STATE;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    if (s->mode == FASTSM2_SM4_ECB || s->mode == FASTSM2_SM4_CBC)
        return update_blocks(t, s, out, outlen, in, inlen, cap);
    if (cap < inlen) {
        fs2_sm4_zero(out, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    update_stream(t, s, out, in, inlen);
    *outlen = inlen;
    return FASTSM2_OK;
}

int fastsm2_sm4_final(fastsm2_sm4_ctx *ctx, unsigned char *out, size_t *outlen)
{
    size_t cap;
    int st = outbuf_begin(out, outlen, &cap);
    fs2_sm4_stream *s = st == FASTSM2_OK ? stream_get(ctx) : NULL;
    if (st != FASTSM2_OK || ctx == NULL) {
        fs2_sm4_zero(out, cap);
        if (ctx != NULL)
            fs2_wipe(ctx, sizeof *ctx);
        return FASTSM2_ERR_ARG;
    }
    if (s == NULL) {
        fs2_sm4_zero(out, cap);
        fs2_wipe(ctx, sizeof *ctx);
        return FASTSM2_ERR_STATE;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    size_t n = 0;
    st = FASTSM2_OK;
    if (s->mode == FASTSM2_SM4_ECB || s->mode == FASTSM2_SM4_CBC) {
        if (s->padding == FASTSM2_SM4_PAD_NONE) {
            if (s->buflen != 0)
                st = FASTSM2_ERR_LENGTH;
        } else if (s->enc) {
            if (cap < 16) {
                st = FASTSM2_ERR_BUFFER_TOO_SMALL;
            } else {
                memset(s->buf + s->buflen, (int)(16 - s->buflen), 16 - s->buflen);
                block_mode_run(t, s, out, s->buf, 1);
                n = 16;
            }
        } else if (s->buflen == 0) {
            st = FASTSM2_ERR_PADDING; /* no block at all */
        } else if (s->buflen != 16) {
            st = FASTSM2_ERR_LENGTH; /* a partial block */
        } else {
            unsigned char last[16];
            uint32_t p;
            block_mode_run(t, s, last, s->buf, 1);
            uint32_t ok = fs2_sm4_pkcs7_ok(last, &p);
            /* Public by design: whether the padding is good, then its
             * length (*outlen). */
            fs2_declassify(&ok, sizeof ok);
            if (!ok) {
                st = FASTSM2_ERR_PADDING;
            } else {
                fs2_declassify(&p, sizeof p);
                n = 16 - p;
                if (cap < n)
                    st = FASTSM2_ERR_BUFFER_TOO_SMALL;
                else
                    memcpy(out, last, n);
            }
            fs2_wipe(last, sizeof last);
        }
    }
    if (st != FASTSM2_OK)
        fs2_sm4_zero(out, cap);
    else
        *outlen = n;
    fs2_wipe(ctx, sizeof *ctx);
    return st;
}

void fastsm2_sm4_ctx_clear(fastsm2_sm4_ctx *ctx)
{
    if (ctx != NULL)
        fs2_wipe(ctx, sizeof *ctx);
}
