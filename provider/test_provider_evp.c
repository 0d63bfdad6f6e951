/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2prov through EVP: the contract of provider-keymgmt(7),
 * provider-signature(7), provider-asym_cipher(7), provider-keyexch(7) and
 * provider-digest(7) for SM2 and SM3, each answer compared with OpenSSL's default provider
 * where it has one, and each bad input refused with its named error.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>

#include "provtest.h"

static void test_provider_params(void)
{
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(lc_ours, "fastsm2prov");
    CHECK(p != NULL);
    const char *name = NULL, *version = NULL, *no_distid = NULL;
    int status = 0;
    OSSL_PARAM q[] = {OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, &name, 0),
                      OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, &version, 0),
                      OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, &status), OSSL_PARAM_utf8_ptr("no_distid", &no_distid, 0),
                      OSSL_PARAM_END};
    CHECK(OSSL_PROVIDER_get_params(p, q) == 1);
    CHECK(name && strstr(name, "fastsm2") != NULL);
    CHECK(version && strcmp(version, fastsm2_version()) == 0);
    CHECK(status == 1);
    /* the ID an operation with no distid hashes: the host's (OpenSSL 3.x:
     * the empty one; 4.0: the default one) */
    CHECK(no_distid && strcmp(no_distid, fs2t_ossl_no_id_is_default() ? "1234567812345678" : "empty") == 0);
    CHECK(OSSL_PROVIDER_available(lc_ours, "fastsm2prov") == 1);
    OSSL_PROVIDER_unload(p);
}

/* SM3 against the default provider's, one-shot and in pieces. */
static void test_sm3(void)
{
    EVP_MD *ours = EVP_MD_fetch(lc_ours, "SM3", PQ_OURS), *ref = EVP_MD_fetch(lc_ref, "SM3", NULL);
    CHECK(ours && ref);
    if (!ours || !ref)
        return;
    CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(ours)), "fastsm2prov") == 0);
    CHECK(EVP_MD_get_size(ours) == 32 && EVP_MD_get_block_size(ours) == 64);
    unsigned char msg[1000], a[32], b[32];
    for (int i = 0; i < 60; i++) {
        size_t len = i < 10 ? (size_t)i * 64 + (size_t)(i & 1) : (size_t)(fs2t_rand_u64() % sizeof msg);
        fs2t_rand_bytes(msg, len);
        unsigned int la = 0, lb = 0;
        CHECK(EVP_Digest(msg, len, a, &la, ours, NULL) == 1 && EVP_Digest(msg, len, b, &lb, ref, NULL) == 1);
        CHECK(la == 32 && lb == 32 && memcmp(a, b, 32) == 0);
        /* in pieces, through a copied context */
        EVP_MD_CTX *m = EVP_MD_CTX_new(), *m2 = EVP_MD_CTX_new();
        size_t cut = len ? (size_t)(fs2t_rand_u64() % len) : 0;
        CHECK(EVP_DigestInit_ex2(m, ours, NULL) == 1 && EVP_DigestUpdate(m, msg, cut) == 1);
        CHECK(EVP_MD_CTX_copy_ex(m2, m) == 1);
        CHECK(EVP_DigestUpdate(m2, msg + cut, len - cut) == 1 && EVP_DigestFinal_ex(m2, a, &la) == 1);
        CHECK(memcmp(a, b, 32) == 0);
        EVP_MD_CTX_free(m);
        EVP_MD_CTX_free(m2);
    }
    EVP_MD_free(ours);
    EVP_MD_free(ref);
}

