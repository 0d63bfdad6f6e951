/* SPDX-License-Identifier: Apache-2.0 */
/* The names of the status codes: every code, known or not, has a name and
 * a description, never NULL. */
#include <string.h>

#include "testutil.h"

static void test_names(void)
{
    /* Names of codes, known or not, are never NULL. */
    for (int code = -25; code <= 2; code++) {
        CHECK(fastsm2_strerror(code) != NULL);
        CHECK(fastsm2_error_name(code) != NULL);
    }
    CHECK(strcmp(fastsm2_error_name(FASTSM2_ERR_SIG_RANGE), "FASTSM2_ERR_SIG_RANGE") == 0);
}

int main(void)
{
    test_names();
    return fs2t_finish("test_errors");
}
