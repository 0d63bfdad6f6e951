/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 (GB/T 32907) ciphers (provider-cipher(7)) over the library's SM4 API,
 * under the names, aliases, OIDs and parameters of OpenSSL's default
 * provider: SM4-ECB, SM4-CBC (alias SM4), SM4-CTR, SM4-OFB (SM4-OFB128),
 * SM4-CFB (SM4-CFB128), SM4-GCM, SM4-CCM, SM4-XTS. On OpenSSL 3.0, which
 * has no SM4-GCM, SM4-CCM or SM4-XTS, these three come from here alone.
 *
 * What an EVP program sees is what the default provider does (the
 * differential tests hold the two side by side), with these exceptions,
 * each stricter: GCM tags are 4 to 16 bytes (OpenSSL takes 1 to 16);
 * SM4-XTS refuses to encrypt under a key whose two halves are equal (as
 * OpenSSL's AES-XTS does; its SM4-XTS does not); after EVP_CipherFinal of
 * ECB or CBC the next update starts again from the IV given at init.
 *
 * The TLS record parameters libssl sets are honoured: tls-version and
 * tls-mac-size on SM4-CBC (each update one record, padding added, or
 * removed in constant time and the MAC handed back through tls-mac), and
 * tlsaad, tlsivfixed, tlsivgen, tlsivinv on SM4-GCM and SM4-CCM (TLS 1.2,
 * DTLS and TLCP records with an explicit nonce).
 */
#define _DEFAULT_SOURCE /* getentropy */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif

#include "prov.h"

/* EVP's mode numbers (openssl/evp.h, which this module does not include) */
#define MODE_ECB 0x1
#define MODE_CBC 0x2
#define MODE_CFB 0x3
#define MODE_OFB 0x4
#define MODE_CTR 0x5
#define MODE_GCM 0x6
#define MODE_CCM 0x7
#define MODE_XTS 0x10001

/* Parameters newer than some OpenSSL 3 headers */
#ifndef OSSL_CIPHER_PARAM_XTS_STANDARD
#define OSSL_CIPHER_PARAM_XTS_STANDARD "xts_standard"
#endif
#ifndef OSSL_CIPHER_PARAM_AEAD_IV_GENERATED
#define OSSL_CIPHER_PARAM_AEAD_IV_GENERATED "iv-generated"
#endif

/* TLS (ssl3.h, tls1.h, dtls1.h, and Tongsuo's TLCP, "NTLS") */
#define V_SSL3           0x0300
#define V_TLS1           0x0301
#define V_TLS1_1         0x0302
#define V_TLS1_2         0x0303
#define V_DTLS1          0xFEFF
#define V_DTLS1_2        0xFEFD
#define V_DTLS_BAD       0x0100
#define V_TLCP           0x0101
#define TLS_AAD_LEN      13 /* seq(8) type(1) version(2) length(2) */
#define TLS_FIXED_IV_LEN 4
#define TLS_EXPLICIT_IV  8
#define TLS_GCM_TAG      16
#define TLS_MAC_MAX      64

#define GCM_IV_MAX 128 /* as the default provider: 1 to 128 bytes */
#define UNSET      ((size_t)-1)

/* ---- small helpers ---------------------------------------------------------- */

static int random_bytes(void *p, size_t n)
{
    unsigned char *b = p;
    while (n > 0) {
        size_t k = n < 256 ? n : 256;
        if (getentropy(b, k) != 0)
            return 0;
        b += k;
        n -= k;
    }
    return 1;
}

/* An octet parameter asked for by pointer (OSSL_PARAM_OCTET_PTR) or as a
 * copy of at most data_size bytes. */
static int set_octets_or_ptr(OSSL_PARAM *p, const void *data, size_t len)
{
    if (p->data_type == OSSL_PARAM_OCTET_PTR) {
        if (p->data != NULL)
            *(const void **)p->data = data;
        p->return_size = len;
        return 1;
    }
    return fs2p_set_octets(p, data, len);
}

/* Masks for secret-dependent choices, all ones or zero (values < 2^31). */
static uint32_t mask_msb(uint32_t x)
{
    return 0u - (fs2p_barrier(x) >> 31);
}
static uint32_t mask_lt(uint32_t a, uint32_t b)
{
    return mask_msb(a - b);
}
static uint32_t mask_eq(uint32_t a, uint32_t b)
{
    uint32_t x = a ^ b;
    return mask_msb(~x & (x - 1));
}

static int fail(const fs2p_provctx *pc, int status, const char *what)
{
    fs2p_raise(pc, status, what);
    return 0;
}

/* The algorithm's constants (EVP_CIPHER_get_params). */
static int alg_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t ivlen, size_t blocksize, int aead,
                          int custom_iv)
{
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_MODE)) && !fs2p_set_size_t(p, mode))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !fs2p_set_size_t(p, keylen))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !fs2p_set_size_t(p, ivlen))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !fs2p_set_size_t(p, blocksize))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD)) && !fs2p_set_int(p, aead))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) && !fs2p_set_int(p, custom_iv))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_CTS)) && !fs2p_set_int(p, 0))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) && !fs2p_set_int(p, 0))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) && !fs2p_set_int(p, 0))
        return 0;
    return 1;
}

#define PARAM(key, type)                          \
    {                                             \
        key, type, NULL, 0, OSSL_PARAM_UNMODIFIED \
    }
#define PARAM_END           \
    {                       \
        NULL, 0, NULL, 0, 0 \
    }

static const OSSL_PARAM alg_gettable[] = {PARAM(OSSL_CIPHER_PARAM_MODE, OSSL_PARAM_UNSIGNED_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_BLOCK_SIZE, OSSL_PARAM_UNSIGNED_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_AEAD, OSSL_PARAM_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_CUSTOM_IV, OSSL_PARAM_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_CTS, OSSL_PARAM_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, OSSL_PARAM_INTEGER),
                                          PARAM(OSSL_CIPHER_PARAM_HAS_RAND_KEY, OSSL_PARAM_INTEGER),
                                          PARAM_END};

static const OSSL_PARAM *alg_gettable_params(void *provctx)
{
    (void)provctx;
    return alg_gettable;
}

/* A key length parameter: SM4's (16) or SM4-XTS's (32), nothing else. */
static int check_keylen(const fs2p_provctx *pc, const OSSL_PARAM params[], size_t keylen)
{
    const OSSL_PARAM *p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
    size_t v;
    if (p != NULL && (!fs2p_get_size_t(p, &v) || v != keylen))
        return fail(pc, FASTSM2_ERR_LENGTH,
                    keylen == 32 ? "keylen: SM4-XTS keys are 32 bytes" : "keylen: SM4 keys are 16 bytes");
    return 1;
}

/* ==== ECB, CBC, CTR, OFB, CFB ================================================ */

/* every mode's context: wiped when freed (keys, tags, buffered data),
 * duplicated as a plain copy (no pointers inside) */
static void ctx_free(void *c, size_t n)
{
    if (c == NULL)
        return;
    fs2p_wipe(c, n);
    free(c);
}

static void *ctx_dup(const void *c, size_t n)
{
    void *d = malloc(n);
    if (d != NULL)
        memcpy(d, c, n);
    return d;
}

