/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The program that tests/harness/ifma-trace/trace.py single-steps (valgrind cannot
 * run AVX-512): it makes eight secret scalars from the seed given, recodes
 * them as the avx512-ifma EC table does, and calls fs2_ifma_gen (kG in
 * eight IFMA lanes) between two SIGSTOPs, the markers between which the
 * tracer records every instruction and the address of its memory operand.
 *
 *   ifma_trace_target gen SEED      the constant-time kG (traces must agree)
 *   ifma_trace_target base SEED     the avx512-ifma backend's one-at-a-time
 *                                   kG and inversion on one secret scalar
 *                                   (its own build of that code, which the
 *                                   valgrind test never runs: valgrind
 *                                   reports no AVX-512)
 *   ifma_trace_target single SEED   the one-at-a-time slots whose kG runs
 *                                   in the IFMA lanes (src/ec/ifma/ec_ifma1.c):
 *                                   mul_base_and_sc_inv (keygen, signing) and
 *                                   mul_base_and_mul (encryption: P = G with
 *                                   its tables, public) on one secret scalar; seed
 *                                   1: k = n - 2 (n mod 2^35), whose last
 *                                   addition of partial sums is a doubling;
 *                                   2: a small k (most lanes infinity); 7:
 *                                   n - 1; others random
 *   ifma_trace_target sumvar SEED   the variable-time verification sum on
 *                                   digits from SEED: the planted control
 *                                   (its traces must differ)
 *   ifma_trace_target probe         exit 0, or 2 where the CPU has no IFMA
 * The table of base points is made before the first marker, by a warm-up
 * call. Exit 0; 2 where the CPU has no IFMA (nothing traced).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"

#if defined(__x86_64__)
static uint64_t rng_state;

static uint64_t next(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t z = rng_state;
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
    return z ^ (z >> 29);
}

/* the recoding of fs2_ecmult_gen: 37 signed 7-bit digits */
static void recode7(uint8_t (*dig)[FS2_IFMA_LANES], uint8_t (*neg)[FS2_IFMA_LANES], size_t lane, const uint64_t k[4])
{
    unsigned carry = 0;
    for (unsigned w = 0; w < 37; w++) {
        unsigned pos = 7 * w, limb = pos / 64, off = pos % 64;
        uint64_t v = 0;
        if (limb < 4) {
            v = k[limb] >> off;
            if (off + 7 > 64 && limb + 1 < 4)
                v |= k[limb + 1] << (64 - off);
        }
        unsigned x = (unsigned)(v & 127) + carry;
        unsigned c = (x + 63) >> 7; /* x > 64 */
        dig[w][lane] = (uint8_t)(c ? 128 - x : x);
        neg[w][lane] = (uint8_t)c;
        carry = c;
    }
}

