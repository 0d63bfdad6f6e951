/* SPDX-License-Identifier: Apache-2.0 */
/* The names of the status codes: every code, known or not, has a name and
 * a description, never NULL. */
#include <string.h>

#include "testutil.h"

static void test_names(void)
{
    /* Names of codes, known or not, are never NULL. */
    for (int code = FASTSM2_ERR_LAST - 2; code <= 2; code++) {
        CHECK(fastsm2_strerror(code) != NULL);
        CHECK(fastsm2_error_name(code) != NULL);
    }
    CHECK(strcmp(fastsm2_error_name(FASTSM2_ERR_SIG_RANGE), "FASTSM2_ERR_SIG_RANGE") == 0);
    /* Every code from -1 to FASTSM2_ERR_LAST is known, and that is the
     * last: the provider (provider/fastsm2prov.c) registers a reason string
     * for each of them, so a new code must move its bound too. */
    for (int code = -1; code >= FASTSM2_ERR_LAST; code--)
        CHECK(strcmp(fastsm2_error_name(code), "FASTSM2_ERR_UNKNOWN") != 0);
    CHECK(strcmp(fastsm2_error_name(FASTSM2_ERR_LAST - 1), "FASTSM2_ERR_UNKNOWN") == 0);
}

int main(void)
{
    test_names();
    return fs2t_finish("test_errors");
}
