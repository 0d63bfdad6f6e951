/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the key-file sources share (src/keyfile): keyfile.c (plain PKCS#8,
 * SEC1, SPKI), keyfile_enc.c (password-encrypted PKCS#8, RFC 8018 PBES2)
 * and cert.c (the public key of an X.509 certificate).
 *
 * The floor above the protocols (docs/ARCHITECTURE.md): the key objects
 * through the public API (src/protocol/keys.c), the bytes through the
 * codecs below (src/codec/: DER, PEM), and the symmetric primitives of
 * src/sym/ (PBKDF2, CBC with SM4 or AES) for the encrypted form. The three
 * files call each other (keyfile.c names a certificate given as a public
 * key and hands an encrypted key to keyfile_enc.c, which parses the key
 * inside through keyfile.c; cert.c reads the SPKI through keyfile.c): that
 * circle stays inside this folder.
 */
#ifndef FS2_KEYFILE_H
#define FS2_KEYFILE_H

#include "internal.h"

/* PKCS#8 of an SM2 key is 138 bytes (150 with the curve in ECPrivateKey
 * too), SEC1 121. */
#define FS2_PRIV_DER_MAX 160

/* A plain private key in DER: PKCS#8 (v1 or v2) or SEC1. An
 * EncryptedPrivateKeyInfo is FASTSM2_ERR_ENCRYPTED_KEY. */
FS2_HIDDEN int fs2_keyfile_parse_private_der(fastsm2_privkey *key, const unsigned char *der, size_t derlen);
/* The status of reading a PrivateKeyInfo's SEQUENCE, version and
 * AlgorithmIdentifier alone (FASTSM2_CURVE for another named curve ...). */
FS2_HIDDEN int fs2_keyfile_pkcs8_algid_status(const unsigned char *der, size_t derlen);
/* SubjectPublicKeyInfo in DER (RFC 5480). */
FS2_HIDDEN int fs2_keyfile_parse_spki(fastsm2_pubkey *pub, const unsigned char *der, size_t derlen);
/* PKCS#8 PrivateKeyInfo of key, the ECPrivateKey with [0] sm2p256v1 when
 * inner_params (GmSSL 3 requires it), into der; *derlen its length. */
FS2_HIDDEN int fs2_keyfile_pkcs8(unsigned char der[FS2_PRIV_DER_MAX], size_t *derlen, const fastsm2_privkey *key,
                                 int inner_params);
/* Copy der to out as DER, or as PEM under label; the public API's output
 * conventions (out zeroed and *outlen = 0 on failure). */
FS2_HIDDEN int fs2_keyfile_emit(unsigned char *out, size_t *outlen, const unsigned char *der, size_t derlen, int pem,
                                const char *label);

/* Where an encrypted key's password comes from: pw/pwlen, or cb (when not
 * NULL) asked once the file's parameters are read; the reader's iteration
 * limit (0: FASTSM2_PBE_MAX_ITERATIONS) and where the file's count goes. */
typedef struct {
    const void *pw;
    size_t pwlen;
    fastsm2_password_cb cb;
    void *arg;
    uint32_t max_iterations;
    uint32_t *iterations;
} fs2_pw_source;

/* keyfile_enc.c: decrypt an EncryptedPrivateKeyInfo (DER) with the
 * password and parse the key inside. */
FS2_HIDDEN int fs2_keyfile_decrypt_der(fastsm2_privkey *key, const unsigned char *der, size_t derlen,
                                       const fs2_pw_source *src);

/* cert.c: whether der is shaped as an X.509 Certificate (three elements:
 * SEQUENCE, SEQUENCE, BIT STRING), to name the error when one is given as
 * a public key. */
FS2_HIDDEN int fs2_cert_is_certificate(const unsigned char *der, size_t derlen);

#endif
