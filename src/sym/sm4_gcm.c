/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-GCM, NIST SP 800-38D with GB/T 32907 as the block cipher
 * (include/fastsm2.h): one-shot and streaming. The counter mode and GHASH
 * come from the SM4 table in use (its fused gcm slot where it has one);
 * here are J0, the partial blocks, the lengths and the tag.
 */
#include "sm4_modes.h"
#include "sym.h"

/* SP 800-38D 5.2.1.1: plaintexts up to 2^39 - 256 bits; IVs and AAD up
 * to 2^64 - 1 bits. */
#define GCM_MAX_TEXT  (((uint64_t)1 << 36) - 32)
#define GCM_MAX_BYTES (((uint64_t)1 << 61) - 1)

/* The state of one GCM operation, without its key. */
typedef struct {
    unsigned char ek0[16];  /* E_K(J0), for the tag */
    unsigned char ctr[16];  /* the next counter block */
    unsigned char ks[16];   /* the key stream block of a partial data block */
    unsigned char part[16]; /* a partial block for GHASH (AAD, then ciphertext) */
    uint64_t xi[2];         /* GHASH's state */
    uint64_t aadlen, textlen;
    uint32_t partlen; /* bytes in part (and of ks used) */
    uint8_t enc, in_text, pad_[2];
} gcm_state;

/* What fastsm2_sm4_gcm_ctx holds. */
typedef struct {
    fs2_sm4_key key;
    gcm_state st;
    uint64_t check;
} __attribute__((may_alias)) gcm_ctx;

_Static_assert(sizeof(gcm_ctx) <= sizeof(fastsm2_sm4_gcm_ctx), "fastsm2_sm4_gcm_ctx too small");
_Static_assert(_Alignof(gcm_ctx) <= _Alignof(fastsm2_sm4_gcm_ctx), "fastsm2_sm4_gcm_ctx under-aligned");

#define GCM_CTX_CHECK 0x534D3447434D3031ULL /* "SM4GCM01" */

/* GHASH over len bytes, the last block zero-padded. */
static void ghash_bytes(const fs2_sm4_ops *t, const fs2_sm4_key *k, uint64_t xi[2], const unsigned char *p, size_t len)
{
    size_t n = len / 16, r = len % 16;
    t->ghash(xi, k->hpow, p, n);
    if (r != 0) {
        unsigned char b[16] = {0};
        memcpy(b, p + 16 * n, r);
        t->ghash(xi, k->hpow, b, 1);
    }
}

/* SP 800-38D 7.1 steps 1-2: J0 from the IV, E_K(J0) and the first
 * counter block inc32(J0). ivlen in 1 .. GCM_MAX_BYTES. */
static void gcm_start(const fs2_sm4_ops *t, const fs2_sm4_key *k, gcm_state *s, const unsigned char *iv, size_t ivlen,
                      int enc)
{
    unsigned char j0[16];
    memset(s, 0, sizeof *s);
    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        fs2_store32_be(j0 + 12, 1);
    } else {
        uint64_t x[2] = {0, 0};
        unsigned char lenblk[16] = {0};
        ghash_bytes(t, k, x, iv, ivlen);
        fs2_store64_be(lenblk + 8, (uint64_t)ivlen * 8);
        t->ghash(x, k->hpow, lenblk, 1);
        fs2_store64_be(j0, x[1]);
        fs2_store64_be(j0 + 8, x[0]);
    }
    t->blocks(k->rk, s->ek0, j0, 1);
    memcpy(s->ctr, j0, 16);
    fs2_sm4_ctr_add(s->ctr, 1, 0);
    s->enc = (uint8_t)enc;
}

/* AAD, in pieces: whole blocks straight to GHASH, the rest held. */
static void gcm_aad(const fs2_sm4_ops *t, const fs2_sm4_key *k, gcm_state *s, const unsigned char *aad, size_t len)
{
    s->aadlen += len;
    if (len == 0)
        return;
    if (s->partlen != 0) {
        size_t m = 16 - s->partlen < len ? 16 - s->partlen : len;
        memcpy(s->part + s->partlen, aad, m);
        s->partlen += (uint32_t)m;
        aad += m;
        len -= m;
        if (s->partlen < 16)
            return;
        t->ghash(s->xi, k->hpow, s->part, 1);
        s->partlen = 0;
    }
    t->ghash(s->xi, k->hpow, aad, len / 16);
    memcpy(s->part, aad + len / 16 * 16, len % 16);
    s->partlen = (uint32_t)(len % 16);
}

