/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 key files: PKCS#8 PrivateKeyInfo / OneAsymmetricKey (RFC 5208,
 * RFC 5958), SEC1 ECPrivateKey (RFC 5915), SubjectPublicKeyInfo (RFC 5480),
 * in DER or PEM. The curve is sm2p256v1 (GB/T 32918.5, OID
 * 1.2.156.10197.1.301).
 *
 * Input: the algorithm may be named as RFC 5480 does for any named curve,
 * { id-ecPublicKey, namedCurve sm2p256v1 } (OpenSSL 3, GmSSL 3), or by the
 * SM2 OID itself with parameters absent, NULL or sm2p256v1 (some older
 * Chinese toolkits). Anything else is FASTSM2_ERR_KEY_FORMAT.
 *
 * Output is byte for byte what OpenSSL 3 writes:
 *  - PKCS#8 as `openssl genpkey -algorithm SM2`: version 0, {id-ecPublicKey,
 *    sm2p256v1}, ECPrivateKey without [0] parameters, with [1] publicKey;
 *  - SEC1 as `openssl ec`: ECPrivateKey with [0] sm2p256v1 and [1] publicKey
 *    (OpenSSL 3.0 labels its PEM "SM2 PRIVATE KEY"; we write the RFC 5915
 *    label "EC PRIVATE KEY", which OpenSSL and GmSSL read, and read both);
 *  - SPKI as `openssl pkey -pubout`: uncompressed point.
 *
 * The key objects are made and read only through the public key API.
 */
#include "keyfile.h"

#include "codec/der.h"
#include "codec/pem.h"

/* 1.2.840.10045.2.1 id-ecPublicKey (RFC 5480) */
static const unsigned char oid_ec_public_key[] = {0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01};
/* 1.2.156.10197.1.301 sm2p256v1 (GM/T 0006) */
static const unsigned char oid_sm2p256v1[] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D};

#define PRIV_DER_MAX FS2_PRIV_DER_MAX
#define PUB_DER_MAX  96   /* SPKI is 91 bytes */
#define PEM_DER_MAX  4096 /* a PEM body larger than this is no SM2 key */

/* ---- reading ------------------------------------------------------------ */

/* AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL } */
static int parse_algid(fs2_der_in *in)
{
    fs2_der_in alg, oid, par;

    if (!fs2_der_get(in, FS2_DER_SEQUENCE, &alg) || !fs2_der_get_oid(&alg, &oid))
        return FASTSM2_ERR_DER;
    if (fs2_der_body_is(&oid, oid_ec_public_key, sizeof oid_ec_public_key)) {
        /* ECParameters: only namedCurve sm2p256v1 (not implicitCurve NULL,
         * not specifiedCurve SEQUENCE). */
        if (fs2_der_peek_tag(&alg) != (int)FS2_DER_OID)
            return fs2_der_at_end(&alg) || fs2_der_peek_tag(&alg) == (int)FS2_DER_NULL ||
                           fs2_der_peek_tag(&alg) == (int)FS2_DER_SEQUENCE
                       ? FASTSM2_ERR_KEY_FORMAT
                       : FASTSM2_ERR_DER;
        if (!fs2_der_get_oid(&alg, &par))
            return FASTSM2_ERR_DER;
        if (!fs2_der_body_is(&par, oid_sm2p256v1, sizeof oid_sm2p256v1))
            return FASTSM2_ERR_CURVE; /* P-256, secp256k1, ... */
    } else if (fs2_der_body_is(&oid, oid_sm2p256v1, sizeof oid_sm2p256v1)) {
        if (fs2_der_peek_tag(&alg) == (int)FS2_DER_NULL) {
            if (!fs2_der_get_null(&alg))
                return FASTSM2_ERR_DER;
        } else if (fs2_der_peek_tag(&alg) == (int)FS2_DER_OID) {
            if (!fs2_der_get_oid(&alg, &par))
                return FASTSM2_ERR_DER;
            if (!fs2_der_body_is(&par, oid_sm2p256v1, sizeof oid_sm2p256v1))
                return FASTSM2_ERR_CURVE;
        } else if (!fs2_der_at_end(&alg)) {
            return FASTSM2_ERR_KEY_FORMAT;
        }
    } else {
        return FASTSM2_ERR_KEY_FORMAT; /* RSA, DSA, Ed25519, ... */
    }
    return fs2_der_at_end(&alg) ? FASTSM2_OK : FASTSM2_ERR_DER;
}

