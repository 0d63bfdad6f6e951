/* SPDX-License-Identifier: Apache-2.0 */
/* The field checks of test_field.c (against OpenSSL's BIGNUM, edge and
 * random values) over the x86-64 MULX/ADX assembly of field/field_x86_impl.h. */
#include <stdio.h>
#if defined(__x86_64__)
#include <string.h>
#include "backend.h"
#define FS2_FIELD FS2_FIELD_X86
/* The CPU check is the library's own (the adx backend's available()):
 * clang's __builtin_cpu_supports knows no "adx". */
static int fs2t_adx_available(void)
{
    for (const fs2_backend *const *b = fs2_backends; *b; b++)
        if (!strcmp((*b)->name, "adx"))
            return (*b)->available();
    return 0;
}
#define FS2_TEST_FIELD_NAME "test_field_x86"
#define FS2_TEST_FIELD_SKIP (!fs2t_adx_available())
#include "test_field.c"
#else
int main(void)
{
    printf("test_field_x86: not an x86-64 build, skipped\n");
    return 0;
}
#endif