static void test_key_params(void)
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc_ours, PQ_OURS);
    CHECK(EVP_PKEY_is_a(pk, "SM2"));
    CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(pk)), "fastsm2prov") == 0);
    CHECK(EVP_PKEY_get_size(pk) == 72 && EVP_PKEY_get_bits(pk) == 256 && EVP_PKEY_get_security_bits(pk) == 128);
    char md[32], group[32];
    size_t glen = 0;
    CHECK(EVP_PKEY_get_default_digest_name(pk, md, sizeof md) > 0 && strcmp(md, "SM3") == 0);
    CHECK(EVP_PKEY_get_utf8_string_param(pk, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &glen) == 1 &&
          strcmp(group, "SM2") == 0);
    unsigned char P[65], d[32];
    CHECK(fs2t_ossl_pub_bytes(pk, P) && fs2t_ossl_priv_bytes(pk, d));
    /* the pair is consistent: P = dG by the library */
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char P2[65];
    size_t plen = 65;
    CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(P2, &plen, &pub, 0), FASTSM2_OK);
    CHECK(memcmp(P, P2, 65) == 0);
    fastsm2_privkey_clear(&key);

    /* dup, eq, check */
    EVP_PKEY *dup = EVP_PKEY_dup(pk);
    CHECK(dup != NULL && EVP_PKEY_eq(pk, dup) == 1);
    EVP_PKEY *other = fs2t_ossl_keygen(lc_ours, PQ_OURS);
    CHECK(EVP_PKEY_eq(pk, other) == 0);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pk, PQ_OURS);
    CHECK(EVP_PKEY_check(c) == 1 && EVP_PKEY_public_check(c) == 1 && EVP_PKEY_private_check(c) == 1);
    EVP_PKEY_CTX_free(c);

    /* a group other than SM2 is refused at generation */
    c = EVP_PKEY_CTX_new_from_name(lc_ours, "SM2", PQ_OURS);
    OSSL_PARAM g[] = {OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0), OSSL_PARAM_END};
    EVP_PKEY *bad = NULL;
    CHECK(c && EVP_PKEY_keygen_init(c) == 1);
    CHECK(EVP_PKEY_CTX_set_params(c, g) <= 0 || EVP_PKEY_keygen(c, &bad) <= 0);
    CHECK(bad == NULL);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_KEY_FORMAT);
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(dup);
    EVP_PKEY_free(other);
    EVP_PKEY_free(pk);
}

/* EVP_PKEY_fromdata into our key management; the status it fails with. */
static int import(EVP_PKEY **out, const char *group, const unsigned char *pub, size_t publen, const unsigned char d[32],
                  int selection)
{
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    BIGNUM *bn = d ? BN_bin2bn(d, 32, NULL) : NULL;
    if (group)
        OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
    if (pub)
        OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, publen);
    if (bn)
        OSSL_PARAM_BLD_push_BN_pad(b, OSSL_PKEY_PARAM_PRIV_KEY, bn, 32);
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc_ours, "SM2", PQ_OURS);
    *out = NULL;
    int ok = c && EVP_PKEY_fromdata_init(c) == 1 && EVP_PKEY_fromdata(c, out, selection, params) == 1;
    int st = ok ? FASTSM2_OK : pt_last_status();
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(b);
    BN_clear_free(bn);
    return st;
}