int fs2_keyfile_pkcs8_algid_status(const unsigned char *der, size_t derlen)
{
    fs2_der_in in, seq, algid, octets, inner, ecpk, el;
    unsigned char ver;
    unsigned tag;

    /* The shape first: SEQUENCE { INTEGER, SEQUENCE, OCTET STRING {
     * SEQUENCE { INTEGER, OCTET STRING, ... } }, ... }, every length
     * consistent; only then what the AlgorithmIdentifier names. */
    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || !fs2_der_get_uint(&seq, &ver, 1))
        return FASTSM2_ERR_DER;
    algid = seq;
    if (!fs2_der_get(&seq, FS2_DER_SEQUENCE, &el) || !fs2_der_get(&seq, FS2_DER_OCTET_STRING, &octets))
        return FASTSM2_ERR_DER;
    while (!fs2_der_at_end(&seq))
        if (!fs2_der_get_any(&seq, &tag, &el))
            return FASTSM2_ERR_DER;
    fs2_der_init(&in, octets.p, octets.n);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &inner) || !fs2_der_at_end(&in) || !fs2_der_get_uint(&inner, &ver, 1) ||
        !fs2_der_get(&inner, FS2_DER_OCTET_STRING, &ecpk))
        return FASTSM2_ERR_DER;
    return parse_algid(&algid);
}

/* Compare an embedded SEC1 public key with the one computed from d. */
static int check_embedded_pub(const fastsm2_pubkey *pub, const fs2_der_in *pt)
{
    unsigned char mine[65];
    size_t mlen = sizeof mine;
    int compressed;

    if (pt->n == 65 && (pt->p[0] == 0x04 || pt->p[0] == 0x06 || pt->p[0] == 0x07))
        compressed = 0; /* uncompressed, or hybrid (GB/T 32918.1 4.2.10) */
    else if (pt->n == 33 && (pt->p[0] == 0x02 || pt->p[0] == 0x03))
        compressed = 1;
    else
        return FASTSM2_ERR_POINT;
    if (fastsm2_pubkey_to_bytes(mine, &mlen, pub, compressed) != FASTSM2_OK)
        return FASTSM2_ERR_POINT;
    /* Public data: an ordinary comparison is fine. A hybrid prefix must
     * give y's parity. */
    if (pt->n == 65 && pt->p[0] != 0x04)
        return memcmp(mine + 1, pt->p + 1, 64) == 0 && (pt->p[0] & 1) == (mine[64] & 1) ? FASTSM2_OK
                                                                                        : FASTSM2_ERR_POINT;
    return mlen == pt->n && memcmp(mine, pt->p, mlen) == 0 ? FASTSM2_OK : FASTSM2_ERR_POINT;
}

/* Load d (1..32 bytes, big-endian) and check an embedded public key. */
static int load_private(fastsm2_privkey *key, const fs2_der_in *d, const fs2_der_in *pubpt)
{
    unsigned char d32[32];
    fastsm2_pubkey pub;
    int ret;

    if (d->n == 0 || d->n > 32)
        return FASTSM2_ERR_PRIVATE_KEY;
    memset(d32, 0, 32 - d->n);
    memcpy(d32 + 32 - d->n, d->p, d->n);
    ret = fastsm2_privkey_from_bytes(key, d32);
    fs2_wipe(d32, sizeof d32);
    if (ret != FASTSM2_OK)
        return ret;
    if (pubpt != NULL) {
        if ((ret = fastsm2_privkey_pubkey(&pub, key)) != FASTSM2_OK)
            return ret;
        if ((ret = check_embedded_pub(&pub, pubpt)) != FASTSM2_OK)
            return ret;
    }
    return FASTSM2_OK;
}

/*
 * ECPrivateKey ::= SEQUENCE { version INTEGER (1), privateKey OCTET STRING,
 *   parameters [0] ECParameters OPTIONAL, publicKey [1] BIT STRING OPTIONAL }
 * `body` holds the contents of the SEQUENCE. PKCS#8 v2 may carry the public
 * key outside (outer_pub).
 */
