/* SPDX-License-Identifier: Apache-2.0 */
#include "testossl.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/x509.h>

#include "internal.h"

/* Which libcrypto this test runs against, said before anything else; with
 * FS2T_OPENSSL_VERSION set (tests/harness/test-openssl.sh), it must be that
 * release ("3.0.2"), or the test fails here: the matrix would otherwise
 * test the system's OpenSSL under another name. */
__attribute__((constructor)) static void fs2t_ossl_version_check(void)
{
    const char *want = getenv("FS2T_OPENSSL_VERSION");
    const char *have = OpenSSL_version(OPENSSL_VERSION_STRING);
    fprintf(stderr, "testossl: running against %s (built with %s)\n", OpenSSL_version(OPENSSL_VERSION),
            OPENSSL_VERSION_TEXT);
    if (want != NULL && *want != '\0' && strcmp(want, have) != 0) {
        fprintf(stderr, "testossl: FS2T_OPENSSL_VERSION=%s, but the libcrypto loaded is %s\n", want, have);
        exit(1);
    }
}

int fs2t_ossl_no_id_is_default(void)
{
    return OpenSSL_version_num() >= 0x40000000UL;
}

void fs2t_ossl_die(const char *what)
{
    fprintf(stderr, "OpenSSL failure: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(2);
}

int fs2t_ossl_runs_in(const EVP_PKEY_CTX *pc, const char *name)
{
    const OSSL_PROVIDER *p = pc ? EVP_PKEY_CTX_get0_provider(pc) : NULL;
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), name) == 0;
}

/* With a query naming a provider, the operation must run there. */
static void check_runs_where_asked(const EVP_PKEY_CTX *pc, const char *pq, const char *what)
{
    static const char prefix[] = "provider=";
    if (pq == NULL || strncmp(pq, prefix, sizeof prefix - 1) != 0 || fs2t_ossl_runs_in(pc, pq + sizeof prefix - 1))
        return;
    fprintf(stderr, "%s ran in the wrong provider (asked: %s)\n", what, pq);
    exit(2);
}

EVP_PKEY *fs2t_ossl_keygen(OSSL_LIB_CTX *lc, const char *pq)
{
    EVP_PKEY *pk = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc, "SM2", pq);
    if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_keygen(c, &pk) <= 0)
        fs2t_ossl_die("SM2 keygen");
    EVP_PKEY_CTX_free(c);
    return pk;
}

EVP_PKEY *fs2t_ossl_keygen_bytes(OSSL_LIB_CTX *lc, const char *pq, unsigned char d[32], unsigned char P[65])
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc, pq);
    if (!fs2t_ossl_priv_bytes(pk, d) || !fs2t_ossl_pub_bytes(pk, P))
        fs2t_ossl_die("key bytes");
    return pk;
}

static EVP_MD_CTX *sig_ctx(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, int sign)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    /* The ID is set after the init (EVP_PKEY_CTX_set1_id), not passed in the
     * init's params: OpenSSL 3.0.x up to at least 3.0.19 refuses
     * OSSL_PKEY_PARAM_DIST_ID there (the init returns 0). */
    int ok = m != NULL && (sign ? EVP_DigestSignInit_ex(m, &pc, "SM3", lc, pq, pk, NULL)
                                : EVP_DigestVerifyInit_ex(m, &pc, "SM3", lc, pq, pk, NULL)) > 0;
    if (ok && id != NULL && idlen > 0)
        ok = EVP_PKEY_CTX_set1_id(pc, id, idlen) > 0;
    if (ok && id != NULL && idlen == 0) { /* the empty ID: set1_id refuses a length of 0 in 4.0 */
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_DIST_ID, (void *)"", 0),
                           OSSL_PARAM_construct_end()};
        ok = EVP_PKEY_CTX_set_params(pc, p) > 0;
    }
    if (!ok) {
        EVP_MD_CTX_free(m);
        return NULL;
    }
    check_runs_where_asked(pc, pq, "signature");
    return m;
}