static void test_import_errors(void)
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc_ref, PQ_REF), *got;
    unsigned char P[65], d[32], bad[65];
    CHECK(fs2t_ossl_pub_bytes(pk, P) && fs2t_ossl_priv_bytes(pk, d));

    CHECK_STATUS(import(&got, "SM2", P, 65, d, EVP_PKEY_KEYPAIR), FASTSM2_OK);
    unsigned char d2[32], P2[65];
    CHECK(got && fs2t_ossl_priv_bytes(got, d2) && memcmp(d, d2, 32) == 0 && fs2t_ossl_pub_bytes(got, P2) &&
          memcmp(P, P2, 65) == 0);
    EVP_PKEY_free(got);
    /* priv alone: the public key is derived */
    CHECK_STATUS(import(&got, "SM2", NULL, 0, d, EVP_PKEY_KEYPAIR), FASTSM2_OK);
    CHECK(got && fs2t_ossl_pub_bytes(got, P2) && memcmp(P, P2, 65) == 0);
    EVP_PKEY_free(got);
    /* a compressed public key is taken, and reported uncompressed */
    unsigned char Pc[33];
    Pc[0] = (unsigned char)(2 | (P[64] & 1));
    memcpy(Pc + 1, P + 1, 32);
    CHECK_STATUS(import(&got, NULL, Pc, 33, NULL, EVP_PKEY_PUBLIC_KEY), FASTSM2_OK);
    CHECK(got && fs2t_ossl_pub_bytes(got, P2) && memcmp(P, P2, 65) == 0);
    EVP_PKEY_free(got);

    /* off the curve, a bad prefix, a wrong length */
    memcpy(bad, P, 65);
    bad[64] ^= 1;
    CHECK_STATUS(import(&got, "SM2", bad, 65, NULL, EVP_PKEY_PUBLIC_KEY), FASTSM2_ERR_POINT);
    bad[64] ^= 1;
    bad[0] = 0x05;
    CHECK_STATUS(import(&got, "SM2", bad, 65, NULL, EVP_PKEY_PUBLIC_KEY), FASTSM2_ERR_POINT);
    CHECK_STATUS(import(&got, "SM2", P, 64, NULL, EVP_PKEY_PUBLIC_KEY), FASTSM2_ERR_LENGTH);
    /* d = 0, n - 1, n, 2^256 - 1 */
    unsigned char e[32];
    memset(e, 0, 32);
    CHECK_STATUS(import(&got, "SM2", NULL, 0, e, EVP_PKEY_KEYPAIR), FASTSM2_ERR_PRIVATE_KEY);
    memcpy(e, fs2t_n, 32);
    e[31] -= 1;
    CHECK_STATUS(import(&got, "SM2", NULL, 0, e, EVP_PKEY_KEYPAIR), FASTSM2_ERR_PRIVATE_KEY);
    memcpy(e, fs2t_n, 32);
    CHECK_STATUS(import(&got, "SM2", NULL, 0, e, EVP_PKEY_KEYPAIR), FASTSM2_ERR_PRIVATE_KEY);
    memset(e, 0xFF, 32);
    CHECK_STATUS(import(&got, "SM2", NULL, 0, e, EVP_PKEY_KEYPAIR), FASTSM2_ERR_PRIVATE_KEY);
    /* d and P that are not a pair */
    memcpy(e, d, 32);
    e[31] ^= 1;
    CHECK_STATUS(import(&got, "SM2", P, 65, e, EVP_PKEY_KEYPAIR), FASTSM2_ERR_POINT);
    /* another curve; no key at all */
    CHECK_STATUS(import(&got, "P-256", P, 65, NULL, EVP_PKEY_PUBLIC_KEY), FASTSM2_ERR_KEY_FORMAT);
    CHECK_STATUS(import(&got, "SM2", NULL, 0, NULL, EVP_PKEY_KEYPAIR), FASTSM2_ERR_ARG);
    EVP_PKEY_free(pk);
}