typedef struct {
    fs2p_provctx *pc;
    int mode; /* FASTSM2_SM4_ECB ... _CFB */
    int enc;
    int key_set, iv_set;
    int pad;           /* PKCS#7 for ECB and CBC: the EVP default, off by "padding" 0 */
    int running;       /* s holds an operation */
    int raw;           /* s runs without padding (EVP_Cipher, TLS records) */
    uint64_t ctr_done; /* CTR: bytes since the IV was set (a re-init goes on from there) */
    unsigned char iv[16];
    fastsm2_sm4_key key;
    fastsm2_sm4_ctx s;
    /* TLS 1.x CBC records (libssl): version, MAC size, the last record's MAC */
    unsigned tls_version;
    size_t tls_mac_size;
    unsigned char tls_mac[TLS_MAC_MAX];
} basic_ctx;

static void *basic_new(void *provctx, int mode)
{
    basic_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "cipher context");
        return NULL;
    }
    c->pc = provctx;
    c->mode = mode;
    c->pad = 1;
    return c;
}

static void basic_free(void *vctx)
{
    ctx_free(vctx, sizeof(basic_ctx));
}

static void *basic_dup(void *vctx)
{
    basic_ctx *c = malloc(sizeof *c);
    if (c != NULL)
        memcpy(c, vctx, sizeof *c); /* the library's objects hold no pointers */
    return c;
}

static int is_block_mode(const basic_ctx *c)
{
    return c->mode == FASTSM2_SM4_ECB || c->mode == FASTSM2_SM4_CBC;
}

/* Start the library's operation: from the IV, or for CTR from the counter
 * block ctr_done / 16 blocks on (the default provider's CTR goes on across
 * a re-init without an IV, from the block after the last one it used). */
static int basic_start(basic_ctx *c, int raw)
{
    unsigned char iv[16];
    size_t ivlen = c->mode == FASTSM2_SM4_ECB ? 0 : 16;
    memcpy(iv, c->iv, 16);
    if (c->mode == FASTSM2_SM4_CTR) {
        uint64_t blocks = c->ctr_done / 16;
        for (int i = 15; i >= 0 && blocks != 0; i--) { /* iv += blocks, 128-bit big-endian */
            uint64_t s = (uint64_t)iv[i] + (blocks & 0xff);
            iv[i] = (unsigned char)s;
            blocks = (blocks >> 8) + (s >> 8);
        }
    }
    int padding =
        is_block_mode(c) && c->pad && !raw && c->tls_version == 0 ? FASTSM2_SM4_PAD_PKCS7 : FASTSM2_SM4_PAD_NONE;
    int st = fastsm2_sm4_init(&c->s, c->mode, c->enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT, padding, &c->key,
                              ivlen ? iv : NULL, ivlen);
    fs2p_wipe(iv, sizeof iv);
    if (st != FASTSM2_OK)
        return fail(c->pc, st, "cipher init");
    c->running = 1;
    c->raw = padding == FASTSM2_SM4_PAD_NONE;
    return 1;
}

static void basic_stop(basic_ctx *c)
{
    if (c->running)
        fastsm2_sm4_ctx_clear(&c->s);
    c->running = 0;
}

static int basic_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    basic_ctx *c = vctx;
    const OSSL_PARAM *p;
    size_t v;
    if (params == NULL)
        return 1;
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_PADDING)) != NULL) {
        if (!fs2p_get_size_t(p, &v))
            return fail(c->pc, FASTSM2_ERR_ARG, "padding");
        if (c->running && !c->raw && is_block_mode(c) && (v != 0) != c->pad)
            return fail(c->pc, FASTSM2_ERR_STATE, "padding: set before the data");
        c->pad = v != 0;
    }
    if (!check_keylen(c->pc, params, 16))
        return 0;
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_TLS_VERSION)) != NULL) {
        if (!fs2p_get_size_t(p, &v))
            return fail(c->pc, FASTSM2_ERR_ARG, "tls-version");
        if (c->mode == FASTSM2_SM4_CBC && v == V_SSL3)
            return fail(c->pc, FASTSM2_ERR_UNSUPPORTED, "tls-version: no SM4 in SSL 3.0");
        c->tls_version = (unsigned)v;
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_TLS_MAC_SIZE)) != NULL) {
        if (!fs2p_get_size_t(p, &v) || v > TLS_MAC_MAX)
            return fail(c->pc, FASTSM2_ERR_ARG, "tls-mac-size");
        c->tls_mac_size = v;
    }
    return 1;
}

static int basic_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                      const OSSL_PARAM params[], int enc)
{
    basic_ctx *c = vctx;
    basic_stop(c);
    c->enc = enc;
    if (iv != NULL && c->mode != FASTSM2_SM4_ECB) {
        if (ivlen != 16)
            return fail(c->pc, FASTSM2_ERR_IV, "SM4 IVs are 16 bytes");
        memcpy(c->iv, iv, 16);
        c->iv_set = 1;
        c->ctr_done = 0;
    } else { /* CTR goes on with the counter block after the last one used */
        c->ctr_done = (c->ctr_done + 15) & ~(uint64_t)15;
    }
    if (key != NULL) {
        if (keylen != 16)
            return fail(c->pc, FASTSM2_ERR_LENGTH, "SM4 keys are 16 bytes");
        int st = fastsm2_sm4_key_init(&c->key, key);
        if (st != FASTSM2_OK)
            return fail(c->pc, st, "key");
        c->key_set = 1;
    }
    return basic_set_ctx_params(c, params);
}