int main(int argc, char **argv)
{
    static uint8_t dig[37][FS2_IFMA_LANES], neg[37][FS2_IFMA_LANES];
    static uint8_t td[2][26][FS2_IFMA_LANES], tn[2][26][FS2_IFMA_LANES];
    static uint64_t xyz[FS2_IFMA_LANES][12], xz[FS2_IFMA_LANES][8];
    static fs2_pubtab tab;
    const fs2_pubtab *tabs[FS2_IFMA_LANES];
    if (argc == 2 && !strcmp(argv[1], "probe")) /* whether there is anything to trace */
        return fs2_cpu_has(FS2_CPU_X86_IFMA) ? 0 : 2;
    if (argc != 3 ||
        (strcmp(argv[1], "gen") && strcmp(argv[1], "base") && strcmp(argv[1], "single") && strcmp(argv[1], "sumvar"))) {
        fprintf(stderr, "usage: ifma_trace_target probe | gen|base|single|sumvar SEED\n");
        return 1;
    }
    if (!fs2_cpu_has(FS2_CPU_X86_IFMA))
        return 2;
    rng_state = strtoull(argv[2], NULL, 0);
    for (size_t l = 0; l < FS2_IFMA_LANES; l++) {
        uint64_t k[4] = {next(), next(), next(), next() >> 1}; /* < 2^255 < n */
        recode7(dig, neg, l, k);
        tabs[l] = &tab;
    }
    /* warm-up: the base-point table is made at the first call */
    uint8_t zero[37][FS2_IFMA_LANES] = {{0}};
    fs2_ifma_gen(xyz, (const uint8_t(*)[FS2_IFMA_LANES])zero, (const uint8_t(*)[FS2_IFMA_LANES])zero, 8);
    fs2_ec_ops_generic.precompute_var(
        &tab, &(fs2_affine){
                  .x = {0x715A4589334C74C7ULL, 0x8FE30BBFF2660BE1ULL, 0x5F9904466A39C994ULL, 0x32C4AE2C1F198119ULL},
                  .y = {0x02DF32E52139F0A0ULL, 0xD0A9877CC62A4740ULL, 0x59BDCEE36B692153ULL, 0xBC3736A2F4F6779CULL}});
    /* the control: windows whose digits are zero in every lane (about one
     * in three) are skipped, a branch on the digits */
    if (!strcmp(argv[1], "sumvar"))
        for (int c = 0; c < 2; c++)
            for (int w = 0; w < 26; w++) {
                int skip = next() % 3 == 0;
                for (size_t l = 0; l < FS2_IFMA_LANES; l++) {
                    td[c][w][l] = (uint8_t)(skip ? 0 : next() % 17);
                    tn[c][w][l] = (uint8_t)(next() & 1);
                }
            }
    fs2_affine base_r;
    uint64_t base_k[4] = {next(), next(), next(), next() >> 1};
    /* the single mode's scalar and inverse operand a, and the public point */
    static const uint64_t n[4] = {0x53BBF40939D54123ULL, 0x7203DF6B21C6052BULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
    uint64_t seed = strtoull(argv[2], NULL, 0), single_q[4], single_a[4] = {next(), next(), next(), next() >> 1};
    fs2_affine single_s,
        pub = {.x = {0x715A4589334C74C7ULL, 0x8FE30BBFF2660BE1ULL, 0x5F9904466A39C994ULL, 0x32C4AE2C1F198119ULL},
               .y = {0x02DF32E52139F0A0ULL, 0xD0A9877CC62A4740ULL, 0x59BDCEE36B692153ULL, 0xBC3736A2F4F6779CULL}};
    if (seed == 1) { /* n - 2 (n mod 2^35) */
        uint64_t lo = n[0] & ((1ULL << 35) - 1);
        memcpy(base_k, n, sizeof base_k);
        base_k[0] -= 2 * lo; /* no borrow: n[0] > 2^36 */
    } else if (seed == 2) {
        memset(base_k, 0, sizeof base_k);
        base_k[0] = 0x1234;
    } else if (seed == 7) {
        memcpy(base_k, n, sizeof base_k);
        base_k[0] -= 1;
    }
    fs2_ec_ops_avx512ifma.mul_base(&base_r, (const uint64_t[4]){1, 0, 0, 0}); /* warm-up */
    fs2_ec_ops_avx512ifma.mul_base_and_mul(&base_r, &single_s, &pub, &tab, (const uint64_t[4]){1, 0, 0, 0});
    raise(SIGSTOP);
    if (!strcmp(argv[1], "base"))
        fs2_ec_ops_avx512ifma.mul_base(&base_r, base_k);
    else if (!strcmp(argv[1], "single")) {
        fs2_ec_ops_avx512ifma.mul_base_and_sc_inv(&base_r, base_k, single_q, single_a);
        fs2_ec_ops_avx512ifma.mul_base_and_mul(&base_r, &single_s, &pub, &tab, base_k);
    } else if (!strcmp(argv[1], "gen"))
        fs2_ifma_gen(xyz, (const uint8_t(*)[FS2_IFMA_LANES])dig, (const uint8_t(*)[FS2_IFMA_LANES])neg, 8);
    else
        (void)fs2_ifma_sum_var(xz, (const uint8_t(*)[FS2_IFMA_LANES])dig, (const uint8_t(*)[FS2_IFMA_LANES])neg,
                               (const uint8_t(*)[26][FS2_IFMA_LANES])td, (const uint8_t(*)[26][FS2_IFMA_LANES])tn, tabs,
                               8);
    raise(SIGSTOP);
    return 0;
}
#else
int main(void)
{
    return 2;
}
#endif