/* EVP_PKEY_sign / verify on digests, and their edges. */
static void test_sign_digest(void)
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc_ours, PQ_OURS);
    unsigned char e[32], sig[80];
    fs2t_rand_bytes(e, 32);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pk, PQ_OURS);
    size_t siglen = 0;
    CHECK(EVP_PKEY_sign_init(c) == 1 && fs2t_ossl_runs_in(c, "fastsm2prov"));
    CHECK(EVP_PKEY_sign(c, NULL, &siglen, e, 32) == 1 && siglen == 72);
    siglen = sizeof sig;
    CHECK(EVP_PKEY_sign(c, sig, &siglen, e, 32) == 1 && siglen >= 8 && siglen <= 72);
    size_t shortlen = 31;
    CHECK(EVP_PKEY_sign(c, sig, &shortlen, e, 31) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_LENGTH);
    EVP_PKEY_CTX_free(c);

    /* the signature on e is GB/T 32918.2's on e: the library verifies it */
    unsigned char raw[64], P[65];
    fastsm2_pubkey pub;
    CHECK(fs2t_ossl_pub_bytes(pk, P));
    CHECK_STATUS(fastsm2_pubkey_from_bytes(&pub, P, 65), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sig_from_der(raw, sig, siglen), FASTSM2_OK);
    CHECK(fastsm2_verify_digest(&pub, e, raw) == 1);

    for (int prov = 0; prov < 2; prov++) { /* verify here and in the default provider */
        OSSL_LIB_CTX *lc = prov ? lc_ref : lc_ours;
        const char *pq = prov ? PQ_REF : PQ_OURS;
        EVP_PKEY *vk = pk;
        if (prov) { /* the public key, moved across by its encoding */
            OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
            OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "SM2", 0);
            OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, P, 65);
            OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
            EVP_PKEY_CTX *fc = EVP_PKEY_CTX_new_from_name(lc_ref, "SM2", NULL);
            vk = NULL;
            CHECK(EVP_PKEY_fromdata_init(fc) == 1 && EVP_PKEY_fromdata(fc, &vk, EVP_PKEY_PUBLIC_KEY, params) == 1);
            EVP_PKEY_CTX_free(fc);
            OSSL_PARAM_free(params);
            OSSL_PARAM_BLD_free(b);
        }
        c = EVP_PKEY_CTX_new_from_pkey(lc, vk, pq);
        CHECK(EVP_PKEY_verify_init(c) == 1 && fs2t_ossl_runs_in(c, prov ? "default" : "fastsm2prov"));
        CHECK(EVP_PKEY_verify(c, sig, siglen, e, 32) == 1);
        e[0] ^= 1;
        CHECK(EVP_PKEY_verify(c, sig, siglen, e, 32) != 1);
        e[0] ^= 1;
        ERR_clear_error();
        EVP_PKEY_CTX_free(c);
        if (prov)
            EVP_PKEY_free(vk);
    }

    /* bad signatures get their named errors */
    c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pk, PQ_OURS);
    CHECK(EVP_PKEY_verify_init(c) == 1);
    e[5] ^= 0x10;
    CHECK(EVP_PKEY_verify(c, sig, siglen, e, 32) == 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_BAD_SIGNATURE);
    e[5] ^= 0x10;
    unsigned char der[80];
    memcpy(der, sig, siglen);
    der[siglen] = 0; /* a trailing byte */
    CHECK(EVP_PKEY_verify(c, der, siglen + 1, e, 32) == 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_DER);
    static const unsigned char r0[] = {0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x01}; /* r = 0 */
    CHECK(EVP_PKEY_verify(c, r0, sizeof r0, e, 32) == 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_SIG_RANGE);
    CHECK(EVP_PKEY_verify(c, sig, siglen, e, 31) == 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_LENGTH);
    EVP_PKEY_CTX_free(c);

    /* a public key cannot sign */
    EVP_PKEY *pubonly = NULL;
    CHECK_STATUS(import(&pubonly, "SM2", P, 65, NULL, EVP_PKEY_PUBLIC_KEY), FASTSM2_OK);
    c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pubonly, PQ_OURS);
    CHECK(EVP_PKEY_sign_init(c) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_ARG);
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(pubonly);
    EVP_PKEY_free(pk);
}

