/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A tiny Node-API host, enough to load fastsm2's addon (the .node file)
 * with dlopen and call a few of its functions where no Node runs: the
 * linux-arm64 prebuild under qemu-aarch64 (test/arm64-check.sh). It
 * implements the napi_* functions the addon imports, over a handful of
 * value kinds, and checks the GB/T 32905 / 32918 examples:
 *   SM3("abc"); P = dG; the example signature verifies and a changed one
 *   does not; sign + verify on a digest; a bad key throws.
 * usage: napi-host ADDON.node
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { V_UNDEF, V_NULL, V_BOOL, V_INT, V_STR, V_EXT, V_U8, V_OBJ } kind;
typedef struct val {
    kind k;
    int32_t i;
    bool b;
    void *ext;
    unsigned char *data;
    size_t len;
    const char *code;
} val;
typedef val *napi_value;
typedef int napi_status;
typedef void *napi_env;
typedef void *napi_callback_info;
typedef napi_value (*napi_callback)(napi_env, napi_callback_info);
typedef void (*napi_finalize)(napi_env, void *, void *);
typedef struct {
    const char *utf8name;
    napi_value name;
    napi_callback method, getter, setter;
    napi_value value;
    int attributes;
    void *data;
} napi_property_descriptor;

static val undef = {V_UNDEF};
static napi_value args[8];
static size_t nargs;
static val *thrown;
static struct {
    const char *name;
    napi_callback fn;
} fns[64];
static size_t nfns;

static val *mk(kind k)
{
    val *v = calloc(1, sizeof *v);
    v->k = k;
    return v;
}

