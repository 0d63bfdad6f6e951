/* SPDX-License-Identifier: Apache-2.0 */
#include "provtest.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/provider.h>

OSSL_LIB_CTX *lc_ours, *lc_ref;
static OSSL_PROVIDER *p_ours, *p_ours_default, *p_ref;

void pt_setup(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODULE_DIR\n", argv[0]);
        exit(2);
    }
    lc_ours = OSSL_LIB_CTX_new();
    lc_ref = OSSL_LIB_CTX_new();
    if (!lc_ours || !lc_ref || !OSSL_PROVIDER_set_default_search_path(lc_ours, argv[1]))
        fs2t_ossl_die("library contexts");
    p_ours = OSSL_PROVIDER_load(lc_ours, "fastsm2prov");
    p_ours_default = OSSL_PROVIDER_load(lc_ours, "default");
    p_ref = OSSL_PROVIDER_load(lc_ref, "default");
    if (!p_ours || !p_ours_default || !p_ref)
        fs2t_ossl_die("load the providers");
}

void pt_teardown(void)
{
    OSSL_PROVIDER_unload(p_ours);
    OSSL_PROVIDER_unload(p_ours_default);
    OSSL_PROVIDER_unload(p_ref);
    OSSL_LIB_CTX_free(lc_ours);
    OSSL_LIB_CTX_free(lc_ref);
}

int pt_last_status(void)
{
    unsigned long e;
    int st = 0;
    while ((e = ERR_get_error_all(NULL, NULL, NULL, NULL, NULL)) != 0) {
        const char *lib = ERR_lib_error_string(e);
        if (lib != NULL && strcmp(lib, "fastsm2prov") == 0)
            st = -(int)ERR_GET_REASON(e);
    }
    return st;
}