/* DigestSign in pieces, the distid rules, the digest name, the AlgorithmIdentifier. */
static void test_digest_sign(void)
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc_ours, PQ_OURS);
    unsigned char msg[500], sig[80];
    fs2t_rand_bytes(msg, sizeof msg);
    static const char id[] = "alice@example.com";
    OSSL_PARAM ids[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_DIST_ID, (void *)(uintptr_t)id, sizeof id - 1),
                        OSSL_PARAM_END};
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    CHECK(EVP_DigestSignInit_ex(m, &pc, "SM3", lc_ours, PQ_OURS, pk, ids) == 1 && fs2t_ossl_runs_in(pc, "fastsm2prov"));
    CHECK(EVP_DigestSignUpdate(m, msg, 1) == 1 && EVP_DigestSignUpdate(m, msg + 1, 200) == 1 &&
          EVP_DigestSignUpdate(m, msg + 201, sizeof msg - 201) == 1);
    /* the ID is in the hash now: too late to change it */
    CHECK(EVP_PKEY_CTX_set_params(pc, ids) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_STATE);
    size_t siglen = 0;
    CHECK(EVP_DigestSignFinal(m, NULL, &siglen) == 1 && siglen == 72);
    siglen = sizeof sig;
    CHECK(EVP_DigestSignFinal(m, sig, &siglen) == 1);
    /* the AlgorithmIdentifier is the default provider's */
    unsigned char aid[64], aid_ref[64];
    size_t aidlen = 0, aid_reflen = 0;
    OSSL_PARAM q[] = {OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, aid, sizeof aid), OSSL_PARAM_END};
    CHECK(EVP_PKEY_CTX_get_params(pc, q) == 1);
    aidlen = q[0].return_size;
    EVP_MD_CTX_free(m);
    CHECK(fs2t_ossl_verify(lc_ours, PQ_OURS, pk, id, sizeof id - 1, msg, sizeof msg, sig, siglen) == 1);
    CHECK(fs2t_ossl_verify(lc_ours, PQ_OURS, pk, id, sizeof id - 2, msg, sizeof msg, sig, siglen) == 0);
    CHECK(fs2t_ossl_verify(lc_ours, PQ_OURS, pk, NULL, 0, msg, sizeof msg, sig, siglen) == 0);

    EVP_PKEY *rk = fs2t_ossl_keygen(lc_ref, PQ_REF);
    m = EVP_MD_CTX_new();
    pc = NULL;
    CHECK(EVP_DigestSignInit_ex(m, &pc, "SM3", lc_ref, NULL, rk, NULL) == 1);
    OSSL_PARAM q2[] = {OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, aid_ref, sizeof aid_ref),
                       OSSL_PARAM_END};
    CHECK(EVP_PKEY_CTX_get_params(pc, q2) == 1);
    aid_reflen = q2[0].return_size;
    CHECK(aidlen == aid_reflen && aidlen > 0 && memcmp(aid, aid_ref, aidlen) == 0);
    EVP_MD_CTX_free(m);
    EVP_PKEY_free(rk);

    /* SM2 signs with SM3 only */
    m = EVP_MD_CTX_new();
    CHECK(EVP_DigestSignInit_ex(m, NULL, "SHA256", lc_ours, PQ_OURS, pk, NULL) <= 0);
    ERR_clear_error();
    EVP_MD_CTX_free(m);
    /* an ID longer than ENTL can count */
    unsigned char *longid = calloc(1, 8192);
    CHECK(fs2t_ossl_sign(lc_ours, PQ_OURS, pk, longid, 8192, msg, 10, sig, &siglen) == 0);
    free(longid);
    EVP_PKEY_free(pk);
}

