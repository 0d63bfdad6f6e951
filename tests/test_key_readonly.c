/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Keys are not written by the calls that take them as const (fastsm2.h):
 * keys made in pages that are then made read-only (mprotect PROT_READ)
 * sign, verify (many times: no table is made behind the caller's back),
 * encrypt, decrypt, exchange keys, serialize and run the batch calls, also
 * from four threads at once, and the answers are right: every signature
 * verifies with a writable copy of the public key and decryption returns
 * the message. A write into a read-only page would end the test with
 * SIGSEGV. A public key whose tables fastsm2_pubkey_precompute made before
 * its page was locked gives the same answers as one without.
 */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

typedef struct {
    fastsm2_privkey key;
    fastsm2_pubkey pub;      /* no tables */
    fastsm2_pubkey pub_tab;  /* tables made before the lock */
    fastsm2_privkey keys[8]; /* for the batch call, one key per item */
} ro_keys;

static const ro_keys *ro;
static fastsm2_pubkey rw_pub; /* a writable copy of the public key */

static void use_keys(unsigned salt)
{
    unsigned char msg[100], e[32], k[32], sig[64], ct[300], pt[100], der[1024];
    size_t ctlen, ptlen, len;
    fs2t_rand_bytes(msg, sizeof msg);
    msg[0] = (unsigned char)salt;
    fastsm2_sm3(e, msg, sizeof msg);
    for (int i = 0; i < 4; i++) {
        CHECK_STATUS(fastsm2_sign(sig, &ro->key, NULL, 0, msg, sizeof msg), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&ro->pub, NULL, 0, msg, sizeof msg, sig)) == 1);
        CHECK(fs2t_vb(fastsm2_verify(&ro->pub_tab, NULL, 0, msg, sizeof msg, sig)) == 1);
        CHECK(fs2t_vb(fastsm2_verify(&rw_pub, NULL, 0, msg, sizeof msg, sig)) == 1);
        CHECK_STATUS(fastsm2_sign(sig, &ro->key, "alice", 5, msg, sizeof msg), FASTSM2_OK);
        CHECK_STATUS(fastsm2_verify_status(&ro->pub, "alice", 5, msg, sizeof msg, sig), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign_digest(sig, &ro->key, e), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify_digest(&ro->pub_tab, e, sig)) == 1);
        sig[5] ^= 1;
        CHECK(fs2t_vb(fastsm2_verify_digest(&ro->pub, e, sig)) == 0);
        CHECK(fs2t_vb(fastsm2_verify_digest(&ro->pub_tab, e, sig)) == 0);
        memset(k, 0, sizeof k);
        fs2t_rand_bytes(k + 1, 31);
        k[31] |= 1;
        CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig, &ro->key, e, k), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify_digest(&rw_pub, e, sig)) == 1);
        for (int t = 0; t < 2; t++) {
            const fastsm2_pubkey *p = t ? &ro->pub_tab : &ro->pub;
            ctlen = sizeof ct;
            CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, p, msg, sizeof msg, 0), FASTSM2_OK);
            ptlen = sizeof pt;
            CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &ro->key, ct, ctlen, 0), FASTSM2_OK);
            CHECK(ptlen == sizeof msg && memcmp(pt, msg, sizeof msg) == 0);
        }
    }
    unsigned char z[32], zw[32];
    CHECK_STATUS(fastsm2_compute_z(z, &ro->pub, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_compute_z(zw, &rw_pub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN), FASTSM2_OK);
    CHECK(memcmp(z, zw, 32) == 0);
    len = sizeof der;
    CHECK_STATUS(fastsm2_privkey_serialize(der, &len, &ro->key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    len = sizeof der;
    CHECK_STATUS(fastsm2_pubkey_serialize(der, &len, &ro->pub, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    fastsm2_pubkey derived;
    CHECK_STATUS(fastsm2_privkey_pubkey(&derived, &ro->key), FASTSM2_OK);

    /* key exchange: both sides' keys read-only */
    fastsm2_kx_ctx a, b;
    unsigned char Ra[65], Rb[65], Ka[16], Kb[16];
    CHECK_STATUS(fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &ro->key, NULL, 0, &ro->pub_tab, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &ro->key, NULL, 0, &ro->pub, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_start(&a, Ra), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_start(&b, Rb), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_compute(&b, Kb, sizeof Kb, Ra, 65), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_compute(&a, Ka, sizeof Ka, Rb, 65), FASTSM2_OK);
    CHECK(memcmp(Ka, Kb, sizeof Ka) == 0);
    fastsm2_kx_clear(&a);
    fastsm2_kx_clear(&b);
}

static void use_batches(void)
{
    enum { N = 8 };
    unsigned char digests[32 * N], sigs[64 * N];
    int results[N];
    fs2t_rand_bytes(digests, sizeof digests);
    CHECK_STATUS(fastsm2_sign_digest_batch(sigs, &ro->key, 1, digests, N, 2), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(results, &ro->pub, 1, digests, sigs, N, 2), FASTSM2_OK);
    int all = 1;
    for (int i = 0; i < N; i++)
        all &= results[i] == 1 && fs2t_vb(fastsm2_verify_digest(&rw_pub, digests + 32 * i, sigs + 64 * i)) == 1;
    CHECK(all);
    CHECK_STATUS(fastsm2_sign_digest_batch(sigs, ro->keys, N, digests, N, 2), FASTSM2_OK);
    fastsm2_pubkey pubs[N];
    for (int i = 0; i < N; i++)
        CHECK_STATUS(fastsm2_privkey_pubkey(&pubs[i], &ro->keys[i]), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_digest_batch(results, pubs, N, digests, sigs, N, 2), FASTSM2_OK);
    all = 1;
    for (int i = 0; i < N; i++)
        all &= results[i] == 1;
    CHECK(all);
}

/* Four threads at once on the read-only keys: sign, verify, encrypt,
 * decrypt; the count of wrong answers back to main (CHECK counts are not
 * for threads). */
static void *thread_main(void *arg)
{
    uintptr_t bad = 0;
    unsigned char msg[64], sig[64], ct[200], pt[64];
    memset(msg, (int)(uintptr_t)arg, sizeof msg);
    for (int i = 0; i < 20; i++) {
        size_t ctlen = sizeof ct, ptlen = sizeof pt;
        msg[1] = (unsigned char)i;
        bad += fastsm2_sign(sig, &ro->key, NULL, 0, msg, sizeof msg) != FASTSM2_OK;
        bad += fastsm2_verify(&ro->pub, NULL, 0, msg, sizeof msg, sig) != 1;
        bad += fastsm2_verify(&ro->pub_tab, NULL, 0, msg, sizeof msg, sig) != 1;
        bad += fastsm2_encrypt(ct, &ctlen, i & 1 ? &ro->pub : &ro->pub_tab, msg, sizeof msg, 0) != FASTSM2_OK;
        bad += fastsm2_decrypt(pt, &ptlen, &ro->key, ct, ctlen, 0) != FASTSM2_OK;
        bad += ptlen != sizeof msg || memcmp(pt, msg, sizeof msg) != 0;
    }
    return (void *)bad;
}

int main(void)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t size = (sizeof(ro_keys) + (size_t)page - 1) / (size_t)page * (size_t)page;
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED);
    if (mem == MAP_FAILED)
        return fs2t_finish("test_key_readonly");
    ro_keys *w = mem;
    /* every way a key is made: generated, from bytes, parsed, derived */
    unsigned char d[32], file[1024];
    size_t flen = sizeof file;
    CHECK_STATUS(fastsm2_privkey_generate(&w->keys[0]), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_to_bytes(d, &w->keys[0]), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_from_bytes(&w->keys[1], d), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_serialize(file, &flen, &w->keys[0], FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER),
                 FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_parse(&w->key, file, flen), FASTSM2_OK);
    for (int i = 2; i < 8; i++)
        CHECK_STATUS(fastsm2_privkey_generate(&w->keys[i]), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&w->pub, &w->key), FASTSM2_OK);
    unsigned char pt[65];
    size_t ptlen = sizeof pt;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(pt, &ptlen, &w->pub, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_from_bytes(&w->pub_tab, pt, ptlen), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_precompute(&w->pub_tab), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_precompute(&w->pub_tab), FASTSM2_OK); /* a second call: nothing */
    rw_pub = w->pub;
    CHECK(mprotect(mem, size, PROT_READ) == 0);
    ro = mem;

    use_keys(0);
    use_batches();
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&th[i], NULL, thread_main, (void *)(uintptr_t)(i + 1)) == 0);
    for (int i = 0; i < 4; i++) {
        void *bad = (void *)1;
        pthread_join(th[i], &bad);
        CHECK(bad == NULL);
    }

    /* the writable copy still precomputes, and works the same after */
    CHECK_STATUS(fastsm2_pubkey_precompute(&rw_pub), FASTSM2_OK);
    use_keys(9);
    CHECK_STATUS(fastsm2_pubkey_precompute(NULL), FASTSM2_ERR_ARG);
    fastsm2_pubkey junk;
    memset(&junk, 0x5A, sizeof junk);
    CHECK_STATUS(fastsm2_pubkey_precompute(&junk), FASTSM2_ERR_ARG);
    CHECK(mprotect(mem, size, PROT_READ | PROT_WRITE) == 0);
    fastsm2_privkey_clear(&w->key);
    for (int i = 0; i < 8; i++)
        fastsm2_privkey_clear(&w->keys[i]);
    munmap(mem, size);
    return fs2t_finish("test_key_readonly");
}
