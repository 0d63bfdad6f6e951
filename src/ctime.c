/* SPDX-License-Identifier: Apache-2.0 */
/* Declassification for the valgrind constant-time test: marks a value that
 * was computed from secrets but is public by design (a validity flag, the
 * outcome of the C3 check, a signature) as defined, so that branching on it
 * is not reported. A no-op outside valgrind. */
#include "internal.h"

#ifdef FS2_HAVE_VALGRIND
#include <valgrind/memcheck.h>
#endif

void fs2_declassify(const void *p, size_t n)
{
#ifdef FS2_HAVE_VALGRIND
    VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
    (void)p;
    (void)n;
#endif
}