static void test_encrypt(void)
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc_ours, PQ_OURS);
    unsigned char pt[200];
    fs2t_rand_bytes(pt, sizeof pt);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pk, PQ_OURS);
    size_t n = 0;
    CHECK(EVP_PKEY_encrypt_init(c) == 1 && fs2t_ossl_runs_in(c, "fastsm2prov"));
    CHECK(EVP_PKEY_encrypt(c, NULL, &n, pt, sizeof pt) == 1 && n == fastsm2_ciphertext_size(sizeof pt, 0));
    /* no empty message (neither provider encrypts one) */
    unsigned char ct[400];
    n = sizeof ct;
    CHECK(EVP_PKEY_encrypt(c, ct, &n, pt, 0) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_LENGTH);
    n = 50;
    CHECK(EVP_PKEY_encrypt(c, ct, &n, pt, sizeof pt) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_BUFFER_TOO_SMALL);
    /* SM3 only */
    OSSL_PARAM md[] = {OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_DIGEST, "SHA256", 0), OSSL_PARAM_END};
    CHECK(EVP_PKEY_CTX_set_params(c, md) <= 0);
    ERR_clear_error();
    EVP_PKEY_CTX_free(c);

    size_t ctlen = 0;
    unsigned char *ctp = fs2t_ossl_crypt(lc_ours, PQ_OURS, pk, 1, pt, sizeof pt, &ctlen);
    CHECK(ctp != NULL);
    if (!ctp)
        return;
    CHECK(fs2t_ossl_decrypts_to(lc_ours, PQ_OURS, pk, ctp, ctlen, pt, sizeof pt));
    /* a flipped C2 byte fails the C3 check; a cut ciphertext is malformed */
    c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pk, PQ_OURS);
    unsigned char dec[300];
    CHECK(EVP_PKEY_decrypt_init(c) == 1);
    ctp[ctlen - 1] ^= 1;
    n = sizeof dec;
    CHECK(EVP_PKEY_decrypt(c, dec, &n, ctp, ctlen) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_DECRYPT);
    ctp[ctlen - 1] ^= 1;
    n = sizeof dec;
    CHECK(EVP_PKEY_decrypt(c, dec, &n, ctp, ctlen - 1) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_CIPHERTEXT);
    n = 10;
    CHECK(EVP_PKEY_decrypt(c, dec, &n, ctp, ctlen) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_BUFFER_TOO_SMALL);
    /* the size query: the plaintext's length, after the checks a
     * decryption makes before the key (an empty, cut or junk input fails) */
    n = 0;
    CHECK(EVP_PKEY_decrypt(c, NULL, &n, ctp, ctlen) == 1 && n == sizeof pt);
    CHECK(EVP_PKEY_decrypt(c, NULL, &n, ctp, 0) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_CIPHERTEXT);
    CHECK(EVP_PKEY_decrypt(c, NULL, &n, ctp, ctlen - 1) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_CIPHERTEXT);
    CHECK(EVP_PKEY_decrypt(c, NULL, &n, pt, sizeof pt) <= 0);
    CHECK_STATUS(pt_last_status(), FASTSM2_ERR_CIPHERTEXT);
    EVP_PKEY_CTX_free(c);
    free(ctp);
    EVP_PKEY_free(pk);
}

/* Fuzz: mutated signatures and ciphertexts never verify or decrypt. */
static void test_mutations(void)
{
    EVP_PKEY *pk = fs2t_ossl_keygen(lc_ours, PQ_OURS);
    unsigned char msg[64], sig[200], ct[400];
    fs2t_rand_bytes(msg, sizeof msg);
    size_t siglen = 72;
    CHECK(fs2t_ossl_sign(lc_ours, PQ_OURS, pk, NULL, 0, msg, sizeof msg, sig, &siglen));
    size_t ctlen = 0;
    unsigned char *c0 = fs2t_ossl_crypt(lc_ours, PQ_OURS, pk, 1, msg, sizeof msg, &ctlen);
    CHECK(c0 != NULL && ctlen <= sizeof ct);
    int accepted = 0;
    for (int i = 0; i < 300 && c0; i++) {
        unsigned char s2[200];
        size_t l = siglen;
        memcpy(s2, sig, siglen);
        fs2t_mutate(s2, &l, sizeof s2);
        if (l != siglen || memcmp(s2, sig, l) != 0)
            accepted += fs2t_ossl_verify(lc_ours, PQ_OURS, pk, NULL, 0, msg, sizeof msg, s2, l);
        size_t cl = ctlen, ol = 0;
        memcpy(ct, c0, ctlen);
        fs2t_mutate(ct, &cl, sizeof ct);
        if (cl != ctlen || memcmp(ct, c0, cl) != 0) {
            unsigned char *o = fs2t_ossl_crypt(lc_ours, PQ_OURS, pk, 0, ct, cl, &ol);
            accepted += o != NULL;
            free(o);
        }
        ERR_clear_error();
    }
    CHECK(accepted == 0);
    free(c0);
    EVP_PKEY_free(pk);
}

