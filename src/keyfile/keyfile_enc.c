/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Password-encrypted private keys: PKCS#8 EncryptedPrivateKeyInfo (RFC 5958
 * clause 3) with PBES2 (RFC 8018 clause 6.2): PBKDF2 (5.2) with
 * hmacWithSM3 or hmacWithSHA256, and SM4-CBC or AES-256-CBC.
 *
 *  EncryptedPrivateKeyInfo ::= SEQUENCE { encryptionAlgorithm
 *    { pbes2, PBES2-params }, encryptedData OCTET STRING }
 *  PBES2-params ::= SEQUENCE { keyDerivationFunc { pbkdf2, PBKDF2-params },
 *    encryptionScheme { cipher OID, iv OCTET STRING (16) } }
 *  PBKDF2-params ::= SEQUENCE { salt OCTET STRING, iterationCount INTEGER,
 *    keyLength INTEGER OPTIONAL, prf AlgorithmIdentifier DEFAULT hmacWithSHA1 }
 *
 * What is written: GmSSL 3's form for FASTSM2_PBE_SM3_SM4 (keyLength 16,
 * prf hmacWithSM3 without parameters, as `gmssl sm2keygen` writes it), and
 * OpenSSL 3's for the SHA-256 schemes (no keyLength, prf hmacWithSHA256
 * with NULL parameters, as `openssl genpkey -sm4-cbc` writes it). The inner
 * PKCS#8 names the curve in its ECPrivateKey too: GmSSL refuses it without.
 */
#include "keyfile.h"

#include "codec/der.h"
#include "codec/pem.h"
#include "sym/sym.h"

/* 1.2.840.113549.1.5.13 PBES2, 1.2.840.113549.1.5.12 PBKDF2 (RFC 8018 A.2, A.4) */
static const unsigned char oid_pbes2[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0D};
static const unsigned char oid_pbkdf2[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C};
/* 1.2.840.113549.2.9 hmacWithSHA256 (RFC 8018 B.1.2) */
static const unsigned char oid_hmac_sha256[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x09};
/* 1.2.156.10197.1.401.2 hmacWithSM3 (GM/T 0006) */
static const unsigned char oid_hmac_sm3[] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x11, 0x02};
/* 1.2.156.10197.1.104.2 SM4-CBC (GM/T 0006) */
static const unsigned char oid_sm4_cbc[] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x68, 0x02};
/* 2.16.840.1.101.3.4.1.42 aes256-CBC (NIST) */
static const unsigned char oid_aes256_cbc[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A};

#define ENC_DER_MAX 320 /* the encrypted DER of an SM2 key is about 250 bytes */

/* ---- reading ------------------------------------------------------------ */

typedef struct {
    fs2_der_in salt, iv, data;
    uint32_t iterations;
    int hash, cipher;
} pbes2_params;

/* Read an INTEGER of at most 4 bytes (iterationCount, keyLength). */
static int get_u32(fs2_der_in *in, uint32_t *v)
{
    unsigned char b[4];
    if (!fs2_der_get_uint(in, b, 4))
        return 0;
    *v = fs2_load32_be(b);
    return 1;
}

/* The prf AlgorithmIdentifier: OID, parameters absent or NULL. */
static int parse_prf(fs2_der_in *in, int *hash)
{
    fs2_der_in alg, oid;
    if (!fs2_der_get(in, FS2_DER_SEQUENCE, &alg) || !fs2_der_get_oid(&alg, &oid))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&alg) == (int)FS2_DER_NULL && !fs2_der_get_null(&alg))
        return FASTSM2_ERR_DER;
    if (!fs2_der_at_end(&alg))
        return FASTSM2_ERR_DER;
    if (fs2_der_body_is(&oid, oid_hmac_sm3, sizeof oid_hmac_sm3))
        *hash = FS2_HASH_SM3;
    else if (fs2_der_body_is(&oid, oid_hmac_sha256, sizeof oid_hmac_sha256))
        *hash = FS2_HASH_SHA256;
    else
        return FASTSM2_ERR_KEY_CIPHER; /* hmacWithSHA1, SHA-512, ... */
    return FASTSM2_OK;
}

