/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2's Node-API addon: a thin skin over the public C API
 * (include/fastsm2.h).
 *
 * Keys live in C memory (fs2js_key) with a count of their uses: one for
 * the JavaScript handle while it is alive, one for each batch running with
 * the key. The handle is a napi_external of a small fs2js_handle that
 * points to the key; keyFree() (JavaScript's destroy()) drops the handle's
 * use at once, and the garbage collector's finalizer does it for a handle
 * never destroyed. The last use wipes the key (fastsm2_privkey_clear, then
 * every byte) and frees it: a batch on another thread keeps its key whole
 * until it ends, and destroy() frees a key's memory at once when no batch
 * holds it. Uses are counted on the JavaScript thread of the key's
 * environment only (napi_create_async_work's complete callback runs there),
 * so the count needs no atomics; a key never leaves its environment.
 *
 * Everything the addon keeps between calls is per Node-API environment
 * (main thread, each worker_thread): the FastSM2Error class that
 * lib/errors registers through setErrorClass(), in napi_set_instance_data.
 * Errors are thrown as instances of that class, with the library's status
 * code and its name (FASTSM2_ERR_POINT, ...).
 *
 * Batches run as napi_async_work off the JavaScript thread, spread over the
 * library's own thread pool (fastsm2_*_batch).
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#include "fastsm2.h"

#define KEY_PRIV    0x5032u /* tags of the keys: a key of the wrong kind is FASTSM2_ERR_ARG */
#define KEY_PUB     0x5055u
#define KEY_SM4     0x5334u /* an SM4 key */
#define KEY_SM4_CTX 0x5343u /* a streaming ECB/CBC/CTR/OFB/CFB operation */
#define KEY_GCM_CTX 0x5347u /* a streaming GCM operation */

typedef struct {
    unsigned tag;
    unsigned uses; /* the handle's (until destroyed or collected) + one per running batch */
    union {
        fastsm2_privkey priv;
        fastsm2_pubkey pub;
        fastsm2_sm4_key sm4;
        fastsm2_sm4_ctx ctx;
        fastsm2_sm4_gcm_ctx gcm;
    } u;
} fs2js_key;

/* What a napi_external holds: NULL once destroy() ran. */
typedef struct {
    fs2js_key *key;
} fs2js_handle;

/* Per-environment state (napi_set_instance_data). */
typedef struct {
    napi_ref error_class;
} fs2js_env;

/* Wipes through a volatile pointer: the compiler may not drop it. */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

static fs2js_env *env_state(napi_env env)
{
    void *d = NULL;
    if (napi_get_instance_data(env, &d) != napi_ok)
        return NULL;
    return d;
}

/* new FastSM2Error(status, name, message) of this environment (a plain
 * Error with code = the name before setErrorClass ran). */
static napi_value make_error(napi_env env, int status)
{
    napi_value ctor = NULL, args[3], err = NULL;
    fs2js_env *st = env_state(env);
    napi_create_int32(env, status, &args[0]);
    napi_create_string_utf8(env, fastsm2_error_name(status), NAPI_AUTO_LENGTH, &args[1]);
    napi_create_string_utf8(env, fastsm2_strerror(status), NAPI_AUTO_LENGTH, &args[2]);
    if (st && st->error_class && napi_get_reference_value(env, st->error_class, &ctor) == napi_ok && ctor &&
        napi_new_instance(env, ctor, 3, args, &err) == napi_ok)
        return err;
    if (napi_create_error(env, args[1], args[2], &err) != napi_ok)
        return NULL;
    return err;
}

/* Throw new FastSM2Error(status, name, message); returns NULL for the caller. */
static napi_value throw_status(napi_env env, int status)
{
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending)
        return NULL; /* a JavaScript exception is already on its way */
    napi_value err = make_error(env, status);
    if (err)
        napi_throw(env, err);
    else
        napi_throw_error(env, fastsm2_error_name(status), fastsm2_strerror(status));
    return NULL;
}

#define CHECK_NAPI(call)                               \
    do {                                               \
        if ((call) != napi_ok)                         \
            return throw_status(env, FASTSM2_ERR_ARG); \
    } while (0)

/* Reads argc arguments (missing ones are undefined). */
#define ARGS(n)                                                       \
    size_t argc = n;                                                  \
    napi_value argv[n];                                               \
    CHECK_NAPI(napi_get_cb_info(env, info, &argc, argv, NULL, NULL)); \
    for (size_t i_ = argc; i_ < n; i_++)                              \
    napi_get_undefined(env, &argv[i_])

/* A Uint8Array (or Buffer) argument: its bytes, not copied. */
static int get_bytes(napi_env env, napi_value v, const unsigned char **p, size_t *len)
{
    bool is;
    if (napi_is_typedarray(env, v, &is) != napi_ok || !is)
        return 0;
    napi_typedarray_type type;
    void *data;
    napi_value ab;
    size_t off;
    if (napi_get_typedarray_info(env, v, &type, len, &data, &ab, &off) != napi_ok || type != napi_uint8_array)
        return 0;
    static const unsigned char empty[1];
    *p = data ? (const unsigned char *)data : empty; /* non-NULL for an empty array: the empty ID */
    return 1;
}

#define BYTES(idx, p, len)                    \
    const unsigned char *p;                   \
    size_t len;                               \
    if (!get_bytes(env, argv[idx], &p, &len)) \
    return throw_status(env, FASTSM2_ERR_ARG)

/* An optional ID: null/undefined -> the key's ID (NULL), else a Uint8Array. */
static int get_id(napi_env env, napi_value v, const unsigned char **p, size_t *len)
{
    napi_valuetype t;
    if (napi_typeof(env, v, &t) != napi_ok)
        return 0;
    if (t == napi_null || t == napi_undefined) {
        *p = NULL;
        *len = 0;
        return 1;
    }
    return get_bytes(env, v, p, len);
}

static fs2js_handle *get_handle(napi_env env, napi_value v)
{
    napi_valuetype t;
    void *data = NULL;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_external)
        return NULL;
    if (napi_get_value_external(env, v, &data) != napi_ok)
        return NULL;
    return data;
}

