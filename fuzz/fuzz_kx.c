/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Key-exchange messages (GB/T 32918.3 clause 6): A (initiator, fixed key A)
 * and B (responder, fixed key B) with fuzzer-chosen IDs, nonces, key
 * length, and what travels between them:
 *  - mode 0: the honest exchange: both sides agree on K and each accepts
 *    the other's confirmation (a flipped bit in either is refused);
 *  - mode 1: B receives the fuzzer's R_A (SEC1 bytes of any length) and a
 *    confirmation S_A: a bad point is FASTSM2_ERR_POINT or
 *    FASTSM2_ERR_LENGTH with the key zeroed, and a forged S_A is refused;
 *  - mode 2: A receives the fuzzer's R_B and S_B likewise.
 * Input: mode, klen (2 bytes), ID lengths and IDs, r_A, r_B, then the
 * message bytes.
 */
#include "fuzz_util.h"

static fastsm2_privkey ka, kb;
static fastsm2_pubkey pa, pb;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fz_key(&ka, &pa, 0);
        fz_key(&kb, &pb, 1);
        ready = 1;
    }
    fz_in in = {data, size};
    int mode = fz_u8(&in) % 3;
    size_t klen = 1 + fz_u16(&in) % 300;
    unsigned char ida[40], idb[40], ra[32], rb[32];
    size_t idalen = fz_u8(&in) % 41, idblen = fz_u8(&in) % 41;
    fz_bytes(&in, ida, idalen);
    fz_bytes(&in, idb, idblen);
    fz_bytes(&in, ra, 32);
    fz_bytes(&in, rb, 32);
    const void *pida = idalen ? ida : NULL, *pidb = idblen ? idb : NULL;

    fastsm2_kx_ctx a, b;
    unsigned char Ra[65], Rb[65], KA[300], KB[300], sa[32], sb[32];
    FZ_CHECK(fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &ka, pida, idalen, &pb, pidb, idblen) == FASTSM2_OK);
    FZ_CHECK(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &kb, pidb, idblen, &pa, pida, idalen) == FASTSM2_OK);
    int sta = fastsm2_kx_start_with_nonce(&a, Ra, ra);
    int stb = fastsm2_kx_start_with_nonce(&b, Rb, rb);
    FZ_CHECK(sta == FASTSM2_OK || sta == FASTSM2_ERR_SCALAR);
    FZ_CHECK(stb == FASTSM2_OK || stb == FASTSM2_ERR_SCALAR);
    if (sta != FASTSM2_OK)
        FZ_CHECK(fastsm2_kx_start(&a, Ra) == FASTSM2_OK);
    if (stb != FASTSM2_OK)
        FZ_CHECK(fastsm2_kx_start(&b, Rb) == FASTSM2_OK);

    if (mode == 0) {
        FZ_CHECK(fastsm2_kx_compute(&b, KB, klen, Ra, 65) == FASTSM2_OK);
        FZ_CHECK(fastsm2_kx_compute(&a, KA, klen, Rb, 65) == FASTSM2_OK);
        FZ_CHECK(memcmp(KA, KB, klen) == 0);
        FZ_CHECK(fastsm2_kx_confirmation(sb, &b) == FASTSM2_OK);
        FZ_CHECK(fastsm2_kx_confirmation(sa, &a) == FASTSM2_OK);
        FZ_CHECK(fastsm2_kx_verify_confirmation(&a, sb) == FASTSM2_OK);
        FZ_CHECK(fastsm2_kx_verify_confirmation(&b, sa) == FASTSM2_OK);
        unsigned bit = fz_u8(&in);
        sb[bit / 8 % 32] ^= (unsigned char)(1u << (bit % 8));
        sa[bit / 8 % 32] ^= (unsigned char)(1u << (bit % 8));
        FZ_CHECK(fastsm2_kx_verify_confirmation(&a, sb) == FASTSM2_ERR_CONFIRM);
        FZ_CHECK(fastsm2_kx_verify_confirmation(&b, sa) == FASTSM2_ERR_CONFIRM);
    } else {
        fastsm2_kx_ctx *me = mode == 1 ? &b : &a;
        unsigned char *K = mode == 1 ? KB : KA;
        unsigned char conf[32];
        size_t mlen = fz_u8(&in) % 70;
        unsigned char msg[70];
        fz_bytes(&in, msg, mlen);
        fz_bytes(&in, conf, 32);
        memset(K, 0xAA, klen);
        int st = fastsm2_kx_compute(me, K, klen, msg, mlen);
        if (st == FASTSM2_OK) {
            FZ_CHECK(mlen == 65 || mlen == 33);
            /* a confirmation the fuzzer made up is refused (a forgery of
             * SM3 output otherwise) unless it is the peer's true one */
            int v = fastsm2_kx_verify_confirmation(me, conf);
            FZ_CHECK(v == FASTSM2_OK || v == FASTSM2_ERR_CONFIRM);
        } else {
            FZ_CHECK(st == FASTSM2_ERR_POINT || st == FASTSM2_ERR_LENGTH);
            FZ_CHECK(fz_all_zero(K, klen));
            /* and the context cannot go on to confirm */
            FZ_CHECK(fastsm2_kx_verify_confirmation(me, conf) < 0);
        }
    }
    fastsm2_kx_clear(&a);
    fastsm2_kx_clear(&b);
    return 0;
}
