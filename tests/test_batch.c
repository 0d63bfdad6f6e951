/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The batch API: fastsm2_sign_digest_batch and fastsm2_verify_digest_batch
 * (GB/T 32918.2 6.1 A3-A7 and 7.1 B3-B7 for each item, spread over threads).
 *
 *  - every signature from a batch verifies with fastsm2_verify_digest against
 *    the right key and digest (and a few in OpenSSL's EVP_PKEY_verify), for
 *    one shared key and one key per item, over several sizes and thread
 *    counts (including 0 = all cores and more threads than items);
 *  - no byte is written outside sigs[0 .. 64n) or results[0 .. n);
 *  - batch verify of a mix with every third item bad (a byte of r or s
 *    flipped, the digest swapped, the wrong key, r = s = 0) gives exactly 1
 *    for the good items and 0 for the bad ones, the same as a loop of
 *    fastsm2_verify_digest calls;
 *  - bad arguments give FASTSM2_ERR_ARG and zeroed outputs;
 *  - nonces are fresh: the same digest signed twice gives two signatures;
 *  - a fresh public key (the batch makes tables in a copy of its own)
 *    verified by four threads at once gives the right answer for every
 *    item, and so do the single verifications and encryptions that follow,
 *    also while fastsm2_pubkey_precompute makes the key's own tables;
 *  - the kept helper threads (src/pool.c): a child after fork() signs a
 *    batch on several threads and exits (its exit joins no helper of the
 *    parent's: that would hang, which a time limit turns into a failure);
 *    two application threads calling batches at once both get right
 *    results (one of them runs without the pool).
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "protocol/protocol.h"
#include "testutil.h"

#define MAXN  200
#define GUARD 64 /* bytes past the end of every output that must stay untouched */

static const size_t sizes[] = {0, 1, 2, 3, 17, MAXN};
static const unsigned thread_counts[] = {1, 2, 3, 0, 1000};
#define NSIZES   (sizeof sizes / sizeof sizes[0])
#define NTHREADS (sizeof thread_counts / sizeof thread_counts[0])

static fastsm2_privkey keys[MAXN];
static fastsm2_pubkey pubs[MAXN];
static EVP_PKEY *ossl_keys[2]; /* OpenSSL copies of keys[0..1] */

static unsigned char digests[MAXN * 32];
static unsigned char sigs[MAXN * 64 + GUARD];
static int results[MAXN + GUARD];

static int all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

static int all_ints(const int *p, size_t n, int v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* ---------------------------------------------------------------------- */
/* OpenSSL                                                                 */
/* ---------------------------------------------------------------------- */

/* The OpenSSL key for keys[i], loaded from our PKCS#8 DER. */
static EVP_PKEY *ossl_from_ours(const fastsm2_privkey *key)
{
    unsigned char der[512];
    size_t derlen = sizeof der;
    if (fastsm2_privkey_serialize(der, &derlen, key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER) != FASTSM2_OK)
        return NULL;
    const unsigned char *p = der;
    EVP_PKEY *pk = d2i_AutoPrivateKey(NULL, &p, (long)derlen);
    if (pk && p != der + derlen) {
        EVP_PKEY_free(pk);
        pk = NULL;
    }
    ERR_clear_error();
    return pk;
}

/* 1 if OpenSSL accepts raw r||s on the 32-byte digest e under pk. */
static int ossl_verify_digest(EVP_PKEY *pk, const unsigned char e[32], const unsigned char sig[64])
{
    unsigned char der[FASTSM2_SIG_DER_MAX];
    size_t derlen = sizeof der;
    if (fastsm2_sig_to_der(der, &derlen, sig) != FASTSM2_OK)
        return 0;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
    int ok = c && EVP_PKEY_verify_init(c) > 0 && EVP_PKEY_verify(c, der, derlen, e, 32) == 1;
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return ok;
}

/* ---------------------------------------------------------------------- */
/* Signing                                                                 */
/* ---------------------------------------------------------------------- */

static unsigned long n_ossl_checked;

static void test_sign_batches(void)
{
    for (size_t si = 0; si < NSIZES; si++) {
        size_t n = sizes[si];
        for (int per_item = 0; per_item < 2; per_item++) {
            size_t nkeys = per_item ? n : 1;
            if (nkeys == 0)
                continue; /* n = 0 with nkeys = 0: covered in test_empty */
            for (size_t ti = 0; ti < NTHREADS; ti++) {
                unsigned threads = thread_counts[ti];
                fs2t_rand_bytes(digests, 32 * n);
                memset(sigs, 0xA5, sizeof sigs);
                int ret = fastsm2_sign_digest_batch(sigs, keys, nkeys, digests, n, threads);
                CHECK_STATUS(ret, FASTSM2_OK);
                CHECK(all_bytes(sigs + 64 * n, GUARD, 0xA5));
                if (ret != FASTSM2_OK)
                    continue;
                size_t bad = 0;
                for (size_t i = 0; i < n; i++) {
                    const fastsm2_pubkey *pub = &pubs[per_item ? i : 0];
                    if (fastsm2_verify_digest(pub, digests + 32 * i, sigs + 64 * i) != 1)
                        bad++;
                    /* and it must not verify for another digest */
                    unsigned char e2[32];
                    memcpy(e2, digests + 32 * i, 32);
                    e2[i % 32] ^= 0x01;
                    if (fastsm2_verify_digest(pub, e2, sigs + 64 * i) != 0)
                        bad++;
                }
                CHECK(bad == 0);
                if (bad)
                    fprintf(stderr, "  sign batch n=%zu nkeys=%zu threads=%u: %zu bad signatures\n", n, nkeys, threads,
                            bad);
                /* a few in OpenSSL: the first, the last, and one in the middle */
                if (n >= 3 && (threads == 0 || threads == 3)) {
                    size_t pick[3] = {0, n / 2, n - 1};
                    for (int k = 0; k < 3; k++) {
                        size_t i = pick[k];
                        EVP_PKEY *pk = ossl_from_ours(&keys[per_item ? i : 0]);
                        CHECK(pk != NULL);
                        if (!pk)
                            continue;
                        CHECK(ossl_verify_digest(pk, digests + 32 * i, sigs + 64 * i));
                        EVP_PKEY_free(pk);
                        n_ossl_checked++;
                    }
                }
            }
        }
    }
}

/* Two signatures of one digest by one key must differ (fresh k), within a
 * batch and across batches. */
static void test_fresh_nonces(void)
{
    unsigned char e[32];
    fs2t_rand_bytes(e, 32);
    unsigned char d4[4 * 32];
    for (int i = 0; i < 4; i++)
        memcpy(d4 + 32 * i, e, 32);
    unsigned char s4[4 * 64], s4b[4 * 64];
    CHECK_STATUS(fastsm2_sign_digest_batch(s4, keys, 1, d4, 4, 2), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest_batch(s4b, keys, 1, d4, 4, 1), FASTSM2_OK);
    for (int i = 0; i < 4; i++) {
        CHECK(fastsm2_verify_digest(&pubs[0], e, s4 + 64 * i) == 1);
        CHECK(fastsm2_verify_digest(&pubs[0], e, s4b + 64 * i) == 1);
        CHECK(memcmp(s4 + 64 * i, s4b + 64 * i, 32) != 0); /* r differs */
        for (int j = 0; j < i; j++) {
            CHECK(memcmp(s4 + 64 * i, s4 + 64 * j, 32) != 0);
            CHECK(memcmp(s4 + 64 * i + 32, s4 + 64 * j + 32, 32) != 0);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Verifying                                                               */
/* ---------------------------------------------------------------------- */

static fastsm2_pubkey vpubs[MAXN];
static unsigned char vdigests[MAXN * 32];
static unsigned char vsigs[MAXN * 64];

/* Fill vdigests/vsigs/vpubs with n items, every third one bad; returns the
 * expected result of item i in want[i]. npubs is 1 or n. */
static int make_mix(int *want, size_t n, size_t npubs)
{
    fs2t_rand_bytes(vdigests, 32 * n);
    if (fastsm2_sign_digest_batch(vsigs, keys, npubs, vdigests, n, 0) != FASTSM2_OK)
        return 0;
    for (size_t i = 0; i < npubs; i++)
        vpubs[i] = pubs[i];
    for (size_t i = 0; i < n; i++) {
        want[i] = 1;
        if (i % 3 != 2)
            continue;
        want[i] = 0;
        unsigned char *s = vsigs + 64 * i;
        unsigned char *e = vdigests + 32 * i;
        switch ((i / 3) % 6) {
        case 0: /* a byte of r */ s[fs2t_rand_u64() % 32] ^= (unsigned char)(1u << (fs2t_rand_u64() % 8)); break;
        case 1: /* a byte of s */ s[32 + fs2t_rand_u64() % 32] ^= (unsigned char)(1u << (fs2t_rand_u64() % 8)); break;
        case 2: /* swap the digest with the previous (good) item's */
        {
            unsigned char t[32];
            memcpy(t, e, 32);
            memcpy(e, e - 32, 32);
            memcpy(e - 32, t, 32);
            /* the previous item now has this one's digest: also bad */
            want[i - 1] = 0;
            break;
        }
        case 3: /* the wrong key (only possible with one key per item) */
            if (npubs == n)
                vpubs[i] = pubs[(i + 1) % n];
            else
                e[0] ^= 0x80;
            break;
        case 4: /* r = s = 0 */ memset(s, 0, 64); break;
        default: /* r and s = 2^256 - 1 (out of range) */ memset(s, 0xFF, 64); break;
        }
    }
    return 1;
}

static void test_verify_batches(void)
{
    static int want[MAXN];
    for (size_t si = 0; si < NSIZES; si++) {
        size_t n = sizes[si];
        if (n == 0)
            continue;
        for (int per_item = 0; per_item < 2; per_item++) {
            size_t npubs = per_item ? n : 1;
            if (!make_mix(want, n, npubs)) {
                CHECK(!"make_mix: signing failed");
                continue;
            }
            /* reference: a loop of single calls; it must agree with want */
            static int loop[MAXN];
            for (size_t i = 0; i < n; i++)
                loop[i] = fastsm2_verify_digest(&vpubs[npubs == 1 ? 0 : i], vdigests + 32 * i, vsigs + 64 * i);
            CHECK(memcmp(loop, want, n * sizeof(int)) == 0);
            for (size_t ti = 0; ti < NTHREADS; ti++) {
                unsigned threads = thread_counts[ti];
                for (size_t i = 0; i < MAXN + GUARD; i++)
                    results[i] = 0x5A5A;
                CHECK_STATUS(fastsm2_verify_digest_batch(results, vpubs, npubs, vdigests, vsigs, n, threads),
                             FASTSM2_OK);
                size_t bad = 0;
                for (size_t i = 0; i < n; i++)
                    if (results[i] != want[i] || (results[i] != 0 && results[i] != 1))
                        bad++;
                CHECK(bad == 0);
                if (bad)
                    fprintf(stderr, "  verify batch n=%zu npubs=%zu threads=%u: %zu wrong results\n", n, npubs, threads,
                            bad);
                CHECK(memcmp(results, loop, n * sizeof(int)) == 0);
                CHECK(all_ints(results + n, MAXN + GUARD - n, 0x5A5A));
            }
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Empty batches and bad arguments                                         */
/* ---------------------------------------------------------------------- */

static void *precompute_main(void *arg)
{
    return (void *)(intptr_t)fastsm2_pubkey_precompute(arg);
}

static void test_fresh_key_race(void)
{
    enum { N = 64 };
    static unsigned char d[N * 32], sg[N * 64];
    int res[N];
    fs2t_rand_bytes(d, sizeof d);
    CHECK_STATUS(fastsm2_sign_digest_batch(sg, &keys[0], 1, d, N, 1), FASTSM2_OK);
    sg[64 * 5 + 3] ^= 1; /* item 5 bad */
    for (int round = 0; round < 16; round++) {
        fastsm2_pubkey fresh;
        CHECK_STATUS(fastsm2_privkey_pubkey(&fresh, &keys[0]), FASTSM2_OK);
        /* odd rounds: another thread makes the key's tables meanwhile */
        pthread_t th;
        if (round & 1)
            CHECK(pthread_create(&th, NULL, precompute_main, &fresh) == 0);
        memset(res, 0xAA, sizeof res);
        CHECK_STATUS(fastsm2_verify_digest_batch(res, &fresh, 1, d, sg, N, 4), FASTSM2_OK);
        for (int i = 0; i < N; i++)
            CHECK(res[i] == (i != 5));
        for (int i = 0; i < 8; i++)
            CHECK(fastsm2_verify_digest(&fresh, d + 32 * i, sg + 64 * i) == (i != 5));
        if (round & 1) {
            void *ret = (void *)1;
            pthread_join(th, &ret);
            CHECK(ret == (void *)(intptr_t)FASTSM2_OK);
            CHECK(fs2_pub_tables(fs2_pub_get(&fresh)) != NULL);
        } else {
            CHECK(fs2_pub_tables(fs2_pub_get(&fresh)) == NULL); /* no call made them */
        }
        /* encryption with the same object, then decryption */
        unsigned char ct[200], pt[16];
        size_t ctlen = sizeof ct, ptlen = sizeof pt;
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &fresh, "fresh key", 9, FASTSM2_CT_RAW), FASTSM2_OK);
        CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &keys[0], ct, ctlen, FASTSM2_CT_RAW), FASTSM2_OK);
        CHECK(ptlen == 9 && memcmp(pt, "fresh key", 9) == 0);
    }
}

/* n items signed in one batch on `threads` threads, each checked with
 * fastsm2_verify_digest; 1 if all are right. */
static int batch_signs_right(size_t n, unsigned threads)
{
    static _Thread_local unsigned char d[64 * 32], sg[64 * 64];
    static _Thread_local unsigned salt;
    if (n > 64)
        return 0;
    salt++; /* the digests need not be random; the test's generator is not thread-safe */
    for (size_t i = 0; i < 32 * n; i++)
        d[i] = (unsigned char)(i * 29 + salt * 7);
    if (fastsm2_sign_digest_batch(sg, &keys[1], 1, d, n, threads) != FASTSM2_OK)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (fastsm2_verify_digest(&pubs[1], d + 32 * i, sg + 64 * i) != 1)
            return 0;
    return 1;
}

static void test_pool_fork(void)
{
    if (getenv("FS2T_QEMU_USER")) { /* set by tests/harness/test-aarch64.sh */
        fprintf(stderr, "test_pool_fork: skipped: qemu-user cannot start threads in the child of a "
                        "multithreaded process (the native runs cover it)\n");
        return;
    }
    /* the parent's helpers exist (earlier tests ran batches on threads) */
    CHECK(batch_signs_right(64, 3));
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        alarm(60); /* a hang in the child becomes SIGALRM */
        int ok = batch_signs_right(64, 3) && batch_signs_right(40, 2);
        exit(ok ? 0 : 1); /* exit runs the library's destructor */
    }
    CHECK(batch_signs_right(64, 2)); /* the parent's pool still works */
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void *concurrent_caller(void *arg)
{
    int *ok = arg;
    for (int i = 0; i < 20; i++)
        *ok &= batch_signs_right(33, 2);
    return NULL;
}

static void test_pool_concurrent(void)
{
    pthread_t t[2];
    int ok[2] = {1, 1};
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, concurrent_caller, &ok[i]) == 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK(ok[0] && ok[1]);
}

static void test_empty(void)
{
    unsigned char s[64];
    int r[1] = {0x5A5A};
    unsigned char e[32] = {1};
    CHECK_STATUS(fastsm2_sign_digest_batch(s, keys, 1, e, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest_batch(s, keys, 0, e, 0, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(r, pubs, 1, e, s, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(r, pubs, 0, e, s, 0, 0), FASTSM2_OK);
    CHECK(r[0] == 0x5A5A); /* nothing written */
    /* An array of zero items may be NULL (n = 0: sigs, digests, results;
     * nkeys = npubs = 0); the one key of nkeys = 1 may not. */
    CHECK_STATUS(fastsm2_sign_digest_batch(NULL, keys, 1, e, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest_batch(NULL, keys, 1, NULL, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest_batch(NULL, NULL, 0, NULL, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest_batch(s, NULL, 1, e, 0, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_verify_digest_batch(NULL, pubs, 1, e, s, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(NULL, pubs, 1, NULL, NULL, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(NULL, NULL, 0, NULL, NULL, 0, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(r, NULL, 1, e, s, 0, 1), FASTSM2_ERR_ARG);
    CHECK(r[0] == 0x5A5A);
}

static void test_sign_bad_args(void)
{
    const size_t n = 3;
    fs2t_rand_bytes(digests, 32 * n);
    const size_t bad_nkeys[] = {0, 2, 4, 17};
    for (size_t i = 0; i < sizeof bad_nkeys / sizeof bad_nkeys[0]; i++) {
        memset(sigs, 0xA5, sizeof sigs);
        CHECK_STATUS(fastsm2_sign_digest_batch(sigs, keys, bad_nkeys[i], digests, n, 2), FASTSM2_ERR_ARG);
        CHECK(all_bytes(sigs, 64 * n, 0));
        CHECK(all_bytes(sigs + 64 * n, GUARD, 0xA5));
    }
    /* NULL pointers */
    CHECK_STATUS(fastsm2_sign_digest_batch(NULL, keys, 1, digests, n, 2), FASTSM2_ERR_ARG);
    memset(sigs, 0xA5, sizeof sigs);
    CHECK_STATUS(fastsm2_sign_digest_batch(sigs, NULL, 1, digests, n, 2), FASTSM2_ERR_ARG);
    CHECK(all_bytes(sigs, 64 * n, 0));
    memset(sigs, 0xA5, sizeof sigs);
    CHECK_STATUS(fastsm2_sign_digest_batch(sigs, keys, n, NULL, n, 2), FASTSM2_ERR_ARG);
    CHECK(all_bytes(sigs, 64 * n, 0));
    CHECK(all_bytes(sigs + 64 * n, GUARD, 0xA5));

    /* a zeroed (never initialised) key object: shared, or one of many in
     * any position, over several thread counts */
    static fastsm2_privkey bk[MAXN];
    fastsm2_privkey zero;
    memset(&zero, 0, sizeof zero);
    memset(sigs, 0xA5, sizeof sigs);
    CHECK_STATUS(fastsm2_sign_digest_batch(sigs, &zero, 1, digests, n, 2), FASTSM2_ERR_ARG);
    CHECK(all_bytes(sigs, 64 * n, 0));
    const size_t m = 17;
    fs2t_rand_bytes(digests, 32 * m);
    const size_t positions[] = {0, 8, 16};
    for (size_t pi = 0; pi < 3; pi++) {
        for (size_t ti = 0; ti < NTHREADS; ti++) {
            memcpy(bk, keys, m * sizeof keys[0]);
            memset(&bk[positions[pi]], 0, sizeof bk[0]);
            memset(sigs, 0xA5, sizeof sigs);
            CHECK_STATUS(fastsm2_sign_digest_batch(sigs, bk, m, digests, m, thread_counts[ti]), FASTSM2_ERR_ARG);
            CHECK(all_bytes(sigs, 64 * m, 0));
            CHECK(all_bytes(sigs + 64 * m, GUARD, 0xA5));
        }
    }
    /* a cleared key is no key either */
    memcpy(bk, keys, m * sizeof keys[0]);
    fastsm2_privkey_clear(&bk[m - 1]);
    memset(sigs, 0xA5, sizeof sigs);
    CHECK_STATUS(fastsm2_sign_digest_batch(sigs, bk, m, digests, m, 0), FASTSM2_ERR_ARG);
    CHECK(all_bytes(sigs, 64 * m, 0));
}

static void test_verify_bad_args(void)
{
    static int want[MAXN];
    const size_t n = 3;
    if (!make_mix(want, n, n)) {
        CHECK(!"make_mix: signing failed");
        return;
    }
    const size_t bad_npubs[] = {0, 2, 4, 17};
    for (size_t i = 0; i < sizeof bad_npubs / sizeof bad_npubs[0]; i++) {
        for (size_t j = 0; j < MAXN + GUARD; j++)
            results[j] = 0x5A5A;
        CHECK_STATUS(fastsm2_verify_digest_batch(results, vpubs, bad_npubs[i], vdigests, vsigs, n, 2), FASTSM2_ERR_ARG);
        CHECK(all_ints(results, n, 0));
        CHECK(all_ints(results + n, GUARD, 0x5A5A));
    }
    CHECK_STATUS(fastsm2_verify_digest_batch(NULL, vpubs, n, vdigests, vsigs, n, 2), FASTSM2_ERR_ARG);
    for (int which = 0; which < 3; which++) {
        for (size_t j = 0; j < MAXN + GUARD; j++)
            results[j] = 0x5A5A;
        CHECK_STATUS(fastsm2_verify_digest_batch(results, which == 0 ? NULL : vpubs, n, which == 1 ? NULL : vdigests,
                                                 which == 2 ? NULL : vsigs, n, 2),
                     FASTSM2_ERR_ARG);
        CHECK(all_ints(results, n, 0));
        CHECK(all_ints(results + n, GUARD, 0x5A5A));
    }

    /* a zeroed public key object among good ones, in any position: not a
     * key, so the call refuses (FASTSM2_ERR_ARG, results zeroed), as the
     * signing batch does for a zeroed private key; a single verification
     * with it gives 0 */
    const size_t m = 17;
    if (!make_mix(want, m, m)) {
        CHECK(!"make_mix: signing failed");
        return;
    }
    memset(&vpubs[5], 0, sizeof vpubs[5]);
    want[5] = 0;
    CHECK(fastsm2_verify_digest(&vpubs[5], vdigests + 5 * 32, vsigs + 5 * 64) == 0);
    for (size_t ti = 0; ti < NTHREADS; ti++) {
        for (size_t j = 0; j < MAXN + GUARD; j++)
            results[j] = 0x5A5A;
        CHECK_STATUS(fastsm2_verify_digest_batch(results, vpubs, m, vdigests, vsigs, m, thread_counts[ti]),
                     FASTSM2_ERR_ARG);
        CHECK(all_ints(results, m, 0));
        CHECK(all_ints(results + m, GUARD, 0x5A5A));
    }
    const size_t zpos[] = {0, m - 1};
    for (size_t zi = 0; zi < 2; zi++) {
        if (!make_mix(want, m, m)) {
            CHECK(!"make_mix: signing failed");
            return;
        }
        memset(&vpubs[zpos[zi]], 0, sizeof vpubs[0]);
        for (size_t j = 0; j < MAXN + GUARD; j++)
            results[j] = 0x5A5A;
        CHECK_STATUS(fastsm2_verify_digest_batch(results, vpubs, m, vdigests, vsigs, m, 2), FASTSM2_ERR_ARG);
        CHECK(all_ints(results, m, 0));
        CHECK(all_ints(results + m, GUARD, 0x5A5A));
    }
    /* the same with the key good again: it runs, results as single calls */
    if (!make_mix(want, m, m)) {
        CHECK(!"make_mix: signing failed");
        return;
    }
    for (size_t j = 0; j < MAXN + GUARD; j++)
        results[j] = 0x5A5A;
    CHECK_STATUS(fastsm2_verify_digest_batch(results, vpubs, m, vdigests, vsigs, m, 2), FASTSM2_OK);
    CHECK(memcmp(results, want, m * sizeof(int)) == 0);
    /* a zeroed shared public key: refused, nothing verifies */
    fastsm2_pubkey zp;
    memset(&zp, 0, sizeof zp);
    for (size_t j = 0; j < MAXN + GUARD; j++)
        results[j] = 0x5A5A;
    CHECK_STATUS(fastsm2_verify_digest_batch(results, &zp, 1, vdigests, vsigs, m, 3), FASTSM2_ERR_ARG);
    CHECK(all_ints(results, m, 0));
    CHECK(all_ints(results + m, GUARD, 0x5A5A));
}

/* NULL pointers with n = 1; nkeys / npubs other than 1 or n. */
static void test_null_pointers(void)
{
    const int A = FASTSM2_ERR_ARG;
    const fastsm2_privkey *key = &keys[0];
    const fastsm2_pubkey *pub = &pubs[0];
    unsigned char e[32] = {9}, sig[64], buf[512];
    int res[2];
    CHECK_STATUS(fastsm2_sign_digest(sig, key, e), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest_batch(NULL, key, 1, e, 1, 1), A);
    CHECK_STATUS(fastsm2_sign_digest_batch(buf, NULL, 1, e, 1, 1), A);
    CHECK_STATUS(fastsm2_sign_digest_batch(buf, key, 1, NULL, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(NULL, pub, 1, e, sig, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(res, NULL, 1, e, sig, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(res, pub, 1, NULL, sig, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(res, pub, 1, e, NULL, 1, 1), A);
    /* nkeys / npubs must be 1 or n. */
    {
        unsigned char ds[3 * 32] = {1}, s3[3 * 64];
        fastsm2_privkey k2[2] = {*key, *key};
        fastsm2_pubkey p2[2] = {*pub, *pub};
        int r3[3];
        memset(s3, 0xAA, sizeof s3);
        CHECK_STATUS(fastsm2_sign_digest_batch(s3, k2, 2, ds, 3, 1), A);
        CHECK(all_bytes(s3, sizeof s3, 0));
        CHECK_STATUS(fastsm2_verify_digest_batch(r3, p2, 2, ds, s3, 3, 1), A);
    }
}

/* Without a usable GPU (no CUDA build, or no device here) every GPU call
 * names the reason, makes no context and leaves zeroed outputs. */
static void test_gpu_unavailable(void)
{
    if (fastsm2_gpu_device_count() > 0)
        return; /* a device: tests/gpu/test_gpu_device.c covers it */
    fastsm2_gpu *ctx = (fastsm2_gpu *)&ctx;
    CHECK_STATUS(fastsm2_gpu_new(&ctx, 0, 0), FASTSM2_ERR_UNSUPPORTED);
    CHECK(ctx == NULL);
    CHECK_STATUS(fastsm2_gpu_new(&ctx, 0, FASTSM2_GPU_CONSTANT_TIME), FASTSM2_ERR_UNSUPPORTED);
    CHECK(ctx == NULL);
    CHECK(fastsm2_gpu_device_name(NULL) != NULL);
    unsigned char e[2 * 32] = {1}, gsigs[2 * 64], pub[2 * 65], d[2 * 32] = {0, 1};
    int res[2] = {7, 7};
    memset(gsigs, 0xAA, sizeof gsigs);
    memset(pub, 0xAA, sizeof pub);
    /* no context: ARG from a build with CUDA (the NULL context is the
     * caller's error), UNSUPPORTED from one without (tests/CMakeLists.txt
     * says which this is) */
#if defined(FS2T_WITH_CUDA)
    const int no_ctx = FASTSM2_ERR_ARG;
#else
    const int no_ctx = FASTSM2_ERR_UNSUPPORTED;
#endif
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(NULL, gsigs, &keys[0], 1, e, 2), no_ctx);
    CHECK(all_bytes(gsigs, sizeof gsigs, 0));
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(NULL, res, &pubs[0], 1, e, gsigs, 2), no_ctx);
    CHECK(all_ints(res, 2, 0));
    CHECK_STATUS(fastsm2_gpu_keygen_batch(NULL, pub, d, 2), no_ctx);
    CHECK(all_bytes(pub, sizeof pub, 0));
    fastsm2_gpu_free(NULL);
}

int main(void)
{
    for (size_t i = 0; i < MAXN; i++) {
        if (fastsm2_privkey_generate(&keys[i]) != FASTSM2_OK ||
            fastsm2_privkey_pubkey(&pubs[i], &keys[i]) != FASTSM2_OK) {
            fprintf(stderr, "key generation failed\n");
            return 2;
        }
    }
    for (int i = 0; i < 2; i++) {
        ossl_keys[i] = ossl_from_ours(&keys[i]);
        if (!ossl_keys[i]) {
            fprintf(stderr, "OpenSSL could not load our PKCS#8 key\n");
            return 2;
        }
    }
    /* sanity: OpenSSL rejects a signature on another digest, so the OpenSSL
     * checks below can fail */
    {
        unsigned char e[32], s[64];
        fs2t_rand_bytes(e, 32);
        CHECK_STATUS(fastsm2_sign_digest(s, &keys[0], e), FASTSM2_OK);
        CHECK(ossl_verify_digest(ossl_keys[0], e, s));
        e[31] ^= 1;
        CHECK(!ossl_verify_digest(ossl_keys[0], e, s));
        e[31] ^= 1;
        CHECK(!ossl_verify_digest(ossl_keys[1], e, s));
    }

    test_sign_batches();
    CHECK(n_ossl_checked > 0);
    test_fresh_nonces();
    test_verify_batches();
    test_fresh_key_race();
    test_pool_fork();
    test_pool_concurrent();
    test_empty();
    test_sign_bad_args();
    test_verify_bad_args();
    test_null_pointers();
    test_gpu_unavailable();

    for (int i = 0; i < 2; i++)
        EVP_PKEY_free(ossl_keys[i]);
    for (size_t i = 0; i < MAXN; i++)
        fastsm2_privkey_clear(&keys[i]);
    return fs2t_finish("test_batch");
}