static fs2js_key *get_key(napi_env env, napi_value v, unsigned tag)
{
    fs2js_handle *h = get_handle(env, v);
    if (!h || !h->key)
        return NULL; /* not a key, or destroyed */
    return h->key->tag == tag ? h->key : NULL;
}

#define PRIV(idx, k)                                  \
    fs2js_key *k = get_key(env, argv[idx], KEY_PRIV); \
    if (!k)                                           \
    return throw_status(env, FASTSM2_ERR_ARG)
#define PUB(idx, k)                                  \
    fs2js_key *k = get_key(env, argv[idx], KEY_PUB); \
    if (!k)                                          \
    return throw_status(env, FASTSM2_ERR_ARG)

/* The memory a key holds, told to the garbage collector (napi_adjust_external_memory)
 * so that handles nobody destroys are collected in time. */
#define KEY_MEMORY ((int64_t)sizeof(fs2js_key))

static fs2js_key *key_alloc(napi_env env, unsigned tag)
{
    fs2js_key *k = calloc(1, sizeof *k);
    if (k) {
        int64_t total;
        k->tag = tag;
        k->uses = 1;
        napi_adjust_external_memory(env, KEY_MEMORY, &total);
    }
    return k;
}

/* Drop one use; the last wipes and frees the key. */
static void key_release(napi_env env, fs2js_key *k)
{
    if (!k || --k->uses > 0)
        return;
    if (k->tag == KEY_PRIV)
        fastsm2_privkey_clear(&k->u.priv);
    else if (k->tag == KEY_SM4)
        fastsm2_sm4_key_clear(&k->u.sm4);
    else if (k->tag == KEY_SM4_CTX)
        fastsm2_sm4_ctx_clear(&k->u.ctx);
    else if (k->tag == KEY_GCM_CTX)
        fastsm2_sm4_gcm_clear(&k->u.gcm);
    wipe(k, sizeof *k);
    free(k);
    int64_t total;
    napi_adjust_external_memory(env, -KEY_MEMORY, &total);
}

static void handle_finalize(napi_env env, void *data, void *hint)
{
    (void)hint;
    fs2js_handle *h = data;
    key_release(env, h->key); /* NULL if destroy() ran */
    free(h);
}

/* A handle for a new key (whose one use it takes over). */
static napi_value key_wrap(napi_env env, fs2js_key *k)
{
    napi_value out;
    fs2js_handle *h = malloc(sizeof *h);
    if (!h) {
        key_release(env, k);
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    }
    h->key = k;
    if (napi_create_external(env, h, handle_finalize, NULL, &out) != napi_ok) {
        handle_finalize(env, h, NULL);
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    }
    return out;
}

static napi_value make_buffer(napi_env env, const void *data, size_t len)
{
    napi_value out;
    void *dst;
    if (napi_create_buffer_copy(env, len, data, &dst, &out) != napi_ok)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    return out;
}

static napi_value make_int(napi_env env, int v)
{
    napi_value out;
    napi_create_int32(env, v, &out);
    return out;
}

static napi_value make_string(napi_env env, const char *s)
{
    napi_value out;
    napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &out);
    return out;
}

static int get_int(napi_env env, napi_value v, int *out)
{
    int32_t x;
    if (napi_get_value_int32(env, v, &x) != napi_ok)
        return 0;
    *out = x;
    return 1;
}

/* ---- functions ------------------------------------------------------------ */

/* setErrorClass(FastSM2Error): the class of this environment's errors. */
static napi_value js_set_error_class(napi_env env, napi_callback_info info)
{
    ARGS(1);
    fs2js_env *st = env_state(env);
    if (!st)
        return throw_status(env, FASTSM2_ERR_STATE);
    napi_ref ref;
    CHECK_NAPI(napi_create_reference(env, argv[0], 1, &ref));
    if (st->error_class)
        napi_delete_reference(env, st->error_class);
    st->error_class = ref;
    return NULL;
}

static napi_value js_version(napi_env env, napi_callback_info info)
{
    (void)info;
    return make_string(env, fastsm2_version());
}

static napi_value js_backend(napi_env env, napi_callback_info info)
{
    (void)info;
    return make_string(env, fastsm2_backend_name());
}

static napi_value js_error_name(napi_env env, napi_callback_info info)
{
    ARGS(1);
    int st;
    if (!get_int(env, argv[0], &st))
        return throw_status(env, FASTSM2_ERR_ARG);
    return make_string(env, fastsm2_error_name(st));
}

static napi_value js_priv_generate(napi_env env, napi_callback_info info)
{
    (void)info;
    fs2js_key *k = key_alloc(env, KEY_PRIV);
    if (!k)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_privkey_generate(&k->u.priv);
    if (st != FASTSM2_OK) {
        key_release(env, k);
        return throw_status(env, st);
    }
    return key_wrap(env, k);
}