static int basic_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                       const OSSL_PARAM params[])
{
    return basic_init(vctx, key, keylen, iv, ivlen, params, 1);
}
static int basic_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                       const OSSL_PARAM params[])
{
    return basic_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int basic_ready(basic_ctx *c)
{
    if (!c->key_set)
        return fail(c->pc, FASTSM2_ERR_STATE, "no key set");
    if (c->mode != FASTSM2_SM4_ECB && !c->iv_set)
        return fail(c->pc, FASTSM2_ERR_IV, "no IV set");
    return 1;
}

/* Remove a decrypted TLS 1.x record's padding and MAC, in constant time
 * (RFC 5246 6.2.3.2; the padding and its length are secret, the record's
 * length is public). *len: the record in, the payload out (after the
 * explicit IV of TLS 1.1 and later, which stays in the buffer: libssl skips
 * it). A bad padding gives a random MAC, so that libssl's MAC check fails
 * in the same time as for a bad MAC. 0 only for a record too short to hold
 * what it must (public). */
static int tls_unpad(basic_ctx *c, unsigned char *buf, size_t *len)
{
    size_t n = *len, mac = c->tls_mac_size;
    unsigned char *rec = buf;
    if (c->tls_version != V_TLS1) { /* an explicit IV first */
        if (n < 16)
            return 0;
        rec += 16;
        n -= 16;
    }
    if (n < mac + 1 || n > 0x7fffffff)
        return 0;
    unsigned char rnd[TLS_MAC_MAX];
    if (mac > 0 && !random_bytes(rnd, mac))
        return 0;
    uint32_t pad = rec[n - 1]; /* secret */
    uint32_t good = ~mask_lt((uint32_t)n, (uint32_t)(mac + 1) + pad);
    size_t check = n < 256 ? n : 256; /* every byte that could be padding */
    uint32_t diff = 0;
    for (size_t i = 0; i < check; i++) {
        uint32_t in_pad = ~mask_lt(pad, (uint32_t)i); /* i <= pad */
        diff |= in_pad & (uint32_t)(rec[n - 1 - i] ^ pad);
    }
    good &= mask_eq(diff, 0);
    uint32_t newlen = (uint32_t)n - (good & (pad + 1)); /* secret */
    if (mac == 0) {
        /* no MAC in the record (encrypt-then-MAC checked it before) */
        if (fs2p_barrier(good) == 0) /* declassified: the MAC was checked already */
            return 0;
        *len = newlen;
        return 1;
    }
    uint32_t mac_start = newlen - (uint32_t)mac;
    /* the MAC lies within the last mac + 256 bytes: read all of them for
     * each MAC byte and keep the one at its place */
    size_t from = n > mac + 256 ? n - (mac + 256) : 0;
    for (size_t j = 0; j < mac; j++) {
        uint32_t b = 0;
        for (size_t i = from; i < n; i++)
            b |= rec[i] & mask_eq((uint32_t)i, mac_start + (uint32_t)j);
        c->tls_mac[j] = (unsigned char)((b & good) | (rnd[j] & ~good));
    }
    fs2p_wipe(rnd, sizeof rnd);
    *len = mac_start;
    return 1;
}

/* One TLS record, in place: encrypt with its padding added, or decrypt
 * and take padding and MAC off (each call is one record, as libssl's). */
static int cbc_tls_record(basic_ctx *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                          size_t inl)
{
    if (in == NULL || in != out || outsize < inl || !c->pad)
        return fail(c->pc, FASTSM2_ERR_ARG, "TLS record: in place, with padding on");
    if (!c->running && !basic_start(c, 1))
        return 0;
    if (c->enc) {
        size_t padnum = 16 - inl % 16;
        if (outsize < inl + padnum)
            return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "TLS record");
        memset(out + inl, (int)(padnum - 1), padnum);
        inl += padnum;
    }
    if (inl % 16 != 0)
        return fail(c->pc, FASTSM2_ERR_LENGTH, "TLS record: not whole blocks");
    size_t cap = outsize;
    int st = fastsm2_sm4_update(&c->s, out, &cap, out, inl);
    if (st != FASTSM2_OK || cap != inl)
        return fail(c->pc, st != FASTSM2_OK ? st : FASTSM2_ERR_STATE, "TLS record");
    *outl = inl;
    if (!c->enc && !tls_unpad(c, out, outl))
        return fail(c->pc, FASTSM2_ERR_CIPHERTEXT, "TLS record: too short for its MAC and padding");
    return 1;
}

static int basic_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                        size_t inl)
{
    basic_ctx *c = vctx;
    if (!basic_ready(c))
        return 0;
    if (c->tls_version > 0 && c->mode == FASTSM2_SM4_CBC)
        return cbc_tls_record(c, out, outl, outsize, in, inl);
    if (!c->running && !basic_start(c, 0))
        return 0;
    if (inl == 0) {
        *outl = 0;
        return 1;
    }
    if (out == NULL || in == NULL)
        return fail(c->pc, FASTSM2_ERR_ARG, "cipher update");
    size_t cap = outsize;
    int st = fastsm2_sm4_update(&c->s, out, &cap, in, inl);
    if (st != FASTSM2_OK)
        return fail(c->pc, st, "cipher update");
    c->ctr_done += inl;
    *outl = cap;
    return 1;
}

static int basic_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    basic_ctx *c = vctx;
    if (!basic_ready(c))
        return 0;
    if (c->tls_version > 0 && c->mode == FASTSM2_SM4_CBC)
        return fail(c->pc, FASTSM2_ERR_STATE, "a TLS record is never finalised");
    *outl = 0;
    if (!is_block_mode(c))
        return 1; /* stream modes: nothing held back, and the stream goes on */
    if (!c->running && !basic_start(c, 0))
        return 0;
    size_t cap = outsize;
    int st = fastsm2_sm4_final(&c->s, out, &cap); /* wipes s */
    c->running = 0;
    if (st != FASTSM2_OK)
        return fail(c->pc, st, st == FASTSM2_ERR_PADDING ? "bad decrypt (padding)" : "cipher final");
    *outl = cap;
    return 1;
}

/* EVP_Cipher: whole blocks as they are, no padding. */
static int basic_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                        size_t inl)
{
    basic_ctx *c = vctx;
    if (!basic_ready(c))
        return 0;
    if (c->tls_version > 0 && c->mode == FASTSM2_SM4_CBC)
        return cbc_tls_record(c, out, outl, outsize, in, inl);
    if (in == NULL || inl == 0) {
        *outl = 0;
        return 1;
    }
    if (outsize < inl)
        return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "EVP_Cipher");
    if (is_block_mode(c) && inl % 16 != 0)
        return fail(c->pc, FASTSM2_ERR_LENGTH, "EVP_Cipher: whole blocks");
    if (!c->running && !basic_start(c, 1))
        return 0;
    if (!c->raw)
        return fail(c->pc, FASTSM2_ERR_STATE, "EVP_Cipher after EVP_CipherUpdate with padding");
    return basic_update(c, out, outl, outsize, in, inl);
}

static const OSSL_PARAM basic_gettable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM(OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM(OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM(OSSL_CIPHER_PARAM_IV, OSSL_PARAM_OCTET_STRING),
                                                PARAM(OSSL_CIPHER_PARAM_TLS_MAC, OSSL_PARAM_OCTET_PTR),
                                                PARAM_END};
static const OSSL_PARAM basic_settable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM(OSSL_CIPHER_PARAM_TLS_VERSION, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, OSSL_PARAM_UNSIGNED_INTEGER),
                                                PARAM_END};

static const OSSL_PARAM *basic_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return basic_gettable_ctx;
}
static const OSSL_PARAM *basic_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return basic_settable_ctx;
}

static int basic_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    basic_ctx *c = vctx;
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !fs2p_set_size_t(p, 16))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !fs2p_set_size_t(p, c->mode == FASTSM2_SM4_ECB ? 0 : 16))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_PADDING)) && !fs2p_set_size_t(p, (size_t)c->pad))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IV)) && c->mode != FASTSM2_SM4_ECB &&
        !set_octets_or_ptr(p, c->iv, 16))
        return 0;
    /* the chaining value after updates is kept inside the library's stream,
     * not reported: refused by name rather than leaving the caller's buffer
     * as it was (EVP_CIPHER_CTX_get_updated_iv would return success) */
    if (fs2p_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV) != NULL)
        return fail(c->pc, FASTSM2_ERR_UNSUPPORTED, "updated-iv is not reported (the IV given at init: iv)");
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_TLS_MAC)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_PTR || c->tls_mac_size == 0)
            return fail(c->pc, FASTSM2_ERR_ARG, "tls-mac");
        if (!set_octets_or_ptr(p, c->tls_mac, c->tls_mac_size))
            return 0;
    }
    return 1;
}

#define BASIC_ALG(lc, UC, evpmode, ivlen, blocksize)                                       \
    static void *lc##_newctx(void *provctx)                                                \
    {                                                                                      \
        return basic_new(provctx, FASTSM2_SM4_##UC);                                       \
    }                                                                                      \
    static int lc##_get_params(OSSL_PARAM params[])                                        \
    {                                                                                      \
        return alg_get_params(params, evpmode, 16, ivlen, blocksize, 0, 0);                \
    }                                                                                      \
    const OSSL_DISPATCH fs2p_sm4_##lc##_functions[] = {                                    \
        {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))lc##_newctx},                            \
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))basic_einit},                      \
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))basic_dinit},                      \
        {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))basic_update},                           \
        {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))basic_final},                             \
        {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))basic_cipher},                           \
        {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))basic_free},                            \
        {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))basic_dup},                              \
        {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))lc##_get_params},                    \
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))alg_gettable_params},           \
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))basic_get_ctx_params},           \
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))basic_set_ctx_params},           \
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))basic_gettable_ctx_params}, \
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))basic_settable_ctx_params}, \
        {0, NULL}};

