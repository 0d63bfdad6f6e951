/* SPDX-License-Identifier: Apache-2.0 */
/* Batch entry points: many independent signatures / verifications
 * (GB/T 32918.2 clauses 6-7 for each item), spread over threads in chunks
 * (signing: groups of FS2_MUL_BASE_BATCH_MAX; verification: FS2_VERIFY_CHUNK
 * items) that the threads of src/pool.c claim one at a time. */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "protocol/protocol.h"

typedef struct {
    size_t n;
    /* sign */
    unsigned char *sigs;
    const fastsm2_privkey *keys;
    size_t nkeys;
    const unsigned char *digests;
    /* verify */
    int *results;
    const fastsm2_pubkey *pubs;
    size_t npubs;
    const unsigned char *vsigs;
    atomic_int status; /* FASTSM2_OK, or the first error met */
} batch_job;

/* Items a verification chunk takes (a signing chunk is one group). */
#define FS2_VERIFY_CHUNK FS2_CMP_X_BATCH_MAX

static void job_fail(batch_job *j, int ret)
{
    int ok = FASTSM2_OK;
    atomic_compare_exchange_strong(&j->status, &ok, ret);
}

/* Items [begin, begin + m) as one group (m <= FS2_MUL_BASE_BATCH_MAX): the
 * group's nonces come from one OS call and its points [k]G share one field
 * inversion (the EC table's mul_base_batch). An item whose nonce is out of
 * range or gives r = 0, r + k = n or s = 0 (probability about 2^-224) is
 * signed again alone with fresh nonces, as fastsm2_sign_digest does. */
static int sign_group(batch_job *j, size_t begin, size_t m)
{
    const fs2_ec_ops *ec = fs2_ec();
    unsigned char rnd[32 * FS2_MUL_BASE_BATCH_MAX];
    uint64_t k[FS2_MUL_BASE_BATCH_MAX][4], ok[FS2_MUL_BASE_BATCH_MAX];
    fs2_affine c[FS2_MUL_BASE_BATCH_MAX];
    int ret = FASTSM2_OK;

    for (size_t i = 0; i < m; i++) {
        const fastsm2_privkey *key = j->nkeys == 1 ? &j->keys[0] : &j->keys[begin + i];
        if (!fs2_priv_get(key))
            return FASTSM2_ERR_ARG;
    }
    if (!fs2_random_bytes(rnd, 32 * m))
        return FASTSM2_ERR_RANDOM;
    for (size_t i = 0; i < m; i++) {
        ok[i] = fs2_scalar_load_check(k[i], rnd + 32 * i, 0);
        fs2_declassify(&ok[i], sizeof ok[i]); /* only whether a draw was in range */
        if (!ok[i])
            memset(k[i], 0, sizeof k[i]);
    }
    if (ec->mul_base_batch)
        ec->mul_base_batch(c, (const uint64_t(*)[4])k, m);
    else
        for (size_t i = 0; i < m; i++)
            ec->mul_base(&c[i], k[i]);
    for (size_t i = 0; i < m && ret == FASTSM2_OK; i++) {
        size_t at = begin + i;
        const fastsm2_privkey *key = j->nkeys == 1 ? &j->keys[0] : &j->keys[at];
        unsigned char *sig = j->sigs + 64 * at;
        const unsigned char *e = j->digests + 32 * at;
        if (!ok[i] || fs2_sign_finish(sig, &fs2_priv_get(key)->dinv_m, e, k[i], &c[i]) != FASTSM2_OK)
            ret = fastsm2_sign_digest(sig, key, e);
    }
    fs2_wipe(rnd, sizeof rnd);
    fs2_wipe(k, sizeof k);
    fs2_wipe(c, sizeof c);
    return ret;
}

static void sign_chunk(void *arg, size_t chunk)
{
    batch_job *j = arg;
    size_t begin = chunk * FS2_MUL_BASE_BATCH_MAX;
    size_t m = j->n - begin < FS2_MUL_BASE_BATCH_MAX ? j->n - begin : FS2_MUL_BASE_BATCH_MAX;
    if (atomic_load(&j->status) != FASTSM2_OK)
        return; /* the call fails anyway */
    int ret = sign_group(j, begin, m);
    if (ret != FASTSM2_OK)
        job_fail(j, ret);
}

