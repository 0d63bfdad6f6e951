/* SPDX-License-Identifier: Apache-2.0 */
/* The field checks of test_field.c (against OpenSSL's BIGNUM, edge and
 * random values) over the x86-64 MULX/ADX assembly of field/field_x86.h. */
#include <stdio.h>
#if defined(__x86_64__)
#include "field/field_x86.h"
#define FS2_TEST_FIELD_NAME "test_field_x86"
#define FS2_TEST_FIELD_SKIP (!__builtin_cpu_supports("bmi2") || !__builtin_cpu_supports("adx"))
#include "test_field.c"
#else
int main(void)
{
    printf("test_field_x86: not an x86-64 build, skipped\n");
    return 0;
}
#endif
