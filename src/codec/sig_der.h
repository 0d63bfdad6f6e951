/* SPDX-License-Identifier: Apache-2.0 */
/* The DER form of an SM2 signature (src/codec/sig_der.c). */
#ifndef FS2_SIG_DER_H
#define FS2_SIG_DER_H

#include "internal.h"

/* Strict DER of an SM2 signature: SEQUENCE { INTEGER r, INTEGER s }.
 * Decoding rejects non-minimal or negative INTEGERs, values wider than 256
 * bits, indefinite or non-minimal lengths and trailing bytes
 * (FASTSM2_ERR_DER). No range check against n here. */
FS2_HIDDEN int fs2_sig_der_encode(unsigned char *out, size_t *outlen, const unsigned char r[32],
                                  const unsigned char s[32]);
FS2_HIDDEN int fs2_sig_der_decode(unsigned char r[32], unsigned char s[32], const unsigned char *der, size_t derlen);

#endif
