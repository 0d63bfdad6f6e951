/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 tables of this build and the choice among them
 * (src/sm4/sm4_ops.h): once per process, at first use, from the
 * CPU-feature word, after a known-answer self-test; FASTSM2_SM4=<name> and
 * FASTSM2_CPU=generic force one. Also the key expansion, which is the
 * same for every table.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "sm4_ops.h"

/* Generic first (the reference); selection tries the others in this
 * order, fastest first. */
static const fs2_sm4_ops *const tables[] = {
    &fs2_sm4_ops_generic,
#if defined(__x86_64__)
    &fs2_sm4_ops_avx512_gfni,
    &fs2_sm4_ops_avx2_gfni,
    &fs2_sm4_ops_avx2_vaes,
    &fs2_sm4_ops_avx2_aesni,
#endif
#if defined(__aarch64__)
    &fs2_sm4_ops_armv8_sm4,
    &fs2_sm4_ops_armv8_aes,
#endif
#if defined(__wasm_simd128__)
    &fs2_sm4_ops_wasm_simd,
#endif
    NULL,
};

const fs2_sm4_ops *fs2_sm4_table(size_t i)
{
    return i < sizeof tables / sizeof tables[0] ? tables[i] : NULL;
}

int fs2_sm4_table_available(const fs2_sm4_ops *t)
{
    return fs2_cpu_has(t->cpu_needs);
}

/* ---- the self-test ----------------------------------------------------- */

/* GB/T 32907-2016 appendix A, example 1: key = plaintext. */
static const unsigned char kat_key[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                          0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};
static const unsigned char kat_ct[16] = {0x68, 0x1e, 0xdf, 0x34, 0xd2, 0x06, 0x96, 0x5e,
                                         0x86, 0xb3, 0xe9, 0x4f, 0x53, 0x6e, 0x42, 0x46};
/* GHASH: H * H for H = E_K(0^128) under that key, {low, high} (SP 800-38D
 * 6.3's algorithm 1, bit by bit). */
static const uint64_t kat_h2[2] = {0x3BAAEEFEA716BE5FULL, 0xF6B9C5D563B9BF0EULL};

#define ST_N 37 /* blocks: more than two passes of any table */

/* 1 if table t gives the portable table's bytes on every slot for ST_N
 * blocks of a fixed pattern, and the standard's example. */
int fs2_sm4_self_test(const fs2_sm4_ops *t)
{
    const fs2_sm4_ops *g = &fs2_sm4_ops_generic;
    fs2_sm4_key k;
    unsigned char in[16 * ST_N], a[16 * ST_N], b[16 * ST_N], iva[16], ivb[16], ctr[16];
    uint64_t xa[2] = {0, 0}, xb[2] = {0, 0};
    int ok = 1;
    if (!t->blocks || !t->ctr32 || !t->cbc_enc || !t->cbc_dec || !t->cbc_mac || !t->xts || !t->ghash)
        return 0;
    fs2_sm4_key_schedule(&k, kat_key);
    t->blocks(k.rk, a, kat_key, 1);
    ok &= memcmp(a, kat_ct, 16) == 0;
    t->blocks(k.rkd, a, a, 1);
    ok &= memcmp(a, kat_key, 16) == 0;
    /* H and its square */
    memset(a, 0, 16);
    t->blocks(k.rk, a, a, 1);
    k.hpow[0][1] = fs2_load64_be(a);
    k.hpow[0][0] = fs2_load64_be(a + 8);
    t->ghash(xa, k.hpow, a, 1);
    ok &= xa[0] == kat_h2[0] && xa[1] == kat_h2[1];
    for (int i = 1; i < FS2_GHASH_POWERS; i++) {
        memcpy(k.hpow[i], k.hpow[i - 1], 16);
        fs2_ghash_mul_generic(k.hpow[i], k.hpow[0]);
    }

    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (unsigned char)(i * 29 + 7);
    g->blocks(k.rk, a, in, ST_N);
    t->blocks(k.rk, b, in, ST_N);
    ok &= memcmp(a, b, sizeof a) == 0;
    memcpy(ctr, in, 16);
    fs2_store32_be(ctr + 12, 0xFFFFFFF0u); /* the last 32 bits wrap */
    g->ctr32(k.rk, a, in, ST_N, ctr);
    t->ctr32(k.rk, b, in, ST_N, ctr);
    ok &= memcmp(a, b, sizeof a) == 0;
    memcpy(iva, in + 5, 16);
    memcpy(ivb, in + 5, 16);
    g->cbc_enc(k.rk, a, in, ST_N, iva);
    t->cbc_enc(k.rk, b, in, ST_N, ivb);
    ok &= memcmp(a, b, sizeof a) == 0 && memcmp(iva, ivb, 16) == 0;
    g->cbc_dec(k.rkd, a, in, ST_N, iva);
    t->cbc_dec(k.rkd, b, in, ST_N, ivb);
    ok &= memcmp(a, b, sizeof a) == 0 && memcmp(iva, ivb, 16) == 0;
    g->cbc_mac(k.rk, iva, in, ST_N);
    t->cbc_mac(k.rk, ivb, in, ST_N);
    ok &= memcmp(iva, ivb, 16) == 0;
    for (int std = FS2_XTS_GB; std <= FS2_XTS_IEEE; std++) {
        g->xts(k.rk, a, in, ST_N, iva, std);
        t->xts(k.rk, b, in, ST_N, ivb, std);
        ok &= memcmp(a, b, sizeof a) == 0 && memcmp(iva, ivb, 16) == 0;
    }
    xa[0] = xb[0] = 3;
    xa[1] = xb[1] = 4;
    g->ghash(xa, k.hpow, in, ST_N);
    t->ghash(xb, k.hpow, in, ST_N);
    ok &= xa[0] == xb[0] && xa[1] == xb[1];
    if (t->gcm) {
        for (int enc = 0; enc <= 1; enc++) {
            uint64_t ya[2] = {1, 2}, yb[2] = {1, 2};
            g->ctr32(k.rk, a, in, ST_N, ctr);
            g->ghash(ya, k.hpow, enc ? a : in, ST_N);
            t->gcm(&k, b, in, ST_N, ctr, yb, enc);
            ok &= memcmp(a, b, sizeof a) == 0 && ya[0] == yb[0] && ya[1] == yb[1];
        }
    }
    fs2_wipe(&k, sizeof k);
    return ok;
}

