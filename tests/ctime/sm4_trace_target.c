/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The program that tests/harness/sm4-trace/trace_sm4.py single-steps, for
 * the SM4 tables valgrind cannot run (VAES and VPCLMULQDQ on YMM, GFNI,
 * AVX-512): it makes a secret key, plaintext and GCM IV from the seed
 * given and runs every SM4 call between two SIGSTOPs, the markers between
 * which the tracer records every instruction and the address of its
 * memory operand. The lengths, the IVs' lengths and the tampering are the
 * same for every seed: only secrets change.
 *
 *   sm4_trace_target list              the SM4 tables this CPU can run and
 *                                      valgrind cannot (valgrind_cpu.h)
 *   sm4_trace_target run:TABLE SEED    every SM4 call on TABLE (traces must
 *                                      agree across seeds)
 *   sm4_trace_target control SEED      a table lookup at a secret index:
 *                                      the planted control (traces differ)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsm2.h"
#include "sm4/sm4_ops.h"
#include "valgrind_cpu.h"

static uint64_t rng_state;

static uint64_t next(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t z = rng_state;
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
    return z ^ (z >> 29);
}

static void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)next();
}

static volatile unsigned sink;

/* Every call; returns 0 if each gave what it should. Two calls take 65
 * blocks (whole passes of every table and a tail), the others 69 bytes. */
static int run(void)
{
    static unsigned char k[32], pt[1040], ct[1056], back[1056], tag[16], iv[16] = {1, 2, 3}, iv20[20];
    fastsm2_sm4_key key, key2;
    fastsm2_sm4_gcm_ctx g;
    fastsm2_sm4_ctx c;
    size_t n, m;
    int bad = 0;
    fill(k, sizeof k);
    fill(pt, sizeof pt);
    fill(iv20, sizeof iv20); /* J0 from GHASH: secret */
    raise(SIGSTOP);
    bad |= fastsm2_sm4_key_init(&key, k) != FASTSM2_OK;
    bad |= fastsm2_sm4_key_init(&key2, k + 16) != FASTSM2_OK;
    bad |= fastsm2_sm4_ecb_encrypt(ct, &key, pt, 1040) != FASTSM2_OK;
    bad |= fastsm2_sm4_ecb_decrypt(back, &key, ct, 64) != FASTSM2_OK;
    n = sizeof ct;
    bad |= fastsm2_sm4_cbc_encrypt(ct, &n, &key, iv, FASTSM2_SM4_PAD_PKCS7, pt, 69) != FASTSM2_OK;
    m = sizeof back;
    bad |= fastsm2_sm4_cbc_decrypt(back, &m, &key, iv, FASTSM2_SM4_PAD_PKCS7, ct, n) != FASTSM2_OK;
    bad |= fastsm2_sm4_ctr(ct, &key, iv, pt, 69) != FASTSM2_OK;
    bad |= fastsm2_sm4_init(&c, FASTSM2_SM4_CFB, FASTSM2_SM4_DECRYPT, 0, &key, iv, 16) != FASTSM2_OK;
    m = sizeof back;
    bad |= fastsm2_sm4_update(&c, back, &m, ct, 69) != FASTSM2_OK;
    m = 0;
    bad |= fastsm2_sm4_final(&c, NULL, &m) != FASTSM2_OK;
    bad |= fastsm2_sm4_gcm_encrypt(ct, tag, 16, &key, iv20, 12, iv, 5, pt, 1040) != FASTSM2_OK;
    bad |= fastsm2_sm4_gcm_decrypt(back, &key, iv20, 12, iv, 5, ct, 1040, tag, 16) != FASTSM2_OK;
    tag[0] ^= 1;
    bad |= fastsm2_sm4_gcm_decrypt(back, &key, iv20, 12, iv, 5, ct, 69, tag, 16) != FASTSM2_ERR_TAG;
    bad |= fastsm2_sm4_gcm_init(&g, FASTSM2_SM4_DECRYPT, &key, iv20, 20) != FASTSM2_OK;
    bad |= fastsm2_sm4_gcm_update(&g, back, ct, 30) != FASTSM2_OK;
    bad |= fastsm2_sm4_gcm_update(&g, back + 30, ct + 30, 39) != FASTSM2_OK;
    bad |= fastsm2_sm4_gcm_decrypt_final(&g, tag, 16) != FASTSM2_ERR_TAG;
    bad |= fastsm2_sm4_ccm_encrypt(ct, tag, 16, &key, iv, 12, iv, 7, pt, 69) != FASTSM2_OK;
    bad |= fastsm2_sm4_ccm_decrypt(back, &key, iv, 12, iv, 7, ct, 69, tag, 16) != FASTSM2_OK;
    for (int std = FASTSM2_SM4_XTS_GB; std <= FASTSM2_SM4_XTS_IEEE; std++) {
        bad |= fastsm2_sm4_xts_encrypt(ct, &key, &key2, std, iv, pt, 69) != FASTSM2_OK;
        bad |= fastsm2_sm4_xts_decrypt(back, &key, &key2, std, iv, ct, 69) != FASTSM2_OK;
    }
    fastsm2_sm4_key_clear(&key);
    fastsm2_sm4_key_clear(&key2);
    raise(SIGSTOP);
    return bad || memcmp(back, pt, 69) != 0;
}

int main(int argc, char **argv)
{
    const fs2_sm4_ops *t;
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; (t = fs2_sm4_table(i)) != NULL; i++)
            if (fs2_sm4_table_available(t) && (t->cpu_needs & ~(uint32_t)FS2T_VALGRIND_EXECUTES) != 0)
                printf("%s\n", t->name);
        return 0;
    }
    if (argc != 3)
        return 2;
    rng_state = strtoull(argv[2], NULL, 0);
    if (strcmp(argv[1], "control") == 0) {
        static volatile unsigned char table[256];
        unsigned char s[16];
        fill(s, sizeof s);
        raise(SIGSTOP);
        sink = table[s[3]]; /* an address from a secret */
        raise(SIGSTOP);
        return 0;
    }
    if (strncmp(argv[1], "run:", 4) != 0)
        return 2;
    for (size_t i = 0; (t = fs2_sm4_table(i)) != NULL; i++)
        if (strcmp(t->name, argv[1] + 4) == 0 && fs2_sm4_table_available(t)) {
            fs2_sm4_force(t);
            return run();
        }
    return 2;
}
