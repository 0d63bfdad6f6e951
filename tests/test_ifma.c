/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The avx512-ifma EC table (src/ec/ifma/, eight lanes of AVX-512 IFMA)
 * against the portable generic table, bit for bit, over many random and
 * edge inputs (seed: FS2T_SEED):
 *
 *  - mul_base_batch (signing's and key generation's kG, GB/T 32918.2
 *    clause 6.1 A3) for groups of 1..16 scalars, random or from the edges
 *    (0, 1, 2, n-1, n-2, every 7-bit window at its largest or at 64, the
 *    signed-digit carries), each point equal to generic's mul_base;
 *  - mul_public_cmp_x_batch_var (verification's x(sG + tP) mod n = v,
 *    clause 7.1 B6-B7) for groups of 1..8, each answer equal to generic's
 *    mul_public_cmp_x_var: real signatures (answer 1), the same with v
 *    changed (0), random s, t and v, keys with and without their cached
 *    tables, and the sums the incomplete addition cannot make (sG + tP at
 *    infinity, and sG = tP along the way: P = G, t = -s or t = s);
 *  - the whole batch API on the avx512-ifma backend: signatures verify on
 *    the generic backend, and batch verification of a mix of good and bad
 *    signatures equals generic's one-at-a-time answers.
 *
 * A CPU without AVX-512 IFMA cannot run the table: the test says so and
 * passes without testing it (make test-x86-cpus runs the suite on such
 * CPU models).
 */
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "cpu.h"
#include "ec/ec.h"
#include "field/u256.h"
#include "protocol/protocol.h"
#include "testutil.h"

#if defined(__x86_64__)
static const fs2_ec_ops *gen_ec = &fs2_ec_ops_generic, *ifma = &fs2_ec_ops_avx512ifma;

static int affine_eq(const fs2_affine *a, const fs2_affine *b)
{
    return a->infinity == b->infinity && !memcmp(a->x, b->x, 32) && !memcmp(a->y, b->y, 32);
}

/* r = a - b mod 2^256 (small b: the edges below n) */
static void sub_small(uint64_t r[4], const uint64_t a[4], uint64_t b)
{
    uint64_t borrow = b;
    for (int i = 0; i < 4; i++) {
        uint64_t v = a[i] - borrow;
        borrow = a[i] < borrow;
        r[i] = v;
    }
}

static int lt_n(const uint64_t k[4])
{
    for (int i = 3; i >= 0; i--)
        if (k[i] != FS2_N[i])
            return k[i] < FS2_N[i];
    return 0;
}

/* A scalar < n: random, or one of the edges (case c). */
static void scalar_pick(uint64_t k[4], unsigned c)
{
    memset(k, 0, 32);
    switch (c % 12) {
    case 0:
        k[0] = c / 12 % 3; /* 0, 1, 2 */
        return;
    case 1:
        sub_small(k, FS2_N, 1 + c / 12 % 4); /* n-1 .. n-4 */
        return;
    case 2: /* every 7-bit window 64 (the largest positive digit), or 63 */
        for (int b = 0; b < 256; b += 7)
            for (int j = 0; j < 7 && b + j < 256; j++)
                if (((c / 12 % 2 ? 63u : 64u) >> j) & 1)
                    k[(b + j) / 64] |= 1ULL << ((b + j) % 64);
        if (!lt_n(k))
            k[3] &= 0x7FFFFFFFFFFFFFFFULL;
        return;
    case 3: /* every window 65: every digit negative, carries all the way */
        for (int b = 0; b < 256; b += 7)
            for (int j = 0; j < 7 && b + j < 256; j++)
                if ((65u >> j) & 1)
                    k[(b + j) / 64] |= 1ULL << ((b + j) % 64);
        k[3] &= 0x7FFFFFFFFFFFFFFFULL;
        return;
    case 4: /* one bit */ k[c / 12 % 4] = 1ULL << (c % 64); return;
    default:
        do {
            for (int i = 0; i < 4; i++)
                k[i] = fs2t_rand_u64();
            if (c % 12 == 5) /* sparse: most windows zero */
                for (int i = 0; i < 4; i++)
                    k[i] &= fs2t_rand_u64() & fs2t_rand_u64() & fs2t_rand_u64();
        } while (!lt_n(k));
    }
}

