/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by every layer: wiping, constant-time comparison and
 * the OS random source (src/rng.c builds the library's generator on it). */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* The OS random source: one of FS2_RANDOM_GETRANDOM, _GETENTROPY,
 * _ARC4RANDOM or _URANDOM, set by the build (CMake's FASTSM2_RANDOM, for
 * testing every path on one machine) or else chosen here from the
 * platform: getrandom on Linux (the C library's, glibc 2.25 and musl
 * 1.1.20 on, else the system call), arc4random_buf on macOS and the BSDs,
 * getentropy where <sys/random.h> exists elsewhere, /dev/urandom otherwise. */
#if defined(__has_include)
#if __has_include(<sys/random.h>)
#define FS2_HAVE_SYS_RANDOM_H 1
#endif
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
#define FS2_HAVE_SYS_RANDOM_H 1
#endif
#if !defined(FS2_RANDOM_GETRANDOM) && !defined(FS2_RANDOM_GETENTROPY) && !defined(FS2_RANDOM_ARC4RANDOM) && \
    !defined(FS2_RANDOM_URANDOM)
#if defined(__linux__)
#define FS2_RANDOM_GETRANDOM 1
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__) || \
    defined(__DragonFly__)
#define FS2_RANDOM_ARC4RANDOM 1
#elif defined(FS2_HAVE_SYS_RANDOM_H)
#define FS2_RANDOM_GETENTROPY 1
#else
#define FS2_RANDOM_URANDOM 1
#endif
#endif
/* Linux with a C library older than getrandom() (glibc < 2.25, as in the
 * manylinux2014 images wheels are built in): the system call itself, which
 * kernels have had since 3.17; ENOSYS falls back to /dev/urandom. */
#if defined(FS2_RANDOM_GETRANDOM) && !defined(FS2_HAVE_SYS_RANDOM_H) && !defined(FS2_GETRANDOM_SYSCALL)
#define FS2_GETRANDOM_SYSCALL 1
#endif
#if defined(FS2_GETRANDOM_SYSCALL)
#include <sys/syscall.h>
#if !defined(SYS_getrandom) && defined(__x86_64__)
#define SYS_getrandom 318
#elif !defined(SYS_getrandom) && defined(__aarch64__)
#define SYS_getrandom 278
#endif
#if !defined(SYS_getrandom) /* kernel headers too old, another CPU */
#undef FS2_RANDOM_GETRANDOM
#undef FS2_GETRANDOM_SYSCALL
#define FS2_RANDOM_URANDOM 1
#endif
#endif
#if defined(FS2_GETRANDOM_SYSCALL)
#define fs2_getrandom(p, n, flags) syscall(SYS_getrandom, (p), (n), (flags))
#elif defined(FS2_RANDOM_GETRANDOM)
#define fs2_getrandom(p, n, flags) getrandom((p), (n), (flags))
#endif
/* getentropy is in <unistd.h> (glibc, illumos) or <sys/random.h> (macOS). */
#if (defined(FS2_RANDOM_GETRANDOM) && !defined(FS2_GETRANDOM_SYSCALL)) || \
    (defined(FS2_RANDOM_GETENTROPY) && defined(FS2_HAVE_SYS_RANDOM_H))
#include <sys/random.h>
#endif

void fs2_wipe(void *p, size_t n)
{
    if (p == NULL || n == 0)
        return;
    memset(p, 0, n);
    /* The empty asm "uses" the memory, so the memset cannot be dropped as a
     * dead store even when p is about to go out of scope. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

int fs2_ct_memeq(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = a, *y = b;
    unsigned char d = 0;
    for (size_t i = 0; i < n; i++)
        d |= (unsigned char)(x[i] ^ y[i]);
    /* d == 0 -> 1, else 0, without a branch: (d - 1) >> 8 is all-ones only
     * for d == 0. */
    return (int)((((unsigned)d - 1u) >> 8) & 1u);
}

#if defined(FS2_RANDOM_GETRANDOM) || defined(FS2_RANDOM_URANDOM)
static int random_from_urandom(unsigned char *p, size_t n)
{
    int fd;
    do {
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return 0;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return 0;
        }
        if (r == 0) {
            close(fd);
            return 0;
        }
        p += (size_t)r;
        n -= (size_t)r;
    }
    close(fd);
    return 1;
}
#endif

int fs2_random_os(void *buf, size_t n)
{
    unsigned char *p = buf;
    if (n == 0)
        return 1;
    if (p == NULL)
        return 0;
#if defined(FS2_RANDOM_GETRANDOM)
    while (n > 0) {
        /* getrandom() returns at most 32 MiB per call; ask in pieces. */
        size_t want = n < 0x1000000 ? n : 0x1000000;
        ssize_t r = (ssize_t)fs2_getrandom(p, want, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ENOSYS)
                return random_from_urandom(p, n);
            return 0;
        }
        p += (size_t)r;
        n -= (size_t)r;
    }
    return 1;
#elif defined(FS2_RANDOM_GETENTROPY)
    /* getentropy() gives at most 256 bytes a call, all or an error. */
    while (n > 0) {
        size_t want = n < 256 ? n : 256;
        if (getentropy(p, want) != 0)
            return 0;
        p += want;
        n -= want;
    }
    return 1;
#elif defined(FS2_RANDOM_ARC4RANDOM)
    /* The C library's generator, seeded by the kernel; it cannot fail. */
    arc4random_buf(p, n);
    return 1;
#else
    return random_from_urandom(p, n);
#endif
}
