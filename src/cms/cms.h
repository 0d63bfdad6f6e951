/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CMS messages (src/cms): RFC 5652 and GM/T 0010-2012 signed data, and
 * enveloped data (RFC 5652 clause 6, RFC 5083 for GCM). The floor above
 * the certificates (src/x509/: signer and recipient certificates read,
 * names and serial numbers matched), through the codecs for the bytes and
 * the public API for SM2, SM3 and SM4.
 *
 *   cms.c       ContentInfo read and written, PEM or DER; the OIDs; the
 *               parts and facts of a message (fastsm2_cms_get, _get_info)
 *   signed.c    SignedData made and verified
 *   enveloped.c EnvelopedData and AuthEnvelopedData made and opened
 */
#ifndef FS2_CMS_H
#define FS2_CMS_H

#include "internal.h"

#include "x509/x509.h"

/* The content types, RFC 5652 and GM/T 0010 (DER contents). */
extern const unsigned char fs2_oid_data[9], fs2_oid_signed_data[9], fs2_oid_enveloped_data[9];
extern const unsigned char fs2_oid_auth_enveloped_data[11];
extern const unsigned char fs2_oid_gm_data[10], fs2_oid_gm_signed_data[10], fs2_oid_gm_enveloped_data[10];
/* Signed attributes (RFC 5652 11): contentType, messageDigest, signingTime */
extern const unsigned char fs2_oid_attr_content_type[9], fs2_oid_attr_message_digest[9], fs2_oid_attr_signing_time[9];
/* SM2 encryption (GM/T 0006), SM4-CBC and SM4-GCM (GM/T 0006, 1.2.156.10197.1.104.x) */
extern const unsigned char fs2_oid_sm2_encrypt[9], fs2_oid_sm4_cbc[8], fs2_oid_sm4_gcm[8];

/* A message read: the ContentInfo's type and content. */
typedef struct {
    int type;         /* FASTSM2_CMS_SIGNED_DATA, ... */
    int gmt0010;      /* GM/T 0010's OID named it */
    fs2_span content; /* the contents of [0] EXPLICIT (the SignedData ... element, whole) */
} fs2_cms_msg;

/* DER, BER or PEM ("CMS", "PKCS7") into *der (pointing into in for DER,
 * into a malloc'd *buf for PEM and for BER, made DER: src/codec/ber.h;
 * free(*buf) either way) and read the ContentInfo. */
FS2_HIDDEN int fs2_cms_load(fs2_cms_msg *m, const unsigned char **der, size_t *derlen, unsigned char **buf,
                            const unsigned char *in, size_t inlen);

/* A read SignedData (RFC 5652 5.1). */
typedef struct {
    int version;
    fs2_span digest_algs;   /* SET contents */
    fs2_span econtent_type; /* OID contents */
    fs2_span eci;           /* the encapsulated ContentInfo, whole element */
    int detached;
    fs2_span econtent;     /* the content octets (attached) */
    fs2_span certs;        /* [0] contents: certificates one after another */
    fs2_span signer_infos; /* SET contents */
} fs2_signed_data;
FS2_HIDDEN int fs2_signed_data_parse(fs2_signed_data *sd, const fs2_span *content);

/* A read SignerInfo (RFC 5652 5.3). */
typedef struct {
    int version;
    int by_skid;         /* sid is [0] subjectKeyIdentifier */
    fs2_span sid_issuer; /* whole Name element */
    fs2_span sid_serial; /* INTEGER contents */
    fs2_span sid_skid;   /* keyIdentifier bytes */
    fs2_span digest_alg; /* contents */
    int has_attrs;
    fs2_span attrs_whole; /* the [0] element, whole (signed as a SET) */
    fs2_span attrs;       /* its contents */
    fs2_span sig_alg;     /* contents */
    fs2_span signature;   /* OCTET STRING contents */
} fs2_signer_info;
FS2_HIDDEN int fs2_signer_info_parse(fs2_signer_info *si, fs2_der_in *in);

/* The certificate matching a signer or recipient identifier among the
 * message's certificates and an extra bundle: its index in the set made of
 * both, or -1. */
FS2_HIDDEN int fs2_cms_find_cert(const fs2_x509_set *certs, int by_skid, const fs2_span *issuer, const fs2_span *serial,
                                 const fs2_span *skid);
/* The set of the message's certificates (contents of [0]) and a bundle. */
FS2_HIDDEN int fs2_cms_cert_set(fs2_x509_set *set, const fs2_span *msg_certs, const unsigned char *bundle,
                                size_t bundlelen);

/* A read EnvelopedData or AuthEnvelopedData (enveloped.c). */
typedef struct {
    int auth;
    fs2_span recipients;   /* SET contents */
    fs2_span content_type; /* OID contents */
    fs2_span cipher_alg;   /* AlgorithmIdentifier contents */
    fs2_span encrypted;    /* [0] contents, the ciphertext */
    fs2_span mac;          /* AuthEnvelopedData's tag */
} fs2_enveloped;
FS2_HIDDEN int fs2_enveloped_parse(fs2_enveloped *e, const fs2_cms_msg *m);
FS2_HIDDEN int fs2_enveloped_info(fastsm2_cms_info *info, const fs2_cms_msg *m);

/* An AlgorithmIdentifier's contents naming oid, its parameters absent or
 * NULL. */
FS2_HIDDEN int fs2_cms_alg_is(const fs2_span *alg, const unsigned char *oid, size_t oidlen);

/* The output rule: emit DER, or PEM "CMS" when pem. */
FS2_HIDDEN int fs2_cms_emit(unsigned char *out, size_t *outlen, const unsigned char *der, size_t n, int pem);

#endif
