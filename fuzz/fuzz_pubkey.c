/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Public keys: SEC1 points (fastsm2_pubkey_from_bytes, GB/T 32918.1 4.2.9
 * and 6.2) and public key files (fastsm2_pubkey_parse: SPKI PEM or DER, or
 * a bare point). A key either loader accepts re-encodes (compressed,
 * uncompressed, SPKI DER and PEM) and loads again as the same point; the
 * compressed and uncompressed forms of a point agree. A refused input
 * gives a negative status and an object no call accepts.
 */
#include "fuzz_util.h"

static void same_point(const fastsm2_pubkey *a, const fastsm2_pubkey *b)
{
    unsigned char pa[65], pb[65];
    size_t la = sizeof pa, lb = sizeof pb;
    FZ_CHECK(fastsm2_pubkey_to_bytes(pa, &la, a, 0) == FASTSM2_OK);
    FZ_CHECK(fastsm2_pubkey_to_bytes(pb, &lb, b, 0) == FASTSM2_OK);
    FZ_CHECK(la == 65 && lb == 65 && memcmp(pa, pb, 65) == 0);
}

static void round_trips(const fastsm2_pubkey *pub)
{
    fastsm2_pubkey again;
    unsigned char buf[512];
    for (int compressed = 0; compressed < 2; compressed++) {
        size_t len = sizeof buf;
        FZ_CHECK(fastsm2_pubkey_to_bytes(buf, &len, pub, compressed) == FASTSM2_OK);
        FZ_CHECK(len == (compressed ? 33u : 65u));
        FZ_CHECK(fastsm2_pubkey_from_bytes(&again, buf, len) == FASTSM2_OK);
        same_point(pub, &again);
    }
    static const int fmts[] = {FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_PEM};
    for (int i = 0; i < 2; i++) {
        size_t len = sizeof buf;
        FZ_CHECK(fastsm2_pubkey_serialize(buf, &len, pub, fmts[i]) == FASTSM2_OK);
        FZ_CHECK(fastsm2_pubkey_parse(&again, buf, len) == FASTSM2_OK);
        same_point(pub, &again);
    }
    /* Z_A of the default ID is defined for every valid key */
    unsigned char z[32];
    FZ_CHECK(fastsm2_compute_z(z, pub, NULL, 0) == FASTSM2_OK);
}

static void refused(int st, const fastsm2_pubkey *pub)
{
    unsigned char buf[65];
    size_t len = sizeof buf;
    FZ_CHECK(st < 0);
    FZ_CHECK(fastsm2_pubkey_to_bytes(buf, &len, pub, 0) == FASTSM2_ERR_ARG);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fastsm2_pubkey pub;
    int st = fastsm2_pubkey_from_bytes(&pub, data, size);
    if (st == FASTSM2_OK) {
        FZ_CHECK(size == 33 || size == 65);
        round_trips(&pub);
        /* the file parser takes a bare point too, and finds the same */
        fastsm2_pubkey pub2;
        FZ_CHECK(fastsm2_pubkey_parse(&pub2, data, size) == FASTSM2_OK);
        same_point(&pub, &pub2);
    } else {
        refused(st, &pub);
    }
    st = fastsm2_pubkey_parse(&pub, data, size);
    if (st == FASTSM2_OK)
        round_trips(&pub);
    else
        refused(st, &pub);
    return 0;
}
