/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library's random bytes (nonces, private keys, key-exchange scalars):
 * a per-thread ChaCha20 generator with fast key erasure, seeded from the OS
 * CSPRNG (fs2_random_os: getrandom, or getentropy, arc4random_buf or
 * /dev/urandom where the platform has no getrandom), so that a signature
 * does not pay a system call for its nonce (about 0.45 us, 4% of a
 * signature; OpenSSL's ECDSA likewise draws from a user-space DRBG).
 *
 * Construction (the one of OpenBSD's arc4random and of Bernstein's "fast key
 * erasure" note): a 256-bit key K; a refill computes ChaCha20 blocks 0..7
 * under K (RFC 8439 block function, nonce 0), the first 32 bytes of that
 * stream replace K at once and the other 480 are the output buffer. Bytes
 * are handed out from the buffer and zeroed as they go, so the state held
 * in memory at any moment says nothing about bytes already returned.
 *
 * Reseeding: a fresh key from the OS on a thread's first draw, after
 * every FS2_RNG_RESEED bytes of output, and in a child process after fork()
 * (a generation counter that a pthread_atfork child handler bumps; the
 * buffered state of the parent is never used in the child). Requests of
 * more than FS2_RNG_DIRECT bytes go to the OS directly. A thread's state is
 * wiped when the thread exits (a pthread key destructor).
 *
 * What it does not detect: a process duplicated without fork() (a raw
 * clone() system call, a restored VM or container snapshot); OpenSSL's
 * DRBG has the same limit.
 */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>

#define FS2_RNG_BLOCKS 8
#define FS2_RNG_RESEED ((uint64_t)1 << 16)
#define FS2_RNG_DIRECT 256

typedef struct {
    uint32_t key[8];
    unsigned char buf[64 * FS2_RNG_BLOCKS - 32];
    size_t avail;    /* unread bytes: the last `avail` of buf */
    uint64_t gen;    /* fork generation of the seed */
    uint64_t output; /* bytes handed out since the seed */
    int seeded;
} fs2_rng_state;

static _Thread_local fs2_rng_state fs2_rng;

static atomic_uint_fast64_t fs2_rng_fork_gen;
static pthread_once_t fs2_rng_once = PTHREAD_ONCE_INIT;
static pthread_key_t fs2_rng_exit_key;
static int fs2_rng_exit_key_ok;
static int fs2_rng_os_only;

static inline uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

#define FS2_QR(a, b, c, d)                 \
    do {                                   \
        a += b, d ^= a, d = rotl32(d, 16); \
        c += d, b ^= c, b = rotl32(b, 12); \
        a += b, d ^= a, d = rotl32(d, 8);  \
        c += d, b ^= c, b = rotl32(b, 7);  \
    } while (0)

void fs2_chacha20_blocks(unsigned char *out, const uint32_t key[8], uint64_t counter, size_t nblocks)
{
    for (size_t blk = 0; blk < nblocks; blk++, counter++) {
        uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u}, x[16];
        for (int i = 0; i < 8; i++)
            in[4 + i] = key[i];
        in[12] = (uint32_t)counter;
        in[13] = (uint32_t)(counter >> 32);
        in[14] = in[15] = 0;
        for (int i = 0; i < 16; i++)
            x[i] = in[i];
        for (int r = 0; r < 10; r++) {
            FS2_QR(x[0], x[4], x[8], x[12]);
            FS2_QR(x[1], x[5], x[9], x[13]);
            FS2_QR(x[2], x[6], x[10], x[14]);
            FS2_QR(x[3], x[7], x[11], x[15]);
            FS2_QR(x[0], x[5], x[10], x[15]);
            FS2_QR(x[1], x[6], x[11], x[12]);
            FS2_QR(x[2], x[7], x[8], x[13]);
            FS2_QR(x[3], x[4], x[9], x[14]);
        }
        for (int i = 0; i < 16; i++) {
            uint32_t v = x[i] + in[i];
            out[64 * blk + 4 * i] = (unsigned char)v;
            out[64 * blk + 4 * i + 1] = (unsigned char)(v >> 8);
            out[64 * blk + 4 * i + 2] = (unsigned char)(v >> 16);
            out[64 * blk + 4 * i + 3] = (unsigned char)(v >> 24);
        }
        fs2_wipe(x, sizeof x);
        fs2_wipe(in, sizeof in);
    }
}

static void fs2_rng_after_fork_child(void)
{
    atomic_fetch_add(&fs2_rng_fork_gen, 1);
}

static void fs2_rng_thread_exit(void *p)
{
    fs2_wipe(p, sizeof(fs2_rng_state));
}

/* If the library is unloaded (dlclose) while threads that drew live on,
 * their exit must not call into unmapped code. */
__attribute__((destructor)) static void fs2_rng_unload(void)
{
    if (fs2_rng_exit_key_ok)
        pthread_key_delete(fs2_rng_exit_key);
}

static void fs2_rng_init_once(void)
{
    /* If either registration fails, every draw goes to the OS. */
    fs2_rng_exit_key_ok = pthread_key_create(&fs2_rng_exit_key, fs2_rng_thread_exit) == 0;
    fs2_rng_os_only = pthread_atfork(NULL, NULL, fs2_rng_after_fork_child) != 0;
}

static void fs2_rng_refill(fs2_rng_state *s)
{
    unsigned char blocks[64 * FS2_RNG_BLOCKS];
    fs2_chacha20_blocks(blocks, s->key, 0, FS2_RNG_BLOCKS);
    for (int i = 0; i < 8; i++)
        s->key[i] = fs2_load32_le(blocks + 4 * i);
    memcpy(s->buf, blocks + 32, sizeof s->buf);
    s->avail = sizeof s->buf;
    fs2_wipe(blocks, sizeof blocks);
}

static int fs2_rng_seed(fs2_rng_state *s)
{
    unsigned char seed[32];
    fs2_wipe(s, sizeof *s);
    if (!fs2_random_os(seed, sizeof seed))
        return 0;
    for (int i = 0; i < 8; i++)
        s->key[i] = fs2_load32_le(seed + 4 * i);
    fs2_wipe(seed, sizeof seed);
    s->gen = atomic_load(&fs2_rng_fork_gen);
    s->seeded = 1;
    pthread_setspecific(fs2_rng_exit_key, s);
    return 1;
}

/* n bytes from this thread's generator, reseeding first where due. */
static int fs2_rng_generate(unsigned char *out, size_t n)
{
    fs2_rng_state *s = &fs2_rng;
    if (!s->seeded || s->gen != atomic_load(&fs2_rng_fork_gen) || s->output >= FS2_RNG_RESEED) {
        if (!fs2_rng_seed(s))
            return 0;
    }
    s->output += n;
    while (n > 0) {
        if (s->avail == 0)
            fs2_rng_refill(s);
        size_t take = n < s->avail ? n : s->avail;
        unsigned char *from = s->buf + sizeof s->buf - s->avail;
        memcpy(out, from, take);
        fs2_wipe(from, take);
        s->avail -= take;
        out += take;
        n -= take;
    }
    return 1;
}

int fs2_random_bytes(void *buf, size_t n)
{
    int ok;
    if (n == 0)
        return 1;
    if (buf == NULL)
        return 0;
    pthread_once(&fs2_rng_once, fs2_rng_init_once);
    if (fs2_rng_os_only || !fs2_rng_exit_key_ok || n > FS2_RNG_DIRECT)
        ok = fs2_random_os(buf, n);
    else
        ok = fs2_rng_generate(buf, n);
    if (ok)
        fs2_classify(buf, n); /* secret from here on, for the ctime test */
    return ok;
}