static int parse_pbes2(const unsigned char *der, size_t derlen, pbes2_params *p)
{
    fs2_der_in in, epki, alg, oid, params, kdf, kdfp, enc;
    uint32_t keylen = 0;
    int have_keylen = 0, ret;

    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &epki) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    if (!fs2_der_get(&epki, FS2_DER_SEQUENCE, &alg) || !fs2_der_get(&epki, FS2_DER_OCTET_STRING, &p->data) ||
        !fs2_der_at_end(&epki))
        return FASTSM2_ERR_DER;
    if (!fs2_der_get_oid(&alg, &oid))
        return FASTSM2_ERR_DER;
    if (!fs2_der_body_is(&oid, oid_pbes2, sizeof oid_pbes2))
        return FASTSM2_ERR_KEY_CIPHER; /* PBES1 (RFC 8018 6.1), PKCS#12 PBE */
    if (!fs2_der_get(&alg, FS2_DER_SEQUENCE, &params) || !fs2_der_at_end(&alg))
        return FASTSM2_ERR_DER;
    /* keyDerivationFunc */
    if (!fs2_der_get(&params, FS2_DER_SEQUENCE, &kdf) || !fs2_der_get_oid(&kdf, &oid))
        return FASTSM2_ERR_DER;
    if (!fs2_der_body_is(&oid, oid_pbkdf2, sizeof oid_pbkdf2))
        return FASTSM2_ERR_KEY_CIPHER; /* scrypt, ... */
    if (!fs2_der_get(&kdf, FS2_DER_SEQUENCE, &kdfp) || !fs2_der_at_end(&kdf))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&kdfp) != (int)FS2_DER_OCTET_STRING)
        return fs2_der_peek_tag(&kdfp) == (int)FS2_DER_SEQUENCE ? FASTSM2_ERR_KEY_CIPHER /* otherSource */
                                                                : FASTSM2_ERR_DER;
    if (!fs2_der_get(&kdfp, FS2_DER_OCTET_STRING, &p->salt) || !get_u32(&kdfp, &p->iterations))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&kdfp) == (int)FS2_DER_INTEGER) {
        if (!get_u32(&kdfp, &keylen))
            return FASTSM2_ERR_DER;
        have_keylen = 1;
    }
    if (fs2_der_at_end(&kdfp))
        return FASTSM2_ERR_KEY_CIPHER; /* the default PRF, hmacWithSHA1 */
    if ((ret = parse_prf(&kdfp, &p->hash)) != FASTSM2_OK)
        return ret;
    if (!fs2_der_at_end(&kdfp))
        return FASTSM2_ERR_DER;
    /* encryptionScheme */
    if (!fs2_der_get(&params, FS2_DER_SEQUENCE, &enc) || !fs2_der_at_end(&params) || !fs2_der_get_oid(&enc, &oid))
        return FASTSM2_ERR_DER;
    if (fs2_der_body_is(&oid, oid_sm4_cbc, sizeof oid_sm4_cbc))
        p->cipher = FS2_CIPHER_SM4;
    else if (fs2_der_body_is(&oid, oid_aes256_cbc, sizeof oid_aes256_cbc))
        p->cipher = FS2_CIPHER_AES256;
    else
        return FASTSM2_ERR_KEY_CIPHER; /* DES-EDE3, AES-128, ... */
    if (!fs2_der_get(&enc, FS2_DER_OCTET_STRING, &p->iv) || !fs2_der_at_end(&enc))
        return FASTSM2_ERR_DER;
    if (p->iv.n != 16 || (have_keylen && keylen != fs2_cipher_key_len(p->cipher)) || p->salt.n == 0)
        return FASTSM2_ERR_DER;
    if (p->iterations == 0)
        return FASTSM2_ERR_DER;
    if (p->data.n == 0 || p->data.n % 16 != 0 || p->data.n > ENC_DER_MAX)
        return FASTSM2_ERR_DER;
    return FASTSM2_OK;
}