static napi_value js_priv_from_bytes(napi_env env, napi_callback_info info)
{
    ARGS(1);
    BYTES(0, d, dlen);
    if (dlen != 32)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    fs2js_key *k = key_alloc(env, KEY_PRIV);
    if (!k)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_privkey_from_bytes(&k->u.priv, d);
    if (st != FASTSM2_OK) {
        key_release(env, k);
        return throw_status(env, st);
    }
    return key_wrap(env, k);
}

static napi_value js_priv_parse(napi_env env, napi_callback_info info)
{
    ARGS(2);
    BYTES(0, in, inlen);
    const unsigned char *pw;
    size_t pwlen;
    if (!get_id(env, argv[1], &pw, &pwlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    fs2js_key *k = key_alloc(env, KEY_PRIV);
    if (!k)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = pw ? fastsm2_privkey_parse_encrypted(&k->u.priv, in, inlen, pw, pwlen)
                : fastsm2_privkey_parse(&k->u.priv, in, inlen);
    if (st != FASTSM2_OK) {
        key_release(env, k);
        return throw_status(env, st);
    }
    return key_wrap(env, k);
}

static napi_value js_priv_to_bytes(napi_env env, napi_callback_info info)
{
    ARGS(1);
    PRIV(0, k);
    unsigned char d[32];
    int st = fastsm2_privkey_to_bytes(d, &k->u.priv);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    napi_value out = make_buffer(env, d, 32);
    wipe(d, sizeof d);
    return out;
}

static napi_value js_priv_serialize(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PRIV(0, k);
    int fmt;
    if (!get_int(env, argv[1], &fmt))
        return throw_status(env, FASTSM2_ERR_ARG);
    unsigned char buf[1024];
    size_t len = sizeof buf;
    int st = fastsm2_privkey_serialize(buf, &len, &k->u.priv, fmt);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    napi_value out = make_buffer(env, buf, len);
    wipe(buf, sizeof buf);
    return out;
}

static napi_value js_priv_pub(napi_env env, napi_callback_info info)
{
    ARGS(1);
    PRIV(0, k);
    fs2js_key *p = key_alloc(env, KEY_PUB);
    if (!p)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_privkey_pubkey(&p->u.pub, &k->u.priv);
    if (st != FASTSM2_OK) {
        key_release(env, p);
        return throw_status(env, st);
    }
    return key_wrap(env, p);
}

/* keyFree(handle): the handle's use of the key ends now (destroy()); the
 * key is wiped and freed unless a batch still holds it, then when the
 * last such batch ends. The handle refuses every later call. */
static napi_value js_key_free(napi_env env, napi_callback_info info)
{
    ARGS(1);
    fs2js_handle *h = get_handle(env, argv[0]);
    if (h && h->key) {
        fs2js_key *k = h->key;
        h->key = NULL;
        key_release(env, k);
    }
    return NULL;
}

/* keyShare(handle) -> a second handle of the same key (one more use):
 * what a batch holds while it runs, freed with keyFree. */
static napi_value js_key_share(napi_env env, napi_callback_info info)
{
    ARGS(1);
    fs2js_handle *h = get_handle(env, argv[0]);
    if (!h || !h->key)
        return throw_status(env, FASTSM2_ERR_ARG);
    h->key->uses++;
    return key_wrap(env, h->key);
}

static napi_value js_pub_from_bytes(napi_env env, napi_callback_info info)
{
    ARGS(2);
    BYTES(0, in, inlen);
    bool parse = false;
    napi_get_value_bool(env, argv[1], &parse);
    fs2js_key *p = key_alloc(env, KEY_PUB);
    if (!p)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = parse ? fastsm2_pubkey_parse(&p->u.pub, in, inlen) : fastsm2_pubkey_from_bytes(&p->u.pub, in, inlen);
    if (st != FASTSM2_OK) {
        key_release(env, p);
        return throw_status(env, st);
    }
    return key_wrap(env, p);
}

static napi_value js_pub_to_bytes(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PUB(0, p);
    bool compressed = false;
    napi_get_value_bool(env, argv[1], &compressed);
    unsigned char out[65];
    size_t len = sizeof out;
    int st = fastsm2_pubkey_to_bytes(out, &len, &p->u.pub, compressed ? 1 : 0);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, out, len);
}

static napi_value js_pub_serialize(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PUB(0, p);
    int fmt;
    if (!get_int(env, argv[1], &fmt))
        return throw_status(env, FASTSM2_ERR_ARG);
    unsigned char buf[512];
    size_t len = sizeof buf;
    int st = fastsm2_pubkey_serialize(buf, &len, &p->u.pub, fmt);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, buf, len);
}

static napi_value js_pub_precompute(napi_env env, napi_callback_info info)
{
    ARGS(1);
    PUB(0, p);
    int st = fastsm2_pubkey_precompute(&p->u.pub);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return NULL;
}