/* Key exchange "SM2DH": plain ECDH, and GB/T 32918.3 with Tongsuo's
 * parameters (the keys as EVP_PKEY pointers, one of them the default
 * provider's), both sides through EVP agreeing with each other and with
 * the library's fastsm2_kx. */
static size_t derive(EVP_PKEY *self, EVP_PKEY *peer, const OSSL_PARAM *params, unsigned char *out, size_t cap)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc_ours, self, PQ_OURS);
    size_t n = cap;
    int ok = c != NULL && EVP_PKEY_derive_init_ex(c, params) == 1 && fs2t_ossl_runs_in(c, "fastsm2prov") &&
             EVP_PKEY_derive_set_peer(c, peer) == 1 && EVP_PKEY_derive(c, out, &n) == 1;
    EVP_PKEY_CTX_free(c);
    return ok ? n : 0;
}

static void kx_params(OSSL_PARAM q[8], int *initiator, const char *self_id, const char *peer_id, EVP_PKEY **self_enc,
                      EVP_PKEY **peer_enc, size_t *outlen, const char *digest)
{
    OSSL_PARAM *p = q;
    *p++ = OSSL_PARAM_construct_int("sm2-initiator", initiator);
    *p++ = OSSL_PARAM_construct_octet_string("self-id", (void *)(uintptr_t)self_id, strlen(self_id));
    *p++ = OSSL_PARAM_construct_octet_string("peer-id", (void *)(uintptr_t)peer_id, strlen(peer_id));
    *p++ = OSSL_PARAM_construct_octet_ptr("self-enc-key", (void **)self_enc, sizeof *self_enc);
    *p++ = OSSL_PARAM_construct_octet_ptr("peer-enc-key", (void **)peer_enc, sizeof *peer_enc);
    *p++ = OSSL_PARAM_construct_utf8_string("digest", (char *)(uintptr_t)digest, 0);
    *p++ = OSSL_PARAM_construct_size_t("outlen", outlen);
    *p = OSSL_PARAM_construct_end();
}

