/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider's entry point (provider-base(7)): OSSL_provider_init, the
 * algorithm tables, errors, and the OSSL_PARAM helpers of prov.h.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prov.h"

/* ---- errors --------------------------------------------------------------- */

static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;

static void vset_error(const OSSL_CORE_HANDLE *h, uint32_t reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c_vset_error(h, reason, fmt, ap);
    va_end(ap);
}

void fs2p_raise(const fs2p_provctx *pc, int status, const char *what)
{
    if (pc == NULL || c_new_error == NULL || c_vset_error == NULL)
        return;
    c_new_error(pc->handle);
    if (c_set_error_debug != NULL)
        c_set_error_debug(pc->handle, "fastsm2prov", 0, what);
    /* reason codes 1..255 are the provider's own (not an OpenSSL library's) */
    uint32_t reason = status < 0 && status > -256 ? (uint32_t)-status : 255u;
    vset_error(pc->handle, reason, "%s (%s)", fastsm2_strerror(status), what);
}

/* The reason strings: every FASTSM2_ERR_* code by name (-1 ... the last;
 * FASTSM2_ERR_LAST; tests/test_errors.c checks that it is the last). */
#define FS2P_NREASONS (-FASTSM2_ERR_LAST)
static OSSL_ITEM reason_strings[FS2P_NREASONS + 2];

static void init_reason_strings(void)
{
    for (int i = 1; i <= FS2P_NREASONS; i++) {
        reason_strings[i - 1].id = (unsigned int)i;
        reason_strings[i - 1].ptr = (void *)(uintptr_t)fastsm2_error_name(-i);
    }
    reason_strings[FS2P_NREASONS].id = 255;
    reason_strings[FS2P_NREASONS].ptr = "fastsm2prov error";
    reason_strings[FS2P_NREASONS + 1].id = 0;
    reason_strings[FS2P_NREASONS + 1].ptr = NULL;
}

/* ---- OSSL_PARAM helpers --------------------------------------------------- */

OSSL_PARAM *fs2p_locate(OSSL_PARAM *params, const char *key)
{
    for (OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    return NULL;
}

const OSSL_PARAM *fs2p_locate_const(const OSSL_PARAM *params, const char *key)
{
    return fs2p_locate((OSSL_PARAM *)(uintptr_t)params, key);
}

int fs2p_utf8_is(const OSSL_PARAM *p, const char *s)
{
    if (p == NULL || p->data_type != OSSL_PARAM_UTF8_STRING || p->data == NULL)
        return 0;
    size_t n = strnlen((const char *)p->data, p->data_size);
    return n == strlen(s) && strncasecmp((const char *)p->data, s, n) == 0;
}

int fs2p_get_octets(const OSSL_PARAM *p, const unsigned char **data, size_t *len)
{
    if (p == NULL || p->data_type != OSSL_PARAM_OCTET_STRING || (p->data == NULL && p->data_size != 0))
        return 0;
    *data = p->data;
    *len = p->data_size;
    return 1;
}

int fs2p_get_size_t(const OSSL_PARAM *p, size_t *v)
{
    if (p == NULL || p->data == NULL)
        return 0;
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        if (p->data_size == sizeof(uint32_t)) {
            uint32_t x;
            memcpy(&x, p->data, sizeof x);
            *v = x;
            return 1;
        }
        if (p->data_size == sizeof(uint64_t)) {
            uint64_t x;
            memcpy(&x, p->data, sizeof x);
            *v = (size_t)x;
            return 1;
        }
    } else if (p->data_type == OSSL_PARAM_INTEGER) {
        if (p->data_size == sizeof(int32_t)) {
            int32_t x;
            memcpy(&x, p->data, sizeof x);
            *v = (size_t)x;
            return x >= 0;
        }
        if (p->data_size == sizeof(int64_t)) {
            int64_t x;
            memcpy(&x, p->data, sizeof x);
            *v = (size_t)x;
            return x >= 0;
        }
    }
    return 0;
}