static napi_value js_compute_z(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PUB(0, p);
    const unsigned char *id;
    size_t idlen;
    if (!get_id(env, argv[1], &id, &idlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    unsigned char z[32];
    int st = fastsm2_compute_z(z, &p->u.pub, id, idlen);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, z, 32);
}

static napi_value js_sign(napi_env env, napi_callback_info info)
{
    ARGS(3);
    PRIV(0, k);
    const unsigned char *id;
    size_t idlen;
    if (!get_id(env, argv[1], &id, &idlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    BYTES(2, msg, msglen);
    unsigned char sig[64];
    int st = fastsm2_sign(sig, &k->u.priv, id, idlen, msg, msglen);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, sig, 64);
}

static napi_value js_sign_digest(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PRIV(0, k);
    BYTES(1, e, elen);
    if (elen != 32)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    unsigned char sig[64];
    int st = fastsm2_sign_digest(sig, &k->u.priv, e);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, sig, 64);
}

/* signDigestWithNonce(priv, e, k): GB/T 32918.2 6.1 A4-A7 with the caller's k
 * (sm-crypto's pointPool). */
static napi_value js_sign_digest_with_nonce(napi_env env, napi_callback_info info)
{
    ARGS(3);
    PRIV(0, k);
    BYTES(1, e, elen);
    BYTES(2, nonce, nlen);
    if (elen != 32 || nlen != 32)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    unsigned char sig[64];
    int st = fastsm2_sign_digest_with_nonce(sig, &k->u.priv, e, nonce);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, sig, 64);
}

/* verify(pub, id, msg, sig) -> the status: 1 valid, or the negative reason
 * (the JavaScript layer turns it into a boolean or an error). */
