/* SPDX-License-Identifier: Apache-2.0 */
/* Names and descriptions of the status codes of include/fastsm2.h. */
#include "internal.h"

typedef struct {
    int code;
    const char *name;
    const char *full; /* "NAME: description" */
} fs2_error_entry;

#define FS2_ERR_ENTRY(code, desc)    \
    {                                \
        code, #code, #code ": " desc \
    }

static const fs2_error_entry fs2_errors[] = {
    FS2_ERR_ENTRY(FASTSM2_OK, "success"),
    FS2_ERR_ENTRY(FASTSM2_ERR_ARG, "NULL pointer or meaningless argument"),
    FS2_ERR_ENTRY(FASTSM2_ERR_BUFFER_TOO_SMALL, "output capacity too small"),
    FS2_ERR_ENTRY(FASTSM2_ERR_DER, "malformed or non-strict DER"),
    FS2_ERR_ENTRY(FASTSM2_ERR_PEM, "malformed PEM armour or base64"),
    FS2_ERR_ENTRY(FASTSM2_ERR_LENGTH, "input of a wrong length"),
    FS2_ERR_ENTRY(FASTSM2_ERR_SIG_RANGE, "r or s = 0, >= n, or r + s = n"),
    FS2_ERR_ENTRY(FASTSM2_ERR_PRIVATE_KEY, "d = 0 or d >= n - 1"),
    FS2_ERR_ENTRY(FASTSM2_ERR_POINT, "bad encoding, off the curve, infinity"),
    FS2_ERR_ENTRY(FASTSM2_ERR_BAD_SIGNATURE, "well-formed but does not verify"),
    FS2_ERR_ENTRY(FASTSM2_ERR_DECRYPT, "C3 check failed: no plaintext released"),
    FS2_ERR_ENTRY(FASTSM2_ERR_CIPHERTEXT, "truncated or malformed ciphertext"),
    FS2_ERR_ENTRY(FASTSM2_ERR_ID, "ID longer than 8191 bytes"),
    FS2_ERR_ENTRY(FASTSM2_ERR_RANDOM, "the OS CSPRNG failed"),
    FS2_ERR_ENTRY(FASTSM2_ERR_KEY_FORMAT, "key file of an unknown algorithm/curve"),
    FS2_ERR_ENTRY(FASTSM2_ERR_KDF_ZERO, "KDF output all zero (GB/T 32918.4 6.1 A5)"),
    FS2_ERR_ENTRY(FASTSM2_ERR_NO_MEMORY, "allocation failed"),
    FS2_ERR_ENTRY(FASTSM2_ERR_CONFIRM, "key exchange confirmation mismatch"),
    FS2_ERR_ENTRY(FASTSM2_ERR_STATE, "call out of order (key exchange)"),
    FS2_ERR_ENTRY(FASTSM2_ERR_UNSUPPORTED, "feature not built in (e.g. CUDA)"),
    FS2_ERR_ENTRY(FASTSM2_ERR_SCALAR, "a nonce or scalar out of [1, n-1]"),
    FS2_ERR_ENTRY(FASTSM2_ERR_ENCRYPTED_KEY, "an encrypted key file: give the password"),
    FS2_ERR_ENTRY(FASTSM2_ERR_PASSWORD, "wrong password, or a corrupted encrypted key"),
    FS2_ERR_ENTRY(FASTSM2_ERR_KEY_CIPHER, "encrypted with a scheme not read (PBES1, legacy PEM)"),
    FS2_ERR_ENTRY(FASTSM2_ERR_CURVE, "a key on another curve than sm2p256v1"),
    FS2_ERR_ENTRY(FASTSM2_ERR_CERTIFICATE, "a certificate where a key was expected"),
    FS2_ERR_ENTRY(FASTSM2_ERR_TOO_LARGE, "input larger than any key file or certificate"),
    FS2_ERR_ENTRY(FASTSM2_ERR_ITERATIONS, "a key file's PBKDF2 iteration count above the reader's limit"),
    FS2_ERR_ENTRY(FASTSM2_ERR_TAG, "authentication tag mismatch: no plaintext released"),
    FS2_ERR_ENTRY(FASTSM2_ERR_PADDING, "bad padding after decryption"),
    FS2_ERR_ENTRY(FASTSM2_ERR_IV, "IV or nonce of a wrong length"),
    FS2_ERR_ENTRY(FASTSM2_ERR_PUBLIC_KEY, "a public key where a private key was expected"),
    FS2_ERR_ENTRY(FASTSM2_ERR_NOT_YET_VALID, "a certificate not valid yet at the time checked"),
    FS2_ERR_ENTRY(FASTSM2_ERR_EXPIRED, "a certificate expired at the time checked"),
    FS2_ERR_ENTRY(FASTSM2_ERR_NOT_CA, "an issuer without basicConstraints cA"),
    FS2_ERR_ENTRY(FASTSM2_ERR_PATH_LENGTH, "more CAs below an issuer than its pathLenConstraint allows"),
    FS2_ERR_ENTRY(FASTSM2_ERR_KEY_USAGE, "keyUsage or extendedKeyUsage does not allow this use"),
    FS2_ERR_ENTRY(FASTSM2_ERR_ISSUER, "no issuer found, or the chain ends at a certificate not trusted"),
    FS2_ERR_ENTRY(FASTSM2_ERR_CHAIN_LOOP, "a chain that comes back to a certificate already in it"),
    FS2_ERR_ENTRY(FASTSM2_ERR_CRITICAL, "a critical extension that is not understood"),
    FS2_ERR_ENTRY(FASTSM2_ERR_NAME, "a malformed name, subjectAltName or OID string"),
    FS2_ERR_ENTRY(FASTSM2_ERR_ALGORITHM, "an algorithm other than SM2, SM3, SM4 where one is needed"),
    FS2_ERR_ENTRY(FASTSM2_ERR_DIGEST, "the content's digest differs from the signed one (CMS)"),
    FS2_ERR_ENTRY(FASTSM2_ERR_RECIPIENT, "no recipient of an enveloped message matches the key"),
};

static const fs2_error_entry *fs2_error_find(int status)
{
    for (size_t i = 0; i < sizeof fs2_errors / sizeof fs2_errors[0]; i++)
        if (fs2_errors[i].code == status)
            return &fs2_errors[i];
    return NULL;
}

const char *fastsm2_strerror(int status)
{
    const fs2_error_entry *e = fs2_error_find(status);
    return e ? e->full : "FASTSM2_ERR_UNKNOWN: unknown status code";
}

const char *fastsm2_error_name(int status)
{
    const fs2_error_entry *e = fs2_error_find(status);
    return e ? e->name : "FASTSM2_ERR_UNKNOWN";
}

const char *fastsm2_version(void)
{
    return FASTSM2_VERSION_STRING;
}