int fs2t_ossl_sign(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
                   size_t msglen, unsigned char *sig, size_t *siglen)
{
    EVP_MD_CTX *m = sig_ctx(lc, pq, pk, id, idlen, 1);
    int ok = m != NULL && EVP_DigestSign(m, sig, siglen, msg, msglen) > 0;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

int fs2t_ossl_verify(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
                     size_t msglen, const unsigned char *sig, size_t siglen)
{
    EVP_MD_CTX *m = sig_ctx(lc, pq, pk, id, idlen, 0);
    int ok = m != NULL && EVP_DigestVerify(m, sig, siglen, msg, msglen) == 1;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

unsigned char *fs2t_ossl_crypt(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, int enc, const unsigned char *in,
                               size_t inlen, size_t *outlen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc, pk, pq);
    unsigned char *out = NULL;
    size_t n = 0;
    int ok = c != NULL && (enc ? EVP_PKEY_encrypt_init(c) : EVP_PKEY_decrypt_init(c)) > 0;
    if (ok)
        check_runs_where_asked(c, pq, "encryption");
    if (ok)
        ok = (enc ? EVP_PKEY_encrypt(c, NULL, &n, in, inlen) : EVP_PKEY_decrypt(c, NULL, &n, in, inlen)) > 0;
    if (ok) {
        out = malloc(n ? n : 1);
        ok = (enc ? EVP_PKEY_encrypt(c, out, &n, in, inlen) : EVP_PKEY_decrypt(c, out, &n, in, inlen)) > 0;
    }
    EVP_PKEY_CTX_free(c);
    if (!ok) {
        free(out);
        ERR_clear_error();
        return NULL;
    }
    *outlen = n;
    return out;
}

int fs2t_ossl_decrypts_to(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const unsigned char *ct, size_t ctlen,
                          const unsigned char *pt, size_t ptlen)
{
    size_t n = 0;
    unsigned char *dec = ct ? fs2t_ossl_crypt(lc, pq, pk, 0, ct, ctlen, &n) : NULL;
    int ok = dec != NULL && n == ptlen && memcmp(dec, pt, ptlen) == 0;
    free(dec);
    return ok;
}

int fs2t_ossl_pub_bytes(EVP_PKEY *pk, unsigned char out[65])
{
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, 65, &len) == 1)
        return len == 65 && out[0] == 0x04;
    /* OpenSSL 3.0.2 gives no encoded public key for an SM2 key read from a
     * file (its own files too); its SPKI encoding ends with the point. */
    unsigned char *der = NULL;
    int n = i2d_PUBKEY(pk, &der);
    int ok = n >= 65 + 2 && der[n - 65] == 0x04;
    if (ok)
        memcpy(out, der + n - 65, 65);
    OPENSSL_free(der);
    return ok;
}

int fs2t_ossl_priv_bytes(EVP_PKEY *pk, unsigned char out[32])
{
    BIGNUM *bn = NULL;
    if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1)
        return 0;
    int ok = BN_bn2binpad(bn, out, 32) == 32;
    BN_clear_free(bn);
    return ok;
}

unsigned char *fs2t_ossl_write_key(EVP_PKEY *pk, int form, size_t *len)
{
    BIO *b = BIO_new(BIO_s_mem());
    int ok = 0;
    switch (form) {
    case FS2T_PEM_PKCS8: ok = PEM_write_bio_PrivateKey(b, pk, NULL, NULL, 0, NULL, NULL); break;
    case FS2T_PEM_SEC1: ok = PEM_write_bio_PrivateKey_traditional(b, pk, NULL, NULL, 0, NULL, NULL); break;
    case FS2T_DER_SEC1: {
        unsigned char *der = NULL;
        int n = i2d_PrivateKey(pk, &der);
        ok = n > 0 && BIO_write(b, der, n) == n;
        OPENSSL_free(der);
        break;
    }
    case FS2T_DER_PKCS8: ok = i2d_PKCS8PrivateKey_bio(b, pk, NULL, NULL, 0, NULL, NULL); break;
    case FS2T_PEM_SPKI: ok = PEM_write_bio_PUBKEY(b, pk); break;
    default: ok = i2d_PUBKEY_bio(b, pk); break;
    }
    if (!ok)
        fs2t_ossl_die("write key");
    char *data;
    long n = BIO_get_mem_data(b, &data);
    unsigned char *out = malloc((size_t)n + 1);
    memcpy(out, data, (size_t)n);
    out[n] = 0;
    *len = (size_t)n;
    BIO_free(b);
    return out;
}

size_t fs2t_ossl_write_key_to(unsigned char *out, size_t cap, EVP_PKEY *pk, int form)
{
    size_t n;
    unsigned char *f = fs2t_ossl_write_key(pk, form, &n);
    CHECK(n <= cap);
    n = n <= cap ? n : 0;
    memcpy(out, f, n);
    free(f);
    return n;
}

size_t fs2t_bio_drain(BIO *b, unsigned char *out, size_t cap)
{
    char *data;
    long n = BIO_get_mem_data(b, &data);
    size_t k = n > 0 && (size_t)n <= cap ? (size_t)n : 0;
    memcpy(out, data, k);
    BIO_free(b);
    return k;
}

EVP_PKEY *fs2t_ossl_read_key(OSSL_LIB_CTX *lc, const unsigned char *in, size_t len, int form)
{
    EVP_PKEY *pk = NULL;
    const unsigned char *p = in;
    if (form == FS2T_PEM_PKCS8 || form == FS2T_PEM_SEC1 || form == FS2T_PEM_SPKI) {
        BIO *b = BIO_new_mem_buf(in, (int)len);
        pk = form == FS2T_PEM_SPKI ? PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, lc, NULL)
                                   : PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, lc, NULL);
        BIO_free(b);
    } else {
        pk = form == FS2T_DER_SPKI ? d2i_PUBKEY_ex(NULL, &p, (long)len, lc, NULL)
                                   : d2i_AutoPrivateKey_ex(NULL, &p, (long)len, lc, NULL);
        if (pk && p != in + len) { /* trailing bytes */
            EVP_PKEY_free(pk);
            pk = NULL;
        }
    }
    ERR_clear_error();
    return pk;
}