BASIC_ALG(ecb, ECB, MODE_ECB, 0, 16)
BASIC_ALG(cbc, CBC, MODE_CBC, 16, 16)
BASIC_ALG(ctr, CTR, MODE_CTR, 16, 1)
BASIC_ALG(ofb, OFB, MODE_OFB, 16, 1)
BASIC_ALG(cfb, CFB, MODE_CFB, 16, 1)

/* ==== GCM (SP 800-38D) ======================================================== */

enum { IV_NONE, IV_BUFFERED, IV_STARTED, IV_FINISHED };

typedef struct {
    fs2p_provctx *pc;
    int enc, key_set;
    int iv_state;
    int iv_gen;      /* TLS: the IV is fixed part + counter (tlsivfixed) */
    int iv_gen_rand; /* the IV was drawn here */
    size_t ivlen;
    size_t taglen; /* UNSET until a tag is set (decryption) or made */
    size_t tls_aad_len, tls_aad_pad;
    uint64_t tls_enc_records;
    unsigned char iv[GCM_IV_MAX];
    unsigned char tag[16];
    unsigned char tls_aad[TLS_AAD_LEN];
    fastsm2_sm4_key key;
    fastsm2_sm4_gcm_ctx g;
} gcm_ctx;

static void *gcm_newctx(void *provctx)
{
    gcm_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "cipher context");
        return NULL;
    }
    c->pc = provctx;
    c->ivlen = FASTSM2_SM4_GCM_IV_SIZE;
    c->taglen = UNSET;
    c->tls_aad_len = UNSET;
    return c;
}

static void gcm_free(void *vctx)
{
    ctx_free(vctx, sizeof(gcm_ctx));
}

static void *gcm_dup(void *vctx)
{
    return ctx_dup(vctx, sizeof(gcm_ctx));
}

static void gcm_drop(gcm_ctx *c)
{
    if (c->iv_state == IV_STARTED)
        fastsm2_sm4_gcm_clear(&c->g);
}

/* Start the operation with the IV held (SP 800-38D 7.1 steps 1-2). */
static int gcm_start(gcm_ctx *c)
{
    gcm_drop(c);
    int st = fastsm2_sm4_gcm_init(&c->g, c->enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT, &c->key, c->iv, c->ivlen);
    if (st != FASTSM2_OK) {
        c->iv_state = IV_FINISHED;
        return fail(c->pc, st, "GCM IV");
    }
    c->iv_state = IV_STARTED;
    return 1;
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int gcm_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc)
{
    gcm_ctx *c = vctx;
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen == 0 || ivlen > GCM_IV_MAX)
            return fail(c->pc, FASTSM2_ERR_IV, "SM4-GCM IVs are 1 to 128 bytes");
        gcm_drop(c);
        c->ivlen = ivlen;
        memcpy(c->iv, iv, ivlen);
        c->iv_state = IV_BUFFERED;
        c->iv_gen_rand = 0;
    }
    if (key != NULL) {
        if (keylen != 16)
            return fail(c->pc, FASTSM2_ERR_LENGTH, "SM4 keys are 16 bytes");
        int st = fastsm2_sm4_key_init(&c->key, key);
        if (st != FASTSM2_OK)
            return fail(c->pc, st, "key");
        c->key_set = 1;
        c->tls_enc_records = 0;
        if (c->iv_state == IV_STARTED) { /* the same IV under the new key */
            gcm_drop(c);
            c->iv_state = IV_BUFFERED;
        }
    }
    return gcm_set_ctx_params(c, params);
}

static int gcm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 1);
}
static int gcm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* TLS: the IV for the next record (fixed part, then the 8-byte counter,
 * which goes up by one), its last olen bytes copied to out. */
static int gcm_iv_gen(gcm_ctx *c, unsigned char *out, size_t olen)
{
    if (!c->iv_gen || !c->key_set)
        return fail(c->pc, FASTSM2_ERR_STATE, "tlsivgen: no fixed IV or key");
    if (!gcm_start(c))
        return 0;
    if (olen == 0 || olen > c->ivlen)
        olen = c->ivlen;
    memcpy(out, c->iv + c->ivlen - olen, olen);
    for (size_t i = c->ivlen; i-- > c->ivlen - 8;)
        if (++c->iv[i] != 0)
            break;
    return 1;
}

/* TLS decryption: the record's explicit part of the IV. */
static int gcm_iv_inv(gcm_ctx *c, const unsigned char *in, size_t inl)
{
    if (!c->iv_gen || !c->key_set || c->enc || inl > c->ivlen)
        return fail(c->pc, FASTSM2_ERR_STATE, "tlsivinv");
    memcpy(c->iv + c->ivlen - inl, in, inl);
    return gcm_start(c);
}

/* One TLS 1.2 / DTLS / TLCP record, in place: explicit IV (8), payload,
 * tag (16); the AAD from tlsaad. */
static int gcm_tls_record(gcm_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in, size_t len)
{
    int ok = 0;
    *outl = 0;
    if (!c->key_set || out != in || in == NULL || len < TLS_EXPLICIT_IV + TLS_GCM_TAG) {
        fs2p_raise(c->pc, FASTSM2_ERR_ARG, "TLS record: in place, with IV and tag");
        goto done;
    }
    if (c->enc && ++c->tls_enc_records == 0) {
        fs2p_raise(c->pc, FASTSM2_ERR_STATE, "TLS: too many records under one key");
        goto done;
    }
    if (!(c->enc ? gcm_iv_gen(c, out, TLS_EXPLICIT_IV) : gcm_iv_inv(c, out, TLS_EXPLICIT_IV)))
        goto done;
    gcm_drop(c); /* the one-shot calls below take the IV themselves */
    /* this record's IV: the fixed part and the explicit part it carries
     * (c->iv has gone on to the next record's when encrypting) */
    unsigned char iv[GCM_IV_MAX];
    memcpy(iv, c->iv, c->ivlen - TLS_EXPLICIT_IV);
    memcpy(iv + c->ivlen - TLS_EXPLICIT_IV, out, TLS_EXPLICIT_IV);
    size_t n = len - TLS_EXPLICIT_IV - TLS_GCM_TAG;
    unsigned char *p = out + TLS_EXPLICIT_IV;
    int st;
    if (c->enc)
        st = fastsm2_sm4_gcm_encrypt(p, p + n, TLS_GCM_TAG, &c->key, iv, c->ivlen, c->tls_aad, TLS_AAD_LEN, p, n);
    else
        st = fastsm2_sm4_gcm_decrypt(p, &c->key, iv, c->ivlen, c->tls_aad, TLS_AAD_LEN, p, n, p + n,
                                     TLS_GCM_TAG); /* out zeroed on a bad tag */
    if (st != FASTSM2_OK) {
        fs2p_raise(c->pc, st, "TLS record");
        goto done;
    }
    *outl = c->enc ? len : n;
    ok = 1;
done:
    c->iv_state = IV_FINISHED;
    c->tls_aad_len = UNSET;
    return ok;
}