static int parse_ecprivatekey(fastsm2_privkey *key, fs2_der_in *body, const fs2_der_in *outer_pub)
{
    unsigned char ver;
    fs2_der_in d, tagged, oid, pt;
    const fs2_der_in *pubpt = outer_pub;

    if (!fs2_der_get_uint(body, &ver, 1))
        return FASTSM2_ERR_DER;
    if (ver != 1)
        return FASTSM2_ERR_KEY_FORMAT;
    if (!fs2_der_get(body, FS2_DER_OCTET_STRING, &d))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(body) == (int)FS2_DER_CTX0_CONS) {
        if (!fs2_der_get(body, FS2_DER_CTX0_CONS, &tagged))
            return FASTSM2_ERR_DER;
        if (fs2_der_peek_tag(&tagged) != (int)FS2_DER_OID)
            return FASTSM2_ERR_KEY_FORMAT; /* explicit or implicit curve */
        if (!fs2_der_get_oid(&tagged, &oid) || !fs2_der_at_end(&tagged))
            return FASTSM2_ERR_DER;
        if (!fs2_der_body_is(&oid, oid_sm2p256v1, sizeof oid_sm2p256v1))
            return FASTSM2_ERR_CURVE;
    }
    if (fs2_der_peek_tag(body) == (int)FS2_DER_CTX1_CONS) {
        if (!fs2_der_get(body, FS2_DER_CTX1_CONS, &tagged) || !fs2_der_get_bits(&tagged, &pt) ||
            !fs2_der_at_end(&tagged))
            return FASTSM2_ERR_DER;
        if (outer_pub != NULL && !fs2_der_body_is(outer_pub, pt.p, pt.n))
            return FASTSM2_ERR_POINT;
        pubpt = &pt;
    }
    if (!fs2_der_at_end(body))
        return FASTSM2_ERR_DER;
    return load_private(key, &d, pubpt);
}

/*
 * PrivateKeyInfo / OneAsymmetricKey ::= SEQUENCE { version INTEGER (0 | 1),
 *   privateKeyAlgorithm AlgorithmIdentifier, privateKey OCTET STRING,
 *   attributes [0] IMPLICIT Attributes OPTIONAL,
 *   publicKey [1] IMPLICIT BIT STRING OPTIONAL -- version 1 only }
 * or a bare ECPrivateKey. `in` holds the whole DER.
 */
int fs2_keyfile_parse_private_der(fastsm2_privkey *key, const unsigned char *der, size_t derlen)
{
    fs2_der_in in, seq, octets, inner, attrs, pub, save;
    unsigned char ver;
    int ret;

    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    save = seq;
    if (fs2_der_peek_tag(&seq) == (int)FS2_DER_SEQUENCE)
        return FASTSM2_ERR_ENCRYPTED_KEY; /* EncryptedPrivateKeyInfo (RFC 5958 3) */
    if (!fs2_der_get_uint(&seq, &ver, 1))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&seq) == (int)FS2_DER_OCTET_STRING) /* SEC1 */
        return parse_ecprivatekey(key, &save, NULL);
    if (ver > 1)
        return FASTSM2_ERR_KEY_FORMAT;
    if ((ret = parse_algid(&seq)) != FASTSM2_OK)
        return ret;
    if (!fs2_der_get(&seq, FS2_DER_OCTET_STRING, &octets))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&seq) == (int)FS2_DER_CTX0_CONS && !fs2_der_get(&seq, FS2_DER_CTX0_CONS, &attrs))
        return FASTSM2_ERR_DER; /* attributes: skipped */
    const fs2_der_in *outer_pub = NULL;
    if (ver == 1 && fs2_der_peek_tag(&seq) == (int)FS2_DER_CTX1_PRIM) {
        /* [1] IMPLICIT BIT STRING: same contents rules as a BIT STRING. */
        if (!fs2_der_get(&seq, FS2_DER_CTX1_PRIM, &pub) || pub.n == 0 || pub.p[0] != 0)
            return FASTSM2_ERR_DER;
        pub.p++;
        pub.n--;
        outer_pub = &pub;
    }
    if (!fs2_der_at_end(&seq))
        return FASTSM2_ERR_DER;
    fs2_der_init(&in, octets.p, octets.n);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &inner) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    return parse_ecprivatekey(key, &inner, outer_pub);
}

