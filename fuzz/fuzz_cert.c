/* SPDX-License-Identifier: Apache-2.0 */
/*
 * X.509 certificates (fastsm2_pubkey_parse_certificate, PEM or DER): a
 * certificate that parses gives a valid point, which writes and reads back
 * (SEC1 and SPKI) as the same key; the same DER given as a public key file
 * is FASTSM2_ERR_CERTIFICATE. A refused input gives a negative status and
 * an object no call accepts.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fastsm2_pubkey pub, pub2;
    unsigned char p1[65], p2[65], spki[128], e[32];
    size_t l1 = sizeof p1, l2 = sizeof p2, sl = sizeof spki;
    int st = fastsm2_pubkey_parse_certificate(&pub, data, size);
    if (st != FASTSM2_OK) {
        FZ_CHECK(st < 0);
        FZ_CHECK(fastsm2_pubkey_to_bytes(p1, &l1, &pub, 0) == FASTSM2_ERR_ARG);
        return 0;
    }
    FZ_CHECK(fastsm2_pubkey_to_bytes(p1, &l1, &pub, 0) == FASTSM2_OK && l1 == 65);
    FZ_CHECK(fastsm2_pubkey_from_bytes(&pub2, p1, l1) == FASTSM2_OK);
    FZ_CHECK(fastsm2_pubkey_serialize(spki, &sl, &pub, FASTSM2_KEYFMT_DER) == FASTSM2_OK);
    FZ_CHECK(fastsm2_pubkey_parse(&pub2, spki, sl) == FASTSM2_OK);
    FZ_CHECK(fastsm2_pubkey_to_bytes(p2, &l2, &pub2, 0) == FASTSM2_OK);
    FZ_CHECK(l2 == 65 && memcmp(p1, p2, 65) == 0);
    if (size > 0 && data[0] == 0x30)
        FZ_CHECK(fastsm2_pubkey_parse(&pub2, data, size) == FASTSM2_ERR_CERTIFICATE);
    /* Z_A computes for it (a verifier's first step) */
    FZ_CHECK(fastsm2_compute_z(e, &pub, NULL, 0) == FASTSM2_OK);
    return 0;
}