/* ---- the choice -------------------------------------------------------- */

static const fs2_sm4_ops *selected;
static pthread_once_t select_once = PTHREAD_ONCE_INIT;

static int usable(const fs2_sm4_ops *t)
{
    return fs2_sm4_table_available(t) && fs2_sm4_self_test(t);
}

static void select_table(void)
{
    const char *want = getenv("FASTSM2_SM4");
    const char *cpu = getenv("FASTSM2_CPU");
    if (want && *want)
        for (size_t i = 0; tables[i]; i++)
            if (!strcmp(tables[i]->name, want) && usable(tables[i])) {
                selected = tables[i];
                return;
            }
    selected = &fs2_sm4_ops_generic;
    if (cpu && !strcmp(cpu, "generic"))
        return;
    for (size_t i = 1; tables[i]; i++)
        if (usable(tables[i])) {
            selected = tables[i];
            return;
        }
}

const fs2_sm4_ops *fs2_sm4(void)
{
    pthread_once(&select_once, select_table);
    return selected;
}

void fs2_sm4_force(const fs2_sm4_ops *t)
{
    pthread_once(&select_once, select_table);
    if (t)
        selected = t;
    else
        select_table();
}

const char *fastsm2_sm4_backend_name(void)
{
    return fs2_sm4()->name;
}

const char *fastsm2_sm4_backend_available(size_t i)
{
    for (size_t k = 0; tables[k]; k++)
        if (fs2_sm4_table_available(tables[k]) && i-- == 0)
            return tables[k]->name;
    return NULL;
}

/* ---- keys ---------------------------------------------------------------- */

void fs2_sm4_key_expand(fs2_sm4_key *k, const unsigned char key[16])
{
    const fs2_sm4_ops *t = fs2_sm4();
    unsigned char h[16] = {0};
    memset(k, 0, sizeof *k);
    fs2_sm4_key_schedule(k, key);
    /* H = E_K(0^128) (SP 800-38D 7.1 step 1) and its powers */
    t->blocks(k->rk, h, h, 1);
    k->hpow[0][1] = fs2_load64_be(h);
    k->hpow[0][0] = fs2_load64_be(h + 8);
    for (int i = 1; i < FS2_GHASH_POWERS; i++) {
        uint64_t x[2] = {0, 0};
        fs2_store64_be(h, k->hpow[i - 1][1]);
        fs2_store64_be(h + 8, k->hpow[i - 1][0]);
        t->ghash(x, k->hpow, h, 1);
        k->hpow[i][0] = x[0];
        k->hpow[i][1] = x[1];
    }
    k->check = FS2_SM4_KEY_CHECK;
    fs2_wipe(h, sizeof h);
}
