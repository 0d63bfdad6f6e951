/* SPDX-License-Identifier: Apache-2.0 */
/* Batch entry points: many independent signatures / verifications
 * (GB/T 32918.2 clauses 6-7 for each item), spread over threads. The GPU
 * and SIMD multi-buffer backends will slot in behind these signatures. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "protocol/protocol.h"

typedef struct {
    size_t begin, end;
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
    int status;
} batch_job;

/* Items [begin, end) in groups of FS2_GEN_MANY_MAX: the group's nonces
 * come from one OS call and its points [k]G share one field inversion
 * (the backend's ecmult_gen_many). An item whose nonce is out of range or
 * gives r = 0, r + k = n or s = 0 (probability about 2^-224) is signed
 * again alone with fresh nonces, as fastsm2_sign_digest does. */
static int sign_group(batch_job *j, size_t begin, size_t m)
{
    const fs2_backend *be = fs2_backend_get();
    unsigned char rnd[32 * FS2_GEN_MANY_MAX];
    uint64_t k[FS2_GEN_MANY_MAX][4], ok[FS2_GEN_MANY_MAX];
    fs2_affine c[FS2_GEN_MANY_MAX];
    fs2_sc dinv;
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
    if (be->ecmult_gen_many)
        be->ecmult_gen_many(c, (const uint64_t(*)[4])k, m);
    else
        for (size_t i = 0; i < m; i++)
            be->ecmult_gen(&c[i], k[i]);
    for (size_t i = 0; i < m && ret == FASTSM2_OK; i++) {
        size_t at = begin + i;
        const fastsm2_privkey *key = j->nkeys == 1 ? &j->keys[0] : &j->keys[at];
        unsigned char *sig = j->sigs + 64 * at;
        const unsigned char *e = j->digests + 32 * at;
        if (!ok[i] || fs2_sign_finish(sig, fs2_priv_dinv(fs2_priv_get(key), &dinv), e, k[i], &c[i]) != FASTSM2_OK)
            ret = fastsm2_sign_digest(sig, key, e);
    }
    fs2_wipe(rnd, sizeof rnd);
    fs2_wipe(k, sizeof k);
    fs2_wipe(c, sizeof c);
    fs2_wipe(&dinv, sizeof dinv);
    return ret;
}

static void *sign_worker(void *arg)
{
    batch_job *j = arg;
    j->status = FASTSM2_OK;
    for (size_t i = j->begin; i < j->end; i += FS2_GEN_MANY_MAX) {
        size_t m = j->end - i < FS2_GEN_MANY_MAX ? j->end - i : FS2_GEN_MANY_MAX;
        int ret = sign_group(j, i, m);
        if (ret != FASTSM2_OK) {
            j->status = ret;
            break;
        }
    }
    return NULL;
}

static void *verify_worker(void *arg)
{
    batch_job *j = arg;
    for (size_t i = j->begin; i < j->end; i++) {
        const fastsm2_pubkey *p = j->npubs == 1 ? &j->pubs[0] : &j->pubs[i];
        j->results[i] = fastsm2_verify_digest(p, j->digests + 32 * i, j->vsigs + 64 * i);
    }
    j->status = FASTSM2_OK;
    return NULL;
}

static unsigned thread_count(unsigned threads, size_t n)
{
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    if (threads > 256)
        threads = 256;
    if ((size_t)threads > n)
        threads = (unsigned)(n ? n : 1);
    return threads;
}

/* Split [0, n) into equal runs and run worker on each; the calling thread
 * takes the first run. Returns the first non-OK job status. */
static int run_jobs(batch_job *proto, size_t n, unsigned threads, void *(*worker)(void *))
{
    batch_job jobs[256];
    pthread_t tids[256];
    int started[256] = {0};
    threads = thread_count(threads, n);
    for (unsigned t = 0; t < threads; t++) {
        jobs[t] = *proto;
        jobs[t].begin = n * t / threads;
        jobs[t].end = n * (t + 1) / threads;
    }
    for (unsigned t = 1; t < threads; t++)
        started[t] = pthread_create(&tids[t], NULL, worker, &jobs[t]) == 0;
    worker(&jobs[0]);
    for (unsigned t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tids[t], NULL);
        else
            worker(&jobs[t]); /* could not start a thread: do it here */
    }
    for (unsigned t = 0; t < threads; t++)
        if (jobs[t].status != FASTSM2_OK)
            return jobs[t].status;
    return FASTSM2_OK;
}

int fastsm2_sign_digest_batch(unsigned char *sigs, const fastsm2_privkey *keys, size_t nkeys,
                              const unsigned char *digests, size_t n, unsigned threads)
{
    if (!sigs && n)
        return FASTSM2_ERR_ARG;
    if (n > SIZE_MAX / 64)
        return FASTSM2_ERR_ARG;
    if (!keys || !digests || !(nkeys == 1 || nkeys == n)) {
        if (sigs)
            memset(sigs, 0, 64 * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    batch_job proto = {0};
    proto.sigs = sigs;
    proto.keys = keys;
    proto.nkeys = nkeys;
    proto.digests = digests;
    int ret = run_jobs(&proto, n, threads, sign_worker);
    if (ret != FASTSM2_OK)
        memset(sigs, 0, 64 * n);
    return ret;
}

int fastsm2_verify_digest_batch(int *results, const fastsm2_pubkey *pubs, size_t npubs,
                                const unsigned char *digests, const unsigned char *sigs, size_t n,
                                unsigned threads)
{
    if (!results && n)
        return FASTSM2_ERR_ARG;
    if (n > SIZE_MAX / 64)
        return FASTSM2_ERR_ARG;
    if (!pubs || !digests || !sigs || !(npubs == 1 || npubs == n)) {
        if (results)
            memset(results, 0, sizeof(int) * n);
        return FASTSM2_ERR_ARG;
    }
    if (n == 0)
        return FASTSM2_OK;
    batch_job proto = {0};
    proto.results = results;
    proto.pubs = pubs;
    proto.npubs = npubs;
    proto.digests = digests;
    proto.vsigs = sigs;
    return run_jobs(&proto, n, threads, verify_worker);
}