/* The end of the AAD: its last partial block, zero-padded. */
static void gcm_aad_done(const fs2_sm4_ops *t, const fs2_sm4_key *k, gcm_state *s)
{
    if (!s->in_text) {
        if (s->partlen != 0) {
            memset(s->part + s->partlen, 0, 16 - s->partlen);
            t->ghash(s->xi, k->hpow, s->part, 1);
        }
        s->partlen = 0;
        s->in_text = 1;
    }
}

/* n whole blocks of counter mode and GHASH over the ciphertext. The
 * counter's last 32 bits wrap alone (inc32), in the table's slots: for an
 * IV of other than 12 bytes J0 comes from GHASH and is secret, so where it
 * wraps must not choose a branch. */
static void gcm_blocks(const fs2_sm4_ops *t, const fs2_sm4_key *k, gcm_state *s, unsigned char *out,
                       const unsigned char *in, size_t n)
{
    if (t->gcm) {
        t->gcm(k, out, in, n, s->ctr, s->xi, s->enc);
    } else if (s->enc) {
        t->ctr32(k->rk, out, in, n, s->ctr);
        t->ghash(s->xi, k->hpow, out, n);
    } else {
        t->ghash(s->xi, k->hpow, in, n); /* before an in-place decryption */
        t->ctr32(k->rk, out, in, n, s->ctr);
    }
    fs2_sm4_ctr_add(s->ctr, n, 0);
}

/* Text, in pieces (after gcm_aad_done); the caller has checked the
 * length limit. */
static void gcm_text(const fs2_sm4_ops *t, const fs2_sm4_key *k, gcm_state *s, unsigned char *out,
                     const unsigned char *in, size_t len)
{
    s->textlen += len;
    while (len > 0) {
        if (s->partlen == 0 && len >= 16) {
            size_t n = len / 16;
            gcm_blocks(t, k, s, out, in, n);
            in += 16 * n;
            out += 16 * n;
            len -= 16 * n;
            continue;
        }
        if (s->partlen == 0)
            fs2_sm4_ctr_block(t, k->rk, s->ks, s->ctr, 0);
        size_t m = 16 - s->partlen < len ? 16 - s->partlen : len;
        for (size_t j = 0; j < m; j++) {
            unsigned char x = in[j], y = (unsigned char)(x ^ s->ks[s->partlen + j]);
            out[j] = y;
            s->part[s->partlen + j] = s->enc ? y : x;
        }
        s->partlen += (uint32_t)m;
        in += m;
        out += m;
        len -= m;
        if (s->partlen == 16) {
            t->ghash(s->xi, k->hpow, s->part, 1);
            s->partlen = 0;
        }
    }
}

/* SP 800-38D 7.1 steps 5-6: the full tag. */
static void gcm_tag(const fs2_sm4_ops *t, const fs2_sm4_key *k, gcm_state *s, unsigned char tag[16])
{
    unsigned char lenblk[16];
    gcm_aad_done(t, k, s);
    if (s->partlen != 0) {
        memset(s->part + s->partlen, 0, 16 - s->partlen);
        t->ghash(s->xi, k->hpow, s->part, 1);
        s->partlen = 0;
    }
    fs2_store64_be(lenblk, s->aadlen * 8);
    fs2_store64_be(lenblk + 8, s->textlen * 8);
    t->ghash(s->xi, k->hpow, lenblk, 1);
    fs2_store64_be(tag, s->xi[1]);
    fs2_store64_be(tag + 8, s->xi[0]);
    for (int i = 0; i < 16; i++)
        tag[i] ^= s->ek0[i];
}

/* The tag's length: SP 800-38D 5.2.1.2, as the header allows it. */
static int taglen_ok(size_t taglen)
{
    return taglen >= 4 && taglen <= 16;
}

/* Tags compared in constant time; the outcome is public (the status). */
static int tag_matches(const unsigned char *want, const unsigned char *got, size_t taglen)
{
    int eq = fs2_ct_memeq(want, got, taglen);
    fs2_declassify(&eq, sizeof eq);
    return eq;
}

/* ---- one-shot ---------------------------------------------------------- */