/* The last label is PKCS#8's encrypted form (RFC 7468 11). */
static const char *const priv_labels[] = {"PRIVATE KEY", "EC PRIVATE KEY", "SM2 PRIVATE KEY", "ENCRYPTED PRIVATE KEY"};
#define PRIV_LABEL_ENCRYPTED 3
static const char *const pub_labels[] = {"PUBLIC KEY", "CERTIFICATE"};
#define PUB_LABEL_CERTIFICATE 1

/* What a DER SEQUENCE whose first element is a SEQUENCE is (a
 * PrivateKeyInfo or ECPrivateKey starts with its version INTEGER instead),
 * by the element after that first one:
 *   OCTET STRING  an EncryptedPrivateKeyInfo (RFC 5958 3): FS2_DER_ENCRYPTED;
 *   BIT STRING    a SubjectPublicKeyInfo (RFC 5280 4.1): FASTSM2_ERR_PUBLIC_KEY;
 *   SEQUENCE      a certificate or CRL, TBS then signatureAlgorithm:
 *                 FASTSM2_ERR_CERTIFICATE;
 *   else          FASTSM2_ERR_DER.
 * FASTSM2_OK when DER does not start that way (a plain private key, or
 * something its parser refuses). */
#define FS2_DER_ENCRYPTED 2
static int classify_sequence_of_sequence(const unsigned char *der, size_t derlen)
{
    fs2_der_in in, seq, first;
    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || fs2_der_peek_tag(&seq) != (int)FS2_DER_SEQUENCE)
        return FASTSM2_OK;
    if (!fs2_der_get(&seq, FS2_DER_SEQUENCE, &first))
        return FASTSM2_ERR_DER;
    switch (fs2_der_peek_tag(&seq)) {
    case (int)FS2_DER_OCTET_STRING: return FS2_DER_ENCRYPTED;
    case (int)FS2_DER_BIT_STRING: return FASTSM2_ERR_PUBLIC_KEY;
    case (int)FS2_DER_SEQUENCE: return FASTSM2_ERR_CERTIFICATE;
    default: return FASTSM2_ERR_DER;
    }
}

/* Every parser: src NULL means "no password" (fastsm2_privkey_parse). */
static int privkey_parse(fastsm2_privkey *key, const unsigned char *in, size_t inlen, const fs2_pw_source *src)
{
    unsigned char buf[PEM_DER_MAX];
    const unsigned char *der = in;
    size_t derlen = inlen;
    int which = 0, ret = FASTSM2_OK;

    if (key == NULL)
        return FASTSM2_ERR_ARG;
    if (src && src->iterations)
        *src->iterations = 0;
    if (in == NULL || (src && !src->cb && src->pw == NULL && src->pwlen != 0)) {
        fs2_wipe(key, sizeof *key);
        return FASTSM2_ERR_ARG;
    }
    if (!(inlen > 0 && in[0] == FS2_DER_SEQUENCE)) {
        ret = fs2_pem_decode(buf, sizeof buf, &derlen, &which, in, inlen, priv_labels, 4, " PRIVATE KEY");
        der = buf;
        /* No private key block: say what the text holds instead. */
        if (ret == FASTSM2_ERR_PEM && fs2_pem_has_label(in, inlen, "PUBLIC KEY"))
            ret = FASTSM2_ERR_PUBLIC_KEY;
        else if (ret == FASTSM2_ERR_PEM && fs2_pem_has_label(in, inlen, "CERTIFICATE"))
            ret = FASTSM2_ERR_CERTIFICATE;
    }
    if (ret == FASTSM2_OK) {
        int kind = classify_sequence_of_sequence(der, derlen);
        if (kind == FS2_DER_ENCRYPTED)
            ret = src ? fs2_keyfile_decrypt_der(key, der, derlen, src) : FASTSM2_ERR_ENCRYPTED_KEY;
        else if (kind != FASTSM2_OK)
            ret = kind;
        else if (which == PRIV_LABEL_ENCRYPTED)
            ret = FASTSM2_ERR_DER; /* labelled encrypted, but it is not */
        else
            ret = fs2_keyfile_parse_private_der(key, der, derlen);
    }
    fs2_wipe(buf, sizeof buf);
    if (ret != FASTSM2_OK)
        fs2_wipe(key, sizeof *key);
    return ret;
}