int fs2_keyfile_decrypt_der(fastsm2_privkey *key, const unsigned char *der, size_t derlen, const fs2_pw_source *src)
{
    pbes2_params p;
    unsigned char dk[32], plain[ENC_DER_MAX], asked[FASTSM2_PASSWORD_MAX];
    const void *pw = src->pw;
    size_t pwlen = src->pwlen;
    fs2_block_key bk;
    size_t plainlen;
    int ret;

    if ((ret = parse_pbes2(der, derlen, &p)) != FASTSM2_OK)
        return ret;
    if (src->iterations)
        *src->iterations = p.iterations;
    if (p.iterations > (src->max_iterations ? src->max_iterations : FASTSM2_PBE_MAX_ITERATIONS))
        return FASTSM2_ERR_ITERATIONS; /* before any PBKDF2 work, and before asking */
    if (src->cb) {
        /* The password goes straight into this buffer, wiped below: the
         * caller need not keep a copy of its own. */
        pwlen = 0;
        if (src->cb(asked, sizeof asked, &pwlen, src->arg) != 1 || pwlen > sizeof asked) {
            fs2_wipe(asked, sizeof asked);
            return FASTSM2_ERR_ENCRYPTED_KEY;
        }
        pw = asked;
    }
    fs2_pbkdf2(dk, fs2_cipher_key_len(p.cipher), p.hash, pw, pwlen, p.salt.p, p.salt.n, p.iterations);
    fs2_wipe(asked, sizeof asked);
    fs2_block_set_key(&bk, p.cipher, dk);
    if (!fs2_cbc_decrypt_unpad(&bk, plain, &plainlen, p.iv.p, p.data.p, p.data.n)) {
        ret = FASTSM2_ERR_PASSWORD;
    } else {
        /* The DER parser branches on the structure of what it reads, as it
         * does for an unencrypted key file (whose bytes the constant-time
         * test gives it as public): the decrypted bytes are a key file now.
         * The password, the derived key and the cipher above stayed secret. */
        fs2_declassify(plain, plainlen);
        ret = fs2_keyfile_parse_private_der(key, plain, plainlen);
        /* A wrong password whose padding came out right (1 in about 256),
         * or a corrupted ciphertext (CBC garbles one block and flips bits
         * in the next), leaves bytes that are not a key: call every such
         * failure FASTSM2_ERR_PASSWORD. Only a well-shaped PrivateKeyInfo
         * whose algorithm names another curve or algorithm keeps that
         * error (a garbled block passes that shape check with a
         * probability of about 2^-40). */
        if (ret != FASTSM2_OK && !((ret == FASTSM2_ERR_CURVE || ret == FASTSM2_ERR_KEY_FORMAT) &&
                                   fs2_keyfile_pkcs8_algid_status(plain, plainlen) == ret))
            ret = FASTSM2_ERR_PASSWORD;
    }
    fs2_wipe(dk, sizeof dk);
    fs2_wipe(plain, sizeof plain);
    fs2_wipe(&bk, sizeof bk);
    return ret;
}

/* ---- writing ------------------------------------------------------------ */

static int fail_out(unsigned char *out, size_t *outlen, int ret)
{
    if (out != NULL && outlen != NULL)
        fs2_wipe(out, *outlen);
    if (outlen != NULL)
        *outlen = 0;
    return ret;
}

