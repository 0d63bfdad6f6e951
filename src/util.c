/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by every layer: wiping, constant-time comparison and
 * the OS random source (src/rng.c builds the library's generator on it). */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

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

int fs2_random_os(void *buf, size_t n)
{
    unsigned char *p = buf;
    if (n == 0)
        return 1;
    if (p == NULL)
        return 0;
    while (n > 0) {
        /* getrandom() returns at most 32 MiB per call; ask in pieces. */
        size_t want = n < 0x1000000 ? n : 0x1000000;
        ssize_t r = getrandom(p, want, 0);
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
}