static int set_uint(OSSL_PARAM *p, uint64_t v)
{
    if (p->data_type != OSSL_PARAM_INTEGER && p->data_type != OSSL_PARAM_UNSIGNED_INTEGER)
        return 0;
    if (p->data == NULL) {
        p->return_size = sizeof(uint64_t);
        return 1;
    }
    if (p->data_size == sizeof(uint32_t)) {
        uint32_t x = (uint32_t)v;
        if (x != v || (p->data_type == OSSL_PARAM_INTEGER && x > INT32_MAX))
            return 0;
        memcpy(p->data, &x, sizeof x);
    } else if (p->data_size == sizeof(uint64_t)) {
        if (p->data_type == OSSL_PARAM_INTEGER && v > INT64_MAX)
            return 0;
        memcpy(p->data, &v, sizeof v);
    } else {
        return 0;
    }
    p->return_size = p->data_size;
    return 1;
}

int fs2p_set_int(OSSL_PARAM *p, int v)
{
    return v >= 0 && set_uint(p, (uint64_t)v);
}
int fs2p_set_size_t(OSSL_PARAM *p, size_t v)
{
    return set_uint(p, (uint64_t)v);
}

int fs2p_set_utf8(OSSL_PARAM *p, const char *s)
{
    size_t n = strlen(s);
    if (p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    p->return_size = n;
    if (p->data == NULL)
        return 1;
    if (p->data_size < n)
        return 0;
    memcpy(p->data, s, n);
    if (p->data_size > n)
        ((char *)p->data)[n] = 0;
    return 1;
}

int fs2p_set_octets(OSSL_PARAM *p, const void *data, size_t len)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return 0;
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return 0;
    memcpy(p->data, data, len);
    return 1;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

void fs2p_scalar_from_native(unsigned char be[32], const unsigned char *in, size_t len)
{
    /* The loop runs over the (public) length; each byte goes to the place
     * its weight gives, whatever its value. A number of 2^256 or more
     * becomes 2^256 - 1, by a mask, which no private key accepts. */
    int le = host_is_little_endian();
    uint32_t high = 0;
    memset(be, 0, 32);
    for (size_t i = 0; i < len; i++) { /* i: the byte of weight 256^i */
        unsigned char b = in[le ? i : len - 1 - i];
        if (i < 32)
            be[31 - i] = b;
        else
            high |= b;
    }
    uint32_t nz = fs2p_barrier((high | (0u - high)) >> 31); /* 1 if any high byte is set */
    unsigned char mask = (unsigned char)(0u - nz);
    for (size_t i = 0; i < 32; i++)
        be[i] |= mask;
}

void fs2p_scalar_to_native(unsigned char *out, size_t len, const unsigned char be[32])
{
    int le = host_is_little_endian();
    memset(out, 0, len);
    for (size_t i = 0; i < len && i < 32; i++)
        out[le ? i : len - 1 - i] = be[31 - i];
}

/* ---- Z_A ------------------------------------------------------------------- */

int fs2p_compute_z(unsigned char z[32], const fs2p_key *k, const unsigned char *id, size_t idlen)
{
    if (!k->has_pub)
        return FASTSM2_ERR_ARG;
    /* the key's cached Z_A when the ID is its ID; "" with length 0 is the
     * empty ID (include/fastsm2.h), never NULL, which is the key's own ID */
    return fastsm2_compute_z(z, &k->pub, idlen > 0 ? (const void *)id : "", idlen);
}

/* ---- constant-time helpers (prov.h) ------------------------------------------ */

void fs2p_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory"); /* the zeros are "read": not dead stores */
}

uint32_t fs2p_barrier(uint32_t v)
{
    __asm__("" : "+r"(v)); /* the compiler no longer knows v's value or range */
    return v;
}

/* ---- the provider ---------------------------------------------------------- */

#define ALG(names, fns, desc)        \
    {                                \
        names, FS2P_PROPS, fns, desc \
    }

