/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PEM armour (RFC 7468 "strict" textual encoding, plus the RFC 1421 headers
 * of old encrypted OpenSSL keys, which we recognise only to name them).
 * Internal to the library (src/codec).
 */
#ifndef FS2_PEM_H
#define FS2_PEM_H

#include "internal.h"

/*
 * Find the first block "-----BEGIN <label>-----" (at the start of a line)
 * whose label is one of labels[0..nlabels) and decode its base64 body into
 * out[0..cap). Text before a block and blocks with other labels (e.g.
 * "EC PARAMETERS") are skipped. *which is the index of the label found.
 *
 * Errors:
 *  FASTSM2_ERR_KEY_FORMAT: a block labelled "ENCRYPTED PRIVATE KEY" (unless
 *    it is one of labels), or another label ending in `refuse_suffix` (e.g.
 *    "RSA PRIVATE KEY" for " PRIVATE KEY");
 *  FASTSM2_ERR_KEY_CIPHER: a block with RFC 1421 "Proc-Type: 4,ENCRYPTED"
 *    or "DEK-Info:" headers (legacy OpenSSL key encryption);
 *  FASTSM2_ERR_TOO_LARGE: a body that decodes to more than cap bytes;
 *  FASTSM2_ERR_PEM: no such block, missing or mismatched END line, bad
 *    base64 (a character outside the alphabet, bad or misplaced padding,
 *    non-zero pad bits).
 * On failure out is zeroed and *outlen = 0.
 */
FS2_HIDDEN int fs2_pem_decode(unsigned char *out, size_t cap, size_t *outlen, int *which, const unsigned char *in,
                              size_t inlen, const char *const *labels, size_t nlabels, const char *refuse_suffix);

/* The next block labelled one of labels[0..nlabels) at or after offset
 * *pos of in, decoded as fs2_pem_decode does (other blocks and text
 * skipped), and *pos moved past its END line: FASTSM2_OK; 0 when no such
 * block is left (*pos = inlen); an error of fs2_pem_decode's otherwise.
 * Reads a bundle of certificates one by one. */
FS2_HIDDEN int fs2_pem_decode_next(unsigned char *out, size_t cap, size_t *outlen, int *which, const unsigned char *in,
                                   size_t inlen, const char *const *labels, size_t nlabels, size_t *pos);

/* Size of the PEM text for derlen bytes under label, NUL not included. */
FS2_HIDDEN size_t fs2_pem_encoded_len(const char *label, size_t derlen);

/* Write "-----BEGIN label-----\n", base64 in 64-column lines each ending
 * in "\n", "-----END label-----\n" and a NUL (not counted in *outlen).
 * FASTSM2_ERR_BUFFER_TOO_SMALL (out zeroed, *outlen = 0) if it does not fit
 * with its NUL. */
FS2_HIDDEN int fs2_pem_encode(unsigned char *out, size_t *outlen, const char *label, const unsigned char *der,
                              size_t derlen);

/* Whether text has a "-----BEGIN <label>-----" line. */
FS2_HIDDEN int fs2_pem_has_label(const unsigned char *in, size_t inlen, const char *label);

#endif
