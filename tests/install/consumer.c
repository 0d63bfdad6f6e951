/* SPDX-License-Identifier: Apache-2.0 */
/* A user's program, built by tests/harness/test-install.sh against an installed
 * fastsm2 (pkg-config, find_package) and against its source tree
 * (add_subdirectory, FetchContent): the SM3 example of GB/T 32905 Annex A,
 * then a fresh key's signature and ciphertext round trips, a wrong message
 * refused. Prints "consumer: ok <version>" and exits 0 only if all hold. */
#include <stdio.h>
#include <string.h>

#include <fastsm2.h>

static int fail(const char *what, int rc)
{
    fprintf(stderr, "consumer: %s failed (%d: %s)\n", what, rc, fastsm2_strerror(rc));
    return 1;
}

int main(void)
{
    static const unsigned char abc_sm3[32] = {0x66, 0xc7, 0xf0, 0xf4, 0x62, 0xee, 0xed, 0xd9, 0xd1, 0xf2, 0xd4,
                                              0x6b, 0xdc, 0x10, 0xe4, 0xe2, 0x41, 0x67, 0xc4, 0x87, 0x5c, 0xf2,
                                              0xf7, 0xa2, 0x29, 0x7d, 0xa0, 0x2b, 0x8f, 0x4b, 0xa8, 0xe0};
    static const char msg[] = "message digest";
    unsigned char d[32], sig[64], ct[256], pt[64];
    size_t ctlen = sizeof ct, ptlen = sizeof pt;
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    int rc;

    fastsm2_sm3(d, "abc", 3);
    if (memcmp(d, abc_sm3, 32) != 0)
        return fail("SM3(\"abc\")", -1);
    if ((rc = fastsm2_privkey_generate(&key)) != FASTSM2_OK)
        return fail("privkey_generate", rc);
    if ((rc = fastsm2_privkey_pubkey(&pub, &key)) != FASTSM2_OK)
        return fail("privkey_pubkey", rc);
    if ((rc = fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg - 1)) != FASTSM2_OK)
        return fail("sign", rc);
    if ((rc = fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) != 1)
        return fail("verify", rc);
    if ((rc = fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 2, sig)) != 0)
        return fail("verify of a changed message", rc);
    if ((rc = fastsm2_encrypt(ct, &ctlen, &pub, msg, sizeof msg - 1, 0)) != FASTSM2_OK)
        return fail("encrypt", rc);
    if ((rc = fastsm2_decrypt(pt, &ptlen, &key, ct, ctlen, 0)) != FASTSM2_OK)
        return fail("decrypt", rc);
    if (ptlen != sizeof msg - 1 || memcmp(pt, msg, ptlen) != 0)
        return fail("decrypt (plaintext)", -1);
    fastsm2_privkey_clear(&key);
    printf("consumer: ok %s\n", fastsm2_version());
    return 0;
}