static const OSSL_ALGORITHM keymgmt_algs[] = {
    ALG("SM2:1.2.156.10197.1.301", fs2p_keymgmt_functions, "fastsm2 SM2 keys"), {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM signature_algs[] = {
    ALG("SM2:1.2.156.10197.1.301", fs2p_signature_functions, "fastsm2 SM2 signatures with SM3"),
    {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM asym_cipher_algs[] = {
    ALG("SM2:1.2.156.10197.1.301", fs2p_asym_cipher_functions, "fastsm2 SM2 encryption"), {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM keyexch_algs[] = {
    ALG("SM2DH", fs2p_keyexch_functions, "fastsm2 SM2 key exchange (GB/T 32918.3) and ECDH"), {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM digest_algs[] = {ALG("SM3:1.2.156.10197.1.401", fs2p_sm3_functions, "fastsm2 SM3"),
                                             {NULL, NULL, NULL, NULL}};

static const OSSL_ALGORITHM *prov_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT: return keymgmt_algs;
    case OSSL_OP_SIGNATURE: return signature_algs;
    case OSSL_OP_ASYM_CIPHER: return asym_cipher_algs;
    case OSSL_OP_KEYEXCH: return keyexch_algs;
    case OSSL_OP_DIGEST: return digest_algs;
    case OSSL_OP_CIPHER: return fs2p_sm4_cipher_algs;
    }
    return NULL;
}

/* The provider's own parameter: which ID an operation with no distid
 * hashes here, "1234567812345678" or "empty" (see OSSL_provider_init);
 * also its configuration key. */
#define FS2P_PARAM_NO_DISTID "no_distid"

static const OSSL_PARAM prov_param_types[] = {
    {OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {FS2P_PARAM_NO_DISTID, OSSL_PARAM_UTF8_PTR, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0, OSSL_PARAM_UNMODIFIED},
    {OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, sizeof(int), OSSL_PARAM_UNMODIFIED},
    {NULL, 0, NULL, 0, 0}};

static const OSSL_PARAM *prov_gettable_params(void *provctx)
{
    (void)provctx;
    return prov_param_types;
}

/* A string parameter asked for as UTF8_PTR (as `openssl list -providers`
 * does) or as UTF8_STRING. */
static int set_str(OSSL_PARAM *p, const char *s)
{
    if (p->data_type == OSSL_PARAM_UTF8_PTR) {
        if (p->data != NULL) /* data_size is 0 for a pointer (OSSL_PARAM_construct_utf8_ptr) */
            *(const char **)p->data = s;
        p->return_size = strlen(s);
        return 1;
    }
    return fs2p_set_utf8(p, s);
}

static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
    const fs2p_provctx *pc = provctx;
    static char buildinfo[64];
    OSSL_PARAM *p;
    if ((p = fs2p_locate(params, FS2P_PARAM_NO_DISTID)) &&
        !set_str(p, pc != NULL && pc->no_id_is_default ? FASTSM2_DEFAULT_ID : "empty"))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PROV_PARAM_NAME)) && !set_str(p, "fastsm2 provider"))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PROV_PARAM_VERSION)) && !set_str(p, fastsm2_version()))
        return 0;
    if ((p = fs2p_locate(params, OSSL_PROV_PARAM_BUILDINFO))) {
        if (buildinfo[0] == 0) /* the same text every time: a benign race */
            snprintf(buildinfo, sizeof buildinfo, "fastsm2 %s (%s)", fastsm2_version(), fastsm2_backend_name());
        if (!set_str(p, buildinfo))
            return 0;
    }
    if ((p = fs2p_locate(params, OSSL_PROV_PARAM_STATUS)) && !fs2p_set_int(p, 1))
        return 0;
    return 1;
}

static const OSSL_ITEM *prov_reason_strings(void *provctx)
{
    (void)provctx;
    return reason_strings;
}

static void prov_teardown(void *provctx)
{
    free(provctx);
}

static const OSSL_DISPATCH prov_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reason_strings},
    {0, NULL}};

