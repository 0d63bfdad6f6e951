/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DER signatures (GM/T 0009 SM2Signature): whatever fastsm2_sig_from_der
 * accepts re-encodes to exactly the same bytes (strict DER has one
 * encoding), and decodes to r, s in [1, n-1]; whatever it refuses gets a
 * named error and a zeroed output. A 64-byte input taken as raw r || s
 * round-trips through DER when in range.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char sig[64], der[FASTSM2_SIG_DER_MAX], back[64];
    size_t derlen = sizeof der;
    memset(sig, 0xAA, sizeof sig);
    int st = fastsm2_sig_from_der(sig, data, size);
    if (st == FASTSM2_OK) {
        FZ_CHECK(size <= FASTSM2_SIG_DER_MAX);
        FZ_CHECK(fastsm2_sig_to_der(der, &derlen, sig) == FASTSM2_OK);
        FZ_CHECK(derlen == size && memcmp(der, data, size) == 0);
    } else {
        FZ_CHECK(st == FASTSM2_ERR_DER || st == FASTSM2_ERR_SIG_RANGE || st == FASTSM2_ERR_ARG);
        FZ_CHECK(fz_all_zero(sig, 64));
    }
    if (size == 64) {
        derlen = sizeof der;
        st = fastsm2_sig_to_der(der, &derlen, data);
        if (st == FASTSM2_OK) {
            FZ_CHECK(derlen <= FASTSM2_SIG_DER_MAX);
            int back_st = fastsm2_sig_from_der(back, der, derlen);
            /* to_der encodes any 256-bit r and s; from_der also checks
             * the range, so the round trip holds for r, s in [1, n-1] */
            if (back_st == FASTSM2_OK)
                FZ_CHECK(memcmp(back, data, 64) == 0);
            else
                FZ_CHECK(back_st == FASTSM2_ERR_SIG_RANGE);
        }
    }
    return 0;
}