#define API __attribute__((visibility("default")))
API napi_status napi_define_properties(napi_env e, napi_value o, size_t n, const napi_property_descriptor *p)
{
    (void)e;
    (void)o;
    for (size_t i = 0; i < n && nfns < 64; i++) {
        fns[nfns].name = p[i].utf8name;
        fns[nfns++].fn = p[i].method;
    }
    return 0;
}
API napi_status napi_get_cb_info(napi_env e, napi_callback_info info, size_t *argc, napi_value *argv, napi_value *t,
                                 void **d)
{
    (void)e;
    (void)info;
    (void)t;
    (void)d;
    for (size_t i = 0; i < *argc; i++)
        argv[i] = i < nargs ? args[i] : &undef;
    *argc = nargs;
    return 0;
}
API napi_status napi_typeof(napi_env e, napi_value v, int *t)
{
    (void)e;
    static const int map[] = {0, 1, 2, 3, 4, 8, 6, 6}; /* napi_valuetype numbers */
    *t = map[v->k];
    return 0;
}
API napi_status napi_is_typedarray(napi_env e, napi_value v, bool *r)
{
    (void)e;
    *r = v->k == V_U8;
    return 0;
}
API napi_status napi_get_typedarray_info(napi_env e, napi_value v, int *type, size_t *len, void **data, napi_value *ab,
                                         size_t *off)
{
    (void)e;
    if (v->k != V_U8)
        return 1;
    *type = 1; /* napi_uint8_array */
    *len = v->len;
    *data = v->data;
    if (ab)
        *ab = v;
    if (off)
        *off = 0;
    return 0;
}
API napi_status napi_get_value_external(napi_env e, napi_value v, void **r)
{
    (void)e;
    if (v->k != V_EXT)
        return 1;
    *r = v->ext;
    return 0;
}
API napi_status napi_get_value_int32(napi_env e, napi_value v, int32_t *r)
{
    (void)e;
    if (v->k != V_INT)
        return 1;
    *r = v->i;
    return 0;
}
API napi_status napi_get_value_bool(napi_env e, napi_value v, bool *r)
{
    (void)e;
    if (v->k != V_BOOL)
        return 1;
    *r = v->b;
    return 0;
}
API napi_status napi_get_undefined(napi_env e, napi_value *r)
{
    (void)e;
    *r = &undef;
    return 0;
}
API napi_status napi_create_int32(napi_env e, int32_t x, napi_value *r)
{
    (void)e;
    *r = mk(V_INT);
    (*r)->i = x;
    return 0;
}
API napi_status napi_create_string_utf8(napi_env e, const char *s, size_t n, napi_value *r)
{
    (void)e;
    (void)n;
    *r = mk(V_STR);
    (*r)->code = s;
    return 0;
}
API napi_status napi_create_external(napi_env e, void *d, napi_finalize f, void *h, napi_value *r)
{
    (void)e;
    (void)f;
    (void)h;
    *r = mk(V_EXT);
    (*r)->ext = d;
    return 0;
}
API napi_status napi_create_buffer_copy(napi_env e, size_t n, const void *d, void **out, napi_value *r)
{
    (void)e;
    *r = mk(V_U8);
    (*r)->data = malloc(n ? n : 1);
    memcpy((*r)->data, d, n);
    (*r)->len = n;
    if (out)
        *out = (*r)->data;
    return 0;
}
API napi_status napi_create_arraybuffer(napi_env e, size_t n, void **d, napi_value *r)
{
    (void)e;
    *r = mk(V_U8);
    (*r)->data = calloc(1, n + 1);
    (*r)->len = n;
    *d = (*r)->data;
    return 0;
}
API napi_status napi_create_typedarray(napi_env e, int t, size_t n, napi_value ab, size_t off, napi_value *r)
{
    (void)e;
    (void)t;
    (void)n;
    (void)off;
    *r = ab;
    return 0;
}
API napi_status napi_create_error(napi_env e, napi_value code, napi_value msg, napi_value *r)
{
    (void)e;
    (void)msg;
    *r = mk(V_OBJ);
    (*r)->code = code->code;
    return 0;
}
API napi_status napi_new_instance(napi_env e, napi_value c, size_t n, const napi_value *a, napi_value *r)
{
    (void)e;
    (void)c;
    (void)n;
    *r = mk(V_OBJ);
    (*r)->code = a[1]->code;
    return 0;
}
API napi_status napi_throw(napi_env e, napi_value v)
{
    (void)e;
    thrown = v;
    return 0;
}
API napi_status napi_throw_error(napi_env e, const char *code, const char *msg)
{
    (void)e;
    (void)msg;
    thrown = mk(V_OBJ);
    thrown->code = code;
    return 0;
}
API napi_status napi_create_reference(napi_env e, napi_value v, uint32_t n, void **r)
{
    (void)e;
    (void)n;
    *r = v;
    return 0;
}
API napi_status napi_get_reference_value(napi_env e, void *ref, napi_value *r)
{
    (void)e;
    *r = ref;
    return 0;
}
API napi_status napi_delete_reference(napi_env e, void *ref)
{
    (void)e;
    (void)ref;
    return 0;
}
static void *instance_data;
API napi_status napi_set_instance_data(napi_env e, void *d, napi_finalize f, void *h)
{
    (void)e;
    (void)f;
    (void)h;
    instance_data = d;
    return 0;
}
API napi_status napi_get_instance_data(napi_env e, void **d)
{
    (void)e;
    *d = instance_data;
    return 0;
}
API napi_status napi_adjust_external_memory(napi_env e, int64_t change, int64_t *total)
{
    (void)e;
    static int64_t sum;
    sum += change;
    *total = sum;
    return 0;
}
API napi_status napi_is_exception_pending(napi_env e, bool *r)
{
    (void)e;
    *r = false;
    return 0;
}
/* promises and async work are not exercised here: refuse them */
API napi_status napi_create_promise(napi_env e, void **d, napi_value *p)
{
    (void)e;
    (void)d;
    (void)p;
    return 1;
}
API napi_status napi_resolve_deferred(napi_env e, void *d, napi_value v)
{
    (void)e;
    (void)d;
    (void)v;
    return 1;
}
API napi_status napi_reject_deferred(napi_env e, void *d, napi_value v)
{
    (void)e;
    (void)d;
    (void)v;
    return 1;
}
API napi_status napi_create_async_work(napi_env e, napi_value r, napi_value n, void *x, void *c, void *d, void **w)
{
    (void)e;
    (void)r;
    (void)n;
    (void)x;
    (void)c;
    (void)d;
    (void)w;
    return 1;
}
API napi_status napi_queue_async_work(napi_env e, void *w)
{
    (void)e;
    (void)w;
    return 1;
}
API napi_status napi_delete_async_work(napi_env e, void *w)
{
    (void)e;
    (void)w;
    return 1;
}

static napi_value call(const char *name, size_t n, napi_value *a)
{
    for (size_t i = 0; i < nfns; i++) {
        if (strcmp(fns[i].name, name) == 0) {
            memcpy(args, a, n * sizeof *a);
            nargs = n;
            thrown = NULL;
            return fns[i].fn(NULL, NULL);
        }
    }
    fprintf(stderr, "napi-host: no function %s\n", name);
    exit(2);
}