static napi_value js_verify(napi_env env, napi_callback_info info)
{
    ARGS(4);
    PUB(0, p);
    const unsigned char *id;
    size_t idlen;
    if (!get_id(env, argv[1], &id, &idlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    BYTES(2, msg, msglen);
    BYTES(3, sig, siglen);
    if (siglen != 64)
        return make_int(env, FASTSM2_ERR_LENGTH);
    return make_int(env, fastsm2_verify_status(&p->u.pub, id, idlen, msg, msglen, sig));
}

static napi_value js_verify_digest(napi_env env, napi_callback_info info)
{
    ARGS(3);
    PUB(0, p);
    BYTES(1, e, elen);
    BYTES(2, sig, siglen);
    if (elen != 32 || siglen != 64)
        return make_int(env, FASTSM2_ERR_LENGTH);
    return make_int(env, fastsm2_verify_digest_status(&p->u.pub, e, sig));
}

/* encrypt(pub, msg, flags[, k]): k given, fastsm2_encrypt_with_nonce. */
static napi_value js_encrypt(napi_env env, napi_callback_info info)
{
    ARGS(4);
    PUB(0, p);
    BYTES(1, msg, msglen);
    int flags;
    if (!get_int(env, argv[2], &flags))
        return throw_status(env, FASTSM2_ERR_ARG);
    const unsigned char *nonce = NULL;
    size_t nlen = 0;
    if (!get_id(env, argv[3], &nonce, &nlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    if (nonce && nlen != 32)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    size_t cap = fastsm2_ciphertext_size(msglen, flags);
    if (cap == 0)
        return throw_status(env, FASTSM2_ERR_ARG);
    unsigned char stackbuf[512];
    unsigned char *out = cap <= sizeof stackbuf ? stackbuf : malloc(cap);
    if (!out)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    size_t len = cap;
    int st = nonce ? fastsm2_encrypt_with_nonce(out, &len, &p->u.pub, msg, msglen, flags, nonce)
                   : fastsm2_encrypt(out, &len, &p->u.pub, msg, msglen, flags);
    napi_value ret = st == FASTSM2_OK ? make_buffer(env, out, len) : throw_status(env, st);
    wipe(out, cap);
    if (out != stackbuf)
        free(out);
    return ret;
}

static napi_value js_decrypt(napi_env env, napi_callback_info info)
{
    ARGS(3);
    PRIV(0, k);
    BYTES(1, ct, ctlen);
    int flags;
    if (!get_int(env, argv[2], &flags))
        return throw_status(env, FASTSM2_ERR_ARG);
    size_t cap = ctlen ? ctlen : 1; /* the plaintext is shorter than the ciphertext */
    unsigned char stackbuf[512];
    unsigned char *out = cap <= sizeof stackbuf ? stackbuf : malloc(cap);
    if (!out)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    size_t len = cap;
    int st = fastsm2_decrypt(out, &len, &k->u.priv, ct, ctlen, flags);
    napi_value ret = st == FASTSM2_OK ? make_buffer(env, out, len) : throw_status(env, st);
    wipe(out, cap);
    if (out != stackbuf)
        free(out);
    return ret;
}

/* ecdh(priv, peer): fastsm2_ecdh, x of [d]P. */
static napi_value js_ecdh(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PRIV(0, k);
    BYTES(1, peer, peerlen);
    unsigned char x[32];
    int st = fastsm2_ecdh(x, &k->u.priv, peer, peerlen);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    napi_value out = make_buffer(env, x, 32);
    wipe(x, sizeof x);
    return out;
}

/* keyExchange(role, priv, id, peer, peerId, r, peerR, klen): GB/T 32918.3 6.1
 * with the caller's r (sm-crypto-v2's calculateSharedKey gives it): K. */
static napi_value js_key_exchange(napi_env env, napi_callback_info info)
{
    ARGS(8);
    int role, klen;
    if (!get_int(env, argv[0], &role) || !get_int(env, argv[7], &klen))
        return throw_status(env, FASTSM2_ERR_ARG);
    PRIV(1, k);
    const unsigned char *id, *peer_id;
    size_t idlen, peer_idlen;
    if (!get_id(env, argv[2], &id, &idlen) || !get_id(env, argv[4], &peer_id, &peer_idlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    PUB(3, peer);
    BYTES(5, r, rlen);
    BYTES(6, peer_r, peer_rlen);
    if (rlen != 32 || klen < 1 || klen > 65536)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    unsigned char *key = malloc((size_t)klen);
    if (!key)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    fastsm2_kx_ctx ctx;
    unsigned char R[65];
    int st = fastsm2_kx_init(&ctx, role, &k->u.priv, id, idlen, &peer->u.pub, peer_id, peer_idlen);
    if (st == FASTSM2_OK)
        st = fastsm2_kx_start_with_nonce(&ctx, R, r);
    if (st == FASTSM2_OK)
        st = fastsm2_kx_compute(&ctx, key, (size_t)klen, peer_r, peer_rlen);
    fastsm2_kx_clear(&ctx);
    napi_value ret = st == FASTSM2_OK ? make_buffer(env, key, (size_t)klen) : throw_status(env, st);
    wipe(key, (size_t)klen);
    free(key);
    return ret;
}

/* kdf(z, outlen): fastsm2_kdf. */
static napi_value js_kdf(napi_env env, napi_callback_info info)
{
    ARGS(2);
    BYTES(0, z, zlen);
    int outlen;
    if (!get_int(env, argv[1], &outlen) || outlen < 0)
        return throw_status(env, FASTSM2_ERR_ARG);
    unsigned char *out = malloc(outlen ? (size_t)outlen : 1);
    if (!out)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = outlen ? fastsm2_kdf(out, (size_t)outlen, z, zlen) : FASTSM2_OK;
    napi_value ret = st == FASTSM2_OK ? make_buffer(env, out, (size_t)outlen) : throw_status(env, st);
    wipe(out, (size_t)outlen);
    free(out);
    return ret;
}

static napi_value js_sm3(napi_env env, napi_callback_info info)
{
    ARGS(1);
    BYTES(0, in, inlen);
    unsigned char md[32];
    fastsm2_sm3(md, in, inlen);
    return make_buffer(env, md, 32);
}

static napi_value js_hmac(napi_env env, napi_callback_info info)
{
    ARGS(2);
    BYTES(0, key, keylen);
    BYTES(1, in, inlen);
    unsigned char md[32];
    int st = fastsm2_hmac_sm3(md, key, keylen, in, inlen);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, md, 32);
}

static napi_value js_sig_to_der(napi_env env, napi_callback_info info)
{
    ARGS(1);
    BYTES(0, sig, siglen);
    if (siglen != 64)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    unsigned char der[FASTSM2_SIG_DER_MAX];
    size_t len = sizeof der;
    int st = fastsm2_sig_to_der(der, &len, sig);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, der, len);
}

static napi_value js_sig_from_der(napi_env env, napi_callback_info info)
{
    ARGS(1);
    BYTES(0, der, derlen);
    unsigned char sig[64];
    int st = fastsm2_sig_from_der(sig, der, derlen);
    if (st != FASTSM2_OK)
        return throw_status(env, st);
    return make_buffer(env, sig, 64);
}

/* ---- SM4 (GB/T 32907) and its modes ------------------------------------------
 * Keys and streaming contexts are keys of this file (uses counted, wiped
 * when the last handle goes). Outputs are written straight into a new
 * ArrayBuffer; a failed call throws, and the library has zeroed what it
 * wrote (no plaintext of a bad tag or bad padding leaves C). */

#define SM4KEY(idx, k)                               \
    fs2js_key *k = get_key(env, argv[idx], KEY_SM4); \
    if (!k)                                          \
    return throw_status(env, FASTSM2_ERR_ARG)

/* A Uint8Array of len bytes over a new ArrayBuffer of cap bytes (cap >= len). */
static int new_array(napi_env env, size_t cap, unsigned char **data, napi_value *ab)
{
    void *d;
    if (napi_create_arraybuffer(env, cap ? cap : 1, &d, ab) != napi_ok)
        return 0;
    *data = d;
    return 1;
}

static napi_value view_of(napi_env env, napi_value ab, size_t len)
{
    napi_value out;
    if (napi_create_typedarray(env, napi_uint8_array, len, ab, 0, &out) != napi_ok)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    return out;
}

static int get_bool(napi_env env, napi_value v)
{
    bool b = false;
    napi_get_value_bool(env, v, &b);
    return b ? 1 : 0;
}

static napi_value js_sm4_backend(napi_env env, napi_callback_info info)
{
    (void)info;
    return make_string(env, fastsm2_sm4_backend_name());
}

/* sm4Key(k16) -> an expanded key */
static napi_value js_sm4_key(napi_env env, napi_callback_info info)
{
    ARGS(1);
    BYTES(0, raw, rawlen);
    if (rawlen != 16)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    fs2js_key *k = key_alloc(env, KEY_SM4);
    if (!k)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_sm4_key_init(&k->u.sm4, raw);
    if (st != FASTSM2_OK) {
        key_release(env, k);
        return throw_status(env, st);
    }
    return key_wrap(env, k);
}

/* sm4Ecb(key, enc, data) */
static napi_value js_sm4_ecb(napi_env env, napi_callback_info info)
{
    ARGS(3);
    SM4KEY(0, k);
    int enc = get_bool(env, argv[1]);
    BYTES(2, in, inlen);
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, inlen, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st =
        enc ? fastsm2_sm4_ecb_encrypt(out, &k->u.sm4, in, inlen) : fastsm2_sm4_ecb_decrypt(out, &k->u.sm4, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, inlen) : throw_status(env, st);
}

/* sm4Cbc(key, enc, padding, iv, data) */
static napi_value js_sm4_cbc(napi_env env, napi_callback_info info)
{
    ARGS(5);
    SM4KEY(0, k);
    int enc = get_bool(env, argv[1]), padding;
    if (!get_int(env, argv[2], &padding))
        return throw_status(env, FASTSM2_ERR_ARG);
    BYTES(3, iv, ivlen);
    BYTES(4, in, inlen);
    if (ivlen != 16)
        return throw_status(env, FASTSM2_ERR_IV);
    size_t cap = inlen + (enc ? 16 : 0), len = cap;
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, cap, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = enc ? fastsm2_sm4_cbc_encrypt(out, &len, &k->u.sm4, iv, padding, in, inlen)
                 : fastsm2_sm4_cbc_decrypt(out, &len, &k->u.sm4, iv, padding, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, len) : throw_status(env, st);
}

/* sm4Ctr(key, iv, data) */
static napi_value js_sm4_ctr(napi_env env, napi_callback_info info)
{
    ARGS(3);
    SM4KEY(0, k);
    BYTES(1, iv, ivlen);
    BYTES(2, in, inlen);
    if (ivlen != 16)
        return throw_status(env, FASTSM2_ERR_IV);
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, inlen, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_sm4_ctr(out, &k->u.sm4, iv, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, inlen) : throw_status(env, st);
}

/* sm4AeadEncrypt(ccm, key, iv, aad, data, taglen) -> ciphertext || tag */
static napi_value js_sm4_aead_encrypt(napi_env env, napi_callback_info info)
{
    ARGS(6);
    int ccm = get_bool(env, argv[0]), taglen;
    SM4KEY(1, k);
    BYTES(2, iv, ivlen);
    BYTES(3, aad, aadlen);
    BYTES(4, in, inlen);
    if (!get_int(env, argv[5], &taglen) || taglen < 0 || taglen > 16)
        return throw_status(env, FASTSM2_ERR_LENGTH);
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, inlen + (size_t)taglen, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st =
        ccm ? fastsm2_sm4_ccm_encrypt(out, out + inlen, (size_t)taglen, &k->u.sm4, iv, ivlen, aad, aadlen, in, inlen)
            : fastsm2_sm4_gcm_encrypt(out, out + inlen, (size_t)taglen, &k->u.sm4, iv, ivlen, aad, aadlen, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, inlen + (size_t)taglen) : throw_status(env, st);
}

/* sm4AeadDecrypt(ccm, key, iv, aad, data, tag) -> plaintext, only if the tag matches */
static napi_value js_sm4_aead_decrypt(napi_env env, napi_callback_info info)
{
    ARGS(6);
    int ccm = get_bool(env, argv[0]);
    SM4KEY(1, k);
    BYTES(2, iv, ivlen);
    BYTES(3, aad, aadlen);
    BYTES(4, in, inlen);
    BYTES(5, tag, taglen);
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, inlen, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = ccm ? fastsm2_sm4_ccm_decrypt(out, &k->u.sm4, iv, ivlen, aad, aadlen, in, inlen, tag, taglen)
                 : fastsm2_sm4_gcm_decrypt(out, &k->u.sm4, iv, ivlen, aad, aadlen, in, inlen, tag, taglen);
    return st == FASTSM2_OK ? view_of(env, ab, inlen) : throw_status(env, st);
}

/* sm4Xts(key1, key2, standard, enc, tweak, data) */
static napi_value js_sm4_xts(napi_env env, napi_callback_info info)
{
    ARGS(6);
    SM4KEY(0, k1);
    SM4KEY(1, k2);
    int standard;
    if (!get_int(env, argv[2], &standard))
        return throw_status(env, FASTSM2_ERR_ARG);
    int enc = get_bool(env, argv[3]);
    BYTES(4, tweak, tweaklen);
    BYTES(5, in, inlen);
    if (tweaklen != 16)
        return throw_status(env, FASTSM2_ERR_IV);
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, inlen, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = enc ? fastsm2_sm4_xts_encrypt(out, &k1->u.sm4, &k2->u.sm4, standard, tweak, in, inlen)
                 : fastsm2_sm4_xts_decrypt(out, &k1->u.sm4, &k2->u.sm4, standard, tweak, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, inlen) : throw_status(env, st);
}

/* sm4StreamInit(mode, enc, padding, key, iv | null) -> a context */
static napi_value js_sm4_stream_init(napi_env env, napi_callback_info info)
{
    ARGS(5);
    int mode, padding;
    if (!get_int(env, argv[0], &mode) || !get_int(env, argv[2], &padding))
        return throw_status(env, FASTSM2_ERR_ARG);
    int enc = get_bool(env, argv[1]);
    SM4KEY(3, k);
    const unsigned char *iv;
    size_t ivlen;
    if (!get_id(env, argv[4], &iv, &ivlen))
        return throw_status(env, FASTSM2_ERR_ARG);
    fs2js_key *c = key_alloc(env, KEY_SM4_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_sm4_init(&c->u.ctx, mode, enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT, padding, &k->u.sm4, iv,
                              ivlen);
    if (st != FASTSM2_OK) {
        key_release(env, c);
        return throw_status(env, st);
    }
    return key_wrap(env, c);
}

/* sm4StreamUpdate(ctx, data) -> what this piece completes */
static napi_value js_sm4_stream_update(napi_env env, napi_callback_info info)
{
    ARGS(2);
    fs2js_key *c = get_key(env, argv[0], KEY_SM4_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_ARG);
    BYTES(1, in, inlen);
    size_t cap = inlen + 15, len = cap;
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, cap, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_sm4_update(&c->u.ctx, out, &len, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, len) : throw_status(env, st);
}

/* sm4StreamFinal(ctx) -> the last bytes (the context is wiped) */
static napi_value js_sm4_stream_final(napi_env env, napi_callback_info info)
{
    ARGS(1);
    fs2js_key *c = get_key(env, argv[0], KEY_SM4_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_ARG);
    unsigned char buf[16];
    size_t len = sizeof buf;
    int st = fastsm2_sm4_final(&c->u.ctx, buf, &len);
    napi_value ret = st == FASTSM2_OK ? make_buffer(env, buf, len) : throw_status(env, st);
    wipe(buf, sizeof buf);
    return ret;
}

/* sm4GcmInit(enc, key, iv) -> a GCM context */
static napi_value js_sm4_gcm_init(napi_env env, napi_callback_info info)
{
    ARGS(3);
    int enc = get_bool(env, argv[0]);
    SM4KEY(1, k);
    BYTES(2, iv, ivlen);
    fs2js_key *c = key_alloc(env, KEY_GCM_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_sm4_gcm_init(&c->u.gcm, enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT, &k->u.sm4, iv, ivlen);
    if (st != FASTSM2_OK) {
        key_release(env, c);
        return throw_status(env, st);
    }
    return key_wrap(env, c);
}

static napi_value js_sm4_gcm_aad(napi_env env, napi_callback_info info)
{
    ARGS(2);
    fs2js_key *c = get_key(env, argv[0], KEY_GCM_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_ARG);
    BYTES(1, aad, aadlen);
    int st = fastsm2_sm4_gcm_aad(&c->u.gcm, aad, aadlen);
    return st == FASTSM2_OK ? NULL : throw_status(env, st);
}

static napi_value js_sm4_gcm_update(napi_env env, napi_callback_info info)
{
    ARGS(2);
    fs2js_key *c = get_key(env, argv[0], KEY_GCM_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_ARG);
    BYTES(1, in, inlen);
    unsigned char *out;
    napi_value ab;
    if (!new_array(env, inlen, &out, &ab))
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    int st = fastsm2_sm4_gcm_update(&c->u.gcm, out, in, inlen);
    return st == FASTSM2_OK ? view_of(env, ab, inlen) : throw_status(env, st);
}

/* sm4GcmFinal(ctx, taglen | tag): encrypting, the tag; decrypting, nothing
 * or FASTSM2_ERR_TAG. */
static napi_value js_sm4_gcm_final(napi_env env, napi_callback_info info)
{
    ARGS(2);
    fs2js_key *c = get_key(env, argv[0], KEY_GCM_CTX);
    if (!c)
        return throw_status(env, FASTSM2_ERR_ARG);
    int taglen;
    if (get_int(env, argv[1], &taglen)) {
        unsigned char tag[16];
        if (taglen < 0 || taglen > 16)
            return throw_status(env, FASTSM2_ERR_LENGTH);
        int st = fastsm2_sm4_gcm_encrypt_final(&c->u.gcm, tag, (size_t)taglen);
        return st == FASTSM2_OK ? make_buffer(env, tag, (size_t)taglen) : throw_status(env, st);
    }
    BYTES(1, tag, tlen);
    int st = fastsm2_sm4_gcm_decrypt_final(&c->u.gcm, tag, tlen);
    return st == FASTSM2_OK ? NULL : throw_status(env, st);
}

/* ---- batches on worker threads ------------------------------------------------
 * signDigestBatch(priv, digests) and verifyDigestBatch(pub, digests, sigs)
 * return Promises; the work runs on a libuv worker thread, which hands it
 * to the library's pool (all cores). The inputs are copied, so the caller
 * may reuse its arrays at once; the job holds a use of its key, so the key
 * stays whole while the job runs even if JavaScript destroys it. */
typedef struct {
    napi_async_work work;
    napi_deferred deferred;
    fs2js_key *key; /* one use of it, dropped when the job completes */
    unsigned char *digests, *sigs;
    int *results;
    size_t n;
    int verify, status;
} batch_job;

static void batch_execute(napi_env env, void *data)
{
    (void)env;
    batch_job *j = data;
    if (j->verify)
        j->status = fastsm2_verify_digest_batch(j->results, &j->key->u.pub, 1, j->digests, j->sigs, j->n, 0);
    else
        j->status = fastsm2_sign_digest_batch(j->sigs, &j->key->u.priv, 1, j->digests, j->n, 0);
}

static void batch_complete(napi_env env, napi_status status, void *data)
{
    batch_job *j = data;
    napi_value result = NULL;
    int ok = status == napi_ok && j->status == FASTSM2_OK;
    if (ok) {
        if (j->verify) {
            unsigned char *r;
            napi_value ab;
            if (napi_create_arraybuffer(env, j->n, (void **)&r, &ab) == napi_ok &&
                napi_create_typedarray(env, napi_uint8_array, j->n, ab, 0, &result) == napi_ok) {
                for (size_t i = 0; i < j->n; i++)
                    r[i] = j->results[i] == 1;
            } else {
                ok = 0;
            }
        } else {
            void *dst;
            ok = napi_create_buffer_copy(env, j->n * 64, j->sigs, &dst, &result) == napi_ok;
        }
    }
    if (ok) {
        napi_resolve_deferred(env, j->deferred, result);
    } else {
        int st = j->status == FASTSM2_OK ? FASTSM2_ERR_NO_MEMORY : j->status;
        napi_value err = make_error(env, st);
        if (err)
            napi_reject_deferred(env, j->deferred, err);
    }
    key_release(env, j->key);
    napi_delete_async_work(env, j->work);
    free(j->digests);
    free(j->sigs);
    free(j->results);
    free(j);
}

static napi_value start_batch(napi_env env, fs2js_key *key, const unsigned char *digests, size_t dlen,
                              const unsigned char *sigs, size_t slen, int verify)
{
    if (dlen % 32 != 0 || (verify && slen != dlen * 2))
        return throw_status(env, FASTSM2_ERR_LENGTH);
    size_t n = dlen / 32;
    batch_job *j = calloc(1, sizeof *j);
    if (!j)
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    j->n = n;
    j->verify = verify;
    j->key = key;
    j->digests = malloc(dlen ? dlen : 1);
    j->sigs = malloc(n ? n * 64 : 1);
    j->results = verify ? malloc(n ? n * sizeof(int) : 1) : NULL;
    if (!j->digests || !j->sigs || (verify && !j->results)) {
        free(j->digests);
        free(j->sigs);
        free(j->results);
        free(j);
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    }
    if (dlen)
        memcpy(j->digests, digests, dlen);
    if (verify && slen)
        memcpy(j->sigs, sigs, slen);
    napi_value promise, name;
    napi_create_string_utf8(env, "fastsm2.batch", NAPI_AUTO_LENGTH, &name);
    if (napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
        napi_create_async_work(env, NULL, name, batch_execute, batch_complete, j, &j->work) != napi_ok) {
        free(j->digests);
        free(j->sigs);
        free(j->results);
        free(j);
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    }
    key->uses++;
    if (napi_queue_async_work(env, j->work) != napi_ok) {
        /* not reached in practice; the job and its use of the key leak rather than risk a double free */
        return throw_status(env, FASTSM2_ERR_NO_MEMORY);
    }
    return promise;
}

static napi_value js_sign_digest_batch(napi_env env, napi_callback_info info)
{
    ARGS(2);
    PRIV(0, k);
    BYTES(1, d, dlen);
    return start_batch(env, k, d, dlen, NULL, 0, 0);
}

static napi_value js_verify_digest_batch(napi_env env, napi_callback_info info)
{
    ARGS(3);
    PUB(0, p);
    BYTES(1, d, dlen);
    BYTES(2, s, slen);
    return start_batch(env, p, d, dlen, s, slen, 1);
}

#define FN(name, fn)                                            \
    {                                                           \
        name, NULL, fn, NULL, NULL, NULL, napi_enumerable, NULL \
    }

static void env_finalize(napi_env env, void *data, void *hint)
{
    (void)hint;
    fs2js_env *st = data;
    if (st->error_class)
        napi_delete_reference(env, st->error_class);
    free(st);
}

static napi_value init(napi_env env, napi_value exports)
{
    fs2js_env *st = calloc(1, sizeof *st);
    if (!st || napi_set_instance_data(env, st, env_finalize, NULL) != napi_ok) {
        free(st);
        napi_throw_error(env, "FASTSM2_ERR_NO_MEMORY", "fastsm2: no memory for the addon's state");
        return NULL;
    }
    napi_property_descriptor props[] = {
        FN("setErrorClass", js_set_error_class),
        FN("version", js_version),
        FN("backend", js_backend),
        FN("errorName", js_error_name),
        FN("privGenerate", js_priv_generate),
        FN("privFromBytes", js_priv_from_bytes),
        FN("privParse", js_priv_parse),
        FN("privToBytes", js_priv_to_bytes),
        FN("privSerialize", js_priv_serialize),
        FN("privPub", js_priv_pub),
        FN("keyFree", js_key_free),
        FN("keyShare", js_key_share),
        FN("pubFromBytes", js_pub_from_bytes),
        FN("pubToBytes", js_pub_to_bytes),
        FN("pubSerialize", js_pub_serialize),
        FN("pubPrecompute", js_pub_precompute),
        FN("computeZ", js_compute_z),
        FN("sign", js_sign),
        FN("signDigest", js_sign_digest),
        FN("signDigestWithNonce", js_sign_digest_with_nonce),
        FN("verify", js_verify),
        FN("verifyDigest", js_verify_digest),
        FN("encrypt", js_encrypt),
        FN("encryptWithNonce", js_encrypt),
        FN("ecdh", js_ecdh),
        FN("keyExchange", js_key_exchange),
        FN("kdf", js_kdf),
        FN("decrypt", js_decrypt),
        FN("sm3", js_sm3),
        FN("hmac", js_hmac),
        FN("sigToDer", js_sig_to_der),
        FN("sigFromDer", js_sig_from_der),
        FN("sm4Backend", js_sm4_backend),
        FN("sm4Key", js_sm4_key),
        FN("sm4Ecb", js_sm4_ecb),
        FN("sm4Cbc", js_sm4_cbc),
        FN("sm4Ctr", js_sm4_ctr),
        FN("sm4AeadEncrypt", js_sm4_aead_encrypt),
        FN("sm4AeadDecrypt", js_sm4_aead_decrypt),
        FN("sm4Xts", js_sm4_xts),
        FN("sm4StreamInit", js_sm4_stream_init),
        FN("sm4StreamUpdate", js_sm4_stream_update),
        FN("sm4StreamFinal", js_sm4_stream_final),
        FN("sm4GcmInit", js_sm4_gcm_init),
        FN("sm4GcmAad", js_sm4_gcm_aad),
        FN("sm4GcmUpdate", js_sm4_gcm_update),
        FN("sm4GcmFinal", js_sm4_gcm_final),
        FN("signDigestBatch", js_sign_digest_batch),
        FN("verifyDigestBatch", js_verify_digest_batch),
    };
    if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok)
        return NULL;
    return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
