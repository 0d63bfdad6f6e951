/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field and scalar arithmetic of src/gpu/cuda/sm2_gpu_field.cuh compiled by nvcc
 * with the PTX carry primitives (add.cc, addc.cc, mad.lo.cc, madc.hi.cc,
 * ...) and run on a device, here GPGPU-Sim (tests/harness/test-gpu-sim.sh,
 * docs/GPU.md "Simulated in GPGPU-Sim"), every result checked against
 * OpenSSL's BIGNUM on the host:
 *  - mod p: mul, sqr, add, sub, neg, inv on inputs anywhere in [0, 2^256)
 *    (field results are below 2^256, congruent mod p: checked mod p), the
 *    canonical value (fs2g_fp_canon) and the zero test exactly; the 512-bit
 *    product and the reduction of any 512-bit value;
 *  - mod n: add, sub, the Montgomery product (R = 2^256), the reduction of
 *    a 256-bit and of a 512-bit value;
 *  - comparisons and carries: a < b, a < n, a == 0, a == b, the carry of a
 *    256-bit sum and the borrow of a difference, and verification's range
 *    check (r, s in [1, n - 1]) written with branches as fs2g_verify_item
 *    has it;
 * on edge values (0, 1, p - 1, n - 1, m - 2^k, all-ones limbs whose
 * carries ripple through every limb, 2^255, ...) in every pair, and random
 * values. Usage: sim_arith [NRAND] (default 64 random pairs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <openssl/bn.h>
#include <openssl/rand.h>

#include "sm2_gpu_field.cuh"

/* one record per pair (a, b) and 512-bit value w */
struct rec_in {
    uint32_t a[8], b[8], w[16];
};
struct rec_out {
    uint32_t mul[8], sqr[8], add[8], sub[8], neg[8], inv[8], wide[16], red[8], canon[8];
    uint32_t nadd[8], nsub[8], nmont[8], nred[8], nred512[8];
    uint32_t flags[8]; /* comparisons and carries, see k_arith */
};

static __global__ void k_arith(const rec_in *in, rec_out *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t a[8], b[8], w[16];
    for (int j = 0; j < 8; j++)
        a[j] = in[i].a[j], b[j] = in[i].b[j];
    for (int j = 0; j < 16; j++)
        w[j] = in[i].w[j];
    rec_out o;
    fs2g_fp_mul(o.mul, a, b);
    fs2g_fp_sqr(o.sqr, a);
    fs2g_fp_add(o.add, a, b);
    fs2g_fp_sub(o.sub, a, b);
    fs2g_fp_neg(o.neg, a);
    fs2g_fp_inv(o.inv, a);
    fs2g_mul_wide(o.wide, w, w + 8);
    fs2g_fp_reduce(o.red, w);
    fs2g_fp_canon(o.canon, a);
    fs2g_fn_add(o.nadd, a, b);
    fs2g_fn_sub(o.nsub, a, b);
    fs2g_fn_mont_mul(o.nmont, w, b); /* first operand any 256-bit value */
    fs2g_fn_reduce(o.nred, w + 8);
    fs2g_fn_reduce512(o.nred512, w + 8, w);
    /* the comparisons verification starts with (B1, B2), as branches */
    const uint32_t N[8] = FS2G_N_WORDS;
    uint32_t t[8];
    o.flags[0] = fs2g_lt(a, b);
    o.flags[1] = fs2g_lt(w, N);
    o.flags[2] = fs2g_is_zero(a);
    o.flags[3] = fs2g_eq(a, b);
    o.flags[4] = fs2g_add256(t, w, w + 8);
    o.flags[5] = fs2g_sub256(t, w, w + 8);
    o.flags[6] = (fs2g_is_zero(a) || fs2g_is_zero(b) || !fs2g_lt(a, N) || !fs2g_lt(b, N)) ? 0u : 1u;
    o.flags[7] = fs2g_fp_is_zero(a);
    out[i] = o;
}

static BN_CTX *ctx;
static BIGNUM *P, *N, *RINV;
static int failed;

static BIGNUM *bn_words(const uint32_t *w, int nw)
{
    unsigned char b[64];
    for (int j = 0; j < nw; j++)
        for (int q = 0; q < 4; q++)
            b[4 * nw - 1 - 4 * j - q] = (unsigned char)(w[j] >> (8 * q));
    return BN_bin2bn(b, 4 * nw, NULL);
}

static void words_bn(uint32_t w[8], const BIGNUM *x)
{
    unsigned char b[32];
    BN_bn2binpad(x, b, 32);
    for (int j = 0; j < 8; j++)
        w[j] = (uint32_t)b[31 - 4 * j] | (uint32_t)b[30 - 4 * j] << 8 | (uint32_t)b[29 - 4 * j] << 16 |
               (uint32_t)b[28 - 4 * j] << 24;
}

static void expect(const char *what, int i, const uint32_t *got, int nw, const BIGNUM *want)
{
    BIGNUM *g = bn_words(got, nw);
    if (BN_cmp(g, want) != 0) {
        if (failed < 20) {
            char *gh = BN_bn2hex(g), *wh = BN_bn2hex(want);
            fprintf(stderr, "sim_arith: record %d: %s = %s, expected %s\n", i, what, gh, wh);
            OPENSSL_free(gh);
            OPENSSL_free(wh);
        }
        failed++;
    }
    BN_free(g);
}

/* got = want (mod p), got < 2^256: a field result */
static void expect_fp(const char *what, int i, const uint32_t *got, const BIGNUM *want)
{
    BIGNUM *g = bn_words(got, 8);
    BN_nnmod(g, g, P, ctx);
    uint32_t gw[8];
    words_bn(gw, g);
    expect(what, i, gw, 8, want);
    BN_free(g);
}

/* edge values below m, as test_gpu_arith takes them, and more all-ones
 * patterns whose carries cross every limb */
static std::vector<std::vector<uint32_t>> edges(const BIGNUM *m)
{
    std::vector<std::vector<uint32_t>> out;
    const char *hex[] = {"0",
                         "1",
                         "2",
                         "3",
                         "FFFFFFFF",
                         "100000000",
                         "8000000000000000000000000000000000000000000000000000000000000000",
                         "100000000000000000000000000000000000000000000000000000000",
                         "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                         "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                         "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                         "FFFFFFFF00000000FFFFFFFF00000000FFFFFFFF00000000FFFFFFFF"};
    for (const char *h : hex) {
        BIGNUM *x = NULL;
        BN_hex2bn(&x, h);
        BN_mod(x, x, m, ctx);
        std::vector<uint32_t> w(8);
        words_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
    }
    for (int d = 1; d <= 4; d++) {
        BIGNUM *x = BN_dup(m);
        BN_sub_word(x, (BN_ULONG)d);
        std::vector<uint32_t> w(8);
        words_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
    }
    for (int k : {32, 64, 96, 128, 224}) {
        BIGNUM *x = BN_dup(m), *t = BN_new();
        BN_set_bit(t, k);
        BN_sub(x, x, t);
        std::vector<uint32_t> w(8);
        words_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
        BN_free(t);
    }
    if (BN_cmp(m, P) == 0) {
        /* unreduced field values, in [p, 2^256): p, p + 1, 2^256 - 1,
         * 2^256 - 2^224 */
        const char *un[] = {"FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF",
                            "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF000000010000000000000000",
                            "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                            "FFFFFFFF00000000000000000000000000000000000000000000000000000000"};
        for (const char *h : un) {
            BIGNUM *x = NULL;
            BN_hex2bn(&x, h);
            std::vector<uint32_t> w(8);
            words_bn(w.data(), x);
            out.push_back(w);
            BN_free(x);
        }
    }
    return out;
}

static void rand_below(uint32_t w[8], const BIGNUM *m)
{
    BIGNUM *x = BN_new();
    BN_rand_range(x, m);
    words_bn(w, x);
    BN_free(x);
}

#define CU(x)                                                                   \
    do {                                                                        \
        cudaError_t e_ = (x);                                                   \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "sim_arith: %s: %s\n", #x, cudaGetErrorString(e_)); \
            return 1;                                                           \
        }                                                                       \
    } while (0)

int main(int argc, char **argv)
{
    int nrand = argc > 1 ? atoi(argv[1]) : 64;
    ctx = BN_CTX_new();
    P = NULL, N = NULL;
    BN_hex2bn(&P, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF");
    BN_hex2bn(&N, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123");
    BIGNUM *R = BN_new();
    RINV = BN_new();
    BN_set_bit(R, 256);
    BN_mod_inverse(RINV, R, N, ctx);

    /* pairs: every edge of p with every edge of n (a mod p and mod n
     * checks need a < m: the mod n operations get a, b reduced mod n
     * below), then random ones */
    std::vector<rec_in> in;
    auto ep = edges(P), en = edges(N);
    for (size_t i = 0; i < ep.size(); i++)
        for (size_t j = 0; j < ep.size(); j++) {
            rec_in r;
            memcpy(r.a, ep[i].data(), 32);
            memcpy(r.b, ep[j].data(), 32);
            /* w: all-ones, p * p, edges of n, random */
            if ((i + j) % 4 == 0)
                memset(r.w, 0xFF, 64);
            else if ((i + j) % 4 == 1)
                memcpy(r.w, ep[i].data(), 32), memcpy(r.w + 8, ep[j].data(), 32);
            else if ((i + j) % 4 == 2)
                memcpy(r.w, en[i % en.size()].data(), 32), memcpy(r.w + 8, en[j % en.size()].data(), 32);
            else
                RAND_bytes((unsigned char *)r.w, 64);
            in.push_back(r);
        }
    for (int k = 0; k < nrand; k++) {
        rec_in r;
        if (k & 1) {
            rand_below(r.a, N); /* below n < p: valid mod p and mod n */
            rand_below(r.b, N);
        } else { /* anywhere below 2^256 (field results may be >= p) */
            RAND_bytes((unsigned char *)r.a, 32);
            RAND_bytes((unsigned char *)r.b, 32);
        }
        RAND_bytes((unsigned char *)r.w, 64);
        in.push_back(r);
    }
    int n = (int)in.size();
    printf("sim_arith: %d records (edge pairs and %d random) on the device\n", n, nrand);
    fflush(stdout);

    rec_in *din;
    rec_out *dout;
    CU(cudaMalloc(&din, sizeof(rec_in) * n));
    CU(cudaMalloc(&dout, sizeof(rec_out) * n));
    CU(cudaMemcpy(din, in.data(), sizeof(rec_in) * n, cudaMemcpyHostToDevice));
    k_arith<<<(n + 63) / 64, 64>>>(din, dout, n);
    CU(cudaGetLastError());
    std::vector<rec_out> out(n);
    CU(cudaMemcpy(out.data(), dout, sizeof(rec_out) * n, cudaMemcpyDeviceToHost));
    CU(cudaFree(din));
    CU(cudaFree(dout));

    BIGNUM *X = BN_new();
    for (int i = 0; i < n; i++) {
        const rec_in &r = in[i];
        const rec_out &o = out[i];
        BIGNUM *A = bn_words(r.a, 8), *B = bn_words(r.b, 8), *W = bn_words(r.w, 16);
        BIGNUM *WLO = bn_words(r.w, 8), *WHI = bn_words(r.w + 8, 8);
        BN_mod_mul(X, A, B, P, ctx);
        expect_fp("fp_mul", i, o.mul, X);
        BN_mod_sqr(X, A, P, ctx);
        expect_fp("fp_sqr", i, o.sqr, X);
        BN_mod_add(X, A, B, P, ctx);
        expect_fp("fp_add", i, o.add, X);
        BN_mod_sub(X, A, B, P, ctx);
        expect_fp("fp_sub", i, o.sub, X);
        BN_mod_sub(X, P, A, P, ctx);
        expect_fp("fp_neg", i, o.neg, X);
        BN_nnmod(X, A, P, ctx);
        expect("fp_canon", i, o.canon, 8, X);
        int a_zero_p = BN_is_zero(X);
        if (a_zero_p)
            BN_zero(X);
        else
            BN_mod_inverse(X, X, P, ctx);
        expect_fp("fp_inv", i, o.inv, X);
        BN_mul(X, WLO, WHI, ctx);
        expect("mul_wide", i, o.wide, 16, X);
        BN_nnmod(X, W, P, ctx);
        expect_fp("fp_reduce", i, o.red, X);
        /* mod n: a and b as they are when below n, otherwise not checked
         * (the functions take canonical scalars) */
        if (BN_cmp(A, N) < 0 && BN_cmp(B, N) < 0) {
            BN_mod_add(X, A, B, N, ctx);
            expect("fn_add", i, o.nadd, 8, X);
            BN_mod_sub(X, A, B, N, ctx);
            expect("fn_sub", i, o.nsub, 8, X);
            BN_mod_mul(X, WLO, B, N, ctx);
            BN_mod_mul(X, X, RINV, N, ctx);
            expect("fn_mont_mul", i, o.nmont, 8, X);
        }
        BN_nnmod(X, WHI, N, ctx);
        expect("fn_reduce", i, o.nred, 8, X);
        BN_nnmod(X, W, N, ctx);
        expect("fn_reduce512", i, o.nred512, 8, X);
        uint32_t want[8];
        want[0] = BN_cmp(A, B) < 0 ? 0xFFFFFFFFu : 0;
        want[1] = BN_cmp(WLO, N) < 0 ? 0xFFFFFFFFu : 0;
        want[2] = BN_is_zero(A) ? 0xFFFFFFFFu : 0;
        want[3] = BN_cmp(A, B) == 0 ? 0xFFFFFFFFu : 0;
        BN_add(X, WLO, WHI);
        want[4] = (uint32_t)BN_is_bit_set(X, 256);
        want[5] = BN_cmp(WLO, WHI) < 0;
        want[6] = !BN_is_zero(A) && !BN_is_zero(B) && BN_cmp(A, N) < 0 && BN_cmp(B, N) < 0;
        want[7] = a_zero_p ? 0xFFFFFFFFu : 0;
        for (int k = 0; k < 8; k++)
            if (o.flags[k] != want[k]) {
                if (failed < 20)
                    fprintf(stderr, "sim_arith: record %d: flag %d = %08x, expected %08x\n", i, k, o.flags[k], want[k]);
                failed++;
            }
        BN_free(A), BN_free(B), BN_free(W), BN_free(WLO), BN_free(WHI);
    }
    BN_free(X), BN_free(R), BN_free(RINV), BN_free(P), BN_free(N);
    BN_CTX_free(ctx);
    if (failed) {
        fprintf(stderr, "sim_arith: %d results differ from OpenSSL\n", failed);
        return 1;
    }
    printf("sim_arith: %d records x 14 operations and 8 comparisons equal OpenSSL's, bit for bit\n", n);
    return 0;
}