/* Make sure an operation runs: an encryption without an IV draws one (12
 * bytes or more), as the default provider does. */
static int gcm_running(gcm_ctx *c)
{
    if (!c->key_set)
        return fail(c->pc, FASTSM2_ERR_STATE, "no key set");
    if (c->iv_state == IV_FINISHED)
        return fail(c->pc, FASTSM2_ERR_IV, "GCM: set a new IV (an IV is used once)");
    if (c->iv_state == IV_NONE) {
        if (!c->enc || c->ivlen < FASTSM2_SM4_GCM_IV_SIZE)
            return fail(c->pc, FASTSM2_ERR_IV, "no IV set");
        if (!random_bytes(c->iv, c->ivlen))
            return fail(c->pc, FASTSM2_ERR_RANDOM, "GCM IV");
        c->iv_gen_rand = 1;
        c->iv_state = IV_BUFFERED;
    }
    if (c->iv_state == IV_BUFFERED)
        return gcm_start(c);
    return 1;
}

static int gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    gcm_ctx *c = vctx;
    if (c->tls_aad_len != UNSET) {
        if (outsize < inl)
            return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "TLS record");
        return gcm_tls_record(c, out, outl, in, inl);
    }
    *outl = 0;
    if (inl == 0)
        return 1;
    if (in == NULL)
        return fail(c->pc, FASTSM2_ERR_ARG, "GCM update");
    if (out != NULL && outsize < inl)
        return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "GCM update");
    if (!gcm_running(c))
        return 0;
    int st = out == NULL ? fastsm2_sm4_gcm_aad(&c->g, in, inl) : fastsm2_sm4_gcm_update(&c->g, out, in, inl);
    if (st != FASTSM2_OK)
        return fail(c->pc, st, out == NULL ? "GCM AAD (all of it before the data)" : "GCM update");
    *outl = out == NULL ? 0 : inl;
    return 1;
}

static int gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    gcm_ctx *c = vctx;
    (void)out;
    (void)outsize;
    *outl = 0;
    if (c->tls_aad_len != UNSET)
        return fail(c->pc, FASTSM2_ERR_STATE, "a TLS record is never finalised");
    if (!c->enc && c->taglen == UNSET)
        return fail(c->pc, FASTSM2_ERR_TAG, "GCM decryption: no tag set");
    if (!gcm_running(c))
        return 0;
    int st;
    if (c->enc) {
        st = fastsm2_sm4_gcm_encrypt_final(&c->g, c->tag, 16);
        c->taglen = 16;
    } else {
        st = fastsm2_sm4_gcm_decrypt_final(&c->g, c->tag, c->taglen);
    }
    c->iv_state = IV_FINISHED; /* an IV is used once */
    if (st != FASTSM2_OK)
        return fail(c->pc, st, c->enc ? "GCM final" : "GCM: the tag does not match");
    return 1;
}

/* EVP_Cipher: as the default provider's, it answers inl on success (a TLS
 * record's payload length comes from EVP_CipherUpdate, as libssl asks). */
static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    if (in == NULL)
        return gcm_final(vctx, out, outl, outsize);
    if (!gcm_update(vctx, out, outl, outsize, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    gcm_ctx *c = vctx;
    const OSSL_PARAM *p;
    size_t v;
    if (params == NULL)
        return 1;
    if (!check_keylen(c->pc, params, 16))
        return 0;
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        const unsigned char *tag;
        size_t n;
        if (!fs2p_get_octets(p, &tag, &n) || tag == NULL || c->enc)
            return fail(c->pc, FASTSM2_ERR_ARG, "tag: set when decrypting, to the tag received");
        if (n < 4 || n > 16)
            return fail(c->pc, FASTSM2_ERR_LENGTH, "GCM tags are 4 to 16 bytes");
        memcpy(c->tag, tag, n);
        c->taglen = n;
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN)) != NULL) {
        if (!fs2p_get_size_t(p, &v))
            return fail(c->pc, FASTSM2_ERR_ARG, "ivlen");
        if (v == 0 || v > GCM_IV_MAX)
            return fail(c->pc, FASTSM2_ERR_IV, "SM4-GCM IVs are 1 to 128 bytes");
        if (v != c->ivlen) {
            gcm_drop(c);
            if (c->iv_state != IV_NONE)
                c->iv_state = IV_FINISHED; /* the IV held no longer fits */
            c->ivlen = v;
        }
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) != NULL) {
        const unsigned char *aad;
        size_t n;
        if (!fs2p_get_octets(p, &aad, &n) || n != TLS_AAD_LEN)
            return fail(c->pc, FASTSM2_ERR_ARG, "tlsaad: 13 bytes");
        memcpy(c->tls_aad, aad, n);
        size_t len = (size_t)aad[11] << 8 | aad[12];
        if (len < TLS_EXPLICIT_IV || (!c->enc && len < TLS_EXPLICIT_IV + TLS_GCM_TAG))
            return fail(c->pc, FASTSM2_ERR_LENGTH, "tlsaad: record too short");
        len -= TLS_EXPLICIT_IV + (c->enc ? 0 : TLS_GCM_TAG);
        c->tls_aad[11] = (unsigned char)(len >> 8);
        c->tls_aad[12] = (unsigned char)len;
        c->tls_aad_len = TLS_AAD_LEN;
        c->tls_aad_pad = TLS_GCM_TAG;
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
            return fail(c->pc, FASTSM2_ERR_ARG, "tlsivfixed");
        size_t n = p->data_size;
        gcm_drop(c);
        if (n == (size_t)-1) { /* the whole IV */
            memcpy(c->iv, p->data, c->ivlen);
        } else {
            if (n < TLS_FIXED_IV_LEN || c->ivlen < n + TLS_EXPLICIT_IV)
                return fail(c->pc, FASTSM2_ERR_IV, "tlsivfixed: 4 bytes or more, 8 left for the counter");
            memcpy(c->iv, p->data, n);
            if (c->enc) {
                if (!random_bytes(c->iv + n, c->ivlen - n))
                    return fail(c->pc, FASTSM2_ERR_RANDOM, "tlsivfixed");
                c->iv_gen_rand = 1;
            }
        }
        c->iv_gen = 1;
        c->iv_state = IV_BUFFERED;
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV)) != NULL) {
        const unsigned char *inv;
        size_t n;
        if (!fs2p_get_octets(p, &inv, &n) || inv == NULL || !gcm_iv_inv(c, inv, n))
            return 0;
    }
    return 1;
}

static int gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    gcm_ctx *c = vctx;
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !fs2p_set_size_t(p, c->ivlen))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !fs2p_set_size_t(p, 16))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) &&
        !fs2p_set_size_t(p, c->taglen != UNSET ? c->taglen : 16))
        return 0;
    const char *ivkeys[] = {OSSL_CIPHER_PARAM_IV, OSSL_CIPHER_PARAM_UPDATED_IV};
    for (int i = 0; i < 2; i++) {
        if ((p = fs2p_locate(params, ivkeys[i])) == NULL)
            continue;
        if (c->iv_state == IV_NONE)
            return fail(c->pc, FASTSM2_ERR_IV, "no IV set");
        if (p->data_type != OSSL_PARAM_OCTET_PTR && p->data != NULL && p->data_size < c->ivlen)
            return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "iv");
        if (!set_octets_or_ptr(p, c->iv, c->ivlen))
            return 0;
    }
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD)) && !fs2p_set_size_t(p, c->tls_aad_pad))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > 16 || !c->enc ||
            c->taglen == UNSET)
            return fail(c->pc, FASTSM2_ERR_TAG, "tag: after an encryption's final, 1 to 16 bytes");
        if (!fs2p_set_octets(p, c->tag, p->data_size))
            return 0;
    }
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN)) != NULL) {
        if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING || !gcm_iv_gen(c, p->data, p->data_size))
            return 0;
        p->return_size = p->data_size == 0 || p->data_size > c->ivlen ? c->ivlen : p->data_size;
    }
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_IV_GENERATED)) && !fs2p_set_int(p, c->iv_gen_rand))
        return 0;
    return 1;
}