int fastsm2_privkey_parse(fastsm2_privkey *key, const unsigned char *in, size_t inlen)
{
    return privkey_parse(key, in, inlen, NULL);
}

int fastsm2_privkey_parse_encrypted(fastsm2_privkey *key, const unsigned char *in, size_t inlen, const void *password,
                                    size_t passlen)
{
    fs2_pw_source src = {password, passlen, NULL, NULL, 0, NULL};
    return privkey_parse(key, in, inlen, &src);
}

int fastsm2_privkey_parse_encrypted_limit(fastsm2_privkey *key, const unsigned char *in, size_t inlen,
                                          const void *password, size_t passlen, uint32_t max_iterations,
                                          uint32_t *iterations)
{
    fs2_pw_source src = {password, passlen, NULL, NULL, max_iterations, iterations};
    return privkey_parse(key, in, inlen, &src);
}

/* The callback of a caller that has none: no password. */
static int no_password(void *buf, size_t cap, size_t *len, void *arg)
{
    (void)buf, (void)cap, (void)len, (void)arg;
    return 0;
}

int fastsm2_privkey_parse_cb(fastsm2_privkey *key, const unsigned char *in, size_t inlen, fastsm2_password_cb cb,
                             void *arg, uint32_t max_iterations, uint32_t *iterations)
{
    fs2_pw_source src = {NULL, 0, cb ? cb : no_password, arg, max_iterations, iterations};
    return privkey_parse(key, in, inlen, &src);
}

/* SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
 *   subjectPublicKey BIT STRING } */
int fs2_keyfile_parse_spki(fastsm2_pubkey *pub, const unsigned char *der, size_t derlen)
{
    fs2_der_in in, seq, pt;
    int ret;

    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    if ((ret = parse_algid(&seq)) != FASTSM2_OK)
        return ret;
    if (!fs2_der_get_bits(&seq, &pt) || !fs2_der_at_end(&seq))
        return FASTSM2_ERR_DER;
    ret = fastsm2_pubkey_from_bytes(pub, pt.p, pt.n);
    return ret == FASTSM2_ERR_LENGTH ? FASTSM2_ERR_POINT : ret;
}

int fastsm2_pubkey_parse(fastsm2_pubkey *pub, const unsigned char *in, size_t inlen)
{
    unsigned char buf[PEM_DER_MAX];
    size_t derlen;
    int which, ret;

    if (pub == NULL)
        return FASTSM2_ERR_ARG;
    if (in == NULL) {
        memset(pub, 0, sizeof *pub);
        return FASTSM2_ERR_ARG;
    }
    if ((inlen == 65 && (in[0] == 0x04 || in[0] == 0x06 || in[0] == 0x07)) ||
        (inlen == 33 && (in[0] == 0x02 || in[0] == 0x03))) {
        ret = fastsm2_pubkey_from_bytes(pub, in, inlen); /* a bare SEC1 point */
    } else if (inlen > 0 && in[0] == FS2_DER_SEQUENCE) {
        ret = fs2_keyfile_parse_spki(pub, in, inlen);
        if (ret == FASTSM2_ERR_DER && fs2_cert_is_certificate(in, inlen))
            ret = FASTSM2_ERR_CERTIFICATE;
    } else {
        ret = fs2_pem_decode(buf, sizeof buf, &derlen, &which, in, inlen, pub_labels, 2, " PUBLIC KEY");
        if (ret == FASTSM2_OK)
            ret = which == PUB_LABEL_CERTIFICATE ? FASTSM2_ERR_CERTIFICATE : fs2_keyfile_parse_spki(pub, buf, derlen);
        else if (ret == FASTSM2_ERR_TOO_LARGE && fs2_pem_has_label(in, inlen, "CERTIFICATE"))
            ret = FASTSM2_ERR_CERTIFICATE;
    }
    if (ret != FASTSM2_OK)
        memset(pub, 0, sizeof *pub);
    return ret;
}

