/* SPDX-License-Identifier: Apache-2.0 */
/* The constant-time tests' vocabulary (tests/ctime/ctime_test.c,
 * provider/test_provider_ctime.c; docs/ARCHITECTURE.md, "Constant time"):
 * SECRET marks bytes undefined for valgrind memcheck, so a branch, an
 * address or a variable-time instruction that depends on them is reported;
 * PUBLIC marks a result defined again once it may be seen. CT_CHECK counts
 * results; ct_finish prints the counts and gives the exit status. */
#ifndef FS2_CTIME_H
#define FS2_CTIME_H

#include <stdio.h>

#include <valgrind/memcheck.h>

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static unsigned long ct_passed, ct_failed;

#define CT_CHECK(cond)                                                               \
    do {                                                                             \
        if (cond) {                                                                  \
            ct_passed++;                                                             \
        } else {                                                                     \
            ct_failed++;                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* 0 when every check passed and there was at least one. */
static inline int ct_finish(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, ct_passed, ct_failed);
    return ct_failed == 0 && ct_passed > 0 ? 0 : 1;
}

#endif