static const OSSL_PARAM gcm_gettable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TAGLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_IV, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_IV_GENERATED, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM_END};
static const OSSL_PARAM gcm_settable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, OSSL_PARAM_OCTET_STRING),
                                              PARAM_END};

static const OSSL_PARAM *gcm_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return gcm_gettable_ctx;
}
static const OSSL_PARAM *gcm_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return gcm_settable_ctx;
}
static int gcm_get_params(OSSL_PARAM params[])
{
    return alg_get_params(params, MODE_GCM, 16, FASTSM2_SM4_GCM_IV_SIZE, 1, 1, 1);
}

const OSSL_DISPATCH fs2p_sm4_gcm_functions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))gcm_newctx},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))gcm_einit},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))gcm_dinit},
    {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))gcm_update},
    {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))gcm_final},
    {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))gcm_cipher},
    {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))gcm_free},
    {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))gcm_dup},
    {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))gcm_get_params},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))alg_gettable_params},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))gcm_get_ctx_params},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))gcm_set_ctx_params},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))gcm_gettable_ctx_params},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))gcm_settable_ctx_params},
    {0, NULL}};

/* ==== CCM (SP 800-38C, RFC 8998) ================================================ */

/* The library's CCM is one-shot (the lengths come before the data), which
 * is what EVP's CCM is too: the message length (an update with neither
 * input nor output, or the data's own), the AAD, then the data in one
 * update; a decryption's tag before its data. */
typedef struct {
    fs2p_provctx *pc;
    int enc, key_set, iv_set, len_set, tag_set;
    size_t L, M; /* nonce length 15 - L; tag length M */
    size_t msglen;
    unsigned char *aad;
    size_t aadlen, aadcap;
    size_t tls_aad_len, tls_aad_pad;
    unsigned char iv[15];
    unsigned char tag[16];
    unsigned char tls_aad[TLS_AAD_LEN];
    fastsm2_sm4_key key;
} ccm_ctx;

static void *ccm_newctx(void *provctx)
{
    ccm_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "cipher context");
        return NULL;
    }
    c->pc = provctx;
    c->L = 8; /* the default provider's defaults: 7-byte nonce, 12-byte tag */
    c->M = 12;
    c->tls_aad_len = UNSET;
    return c;
}

static void ccm_aad_reset(ccm_ctx *c)
{
    if (c->aad != NULL)
        fs2p_wipe(c->aad, c->aadcap);
    c->aadlen = 0;
}

static void ccm_free(void *vctx)
{
    ccm_ctx *c = vctx;
    if (c == NULL)
        return;
    ccm_aad_reset(c);
    free(c->aad);
    fs2p_wipe(c, sizeof *c);
    free(c);
}

static void *ccm_dup(void *vctx)
{
    const ccm_ctx *s = vctx;
    ccm_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    memcpy(c, s, sizeof *c);
    if (s->aadcap > 0) {
        c->aad = malloc(s->aadcap);
        if (c->aad == NULL) {
            fs2p_wipe(c, sizeof *c);
            free(c);
            return NULL;
        }
        memcpy(c->aad, s->aad, s->aadlen);
    }
    return c;
}

static int ccm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int ccm_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc)
{
    ccm_ctx *c = vctx;
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != 15 - c->L)
            return fail(c->pc, FASTSM2_ERR_IV, "CCM nonce: set ivlen (7 to 13) first, then a nonce of that length");
        memcpy(c->iv, iv, ivlen);
        c->iv_set = 1;
        c->len_set = 0;
        ccm_aad_reset(c);
    }
    if (key != NULL) {
        if (keylen != 16)
            return fail(c->pc, FASTSM2_ERR_LENGTH, "SM4 keys are 16 bytes");
        int st = fastsm2_sm4_key_init(&c->key, key);
        if (st != FASTSM2_OK)
            return fail(c->pc, st, "key");
        c->key_set = 1;
    }
    return ccm_set_ctx_params(c, params);
}

static int ccm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return ccm_init(vctx, key, keylen, iv, ivlen, params, 1);
}
static int ccm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return ccm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int ccm_aad_add(ccm_ctx *c, const unsigned char *in, size_t n)
{
    if (n > c->aadcap - c->aadlen) {
        size_t cap = c->aadcap ? c->aadcap : 64;
        while (cap - c->aadlen < n) {
            if (cap > ((size_t)1 << 40))
                return fail(c->pc, FASTSM2_ERR_LENGTH, "CCM AAD");
            cap *= 2;
        }
        unsigned char *p = malloc(cap);
        if (p == NULL)
            return fail(c->pc, FASTSM2_ERR_NO_MEMORY, "CCM AAD");
        if (c->aadlen)
            memcpy(p, c->aad, c->aadlen);
        if (c->aad != NULL) {
            fs2p_wipe(c->aad, c->aadcap);
            free(c->aad);
        }
        c->aad = p;
        c->aadcap = cap;
    }
    memcpy(c->aad + c->aadlen, in, n);
    c->aadlen += n;
    return 1;
}

/* The one-shot encryption or decryption of n bytes with the AAD held. */
static int ccm_crypt(ccm_ctx *c, unsigned char *out, const unsigned char *in, size_t n, const unsigned char *aad,
                     size_t aadlen, unsigned char *tag)
{
    static const unsigned char none[1];
    const unsigned char *src = in != NULL ? in : none;
    unsigned char dummy[1];
    unsigned char *dst = out != NULL && n > 0 ? out : dummy;
    int st = c->enc ? fastsm2_sm4_ccm_encrypt(dst, tag, c->M, &c->key, c->iv, 15 - c->L, aad, aadlen, src, n)
                    : fastsm2_sm4_ccm_decrypt(dst, &c->key, c->iv, 15 - c->L, aad, aadlen, src, n, tag, c->M);
    if (st != FASTSM2_OK)
        return fail(c->pc, st, c->enc ? "CCM encrypt" : "CCM: the tag does not match");
    return 1;
}

/* One TLS 1.2 / DTLS / TLCP record, in place: explicit nonce (8; the
 * sequence number when encrypting), payload, tag (M). */
static int ccm_tls_record(ccm_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in, size_t len)
{
    *outl = 0;
    if (!c->key_set || in == NULL || out != in || len < TLS_EXPLICIT_IV + c->M || 15 - c->L != 12)
        return fail(c->pc, FASTSM2_ERR_ARG, "TLS record: in place, 12-byte nonce, explicit nonce and tag");
    if (c->enc)
        memcpy(out, c->tls_aad, TLS_EXPLICIT_IV);
    memcpy(c->iv + TLS_FIXED_IV_LEN, in, TLS_EXPLICIT_IV);
    size_t n = len - TLS_EXPLICIT_IV - c->M;
    unsigned char *p = out + TLS_EXPLICIT_IV;
    if (!ccm_crypt(c, p, p, n, c->tls_aad, TLS_AAD_LEN, p + n))
        return 0;
    *outl = c->enc ? len : n;
    return 1;
}