/* ---- writing ------------------------------------------------------------ */

static void put_algid(fs2_der_out *o)
{
    fs2_der_put_hdr(o, FS2_DER_SEQUENCE,
                    fs2_der_tlv_len(sizeof oid_ec_public_key) + fs2_der_tlv_len(sizeof oid_sm2p256v1));
    fs2_der_put_tlv(o, FS2_DER_OID, oid_ec_public_key, sizeof oid_ec_public_key);
    fs2_der_put_tlv(o, FS2_DER_OID, oid_sm2p256v1, sizeof oid_sm2p256v1);
}

/* BIT STRING { 0 unused bits, point } */
static void put_bits(fs2_der_out *o, const unsigned char *pt, size_t ptlen)
{
    static const unsigned char unused = 0;
    fs2_der_put_hdr(o, FS2_DER_BIT_STRING, ptlen + 1);
    fs2_der_put_bytes(o, &unused, 1);
    fs2_der_put_bytes(o, pt, ptlen);
}

/* ECPrivateKey with [0] parameters when with_params, always [1] publicKey. */
static size_t ecpriv_body_len(int with_params)
{
    size_t n = 3 /* INTEGER 1 */ + fs2_der_tlv_len(32) + fs2_der_tlv_len(fs2_der_tlv_len(66));
    if (with_params)
        n += fs2_der_tlv_len(fs2_der_tlv_len(sizeof oid_sm2p256v1));
    return n;
}

static void put_ecprivatekey(fs2_der_out *o, const unsigned char d[32], const unsigned char pt[65], int with_params)
{
    static const unsigned char one = 1;
    fs2_der_put_hdr(o, FS2_DER_SEQUENCE, ecpriv_body_len(with_params));
    fs2_der_put_uint(o, &one, 1);
    fs2_der_put_tlv(o, FS2_DER_OCTET_STRING, d, 32);
    if (with_params) {
        fs2_der_put_hdr(o, FS2_DER_CTX0_CONS, fs2_der_tlv_len(sizeof oid_sm2p256v1));
        fs2_der_put_tlv(o, FS2_DER_OID, oid_sm2p256v1, sizeof oid_sm2p256v1);
    }
    fs2_der_put_hdr(o, FS2_DER_CTX1_CONS, fs2_der_tlv_len(66));
    put_bits(o, pt, 65);
}

/* PrivateKeyInfo version 0 around an ECPrivateKey (with [0] parameters
 * when inner_params). */
static void put_pkcs8(fs2_der_out *o, const unsigned char d[32], const unsigned char pt[65], int inner_params)
{
    static const unsigned char zero = 0;
    size_t inner = fs2_der_tlv_len(ecpriv_body_len(inner_params));
    size_t algid = fs2_der_tlv_len(fs2_der_tlv_len(sizeof oid_ec_public_key) + fs2_der_tlv_len(sizeof oid_sm2p256v1));
    fs2_der_put_hdr(o, FS2_DER_SEQUENCE, 3 + algid + fs2_der_tlv_len(inner));
    fs2_der_put_uint(o, &zero, 1);
    put_algid(o);
    fs2_der_put_hdr(o, FS2_DER_OCTET_STRING, inner);
    put_ecprivatekey(o, d, pt, inner_params);
}

int fs2_keyfile_pkcs8(unsigned char der[FS2_PRIV_DER_MAX], size_t *derlen, const fastsm2_privkey *key, int inner_params)
{
    unsigned char d[32], pt[65];
    size_t ptlen = sizeof pt;
    fastsm2_pubkey pub;
    fs2_der_out o;
    int ret;

    *derlen = 0;
    if ((ret = fastsm2_privkey_pubkey(&pub, key)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_to_bytes(pt, &ptlen, &pub, 0)) != FASTSM2_OK)
        return ret;
    if (ptlen != 65)
        return FASTSM2_ERR_POINT;
    if ((ret = fastsm2_privkey_to_bytes(d, key)) != FASTSM2_OK) {
        fs2_wipe(d, sizeof d);
        return ret;
    }
    fs2_der_out_init(&o, der, FS2_PRIV_DER_MAX);
    put_pkcs8(&o, d, pt, inner_params);
    fs2_wipe(d, sizeof d);
    if (o.overflow) { /* cannot happen: the buffer fits */
        fs2_wipe(der, FS2_PRIV_DER_MAX);
        return FASTSM2_ERR_ARG;
    }
    *derlen = o.n;
    return FASTSM2_OK;
}

