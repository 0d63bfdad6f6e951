/* SPDX-License-Identifier: Apache-2.0 */
/* The field checks of test_field.c (against OpenSSL's BIGNUM, edge and
 * random values) over the x86-64 MULX/ADX assembly of field/field_x86_impl.h. */
#include <stdio.h>
#if defined(__x86_64__)
#include <string.h>
#include "cpu.h"
#define FS2_FIELD FS2_FIELD_X86
/* The CPU check is the library's own feature word: clang's
 * __builtin_cpu_supports knows no "adx". */
static int fs2t_adx_available(void)
{
    return fs2_cpu_has(FS2_CPU_X86_BMI2 | FS2_CPU_X86_ADX);
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