/*
 * The host's libcrypto, found from one of the core's functions (the object
 * that holds it: libcrypto, or the program when that links it statically):
 *  - Tongsuo (Tongsuo-Project/Tongsuo, OpenSSL 3's fork with TLCP) reports
 *    OpenSSL's version numbers to providers (its 8.5 says 3.5.x), but its
 *    own SM2 code hashes GB/T 32918.2's default ID when none is set, on
 *    every release, as its certificate and TLCP code expect. It is told
 *    apart by a function only its libcrypto exports, Tongsuo_version_num.
 *  - EVP_PKEY_get_params, with which the key exchange reads the keys that
 *    Tongsuo's TLCP passes as EVP_PKEY pointers (prov_exchange.c).
 */
static void *host_symbol(void *h, const char *name)
{
    void *sym = h != NULL ? dlsym(h, name) : NULL;
    if (sym == NULL) /* a program with libcrypto linked in and its symbols exported */
        sym = dlsym(RTLD_DEFAULT, name);
    return sym;
}

static void read_host(fs2p_provctx *pc, void (*core_fn)(void))
{
    Dl_info info;
    union {
        void (*fn)(void);
        void *p;
    } u = {core_fn};
    void *h = NULL;
    if (core_fn != NULL && dladdr(u.p, &info) != 0 && info.dli_fname != NULL)
        h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    pc->host_tongsuo = host_symbol(h, "Tongsuo_version_num") != NULL;
    union {
        void *p;
        int (*fn)(const void *, OSSL_PARAM *);
    } g = {host_symbol(h, "EVP_PKEY_get_params")};
    pc->evp_pkey_get_params = g.fn; /* valid while libcrypto is loaded: while this module is */
    if (h != NULL)
        dlclose(h);
}

__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out, void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                       void **provctx)
{
    OSSL_FUNC_core_get_params_fn *c_get_params = NULL;
    for (; in != NULL && in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_GET_PARAMS: c_get_params = OSSL_FUNC_core_get_params(in); break;
        case OSSL_FUNC_CORE_NEW_ERROR: c_new_error = OSSL_FUNC_core_new_error(in); break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG: c_set_error_debug = OSSL_FUNC_core_set_error_debug(in); break;
        case OSSL_FUNC_CORE_VSET_ERROR: c_vset_error = OSSL_FUNC_core_vset_error(in); break;
        }
    }
    fs2p_provctx *pc = calloc(1, sizeof *pc);
    if (pc == NULL)
        return 0;
    pc->handle = handle;
    /* The ID an operation with no distid hashes: the host's own SM2 code's
     * choice, so that loading the provider never changes which signatures
     * verify: the empty ID on OpenSSL 3.x, the default ID on OpenSSL 4.0 on
     * (its core's "openssl-version", "3.0.2", "4.0.3", ...) and on Tongsuo.
     * The configuration's "no_distid = 1234567812345678 | empty" in the
     * provider's section decides instead (docs/PROVIDER.md; not the word
     * "default", which OpenSSL reads as the name of the file's default
     * section). */
    char *ver = NULL, *conf = NULL;
    OSSL_PARAM vp[3] = {{OSSL_PROV_PARAM_CORE_VERSION, OSSL_PARAM_UTF8_PTR, &ver, 0, 0},
                        {FS2P_PARAM_NO_DISTID, OSSL_PARAM_UTF8_PTR, &conf, 0, 0},
                        {NULL, 0, NULL, 0, 0}};
    if (c_get_params != NULL && c_get_params(handle, vp) && ver != NULL)
        pc->no_id_is_default = atoi(ver) >= 4;
    read_host(pc, (void (*)(void))c_get_params);
    if (pc->host_tongsuo)
        pc->no_id_is_default = 1;
    if (conf != NULL && strcmp(conf, FASTSM2_DEFAULT_ID) == 0)
        pc->no_id_is_default = 1;
    else if (conf != NULL && strcasecmp(conf, "empty") == 0)
        pc->no_id_is_default = 0;
    init_reason_strings();
    *provctx = pc;
    *out = prov_functions;
    return 1;
}