/* The i-th edge scalar into d, its name into *label; 0 past the last. */
static int edge_scalar(int i, unsigned char d[32], const char **label)
{
    memset(d, 0, 32);
    switch (i) {
    case 0: d[31] = 1, *label = "1"; break;
    case 1: d[31] = 2, *label = "2"; break;
    case 2: d[31] = 3, *label = "3"; break;
    case 3: memcpy(d, fs2t_n, 32), d[31] -= 2, *label = "n-2"; break;
    case 4: memcpy(d, fs2t_n, 32), d[31] -= 3, *label = "n-3"; break;
    case 5: d[15] = 1, *label = "2^128"; break;
    case 6: d[0] = 0x80, *label = "2^255"; break;
    case 7: memset(d + 16, 0xFF, 16), *label = "2^128-1"; break;
    case 8: memset(d, 0xFF, 32), d[0] = 0x7F, *label = "2^255-1"; break;
    case 9: d[23] = 1, *label = "2^64"; break;
    case 10: d[7] = 1, *label = "2^192"; break;
    /* alternating bits stress signed-digit recodings */
    case 11: memset(d, 0xAA, 32), *label = "0xAA.."; break;
    case 12: memset(d, 0x55, 32), *label = "0x55.."; break;
    case 13: d[31] = 0xFF, d[30] = 0xFF, *label = "0xFFFF"; break;
    default: return 0;
    }
    return 1;
}

/* A random d in [1, n): full width, short (leading zero bytes) or of a
 * random length and top bit. */
static void random_scalar(int i, unsigned char d[32])
{
    if (i % 4 == 1) {
        fs2t_rand_int256(d);
    } else {
        fs2t_rand_bytes(d, 32);
        if (i % 4 == 3)
            memset(d, 0, (size_t)(fs2t_rand_u64() % 31));
    }
    if (memcmp(d, fs2t_n, 32) >= 0)
        d[0] = 0x7F;
    if (fs2t_all_zero(d, 32))
        d[31] = 5;
}

void fs2t_ossl_scalars(fs2t_scalar_check *check, int nrandom)
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *bn = BN_new(), *half = BN_bin2bn(fs2t_n, 32, NULL);
    EC_POINT *pt = g ? EC_POINT_new(g) : NULL;
    if (!g || !bctx || !bn || !half || !pt || !BN_rshift1(half, half)) /* (n-1)/2: n is odd */
        fs2t_ossl_die("SM2 group");
    int nedge = 0;
    unsigned char d[32], want[65], wantc[33];
    const char *label = NULL;
    while (edge_scalar(nedge, d, &label))
        nedge++;
    for (int i = 0; i < nedge + 2 + nrandom; i++) {
        if (i < nedge) {
            edge_scalar(i, d, &label);
        } else if (i < nedge + 2) { /* (n-1)/2, (n+1)/2 */
            if (i == nedge + 1 && !BN_add_word(half, 1))
                fs2t_ossl_die("BN_add_word");
            BN_bn2binpad(half, d, 32);
            label = i == nedge ? "(n-1)/2" : "(n+1)/2";
        } else {
            random_scalar(i - nedge - 2, d);
            label = "random";
        }
        if (!BN_bin2bn(d, 32, bn) || !EC_POINT_mul(g, pt, bn, NULL, NULL, bctx) ||
            EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, want, 65, bctx) != 65 ||
            EC_POINT_point2oct(g, pt, POINT_CONVERSION_COMPRESSED, wantc, 33, bctx) != 33)
            fs2t_ossl_die("EC_POINT_mul");
        check(d, want, wantc, label);
    }
    EC_POINT_free(pt);
    BN_free(half);
    BN_free(bn);
    BN_CTX_free(bctx);
    EC_GROUP_free(g);
}

BIGNUM *fs2t_bn_of_limbs(const uint64_t a[4])
{
    unsigned char b[32];
    fs2_u256_to_be(b, a);
    return BN_bin2bn(b, 32, NULL);
}

void fs2t_limbs_of_bn(uint64_t r[4], const BIGNUM *a)
{
    unsigned char b[32];
    BN_bn2binpad(a, b, 32);
    fs2_u256_from_be(r, b);
}

int fs2t_point_limbs(const EC_GROUP *g, const EC_POINT *pt, uint64_t x[4], uint64_t y[4], BN_CTX *bctx)
{
    memset(x, 0, 32);
    memset(y, 0, 32);
    if (EC_POINT_is_at_infinity(g, pt))
        return 0;
    BIGNUM *bx = BN_new(), *by = BN_new();
    if (!bx || !by || EC_POINT_get_affine_coordinates(g, pt, bx, by, bctx) != 1)
        fs2t_ossl_die("EC_POINT_get_affine_coordinates");
    fs2t_limbs_of_bn(x, bx);
    fs2t_limbs_of_bn(y, by);
    BN_free(bx);
    BN_free(by);
    return 1;
}
