/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Certificates and requests (src/x509): what the sources of this folder
 * share. The floor above the key files (docs/ARCHITECTURE.md): the bytes
 * through the codecs (src/codec/: DER reading, the growable writer, PEM),
 * keys through src/keyfile/ (SubjectPublicKeyInfo) and the public API
 * (sign, verify, SM3).
 *
 *   name.c    distinguished names: "/C=CN/O=.../CN=..." <-> DER, dotted OIDs
 *   time.c    UTCTime and GeneralizedTime <-> seconds since 1970
 *   parse.c   a certificate or a request read into fs2_x509; extensions;
 *             info and text (fastsm2_x509_info, _get_text, _get_der)
 *   build.c   the builder, requests and certificates made and signed
 *   verify.c  signatures, and chains (RFC 5280 clause 6)
 *   bundle.c  PEM or DER input, one certificate or many
 */
#ifndef FS2_X509_H
#define FS2_X509_H

#include "internal.h"

#include "codec/dbuf.h"
#include "codec/der.h"

/* The largest certificate or request read (DER). */
#define FS2_X509_DER_MAX 65536

/* ---- OIDs (their DER contents) --------------------------------------- */
extern const unsigned char fs2_oid_sm2_sm3[8];     /* 1.2.156.10197.1.501 */
extern const unsigned char fs2_oid_sm2_sign[9];    /* 1.2.156.10197.1.301.1 */
extern const unsigned char fs2_oid_sm3[8];         /* 1.2.156.10197.1.401 */
extern const unsigned char fs2_oid_ext_request[9]; /* 1.2.840.113549.1.9.14 */
#define FS2_OID_SM2_SM3_LEN  8
#define FS2_OID_SM2_SIGN_LEN 9

/* A byte span of a DER being read (no ownership). */
typedef fs2_der_in fs2_span;

/* The extensions this library processes (RFC 5280 4.2.1). */
enum {
    FS2_EXT_BASIC_CONSTRAINTS = 1,
    FS2_EXT_KEY_USAGE,
    FS2_EXT_EXT_KEY_USAGE,
    FS2_EXT_SAN,
    FS2_EXT_SKID,
    FS2_EXT_AKID,
};

/* A certificate or a request, read: spans into the DER it was read from. */
typedef struct {
    int kind;         /* FASTSM2_X509_CERTIFICATE or FASTSM2_X509_REQUEST */
    fs2_span der;     /* the whole element */
    fs2_span tbs;     /* the signed part, whole element */
    fs2_span sig_alg; /* the outer AlgorithmIdentifier's contents */
    fs2_span sig;     /* the signature bits */
    int version;      /* 1, 2, 3 */
    fs2_span serial;  /* INTEGER contents, as encoded */
    fs2_span issuer;  /* whole Name element (certificates) */
    fs2_span subject; /* whole Name element */
    fs2_span spki;    /* whole SubjectPublicKeyInfo element */
    fs2_span spk;     /* the subjectPublicKey bits */
    int64_t not_before, not_after;
    fs2_span exts; /* contents of the Extensions SEQUENCE (empty: none) */
    /* decoded extensions */
    unsigned next, unknown_critical;
    int has_bc, ca, path_len;
    int has_ku;
    unsigned ku;
    int has_eku;
    unsigned eku;
    fs2_span san; /* GeneralNames contents */
    int san_critical;
    fs2_span skid; /* keyIdentifier bytes */
    fs2_span akid;
} fs2_x509;

/* ---- parse.c ----------------------------------------------------------- */
/* Read a certificate or a request in DER (exactly derlen bytes): the
 * structure and every extension this library knows, strictly.
 * FASTSM2_ERR_DER, or FASTSM2_OK. */
FS2_HIDDEN int fs2_x509_parse(fs2_x509 *x, const unsigned char *der, size_t derlen);
/* Walk Extensions contents: the next extension's OID, criticality, value. 1
 * while there is one, 0 at the end, -1 malformed. */
FS2_HIDDEN int fs2_x509_next_ext(fs2_der_in *exts, fs2_span *oid, int *critical, fs2_span *value);
/* Which known extension an OID is (FS2_EXT_*), or 0. */
FS2_HIDDEN int fs2_x509_ext_kind(const fs2_span *oid);

/* ---- bundle.c ---------------------------------------------------------- */
/* One certificate or request from PEM or DER input: *buf gets a malloc'd
 * DER copy (free it with free()) that x's spans point into. kind is the
 * expected FASTSM2_X509_CERTIFICATE or _REQUEST, or 0 for either. */
FS2_HIDDEN int fs2_x509_load(fs2_x509 *x, unsigned char **buf, const unsigned char *in, size_t inlen, int kind);

/* A bundle of certificates read whole: their DERs, each parsed. */
typedef struct {
    size_t n;
    unsigned char **der; /* malloc'd copies */
    fs2_x509 *x;
} fs2_x509_set;
FS2_HIDDEN int fs2_x509_set_load(fs2_x509_set *s, const unsigned char *in, size_t inlen);
FS2_HIDDEN void fs2_x509_set_free(fs2_x509_set *s);

