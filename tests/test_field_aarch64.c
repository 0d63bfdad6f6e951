/* SPDX-License-Identifier: Apache-2.0 */
/* The field checks of test_field.c (against OpenSSL's BIGNUM, edge and
 * random values) over the AArch64 MUL/UMULH assembly of
 * field/field_aarch64_impl.h (mul, sqr, add, sub, neg, inv mod p). Runs under qemu in
 * tools/test-aarch64.sh. */
#include <stdio.h>
#if defined(__aarch64__)
#define FS2_FIELD FS2_FIELD_AARCH64
#define FS2_TEST_FIELD_NAME "test_field_aarch64"
#include "test_field.c"
#else
int main(void)
{
    printf("test_field_aarch64: not an AArch64 build, skipped\n");
    return 0;
}
#endif