static int ccm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    ccm_ctx *c = vctx;
    *outl = 0;
    if (!c->key_set)
        return fail(c->pc, FASTSM2_ERR_STATE, "no key set");
    if (out != NULL && outsize < inl)
        return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "CCM update");
    if (c->tls_aad_len != UNSET)
        return ccm_tls_record(c, out, outl, in, inl);
    if (in == NULL && out != NULL)
        return 1; /* EVP's final: CCM has nothing to add */
    if (!c->iv_set)
        return fail(c->pc, FASTSM2_ERR_IV, "no nonce set");
    if (out == NULL) {
        if (in == NULL) { /* the message length, before the AAD */
            c->msglen = inl;
            c->len_set = 1;
            return 1;
        }
        if (!c->len_set && inl > 0)
            return fail(c->pc, FASTSM2_ERR_STATE, "CCM: the message length before the AAD");
        return ccm_aad_add(c, in, inl);
    }
    if (c->len_set && c->msglen != inl)
        return fail(c->pc, FASTSM2_ERR_LENGTH, "CCM: the data must be the length announced, in one update");
    if (!c->enc && !c->tag_set)
        return fail(c->pc, FASTSM2_ERR_TAG, "CCM decryption: the tag before the data");
    int ok = ccm_crypt(c, out, in, inl, c->aad, c->aadlen, c->tag);
    ccm_aad_reset(c);
    if (c->enc) {
        c->tag_set = ok; /* readable with the "tag" parameter */
        c->len_set = 0;
    } else {
        c->iv_set = c->tag_set = c->len_set = 0; /* done: a new nonce and tag next */
    }
    if (!ok)
        return 0;
    *outl = inl;
    return 1;
}

static int ccm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    ccm_ctx *c = vctx;
    (void)out;
    (void)outsize;
    *outl = 0;
    if (!c->key_set)
        return fail(c->pc, FASTSM2_ERR_STATE, "no key set");
    if (c->tls_aad_len != UNSET)
        return fail(c->pc, FASTSM2_ERR_STATE, "a TLS record is never finalised");
    return 1;
}

/* EVP_Cipher: answers inl on success, as the default provider's. */
static int ccm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    if (in == NULL && out != NULL)
        return ccm_final(vctx, out, outl, outsize);
    if (!ccm_update(vctx, out, outl, outsize, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int ccm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    ccm_ctx *c = vctx;
    const OSSL_PARAM *p;
    size_t v;
    if (params == NULL)
        return 1;
    if (!check_keylen(c->pc, params, 16))
        return 0;
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING)
            return fail(c->pc, FASTSM2_ERR_ARG, "tag");
        if (p->data_size % 2 != 0 || p->data_size < 4 || p->data_size > 16)
            return fail(c->pc, FASTSM2_ERR_LENGTH, "CCM tags are 4, 6, ..., 16 bytes");
        if (p->data != NULL) {
            if (c->enc)
                return fail(c->pc, FASTSM2_ERR_ARG, "tag: an encryption takes its length only");
            memcpy(c->tag, p->data, p->data_size);
            c->tag_set = 1;
        }
        c->M = p->data_size;
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN)) != NULL) {
        if (!fs2p_get_size_t(p, &v))
            return fail(c->pc, FASTSM2_ERR_ARG, "ivlen");
        if (v < 7 || v > 13)
            return fail(c->pc, FASTSM2_ERR_IV, "CCM nonces are 7 to 13 bytes");
        if (15 - v != c->L) {
            c->L = 15 - v;
            c->iv_set = 0;
        }
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) != NULL) {
        const unsigned char *aad;
        size_t n;
        if (!fs2p_get_octets(p, &aad, &n) || n != TLS_AAD_LEN)
            return fail(c->pc, FASTSM2_ERR_ARG, "tlsaad: 13 bytes");
        size_t len = (size_t)aad[11] << 8 | aad[12];
        if (len < TLS_EXPLICIT_IV || (!c->enc && len < TLS_EXPLICIT_IV + c->M))
            return fail(c->pc, FASTSM2_ERR_LENGTH, "tlsaad: record too short");
        memcpy(c->tls_aad, aad, n);
        len -= TLS_EXPLICIT_IV + (c->enc ? 0 : c->M);
        c->tls_aad[11] = (unsigned char)(len >> 8);
        c->tls_aad[12] = (unsigned char)len;
        c->tls_aad_len = TLS_AAD_LEN;
        c->tls_aad_pad = c->M;
    }
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL || p->data_size != TLS_FIXED_IV_LEN)
            return fail(c->pc, FASTSM2_ERR_IV, "tlsivfixed: 4 bytes");
        memcpy(c->iv, p->data, TLS_FIXED_IV_LEN);
    }
    return 1;
}

static int ccm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    ccm_ctx *c = vctx;
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !fs2p_set_size_t(p, 15 - c->L))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !fs2p_set_size_t(p, 16))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) && !fs2p_set_size_t(p, c->M))
        return 0;
    const char *ivkeys[] = {OSSL_CIPHER_PARAM_IV, OSSL_CIPHER_PARAM_UPDATED_IV};
    for (int i = 0; i < 2; i++) {
        if ((p = fs2p_locate(params, ivkeys[i])) == NULL)
            continue;
        if (p->data_type != OSSL_PARAM_OCTET_PTR && p->data != NULL && p->data_size < 15 - c->L)
            return fail(c->pc, FASTSM2_ERR_BUFFER_TOO_SMALL, "iv");
        if (!set_octets_or_ptr(p, c->iv, 15 - c->L))
            return 0;
    }
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD)) && !fs2p_set_size_t(p, c->tls_aad_pad))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        if (!c->enc || !c->tag_set || p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != c->M)
            return fail(c->pc, FASTSM2_ERR_TAG, "tag: after an encryption's data, its length (taglen) exactly");
        if (!fs2p_set_octets(p, c->tag, c->M))
            return 0;
        c->tag_set = c->iv_set = c->len_set = 0;
    }
    return 1;
}

static const OSSL_PARAM ccm_gettable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TAGLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_IV, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM_END};
static const OSSL_PARAM ccm_settable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_PARAM_OCTET_STRING),
                                              PARAM_END};

static const OSSL_PARAM *ccm_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return ccm_gettable_ctx;
}
static const OSSL_PARAM *ccm_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return ccm_settable_ctx;
}
/* The algorithm's IV length is 12 (RFC 8998's nonce), as the default
 * provider's; a context starts with 7 (OpenSSL's CCM default) until ivlen
 * says otherwise. */
static int ccm_get_params(OSSL_PARAM params[])
{
    return alg_get_params(params, MODE_CCM, 16, 12, 1, 1, 1);
}

const OSSL_DISPATCH fs2p_sm4_ccm_functions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))ccm_newctx},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))ccm_einit},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))ccm_dinit},
    {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))ccm_update},
    {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))ccm_final},
    {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))ccm_cipher},
    {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))ccm_free},
    {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))ccm_dup},
    {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))ccm_get_params},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))alg_gettable_params},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))ccm_get_ctx_params},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))ccm_set_ctx_params},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))ccm_gettable_ctx_params},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))ccm_settable_ctx_params},
    {0, NULL}};