static napi_value bytes(const char *hex)
{
    val *v = mk(V_U8);
    v->len = strlen(hex) / 2;
    v->data = malloc(v->len + 1);
    for (size_t i = 0; i < v->len; i++) {
        unsigned x;
        sscanf(hex + 2 * i, "%2x", &x);
        v->data[i] = (unsigned char)x;
    }
    return v;
}

static int failures;
static void expect(int cond, const char *what)
{
    printf("%s %s\n", cond ? "ok  " : "FAIL", what);
    failures += !cond;
}

static int same(napi_value v, napi_value want)
{
    return v && v->k == V_U8 && v->len == want->len && memcmp(v->data, want->data, v->len) == 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: napi-host ADDON.node\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h) {
        fprintf(stderr, "napi-host: %s\n", dlerror());
        return 1;
    }
    napi_value (*reg)(napi_env, napi_value) = (napi_value(*)(napi_env, napi_value))dlsym(h, "napi_register_module_v1");
    expect(reg != NULL, "napi_register_module_v1 exported");
    if (!reg)
        return 1;
    reg(NULL, mk(V_OBJ));
    expect(nfns >= 20, "the addon defines its functions");

    napi_value a[4];
    a[0] = bytes("616263");
    expect(same(call("sm3", 1, a), bytes("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0")),
           "SM3(\"abc\") (GB/T 32905)");
    a[0] = bytes("3945208f7b2144b13f36e38ac6d39f95889393692860b51a42fb81ef4df7c5b8");
    napi_value priv = call("privFromBytes", 1, a);
    expect(priv && priv->k == V_EXT, "privFromBytes");
    a[0] = priv;
    napi_value pub = call("privPub", 1, a);
    a[0] = pub;
    a[1] = mk(V_BOOL);
    napi_value P = call("pubToBytes", 2, a);
    expect(same(P, bytes("0409f9df311e5421a150dd7d161e4bc5c672179fad1833fc076bb08ff356f35020"
                         "ccea490ce26775a52dc6ea718cc1aa600aed05fbf35e084a6632f6072da9ad13")),
           "P = dG (GB/T 32918 example)");
    napi_value e = bytes("f0b43e94ba45accaace692ed534382eb17e6ab5a19ce7b31f4486fdfc0d28640");
    napi_value sig = bytes("f5a03b0648d2c4630eeac513e1bb81a15944da3827d5b74143ac7eaceee720b3"
                           "b1b6aa29df212fd8763182bc0d421ca1bb9038fd1f7f42d4840b69c485bbc1aa");
    a[0] = pub;
    a[1] = e;
    a[2] = sig;
    napi_value r = call("verifyDigest", 3, a);
    expect(r && r->k == V_INT && r->i == 1, "the example signature verifies");
    sig->data[63] ^= 1;
    r = call("verifyDigest", 3, a);
    expect(r && r->k == V_INT && r->i == -9, "a changed one is FASTSM2_ERR_BAD_SIGNATURE");
    a[0] = priv;
    a[1] = e;
    napi_value s2 = call("signDigest", 2, a);
    a[0] = pub;
    a[1] = e;
    a[2] = s2;
    r = call("verifyDigest", 3, a);
    expect(r && r->k == V_INT && r->i == 1, "signDigest, then verifyDigest");
    a[0] = bytes("0000000000000000000000000000000000000000000000000000000000000000");
    r = call("privFromBytes", 1, a);
    expect(r == NULL && thrown && thrown->code && strcmp(thrown->code, "FASTSM2_ERR_PRIVATE_KEY") == 0,
           "d = 0 throws FASTSM2_ERR_PRIVATE_KEY");
    a[0] = pub;
    napi_value pub2 = call("keyShare", 1, a);
    a[0] = pub;
    call("keyFree", 1, a);
    a[0] = pub2;
    a[1] = e;
    a[2] = s2;
    r = call("verifyDigest", 3, a);
    expect(r && r->k == V_INT && r->i == 1, "a shared handle works after the first is freed");
    a[0] = pub;
    a[1] = e;
    r = call("verifyDigest", 3, a);
    expect(r == NULL && thrown && thrown->code && strcmp(thrown->code, "FASTSM2_ERR_ARG") == 0,
           "a freed handle throws FASTSM2_ERR_ARG");
    a[0] = priv;
    r = call("backend", 0, a);
    printf("backend: %s\n", r && r->code ? r->code : "?");
    return failures ? 1 : 0;
}