/* Write der (derlen) to out as DER or PEM. */
static int emit(unsigned char *out, size_t *outlen, const unsigned char *der, size_t derlen, int pem, const char *label)
{
    if (pem)
        return fs2_pem_encode(out, outlen, label, der, derlen);
    if (derlen > *outlen) {
        fs2_wipe(out, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(out, der, derlen);
    *outlen = derlen;
    return FASTSM2_OK;
}

int fs2_keyfile_emit(unsigned char *out, size_t *outlen, const unsigned char *der, size_t derlen, int pem,
                     const char *label)
{
    return emit(out, outlen, der, derlen, pem, label);
}

static int fail_out(unsigned char *out, size_t *outlen, int ret)
{
    if (out != NULL && outlen != NULL)
        fs2_wipe(out, *outlen);
    if (outlen != NULL)
        *outlen = 0;
    return ret;
}

int fastsm2_privkey_serialize(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, int fmt)
{
    unsigned char der[PRIV_DER_MAX], d[32], pt[65];
    size_t ptlen = sizeof pt;
    fastsm2_pubkey pub;
    fs2_der_out o;
    int ret, sec1 = fmt & FASTSM2_KEYFMT_SEC1, pem = fmt & FASTSM2_KEYFMT_PEM;

    if (out == NULL || outlen == NULL || key == NULL || (fmt & ~3))
        return fail_out(out, outlen, FASTSM2_ERR_ARG);
    if ((ret = fastsm2_privkey_pubkey(&pub, key)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_to_bytes(pt, &ptlen, &pub, 0)) != FASTSM2_OK)
        return fail_out(out, outlen, ret);
    if (ptlen != 65)
        return fail_out(out, outlen, FASTSM2_ERR_POINT);
    if ((ret = fastsm2_privkey_to_bytes(d, key)) != FASTSM2_OK) {
        fs2_wipe(d, sizeof d);
        return fail_out(out, outlen, ret);
    }
    fs2_der_out_init(&o, der, sizeof der);
    if (sec1)
        put_ecprivatekey(&o, d, pt, 1);
    else
        put_pkcs8(&o, d, pt, 0);
    fs2_wipe(d, sizeof d);
    if (o.overflow) /* cannot happen: the buffer fits both forms */
        ret = fail_out(out, outlen, FASTSM2_ERR_ARG);
    else
        ret = emit(out, outlen, der, o.n, pem, sec1 ? "EC PRIVATE KEY" : "PRIVATE KEY");
    fs2_wipe(der, sizeof der);
    return ret;
}

int fastsm2_pubkey_serialize(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, int fmt)
{
    unsigned char der[PUB_DER_MAX], pt[65];
    size_t ptlen = sizeof pt;
    fs2_der_out o;
    int ret;

    if (out == NULL || outlen == NULL || pub == NULL || (fmt != FASTSM2_KEYFMT_DER && fmt != FASTSM2_KEYFMT_PEM))
        return fail_out(out, outlen, FASTSM2_ERR_ARG);
    if ((ret = fastsm2_pubkey_to_bytes(pt, &ptlen, pub, 0)) != FASTSM2_OK)
        return fail_out(out, outlen, ret);
    if (ptlen != 65)
        return fail_out(out, outlen, FASTSM2_ERR_POINT);
    fs2_der_out_init(&o, der, sizeof der);
    size_t algid = fs2_der_tlv_len(fs2_der_tlv_len(sizeof oid_ec_public_key) + fs2_der_tlv_len(sizeof oid_sm2p256v1));
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, algid + fs2_der_tlv_len(66));
    put_algid(&o);
    put_bits(&o, pt, 65);
    if (o.overflow)
        return fail_out(out, outlen, FASTSM2_ERR_ARG);
    return emit(out, outlen, der, o.n, fmt == FASTSM2_KEYFMT_PEM, "PUBLIC KEY");
}