/* ---- name.c ------------------------------------------------------------ */
/* The DER Name of a string "/C=CN/O=.../CN=..." (an empty string: the empty
 * name) appended to b. FASTSM2_ERR_NAME when malformed. */
FS2_HIDDEN int fs2_name_from_string(fs2_dbuf *b, const char *s);
/* A Name element as a string, NUL-terminated, appended to b (the NUL not
 * counted in b->n after the call... it is: the caller trims). */
FS2_HIDDEN int fs2_name_to_string(fs2_dbuf *b, const fs2_span *name);
/* Whether a whole Name element is well formed (SEQUENCE OF SET OF
 * SEQUENCE { OID, value }). */
FS2_HIDDEN int fs2_name_check(const fs2_span *name);
/* A dotted OID string's DER contents, appended to b. 0 when malformed. */
FS2_HIDDEN int fs2_oid_from_string(fs2_dbuf *b, const char *s, size_t n);
/* OID contents as a dotted string appended to b. */
FS2_HIDDEN void fs2_oid_to_string(fs2_dbuf *b, const fs2_span *oid);
/* Append the C string s (without its NUL) or formatted text. */
FS2_HIDDEN void fs2_dbuf_str(fs2_dbuf *b, const char *s);
FS2_HIDDEN void fs2_dbuf_hex(fs2_dbuf *b, const unsigned char *p, size_t n, const char *sep);

/* ---- time.c ------------------------------------------------------------ */
/* UTCTime (tag 0x17, YYMMDDHHMMSSZ) or GeneralizedTime (0x18,
 * YYYYMMDDHHMMSSZ), strictly as RFC 5280 4.1.2.5 writes them. 1 or 0. */
FS2_HIDDEN int fs2_time_get(fs2_der_in *in, int64_t *t);
/* The time as RFC 5280 writes it: UTCTime before 2050, else GeneralizedTime.
 * 0 for a time outside years 0000-9999. */
FS2_HIDDEN int fs2_time_put(fs2_dbuf *b, int64_t t);
/* "2025-01-31 12:00:00 UTC" */
FS2_HIDDEN void fs2_time_text(fs2_dbuf *b, int64_t t);
/* Seconds of a civil UTC date and time (no range check). */
FS2_HIDDEN int64_t fs2_time_from_civil(int64_t y, unsigned mo, unsigned d, unsigned h, unsigned mi, unsigned s);
/* The earliest and latest times a certificate can state. */
#define FS2_TIME_MIN (-62167219200LL) /* 0000-01-01 00:00:00 */
#define FS2_TIME_MAX 253402300799LL   /* 9999-12-31 23:59:59 */

/* ---- verify.c ---------------------------------------------------------- */
/* Check that the key of spki (a whole SPKI element) made x's signature
 * with the signer ID (id, idlen) as the public API reads it. */
FS2_HIDDEN int fs2_x509_check_sig(const fs2_x509 *x, const fs2_span *spki, const void *id, size_t idlen);
/* Load an SM2 public key from a whole SPKI element. */
FS2_HIDDEN int fs2_x509_spki_key(fastsm2_pubkey *pub, const fs2_span *spki);
/* The subjectKeyIdentifier this library writes for a subjectPublicKey:
 * the leftmost 20 bytes of SM3 of its bits. */
FS2_HIDDEN void fs2_x509_key_id(unsigned char id[20], const fs2_span *spk);
/* Verify an SM2 signature (DER in sig) on the bytes msg with the key of
 * spki and the signer ID: FASTSM2_OK, FASTSM2_ERR_BAD_SIGNATURE,
 * FASTSM2_ERR_ALGORITHM (sig_alg not SM2-with-SM3 when not NULL). */
FS2_HIDDEN int fs2_x509_verify_bytes(const fs2_span *spki, const fs2_span *sig_alg, const fs2_span *sig,
                                     const unsigned char *msg, size_t msglen, const void *id, size_t idlen);

/* ---- shared output helpers (parse.c) --------------------------------- */
/* The public API's output rule for data in [p, p + n): out NULL asks the
 * size; too small is FASTSM2_ERR_BUFFER_TOO_SMALL (out zeroed). nul adds a
 * NUL not counted. */
FS2_HIDDEN int fs2_x509_emit(unsigned char *out, size_t *outlen, const unsigned char *p, size_t n, int nul);
/* The same for DER data written as fmt (FASTSM2_KEYFMT_DER or _PEM under
 * label). */
FS2_HIDDEN int fs2_x509_emit_fmt(unsigned char *out, size_t *outlen, const unsigned char *der, size_t n, int fmt,
                                 const char *label);
/* An AlgorithmIdentifier's contents naming SM2-with-SM3 (parameters
 * absent or NULL; the GM/T 0006 sm2sign OID read too when sign_ok). */
FS2_HIDDEN int fs2_x509_alg_is_sm2(const fs2_span *alg, int sign_ok);
/* Whether two spans hold the same bytes. */
FS2_HIDDEN int fs2_span_eq(const fs2_span *a, const fs2_span *b);

#endif