static void verify_chunk(void *arg, size_t chunk)
{
    batch_job *j = arg;
    const fs2_ec_ops *ec = fs2_ec();
    size_t begin = chunk * FS2_VERIFY_CHUNK;
    size_t end = begin + FS2_VERIFY_CHUNK < j->n ? begin + FS2_VERIFY_CHUNK : j->n;
    if (!ec->mul_public_cmp_x_batch_var) {
        for (size_t i = begin; i < end; i++) {
            const fastsm2_pubkey *p = j->npubs == 1 ? &j->pubs[0] : &j->pubs[i];
            j->results[i] = fastsm2_verify_digest(p, j->digests + 32 * i, j->vsigs + 64 * i);
        }
        return;
    }
    /* the items whose signatures pass the range checks, verified together */
    uint64_t s[FS2_VERIFY_CHUNK][4], t[FS2_VERIFY_CHUNK][4], v[FS2_VERIFY_CHUNK][4];
    const fs2_affine *pts[FS2_VERIFY_CHUNK];
    const fs2_pubtab *tabs[FS2_VERIFY_CHUNK];
    int ok[FS2_VERIFY_CHUNK];
    size_t at[FS2_VERIFY_CHUNK], m = 0;
    for (size_t i = begin; i < end; i++) {
        const fs2_pub *p = fs2_pub_get(j->npubs == 1 ? &j->pubs[0] : &j->pubs[i]);
        j->results[i] = 0;
        if (fs2_verify_prepare(s[m], t[m], v[m], j->digests + 32 * i, j->vsigs + 64 * i) != FASTSM2_OK)
            continue;
        pts[m] = &p->pub.pt;
        tabs[m] = fs2_pub_tables(p);
        at[m++] = i;
    }
    if (m)
        ec->mul_public_cmp_x_batch_var(ok, (const uint64_t(*)[4])s, (const uint64_t(*)[4])t, pts, tabs,
                                       (const uint64_t(*)[4])v, m);
    for (size_t q = 0; q < m; q++)
        j->results[at[q]] = ok[q] == 1;
}

static unsigned thread_count(unsigned threads)
{
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    return threads;
}

/* An array of count items: NULL is allowed only when it has none. */
static int array_ok(const void *p, size_t count)
{
    return p != NULL || count == 0;
}

int fastsm2_sign_digest_batch(unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                              const unsigned char *digests, size_t n, unsigned threads)
{
    if (!array_ok(sigs, n) || n > SIZE_MAX / 64)
        return FASTSM2_ERR_ARG;
    if (!(nkeys == 1 || nkeys == n) || !array_ok(keys, nkeys) || !array_ok(digests, n)) {
        if (sigs)
            memset(sigs, 0, 64 * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    batch_job proto = {.n = n, .sigs = sigs, .keys = keys, .nkeys = nkeys, .digests = digests};
    atomic_init(&proto.status, FASTSM2_OK);
    fs2_pool_run(sign_chunk, &proto, (n + FS2_MUL_BASE_BATCH_MAX - 1) / FS2_MUL_BASE_BATCH_MAX, thread_count(threads));
    int ret = atomic_load(&proto.status);
    if (ret != FASTSM2_OK)
        memset(sigs, 0, 64 * n);
    return ret;
}

int fastsm2_verify_digest_batch(int *results, const fastsm2_pubkey *pubs, size_t npubs, const unsigned char *digests,
                                const unsigned char *sigs, size_t n, unsigned threads)
{
    if (!array_ok(results, n) || n > SIZE_MAX / 64)
        return FASTSM2_ERR_ARG;
    if (!(npubs == 1 || npubs == n) || !array_ok(pubs, npubs) || !array_ok(digests, n) || !array_ok(sigs, n)) {
        if (results)
            memset(results, 0, sizeof(int) * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    /* A key object the library did not make is the caller's mistake, not
     * a signature that fails: refuse the call, as the signing batch does. */
    for (size_t i = 0; i < npubs; i++)
        if (!fs2_pub_get(&pubs[i])) {
            memset(results, 0, sizeof(int) * n);
            return FASTSM2_ERR_ARG;
        }
    /* One key for many items: verify against a copy with its tables made
     * (about half a verification; each one is then cheaper), as the
     * caller's key is not ours to write. */
    fastsm2_pubkey *own = NULL;
    if (npubs == 1 && n >= 4 && !fs2_pub_tables(fs2_pub_get(pubs)) && (own = malloc(sizeof *own)) != NULL) {
        memcpy(own, pubs, sizeof *own);
        ((fs2_pub *)own)->tab_state = 0; /* whatever was copied: made afresh */
        if (fastsm2_pubkey_precompute(own) == FASTSM2_OK)
            pubs = own;
    }
    batch_job proto = {.n = n, .results = results, .pubs = pubs, .npubs = npubs, .digests = digests, .vsigs = sigs};
    atomic_init(&proto.status, FASTSM2_OK);
    fs2_pool_run(verify_chunk, &proto, (n + FS2_VERIFY_CHUNK - 1) / FS2_VERIFY_CHUNK, thread_count(threads));
    free(own);
    return FASTSM2_OK;
}