static void test_mul_base_batch(void)
{
    unsigned long groups = 0;
    for (unsigned round = 0; round < 400; round++) {
        size_t m = 1 + round % FS2_MUL_BASE_BATCH_MAX;
        uint64_t k[FS2_MUL_BASE_BATCH_MAX][4];
        fs2_affine got[FS2_MUL_BASE_BATCH_MAX], want;
        for (size_t i = 0; i < m; i++)
            scalar_pick(k[i], round < 48 ? round : (unsigned)(fs2t_rand_u64() % 1000));
        ifma->mul_base_batch(got, (const uint64_t(*)[4])k, m);
        for (size_t i = 0; i < m; i++) {
            gen_ec->mul_base(&want, k[i]);
            CHECK(affine_eq(&got[i], &want));
            CHECK(got[i].infinity == (uint64_t) !(k[i][0] | k[i][1] | k[i][2] | k[i][3]));
        }
        groups++;
    }
    printf("test_ifma: mul_base_batch, %lu groups against generic mul_base\n", groups);
}

/* A public key of secret d (random, or d = 1: P = G) with its tables. */
typedef struct {
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2_pubtab tab;
} test_key;

static void make_key(test_key *k, int d_is_one)
{
    if (d_is_one) {
        unsigned char d[32] = {0};
        d[31] = 1;
        CHECK_STATUS(fastsm2_privkey_from_bytes(&k->key, d), FASTSM2_OK);
    } else {
        CHECK_STATUS(fastsm2_privkey_generate(&k->key), FASTSM2_OK);
    }
    CHECK_STATUS(fastsm2_privkey_pubkey(&k->pub, &k->key), FASTSM2_OK);
    gen_ec->precompute_var(&k->tab, &fs2_pub_get(&k->pub)->pub.pt);
}