int fastsm2_privkey_serialize_encrypted(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, int fmt,
                                        int scheme, uint32_t iterations, const void *password, size_t passlen)
{
    unsigned char inner[FS2_PRIV_DER_MAX], ct[FS2_PRIV_DER_MAX + 16], der[ENC_DER_MAX], salt[16], iv[16], dk[32];
    size_t innerlen, ctlen;
    fs2_block_key bk;
    fs2_der_out o;
    int ret, hash, cipher;

    if (out == NULL || outlen == NULL || key == NULL || (password == NULL && passlen != 0) ||
        (fmt != FASTSM2_KEYFMT_DER && fmt != FASTSM2_KEYFMT_PEM))
        return fail_out(out, outlen, FASTSM2_ERR_ARG);
    switch (scheme) {
    case FASTSM2_PBE_SM3_SM4: hash = FS2_HASH_SM3, cipher = FS2_CIPHER_SM4; break;
    case FASTSM2_PBE_SHA256_SM4: hash = FS2_HASH_SHA256, cipher = FS2_CIPHER_SM4; break;
    case FASTSM2_PBE_SHA256_AES256: hash = FS2_HASH_SHA256, cipher = FS2_CIPHER_AES256; break;
    default: return fail_out(out, outlen, FASTSM2_ERR_ARG);
    }
    if (iterations == 0)
        iterations = FASTSM2_PBE_DEFAULT_ITERATIONS;
    if (iterations > FASTSM2_PBE_MAX_ITERATIONS)
        return fail_out(out, outlen, FASTSM2_ERR_ARG);
    if (!fs2_random_bytes(salt, sizeof salt) || !fs2_random_bytes(iv, sizeof iv))
        return fail_out(out, outlen, FASTSM2_ERR_RANDOM);
    /* Salt and IV are published in the file. */
    fs2_declassify(salt, sizeof salt);
    fs2_declassify(iv, sizeof iv);
    if ((ret = fs2_keyfile_pkcs8(inner, &innerlen, key, 1)) != FASTSM2_OK)
        return fail_out(out, outlen, ret);
    size_t klen = fs2_cipher_key_len(cipher);
    fs2_pbkdf2(dk, klen, hash, password, passlen, salt, sizeof salt, iterations);
    fs2_block_set_key(&bk, cipher, dk);
    ctlen = (innerlen / 16 + 1) * 16;
    fs2_cbc_encrypt_pad(&bk, ct, iv, inner, innerlen);
    fs2_wipe(inner, sizeof inner);
    fs2_wipe(dk, sizeof dk);
    fs2_wipe(&bk, sizeof bk);
    fs2_declassify(ct, ctlen); /* the ciphertext is the file's content */

    /* The lengths, inside out. */
    unsigned char it[4], kl = (unsigned char)klen;
    fs2_store32_be(it, iterations);
    const unsigned char *itp = it;
    size_t itn = 4;
    while (itn > 1 && *itp == 0)
        itp++, itn--;
    const unsigned char *prf_oid = hash == FS2_HASH_SM3 ? oid_hmac_sm3 : oid_hmac_sha256;
    size_t prf_oidlen = hash == FS2_HASH_SM3 ? sizeof oid_hmac_sm3 : sizeof oid_hmac_sha256;
    int prf_null = hash != FS2_HASH_SM3, with_keylen = scheme == FASTSM2_PBE_SM3_SM4;
    size_t prf_len = fs2_der_tlv_len(prf_oidlen) + (prf_null ? 2 : 0);
    size_t kdfp_len = fs2_der_tlv_len(sizeof salt) + fs2_der_uint_len(itp, itn) +
                      (with_keylen ? fs2_der_uint_len(&kl, 1) : 0) + fs2_der_tlv_len(prf_len);
    size_t kdf_len = fs2_der_tlv_len(sizeof oid_pbkdf2) + fs2_der_tlv_len(kdfp_len);
    const unsigned char *c_oid = cipher == FS2_CIPHER_SM4 ? oid_sm4_cbc : oid_aes256_cbc;
    size_t c_oidlen = cipher == FS2_CIPHER_SM4 ? sizeof oid_sm4_cbc : sizeof oid_aes256_cbc;
    size_t enc_len = fs2_der_tlv_len(c_oidlen) + fs2_der_tlv_len(sizeof iv);
    size_t params_len = fs2_der_tlv_len(kdf_len) + fs2_der_tlv_len(enc_len);
    size_t alg_len = fs2_der_tlv_len(sizeof oid_pbes2) + fs2_der_tlv_len(params_len);
    size_t epki_len = fs2_der_tlv_len(alg_len) + fs2_der_tlv_len(ctlen);

    fs2_der_out_init(&o, der, sizeof der);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, epki_len);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, alg_len);
    fs2_der_put_tlv(&o, FS2_DER_OID, oid_pbes2, sizeof oid_pbes2);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, params_len);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, kdf_len);
    fs2_der_put_tlv(&o, FS2_DER_OID, oid_pbkdf2, sizeof oid_pbkdf2);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, kdfp_len);
    fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, salt, sizeof salt);
    fs2_der_put_uint(&o, itp, itn);
    if (with_keylen)
        fs2_der_put_uint(&o, &kl, 1);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, prf_len);
    fs2_der_put_tlv(&o, FS2_DER_OID, prf_oid, prf_oidlen);
    if (prf_null)
        fs2_der_put_tlv(&o, FS2_DER_NULL, NULL, 0);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, enc_len);
    fs2_der_put_tlv(&o, FS2_DER_OID, c_oid, c_oidlen);
    fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, iv, sizeof iv);
    fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, ct, ctlen);
    if (o.overflow || o.n != fs2_der_tlv_len(epki_len)) /* cannot happen */
        return fail_out(out, outlen, FASTSM2_ERR_ARG);
    return fs2_keyfile_emit(out, outlen, der, o.n, fmt == FASTSM2_KEYFMT_PEM, "ENCRYPTED PRIVATE KEY");
}
