/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library's random bytes (src/rng.c):
 *  - its ChaCha20 key stream against OpenSSL's (EVP_chacha20) for random
 *    keys and block counters, 1..9 blocks;
 *  - no 32-byte draw repeats among many, across refills and reseeds, and
 *    draws of every length 1..300 (past the direct-to-OS limit) succeed and
 *    are not all zero;
 *  - a child process after fork() does not repeat its parent's stream: the
 *    child's first draw differs from the parent's next draw (the state
 *    buffered before the fork would give both the same bytes);
 *  - two threads get different streams, and each keeps working after the
 *    other has exited (its state is wiped at exit, not shared);
 *  - the OS source (fs2_random_os, whichever of getrandom, getentropy,
 *    arc4random_buf or /dev/urandom this build uses) writes every byte of
 *    requests around its per-call limits (getentropy: 256 bytes), no
 *    32-byte block repeating the one before, and refuses NULL.
 */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "testutil.h"

static void test_chacha20_vs_openssl(void)
{
    for (int iter = 0; iter < 200; iter++) {
        unsigned char keyb[32], iv[16] = {0}, zeros[64 * 9] = {0}, want[64 * 9], got[64 * 9];
        uint32_t key[8];
        fs2t_rand_bytes(keyb, sizeof keyb);
        for (int i = 0; i < 8; i++)
            key[i] = fs2_load32_le(keyb + 4 * i);
        /* OpenSSL's 16-byte IV: the 32-bit block counter (little-endian),
         * then the 96-bit nonce, here 0 as in the generator. Counters stay
         * below 2^32 - 9 so that OpenSSL's 32-bit counter does not wrap. */
        uint32_t ctr = iter == 0 ? 0 : (uint32_t)(fs2t_rand_u64() % 0xFFFFFFF0u);
        size_t nblocks = 1 + (size_t)iter % 9;
        for (int i = 0; i < 4; i++)
            iv[i] = (unsigned char)(ctr >> (8 * i));
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
        int outl = 0;
        int ok = c && EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, keyb, iv) == 1 &&
                 EVP_EncryptUpdate(c, want, &outl, zeros, (int)(64 * nblocks)) == 1 && outl == (int)(64 * nblocks);
        EVP_CIPHER_CTX_free(c);
        CHECK(ok);
        fs2_chacha20_blocks(got, key, ctr, nblocks);
        CHECK(memcmp(got, want, 64 * nblocks) == 0);
    }
}

static int cmp32(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

static void test_draws(void)
{
    /* 4096 draws of 32 bytes: 128 KiB, two reseeds and ~270 refills */
    enum { N = 4096 };
    unsigned char *d = malloc(32 * N);
    CHECK(d != NULL);
    if (!d)
        return;
    int ok = 1;
    for (size_t i = 0; i < N; i++)
        ok &= fs2_random_bytes(d + 32 * i, 32);
    CHECK(ok);
    qsort(d, N, 32, cmp32);
    int repeats = 0;
    for (size_t i = 1; i < N; i++)
        repeats += memcmp(d + 32 * (i - 1), d + 32 * i, 32) == 0;
    CHECK(repeats == 0);
    free(d);

    /* every length, odd ones that split the buffer unevenly included */
    for (size_t len = 1; len <= 300; len++) {
        unsigned char b[300];
        memset(b, 0, sizeof b);
        CHECK(fs2_random_bytes(b, len) == 1);
        int nonzero = 0;
        for (size_t i = 0; i < len; i++)
            nonzero |= b[i];
        if (len >= 4)
            CHECK(nonzero);
    }
    CHECK(fs2_random_bytes(NULL, 0) == 1);
    CHECK(fs2_random_bytes(NULL, 32) == 0);
}

static void test_fork(void)
{
    for (int round = 0; round < 3; round++) {
        unsigned char before[32], parent[32], child[32] = {0};
        int fds[2];
        CHECK(fs2_random_bytes(before, sizeof before) == 1); /* the state is seeded and buffered */
        if (pipe(fds) != 0) {
            CHECK(0);
            return;
        }
        pid_t pid = fork();
        if (pid == 0) {
            unsigned char b[32];
            int ok = fs2_random_bytes(b, sizeof b);
            ssize_t w = ok ? write(fds[1], b, sizeof b) : -1;
            _exit(w == (ssize_t)sizeof b ? 0 : 1);
        }
        CHECK(pid > 0);
        close(fds[1]);
        CHECK(fs2_random_bytes(parent, sizeof parent) == 1);
        size_t got = 0;
        while (got < sizeof child) {
            ssize_t r = read(fds[0], child + got, sizeof child - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        CHECK(got == sizeof child);
        CHECK(memcmp(child, parent, 32) != 0);
        CHECK(memcmp(child, before, 32) != 0);
    }
}

typedef struct {
    unsigned char out[2][64];
    int ok;
} thread_draw;

static void *draw_thread(void *arg)
{
    thread_draw *t = arg;
    t->ok = fs2_random_bytes(t->out[0], 64) && fs2_random_bytes(t->out[1], 64);
    return NULL;
}

static void test_threads(void)
{
    thread_draw t[4];
    pthread_t th[4];
    memset(t, 0, sizeof t);
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&th[i], NULL, draw_thread, &t[i]) == 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) {
        CHECK(t[i].ok);
        CHECK(memcmp(t[i].out[0], t[i].out[1], 64) != 0);
        for (int j = 0; j < i; j++)
            CHECK(memcmp(t[i].out[0], t[j].out[0], 64) != 0);
    }
    /* this thread still draws after the others exited */
    unsigned char b[64];
    CHECK(fs2_random_bytes(b, sizeof b) == 1);
    CHECK(memcmp(b, t[0].out[0], 64) != 0);
}

static void test_os_source(void)
{
    static const size_t lens[] = {1, 31, 32, 255, 256, 257, 511, 512, 513, 4096, 70000};
    enum { ROUNDS = 16 };
    CHECK(fs2_random_os(NULL, 0) == 1);
    CHECK(fs2_random_os(NULL, 1) == 0);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        unsigned char *b = malloc(n), *any = calloc(n, 1);
        CHECK(b != NULL && any != NULL);
        if (!b || !any) {
            free(b);
            free(any);
            return;
        }
        /* Every byte written: over 16 requests into zeroed memory, a byte
         * that is written is zero in all of them with probability 2^-128. */
        for (int r = 0; r < ROUNDS; r++) {
            memset(b, 0, n);
            CHECK(fs2_random_os(b, n) == 1);
            for (size_t i = 0; i < n; i++)
                any[i] |= b[i];
        }
        size_t unwritten = 0;
        for (size_t i = 0; i < n; i++)
            unwritten += any[i] == 0;
        CHECK(unwritten == 0);
        /* No 32-byte block repeats the one before it (2^-256 by chance):
         * a piece of a large request filled twice with the same bytes. */
        for (size_t i = 32; i + 32 <= n; i += 32)
            CHECK(memcmp(b + i, b + i - 32, 32) != 0);
        free(b);
        free(any);
    }
}

int main(void)
{
    test_chacha20_vs_openssl();
    test_os_source();
    test_draws();
    test_fork();
    test_threads();
    return fs2t_finish("test_rng");
}