/* ==== XTS (GB/T 17964-2021, IEEE 1619) ========================================= */

/* Each update is one data unit under the IV (tweak) set at init, as in the
 * default provider; xts_standard "GB" (the default) or "IEEE" chooses how
 * the tweak advances. The 32-byte key is key1 (data) || key2 (tweak). */
typedef struct {
    fs2p_provctx *pc;
    int enc, key_set, iv_set;
    int standard;
    unsigned char iv[16];
    fastsm2_sm4_key key1, key2;
} xts_ctx;

static void *xts_newctx(void *provctx)
{
    xts_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fs2p_raise(provctx, FASTSM2_ERR_NO_MEMORY, "cipher context");
        return NULL;
    }
    c->pc = provctx;
    c->standard = FASTSM2_SM4_XTS_GB;
    return c;
}

static void xts_free(void *vctx)
{
    ctx_free(vctx, sizeof(xts_ctx));
}

static void *xts_dup(void *vctx)
{
    return ctx_dup(vctx, sizeof(xts_ctx));
}

static int xts_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    xts_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if (!check_keylen(c->pc, params, 32))
        return 0;
    if ((p = fs2p_locate_const(params, OSSL_CIPHER_PARAM_XTS_STANDARD)) != NULL) {
        if (fs2p_utf8_is(p, "GB"))
            c->standard = FASTSM2_SM4_XTS_GB;
        else if (fs2p_utf8_is(p, "IEEE"))
            c->standard = FASTSM2_SM4_XTS_IEEE;
        else
            return fail(c->pc, FASTSM2_ERR_ARG, "xts_standard: GB or IEEE");
    }
    return 1;
}

static int xts_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc)
{
    xts_ctx *c = vctx;
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != 16)
            return fail(c->pc, FASTSM2_ERR_IV, "SM4-XTS tweaks are 16 bytes");
        memcpy(c->iv, iv, 16);
        c->iv_set = 1;
    }
    if (key != NULL) {
        if (keylen != 32)
            return fail(c->pc, FASTSM2_ERR_LENGTH, "SM4-XTS keys are 32 bytes");
        /* key1 == key2 voids XTS's security argument: the library refuses
         * it when encrypting (FASTSM2_ERR_ARG, at the update) */
        int st = fastsm2_sm4_key_init(&c->key1, key);
        if (st == FASTSM2_OK)
            st = fastsm2_sm4_key_init(&c->key2, key + 16);
        if (st != FASTSM2_OK)
            return fail(c->pc, st, "key");
        c->key_set = 1;
    }
    return xts_set_ctx_params(c, params);
}

static int xts_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return xts_init(vctx, key, keylen, iv, ivlen, params, 1);
}
static int xts_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return xts_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int xts_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    xts_ctx *c = vctx;
    *outl = 0;
    if (!c->key_set || !c->iv_set)
        return fail(c->pc, FASTSM2_ERR_STATE, "no key or tweak set");
    if (in == NULL || out == NULL || outsize < inl)
        return fail(c->pc, FASTSM2_ERR_ARG, "XTS update");
    int st = c->enc ? fastsm2_sm4_xts_encrypt(out, &c->key1, &c->key2, c->standard, c->iv, in, inl)
                    : fastsm2_sm4_xts_decrypt(out, &c->key1, &c->key2, c->standard, c->iv, in, inl);
    if (st != FASTSM2_OK)
        return fail(c->pc, st,
                    st == FASTSM2_ERR_LENGTH ? "an XTS data unit is 16 bytes to 16 MiB"
                                             : "XTS (encryption refuses a key whose two halves are equal)");
    *outl = inl;
    return 1;
}

static int xts_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    (void)vctx;
    (void)out;
    (void)outsize;
    *outl = 0;
    return 1;
}

static int xts_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    xts_ctx *c = vctx;
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !fs2p_set_size_t(p, 32))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !fs2p_set_size_t(p, 16))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_IV)) && !set_octets_or_ptr(p, c->iv, 16))
        return 0;
    /* every update is a data unit under the same tweak: the IV stays */
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) && !set_octets_or_ptr(p, c->iv, 16))
        return 0;
    if ((p = fs2p_locate(params, OSSL_CIPHER_PARAM_XTS_STANDARD)) &&
        !fs2p_set_utf8(p, c->standard == FASTSM2_SM4_XTS_GB ? "GB" : "IEEE"))
        return 0;
    return 1;
}

static const OSSL_PARAM xts_gettable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_IV, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_PARAM_OCTET_STRING),
                                              PARAM(OSSL_CIPHER_PARAM_XTS_STANDARD, OSSL_PARAM_UTF8_STRING),
                                              PARAM_END};
static const OSSL_PARAM xts_settable_ctx[] = {PARAM(OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER),
                                              PARAM(OSSL_CIPHER_PARAM_XTS_STANDARD, OSSL_PARAM_UTF8_STRING), PARAM_END};

static const OSSL_PARAM *xts_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return xts_gettable_ctx;
}
static const OSSL_PARAM *xts_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return xts_settable_ctx;
}
static int xts_get_params(OSSL_PARAM params[])
{
    return alg_get_params(params, MODE_XTS, 32, 16, 1, 0, 1);
}

const OSSL_DISPATCH fs2p_sm4_xts_functions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))xts_newctx},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))xts_einit},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))xts_dinit},
    {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))xts_update},
    {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))xts_final},
    {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))xts_update},
    {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))xts_free},
    {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))xts_dup},
    {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))xts_get_params},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))alg_gettable_params},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))xts_get_ctx_params},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))xts_set_ctx_params},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))xts_gettable_ctx_params},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))xts_settable_ctx_params},
    {0, NULL}};

/* ==== the algorithm table ======================================================== */

#define SM4ALG(names, fns, desc)     \
    {                                \
        names, FS2P_PROPS, fns, desc \
    }

const OSSL_ALGORITHM fs2p_sm4_cipher_algs[] = {
    SM4ALG("SM4-GCM:1.2.156.10197.1.104.8", fs2p_sm4_gcm_functions, "fastsm2 SM4-GCM"),
    SM4ALG("SM4-CCM:1.2.156.10197.1.104.9", fs2p_sm4_ccm_functions, "fastsm2 SM4-CCM"),
    SM4ALG("SM4-ECB:1.2.156.10197.1.104.1", fs2p_sm4_ecb_functions, "fastsm2 SM4-ECB"),
    SM4ALG("SM4-CBC:SM4:1.2.156.10197.1.104.2", fs2p_sm4_cbc_functions, "fastsm2 SM4-CBC"),
    SM4ALG("SM4-CTR:1.2.156.10197.1.104.7", fs2p_sm4_ctr_functions, "fastsm2 SM4-CTR"),
    SM4ALG("SM4-OFB:SM4-OFB128:1.2.156.10197.1.104.3", fs2p_sm4_ofb_functions, "fastsm2 SM4-OFB"),
    SM4ALG("SM4-CFB:SM4-CFB128:1.2.156.10197.1.104.4", fs2p_sm4_cfb_functions, "fastsm2 SM4-CFB"),
    SM4ALG("SM4-XTS:1.2.156.10197.1.104.10", fs2p_sm4_xts_functions, "fastsm2 SM4-XTS"),
    {NULL, NULL, NULL, NULL}};