/* The checks of both one-shot calls; FASTSM2_OK or the status. */
static int oneshot_check(const fs2_sm4_key *k, const unsigned char *tag, const unsigned char *iv, size_t ivlen,
                         const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t inlen, size_t taglen)
{
    if (k == NULL || tag == NULL || (iv == NULL && ivlen != 0) || (aad == NULL && aadlen != 0) ||
        (in == NULL && inlen != 0))
        return FASTSM2_ERR_ARG;
    if (ivlen == 0 || (uint64_t)ivlen > GCM_MAX_BYTES)
        return FASTSM2_ERR_IV;
    if (!taglen_ok(taglen) || (uint64_t)inlen > GCM_MAX_TEXT || (uint64_t)aadlen > GCM_MAX_BYTES)
        return FASTSM2_ERR_LENGTH;
    return FASTSM2_OK;
}

int fastsm2_sm4_gcm_encrypt(unsigned char *out, unsigned char *tag, size_t taglen, const fastsm2_sm4_key *key,
                            const unsigned char *iv, size_t ivlen, const unsigned char *aad, size_t aadlen,
                            const unsigned char *in, size_t inlen)
{
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (out == NULL && inlen != 0) {
        fs2_sm4_zero(tag, taglen <= 16 ? taglen : 16);
        return FASTSM2_ERR_ARG;
    }
    int st = oneshot_check(k, tag, iv, ivlen, aad, aadlen, in, inlen, taglen);
    if (st != FASTSM2_OK) {
        fs2_sm4_zero(out, inlen);
        fs2_sm4_zero(tag, taglen <= 16 ? taglen : 16);
        return st;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    gcm_state s;
    unsigned char full[16];
    gcm_start(t, k, &s, iv, ivlen, 1);
    gcm_aad(t, k, &s, aad, aadlen);
    gcm_aad_done(t, k, &s);
    gcm_text(t, k, &s, out, in, inlen);
    gcm_tag(t, k, &s, full);
    memcpy(tag, full, taglen);
    fs2_wipe(&s, sizeof s);
    fs2_wipe(full, sizeof full);
    return FASTSM2_OK;
}

int fastsm2_sm4_gcm_decrypt(unsigned char *out, const fastsm2_sm4_key *key, const unsigned char *iv, size_t ivlen,
                            const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t inlen,
                            const unsigned char *tag, size_t taglen)
{
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (out == NULL && inlen != 0)
        return FASTSM2_ERR_ARG;
    int st = oneshot_check(k, tag, iv, ivlen, aad, aadlen, in, inlen, taglen);
    if (st != FASTSM2_OK) {
        fs2_sm4_zero(out, inlen);
        return st;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    gcm_state s;
    unsigned char full[16];
    gcm_start(t, k, &s, iv, ivlen, 0);
    gcm_aad(t, k, &s, aad, aadlen);
    gcm_aad_done(t, k, &s);
    gcm_text(t, k, &s, out, in, inlen);
    gcm_tag(t, k, &s, full);
    int ok = tag_matches(full, tag, taglen);
    fs2_wipe(&s, sizeof s);
    fs2_wipe(full, sizeof full);
    if (!ok) {
        fs2_sm4_zero(out, inlen); /* no unauthenticated plaintext leaves */
        return FASTSM2_ERR_TAG;
    }
    return FASTSM2_OK;
}

/* ---- streaming --------------------------------------------------------- */

static gcm_ctx *ctx_get(fastsm2_sm4_gcm_ctx *ctx)
{
    if (ctx == NULL)
        return NULL;
    gcm_ctx *c = (gcm_ctx *)ctx;
    /* Public by design: the context's tag, direction, phase and lengths. */
    fs2_declassify(&c->check, sizeof c->check);
    fs2_declassify(&c->st.enc, 2);
    fs2_declassify(&c->st.aadlen, 2 * sizeof(uint64_t));
    fs2_declassify(&c->st.partlen, sizeof c->st.partlen);
    return c->check == GCM_CTX_CHECK ? c : NULL;
}

int fastsm2_sm4_gcm_init(fastsm2_sm4_gcm_ctx *ctx, int enc, const fastsm2_sm4_key *key, const unsigned char *iv,
                         size_t ivlen)
{
    if (ctx == NULL)
        return FASTSM2_ERR_ARG;
    fs2_wipe(ctx, sizeof *ctx);
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (k == NULL || (iv == NULL && ivlen != 0) || (enc != FASTSM2_SM4_ENCRYPT && enc != FASTSM2_SM4_DECRYPT))
        return FASTSM2_ERR_ARG;
    if (ivlen == 0 || (uint64_t)ivlen > GCM_MAX_BYTES)
        return FASTSM2_ERR_IV;
    gcm_ctx *c = (gcm_ctx *)ctx;
    memcpy(&c->key, k, sizeof c->key);
    gcm_start(fs2_sm4(), &c->key, &c->st, iv, ivlen, enc == FASTSM2_SM4_ENCRYPT);
    c->check = GCM_CTX_CHECK;
    return FASTSM2_OK;
}

int fastsm2_sm4_gcm_aad(fastsm2_sm4_gcm_ctx *ctx, const unsigned char *aad, size_t len)
{
    if (ctx == NULL || (aad == NULL && len != 0))
        return FASTSM2_ERR_ARG;
    gcm_ctx *c = ctx_get(ctx);
    if (c == NULL || c->st.in_text)
        return FASTSM2_ERR_STATE;
    if ((uint64_t)len > GCM_MAX_BYTES - c->st.aadlen)
        return FASTSM2_ERR_LENGTH;
    gcm_aad(fs2_sm4(), &c->key, &c->st, aad, len);
    return FASTSM2_OK;
}

int fastsm2_sm4_gcm_update(fastsm2_sm4_gcm_ctx *ctx, unsigned char *out, const unsigned char *in, size_t len)
{
    if (out == NULL && len != 0)
        return FASTSM2_ERR_ARG;
    if (ctx == NULL || (in == NULL && len != 0)) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_ARG;
    }
    gcm_ctx *c = ctx_get(ctx);
    if (c == NULL) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_STATE;
    }
    if ((uint64_t)len > GCM_MAX_TEXT - c->st.textlen) {
        fs2_sm4_zero(out, len);
        return FASTSM2_ERR_LENGTH;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    gcm_aad_done(t, &c->key, &c->st);
    gcm_text(t, &c->key, &c->st, out, in, len);
    return FASTSM2_OK;
}

int fastsm2_sm4_gcm_encrypt_final(fastsm2_sm4_gcm_ctx *ctx, unsigned char *tag, size_t taglen)
{
    unsigned char full[16];
    int st = FASTSM2_OK;
    gcm_ctx *c = ctx_get(ctx);
    if (ctx == NULL || tag == NULL)
        st = FASTSM2_ERR_ARG;
    else if (c == NULL || !c->st.enc)
        st = FASTSM2_ERR_STATE;
    else if (!taglen_ok(taglen))
        st = FASTSM2_ERR_LENGTH;
    if (st == FASTSM2_OK) {
        gcm_tag(fs2_sm4(), &c->key, &c->st, full);
        memcpy(tag, full, taglen);
        fs2_wipe(full, sizeof full);
    } else {
        fs2_sm4_zero(tag, taglen <= 16 ? taglen : 16);
    }
    if (ctx != NULL)
        fs2_wipe(ctx, sizeof *ctx);
    return st;
}

int fastsm2_sm4_gcm_decrypt_final(fastsm2_sm4_gcm_ctx *ctx, const unsigned char *tag, size_t taglen)
{
    unsigned char full[16];
    int st = FASTSM2_OK;
    gcm_ctx *c = ctx_get(ctx);
    if (ctx == NULL || tag == NULL)
        st = FASTSM2_ERR_ARG;
    else if (c == NULL || c->st.enc)
        st = FASTSM2_ERR_STATE;
    else if (!taglen_ok(taglen))
        st = FASTSM2_ERR_LENGTH;
    if (st == FASTSM2_OK) {
        gcm_tag(fs2_sm4(), &c->key, &c->st, full);
        if (!tag_matches(full, tag, taglen))
            st = FASTSM2_ERR_TAG;
        fs2_wipe(full, sizeof full);
    }
    if (ctx != NULL)
        fs2_wipe(ctx, sizeof *ctx);
    return st;
}

void fs2_sm4_gcm_skip_text(fastsm2_sm4_gcm_ctx *ctx, uint64_t len)
{
    gcm_ctx *c = ctx_get(ctx);
    if (c != NULL) {
        gcm_aad_done(fs2_sm4(), &c->key, &c->st);
        c->st.textlen += len;
    }
}

void fastsm2_sm4_gcm_clear(fastsm2_sm4_gcm_ctx *ctx)
{
    if (ctx != NULL)
        fs2_wipe(ctx, sizeof *ctx);
}