static void test_exchange(void)
{
    unsigned char da[32], Pa[65], db[32], Pb[65], k1[64], k2[64], k3[64];
    EVP_PKEY *a = fs2t_ossl_keygen_bytes(lc_ours, PQ_OURS, da, Pa);
    EVP_PKEY *b = fs2t_ossl_keygen_bytes(lc_ours, PQ_OURS, db, Pb);
    fastsm2_privkey pa, pb;
    CHECK(fastsm2_privkey_from_bytes(&pa, da) == FASTSM2_OK && fastsm2_privkey_from_bytes(&pb, db) == FASTSM2_OK);
    /* ECDH: the x-coordinate of the shared point, both ways */
    CHECK(derive(a, b, NULL, k1, sizeof k1) == 32 && derive(b, a, NULL, k2, sizeof k2) == 32);
    CHECK(fastsm2_ecdh(k3, &pa, Pb, 65) == FASTSM2_OK);
    CHECK(memcmp(k1, k2, 32) == 0 && memcmp(k1, k3, 32) == 0);

    /* GB/T 32918.3: A (initiator) with static sa and ephemeral a, B with
     * static sb (a default-provider key) and ephemeral b */
    unsigned char dsa[32], Psa[65];
    EVP_PKEY *sa = fs2t_ossl_keygen_bytes(lc_ours, PQ_OURS, dsa, Psa);
    EVP_PKEY *sb = fs2t_ossl_keygen(lc_ref, PQ_REF);
    unsigned char dsb[32], Psb[65];
    CHECK(fs2t_ossl_pub_bytes(sb, Psb) && fs2t_ossl_priv_bytes(sb, dsb));
    int one = 1, zero = 0;
    size_t outlen = 48;
    OSSL_PARAM qa[8], qb[8];
    kx_params(qa, &one, "ALICE123@YAHOO.COM", "BILL456@YAHOO.COM", &sa, &sb, &outlen, "SM3");
    kx_params(qb, &zero, "BILL456@YAHOO.COM", "ALICE123@YAHOO.COM", &sb, &sa, &outlen, "SM3");
    CHECK(derive(a, b, qa, k1, sizeof k1) == 48 && derive(b, a, qb, k2, sizeof k2) == 48);
    CHECK(memcmp(k1, k2, 48) == 0);
    /* the library's responder, with b's scalar as its nonce */
    fastsm2_privkey psb;
    fastsm2_pubkey qsa;
    fastsm2_kx_ctx kx;
    unsigned char R[65];
    CHECK(fastsm2_privkey_from_bytes(&psb, dsb) == FASTSM2_OK &&
          fastsm2_pubkey_from_bytes(&qsa, Psa, 65) == FASTSM2_OK);
    CHECK(fastsm2_kx_init(&kx, FASTSM2_KX_RESPONDER, &psb, "BILL456@YAHOO.COM", 17, &qsa, "ALICE123@YAHOO.COM", 18) ==
          FASTSM2_OK);
    CHECK(fastsm2_kx_start_with_nonce(&kx, R, db) == FASTSM2_OK && memcmp(R, Pb, 65) == 0);
    CHECK(fastsm2_kx_compute(&kx, k3, 48, Pa, 65) == FASTSM2_OK && memcmp(k1, k3, 48) == 0);
    fastsm2_kx_clear(&kx);
    /* another ID, another key; the roles the same: no agreement */
    kx_params(qb, &zero, "BILL456@YAHOO.COM", "ALICE", &sb, &sa, &outlen, "SM3");
    CHECK(derive(b, a, qb, k2, sizeof k2) == 48 && memcmp(k1, k2, 48) != 0);
    kx_params(qb, &one, "BILL456@YAHOO.COM", "ALICE123@YAHOO.COM", &sb, &sa, &outlen, "SM3");
    CHECK(derive(b, a, qb, k2, sizeof k2) == 48 && memcmp(k1, k2, 48) != 0);
    /* refused: a digest other than SM3, a public key where the own static
     * key belongs, the static keys half given */
    kx_params(qa, &one, "A", "B", &sa, &sb, &outlen, "SHA256");
    CHECK(derive(a, b, qa, k1, sizeof k1) == 0 && pt_last_status() == FASTSM2_ERR_ARG);
    EVP_PKEY *sb_pub = NULL;
    {
        unsigned char der[200];
        size_t n = fs2t_ossl_write_key_to(der, sizeof der, sb, FS2T_DER_SPKI);
        CHECK(n > 0);
        sb_pub = fs2t_ossl_read_key(lc_ref, der, n, FS2T_DER_SPKI);
        CHECK(sb_pub != NULL);
    }
    kx_params(qb, &zero, "B", "A", &sb_pub, &sa, &outlen, "SM3");
    CHECK(derive(b, a, qb, k2, sizeof k2) == 0 && pt_last_status() == FASTSM2_ERR_PRIVATE_KEY);
    kx_params(qa, &one, "A", "B", &sa, &sb, &outlen, "SM3");
    qa[4] = OSSL_PARAM_construct_end(); /* no peer-enc-key */
    CHECK(derive(a, b, qa, k1, sizeof k1) == 0 && pt_last_status() == FASTSM2_ERR_STATE);
    ERR_clear_error();
    fastsm2_privkey_clear(&pa);
    fastsm2_privkey_clear(&pb);
    fastsm2_privkey_clear(&psb);
    EVP_PKEY_free(sb_pub);
    EVP_PKEY_free(sa);
    EVP_PKEY_free(sb);
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
}

int main(int argc, char **argv)
{
    pt_setup(argc, argv);
    test_provider_params();
    test_sm3();
    test_key_params();
    test_import_errors();
    test_sign_digest();
    test_digest_sign();
    test_encrypt();
    test_exchange();
    test_mutations();
    pt_teardown();
    return fs2t_finish("test_provider_evp");
}