static void test_cmp_x_batch(void)
{
    static test_key keys[4];
    unsigned long items = 0, ones = 0;
    for (int i = 0; i < 4; i++)
        make_key(&keys[i], i == 3);
    for (unsigned round = 0; round < 300; round++) {
        size_t m = 1 + round % FS2_CMP_X_BATCH_MAX;
        uint64_t s[FS2_CMP_X_BATCH_MAX][4], t[FS2_CMP_X_BATCH_MAX][4], v[FS2_CMP_X_BATCH_MAX][4];
        const fs2_affine *pts[FS2_CMP_X_BATCH_MAX];
        const fs2_pubtab *tabs[FS2_CMP_X_BATCH_MAX];
        int ok[FS2_CMP_X_BATCH_MAX];
        for (size_t i = 0; i < m; i++) {
            unsigned kind = (unsigned)(fs2t_rand_u64() % 8);
            test_key *k = &keys[kind == 5 || kind == 6 ? 3 : fs2t_rand_u64() % 3];
            pts[i] = &fs2_pub_get(&k->pub)->pub.pt;
            tabs[i] = fs2t_rand_u64() % 5 ? &k->tab : NULL;
            if (kind <= 2) { /* a real signature; kind 2: v off by one */
                unsigned char e[32], sig[64];
                fs2t_rand_bytes(e, sizeof e);
                CHECK_STATUS(fastsm2_sign_digest(sig, &k->key, e), FASTSM2_OK);
                CHECK_STATUS(fs2_verify_prepare(s[i], t[i], v[i], e, sig), FASTSM2_OK);
                if (kind == 2)
                    v[i][0] ^= 1;
            } else if (kind <= 4) { /* random */
                scalar_pick(s[i], 5 + (unsigned)(fs2t_rand_u64() % 7));
                scalar_pick(t[i], 5 + (unsigned)(fs2t_rand_u64() % 7));
                scalar_pick(v[i], 6);
            } else if (kind == 5) { /* P = G, t = n - s: sG + tP = infinity */
                scalar_pick(s[i], 6);
                uint64_t c = 0;
                for (int j = 0; j < 4; j++) { /* t = n - s */
                    uint64_t a = FS2_N[j], b = s[i][j];
                    t[i][j] = a - b - c;
                    c = (a < b) | ((a == b) & c);
                }
                scalar_pick(v[i], 6);
            } else if (kind == 6) { /* P = G, t = s: sG and tP meet (doubling) */
                scalar_pick(s[i], 5 + (unsigned)(fs2t_rand_u64() % 7));
                memcpy(t[i], s[i], 32);
                scalar_pick(v[i], 6);
            } else { /* edges */
                scalar_pick(s[i], (unsigned)(fs2t_rand_u64() % 60));
                scalar_pick(t[i], (unsigned)(fs2t_rand_u64() % 60));
                scalar_pick(v[i], (unsigned)(fs2t_rand_u64() % 60));
            }
        }
        ifma->mul_public_cmp_x_batch_var(ok, (const uint64_t(*)[4])s, (const uint64_t(*)[4])t, pts, tabs,
                                         (const uint64_t(*)[4])v, m);
        for (size_t i = 0; i < m; i++) {
            int want = gen_ec->mul_public_cmp_x_var(s[i], t[i], pts[i], tabs[i], v[i]);
            CHECK(ok[i] == want);
            ones += want == 1;
            items++;
        }
    }
    /* the real signatures came out 1: the comparison saw both answers */
    CHECK(ones > items / 8 && ones < items);
    printf("test_ifma: mul_public_cmp_x_batch_var, %lu items (%lu true) against generic\n", items, ones);
    for (int i = 0; i < 4; i++)
        fastsm2_privkey_clear(&keys[i].key);
}

/* The batch API on the avx512-ifma backend, checked on generic. */
static void test_api(void)
{
    enum { N = 53 };
    static fastsm2_privkey key[N];
    static fastsm2_pubkey pub[N];
    static unsigned char e[N * 32], sig[N * 64];
    int res[N], want[N];
    for (size_t i = 0; i < N; i++)
        fs2t_keypair(&key[i], &pub[i]);
    fs2t_rand_bytes(e, sizeof e);
    CHECK(fs2_backend_force("avx512-ifma"));
    CHECK_STATUS(fastsm2_sign_digest_batch(sig, key, N, e, N, 1), FASTSM2_OK);
    for (size_t i = 0; i < N; i += 3) /* every third signature bad */
        sig[64 * i + (i % 64)] ^= 0x20;
    CHECK_STATUS(fastsm2_verify_digest_batch(res, pub, N, e, sig, N, 2), FASTSM2_OK);
    CHECK(fs2_backend_force("generic"));
    for (size_t i = 0; i < N; i++) {
        want[i] = fs2t_vb(fastsm2_verify_digest(&pub[i], e + 32 * i, sig + 64 * i));
        CHECK(want[i] == (i % 3 != 0));
        CHECK(res[i] == want[i]);
    }
    for (size_t i = 0; i < N; i++)
        fastsm2_privkey_clear(&key[i]);
}

int main(void)
{
    if (!fs2_cpu_has(ifma->cpu_needs))
        return fs2t_skip("test_ifma", "this CPU has no AVX-512 IFMA, so the avx512-ifma backend is NOT tested here");
    test_mul_base_batch();
    test_cmp_x_batch();
    test_api();
    return fs2t_finish("test_ifma");
}
#else
int main(void)
{
    return fs2t_skip("test_ifma", "not x86-64: no avx512-ifma backend");
}
#endif
