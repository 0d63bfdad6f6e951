/* SPDX-License-Identifier: Apache-2.0 */
/* Declassification for the valgrind constant-time test: marks a value that
 * was computed from secrets but is public by design (a validity flag, the
 * outcome of the C3 check, a signature) as defined, so that branching on it
 * is not reported. A no-op outside valgrind.
 *
 * fs2_classify does the opposite for the OS random bytes (nonces, new
 * private keys) when the ctime test sets fs2_ctime_classify_random, so that
 * fastsm2_sign, fastsm2_encrypt, fastsm2_kx_start and
 * fastsm2_privkey_generate are checked with their own random secrets. Off
 * by default: a program of yours run under valgrind sees ordinary bytes. */
#include "internal.h"

#ifdef FS2_HAVE_VALGRIND
#include <valgrind/memcheck.h>
#endif

int fs2_ctime_classify_random;

void fs2_classify(const void *p, size_t n)
{
#ifdef FS2_HAVE_VALGRIND
    if (fs2_ctime_classify_random)
        VALGRIND_MAKE_MEM_UNDEFINED(p, n);
#else
    (void)p;
    (void)n;
#endif
}

void fs2_declassify(const void *p, size_t n)
{
#ifdef FS2_HAVE_VALGRIND
    VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
    (void)p;
    (void)n;
#endif
}
