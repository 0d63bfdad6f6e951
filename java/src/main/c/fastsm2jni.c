/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JNI glue of the FastSM2 Java provider (java/, docs/JAVA.md): the static
 * native methods of org.fastsm2.internal.Native over the public C API
 * (include/fastsm2.h) and nothing else. Conventions:
 *  - native objects (keys, SM4 state) are malloc'ed here and held by typed
 *    Java handles (org.fastsm2.internal.NativeRef and its subclasses); the
 *    glue reads their address itself (ref_get), so that a handle of the
 *    wrong type cannot reach a function, and the handle stays reachable
 *    during the call; objects holding secrets are wiped before free;
 *  - every failure throws the exception that the contract of the Java
 *    method served names (SignatureException, InvalidKeySpecException,
 *    BadPaddingException, AEADBadTagException, ...), chosen here per
 *    function and status: the Java side passes it on, it does not remap;
 *  - nothing crashes on bad input: every array, index and length is
 *    checked here, whatever the Java side checked already (null:
 *    NullPointerException; a bad range: IllegalArgumentException);
 *  - small state objects (SM3, HMAC, key exchange) are kept by Java as byte
 *    arrays and copied into an aligned local object for each call; locals
 *    holding secrets are wiped;
 *  - data is read with Get/ReleasePrimitiveArrayCritical (no copy) for one
 *    operation at most.
 */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsm2.h"

#define JNIFN(type, name) JNIEXPORT type JNICALL Java_org_fastsm2_internal_Native_##name

/* Exception classes thrown here. */
#define X_NPE        "java/lang/NullPointerException"
#define X_ARG        "java/lang/IllegalArgumentException"
#define X_STATE      "java/lang/IllegalStateException"
#define X_PROVIDER   "java/security/ProviderException"
#define X_OOM        "java/lang/OutOfMemoryError"
#define X_KEYSPEC    "java/security/spec/InvalidKeySpecException"
#define X_KEY        "java/security/InvalidKeyException"
#define X_SIGNATURE  "java/security/SignatureException"
#define X_GENERAL    "java/security/GeneralSecurityException"
#define X_BADPADDING "javax/crypto/BadPaddingException"
#define X_BLOCKSIZE  "javax/crypto/IllegalBlockSizeException"

/* Wipe that the compiler keeps (the library's own wipe is not public). */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (n--)
        *v++ = 0;
}

static void throw_msg(JNIEnv *env, const char *cls, const char *msg)
{
    if ((*env)->ExceptionCheck(env))
        return; /* one already pending (FindClass, an allocation) */
    jclass c = (*env)->FindClass(env, cls);
    if (c != NULL)
        (*env)->ThrowNew(env, c, msg);
}

/* A status code as the exception cls, "fastsm2: <what it means> (NAME)".
 * Whatever cls the caller's contract names, no memory is an
 * OutOfMemoryError and a failed OS generator a ProviderException. */
static void throw_status(JNIEnv *env, const char *cls, int code)
{
    char buf[256];
    const char *what;
    switch (code) {
    case FASTSM2_ERR_PUBLIC_KEY: what = "a public key, not a private key"; break;
    case FASTSM2_ERR_CERTIFICATE: what = "a certificate, not a key (SM2.publicKeyFromCertificate reads its key)"; break;
    case FASTSM2_ERR_ENCRYPTED_KEY: what = "an encrypted key file: give the password"; break;
    case FASTSM2_ERR_PASSWORD: what = "wrong password, or a corrupted encrypted key"; break;
    default: what = NULL;
    }
    if (code == FASTSM2_ERR_NO_MEMORY)
        cls = X_OOM;
    else if (code == FASTSM2_ERR_RANDOM)
        cls = X_PROVIDER;
    if (what != NULL)
        snprintf(buf, sizeof buf, "fastsm2: %s (%s)", what, fastsm2_error_name(code));
    else
        snprintf(buf, sizeof buf, "fastsm2: %s", fastsm2_strerror(code));
    throw_msg(env, cls, buf);
}

/* (array, off, len) fits: else NullPointerException / IllegalArgumentException. */
static int check_range(JNIEnv *env, jbyteArray a, jint off, jint len)
{
    if (a == NULL) {
        throw_msg(env, X_NPE, "fastsm2: null array");
        return 0;
    }
    jsize n = (*env)->GetArrayLength(env, a);
    if (off < 0 || len < 0 || off > n || len > n - off) {
        throw_msg(env, X_ARG, "fastsm2: bad offset or length");
        return 0;
    }
    return 1;
}

/* Copy a small Java array of exactly n bytes into buf, else throw cls. */
static int get_exact(JNIEnv *env, jbyteArray a, void *buf, jsize n, const char *cls, const char *what)
{
    if (a == NULL) {
        throw_msg(env, X_NPE, what);
        return 0;
    }
    if ((*env)->GetArrayLength(env, a) != n) {
        throw_msg(env, cls, what);
        return 0;
    }
    (*env)->GetByteArrayRegion(env, a, 0, n, (jbyte *)buf);
    return 1;
}

static jbyteArray new_bytes(JNIEnv *env, const void *p, size_t n)
{
    jbyteArray a = (*env)->NewByteArray(env, (jsize)n);
    if (a != NULL)
        (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)p);
    return a;
}

/* A whole Java array copied into malloc'ed memory (freed by the caller,
 * after a wipe when it held a secret); NULL with an exception pending. */
static unsigned char *get_copy(JNIEnv *env, jbyteArray a, jsize *n)
{
    if (a == NULL) {
        throw_msg(env, X_NPE, "fastsm2: null array");
        return NULL;
    }
    *n = (*env)->GetArrayLength(env, a);
    unsigned char *p = (unsigned char *)malloc(*n ? (size_t)*n : 1);
    if (p == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, a, 0, *n, (jbyte *)p);
    return p;
}

/* ---- typed handles ----------------------------------------------------------- */

/* NativeRef.address of a handle; NULL with NullPointerException (no
 * handle) or IllegalStateException (freed: a destroyed key) pending. The
 * field ID is looked up once (a benign race: every thread finds the same). */
static void *ref_get(JNIEnv *env, jobject ref)
{
    static jfieldID address;
    if (ref == NULL) {
        throw_msg(env, X_NPE, "fastsm2: null key");
        return NULL;
    }
    if (address == NULL) {
        jclass c = (*env)->FindClass(env, "org/fastsm2/internal/NativeRef");
        if (c == NULL)
            return NULL;
        address = (*env)->GetFieldID(env, c, "address", "J");
        (*env)->DeleteLocalRef(env, c);
        if (address == NULL)
            return NULL;
    }
    jlong a = (*env)->GetLongField(env, ref, address);
    if (a == 0) {
        throw_msg(env, X_STATE, "fastsm2: the key was destroyed");
        return NULL;
    }
    return (void *)(uintptr_t)a;
}

#define KIND_PRIVATE_KEY 1
#define KIND_PUBLIC_KEY  2
#define KIND_SM4         3

static void sm4_wipe(void *state); /* the SM4 section, below */

/* An ID argument: NULL = the key's ID (the default), an empty array = the
 * empty ID (a non-NULL pointer with length 0), else the bytes (copied). */
static const unsigned char empty_id[1] = {0};
typedef struct {
    unsigned char *heap;
    const unsigned char *p;
    size_t len;
} id_arg;

static int id_get(JNIEnv *env, jbyteArray id, id_arg *out, const char *cls)
{
    out->heap = NULL;
    out->p = NULL;
    out->len = 0;
    if (id == NULL)
        return 1;
    jsize n = (*env)->GetArrayLength(env, id);
    if (n == 0) {
        out->p = empty_id;
        return 1;
    }
    if (n > FASTSM2_MAX_ID_LEN) {
        throw_status(env, cls, FASTSM2_ERR_ID);
        return 0;
    }
    out->heap = get_copy(env, id, &n);
    if (out->heap == NULL)
        return 0;
    out->p = out->heap;
    out->len = (size_t)n;
    return 1;
}

static void id_free(id_arg *a)
{
    free(a->heap);
    a->heap = NULL;
}

/* ---- library information, freeing ------------------------------------------- */

JNIFN(jstring, version)(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, fastsm2_version());
}

JNIFN(jstring, backend)(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, fastsm2_backend_name());
}

JNIFN(jstring, errorName)(JNIEnv *env, jclass cls, jint code)
{
    (void)cls;
    return (*env)->NewStringUTF(env, fastsm2_error_name(code));
}

JNIFN(void, free)(JNIEnv *env, jclass cls, jint kind, jlong address)
{
    (void)env;
    (void)cls;
    void *p = (void *)(uintptr_t)address;
    if (p == NULL)
        return;
    if (kind == KIND_PRIVATE_KEY)
        fastsm2_privkey_clear((fastsm2_privkey *)p);
    else if (kind == KIND_SM4)
        sm4_wipe(p);
    free(p);
}

/* ---- private keys ----------------------------------------------------------- */

static fastsm2_privkey *priv_alloc(JNIEnv *env)
{
    fastsm2_privkey *k = (fastsm2_privkey *)calloc(1, sizeof *k);
    if (k == NULL)
        throw_msg(env, X_OOM, "fastsm2: no memory");
    return k;
}

/* The new key's address, or 0 and the status thrown as cls. */
static jlong priv_done(JNIEnv *env, fastsm2_privkey *k, int rc, const char *cls)
{
    if (rc != FASTSM2_OK) {
        fastsm2_privkey_clear(k);
        free(k);
        throw_status(env, cls, rc);
        return 0;
    }
    return (jlong)(uintptr_t)k;
}

JNIFN(jlong, privGenerate)(JNIEnv *env, jclass cls)
{
    (void)cls;
    fastsm2_privkey *k = priv_alloc(env);
    if (k == NULL)
        return 0;
    return priv_done(env, k, fastsm2_privkey_generate(k), X_PROVIDER);
}

JNIFN(jlong, privFromBytes)(JNIEnv *env, jclass cls, jbyteArray d)
{
    (void)cls;
    unsigned char buf[32];
    if (!get_exact(env, d, buf, 32, X_KEYSPEC, "fastsm2: a private key d is 32 bytes"))
        return 0;
    fastsm2_privkey *k = priv_alloc(env);
    int rc = k != NULL ? fastsm2_privkey_from_bytes(k, buf) : FASTSM2_OK;
    wipe(buf, sizeof buf);
    if (k == NULL)
        return 0;
    return priv_done(env, k, rc, X_KEYSPEC);
}

/* A key file; password NULL: fastsm2_privkey_parse. */
JNIFN(jlong, privParse)(JNIEnv *env, jclass cls, jbyteArray in, jbyteArray password)
{
    (void)cls;
    jsize n = 0, pwn = 0;
    unsigned char *buf = get_copy(env, in, &n);
    if (buf == NULL)
        return 0;
    unsigned char *pw = NULL;
    if (password != NULL && (pw = get_copy(env, password, &pwn)) == NULL) {
        wipe(buf, (size_t)n);
        free(buf);
        return 0;
    }
    fastsm2_privkey *k = priv_alloc(env);
    int rc = FASTSM2_OK;
    if (k != NULL)
        rc = pw ? fastsm2_privkey_parse_encrypted(k, buf, (size_t)n, pw, (size_t)pwn)
                : fastsm2_privkey_parse(k, buf, (size_t)n);
    wipe(buf, (size_t)n);
    free(buf);
    if (pw != NULL) {
        wipe(pw, (size_t)pwn);
        free(pw);
    }
    if (k == NULL)
        return 0;
    return priv_done(env, k, rc, X_KEYSPEC);
}

JNIFN(void, privToBytes)(JNIEnv *env, jclass cls, jobject ref, jbyteArray out)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    if (k == NULL || !check_range(env, out, 0, 32))
        return;
    unsigned char d[32];
    int rc = fastsm2_privkey_to_bytes(d, k);
    if (rc == FASTSM2_OK)
        (*env)->SetByteArrayRegion(env, out, 0, 32, (const jbyte *)d);
    wipe(d, sizeof d);
    if (rc != FASTSM2_OK)
        throw_status(env, X_STATE, rc);
}

static jlong pub_done(JNIEnv *env, fastsm2_pubkey *p, int rc, const char *cls)
{
    if (rc != FASTSM2_OK) {
        free(p);
        throw_status(env, cls, rc);
        return 0;
    }
    return (jlong)(uintptr_t)p;
}

/* The public key of a private key as a new object (the point the library
 * made itself: no re-validation). */
JNIFN(jlong, privPublicKey)(JNIEnv *env, jclass cls, jobject ref)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    if (k == NULL)
        return 0;
    fastsm2_pubkey *pub = (fastsm2_pubkey *)calloc(1, sizeof *pub);
    if (pub == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return 0;
    }
    return pub_done(env, pub, fastsm2_privkey_pubkey(pub, k), X_STATE);
}

/* The key file, unencrypted (FASTSM2_KEYFMT_*); wiped after the copy. */
JNIFN(jbyteArray, privSerialize)(JNIEnv *env, jclass cls, jobject ref, jint fmt)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    if (k == NULL)
        return NULL;
    unsigned char out[1024];
    size_t outlen = sizeof out;
    int rc = fastsm2_privkey_serialize(out, &outlen, k, fmt);
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_status(env, X_ARG, rc);
    wipe(out, sizeof out);
    return r;
}

JNIFN(jbyteArray, privSerializeEncrypted)
(JNIEnv *env, jclass cls, jobject ref, jint fmt, jint scheme, jint iterations, jbyteArray password)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    if (k == NULL)
        return NULL;
    if (iterations < 0) {
        throw_msg(env, X_ARG, "fastsm2: a negative iteration count");
        return NULL;
    }
    jsize pwn = 0;
    unsigned char *pw = get_copy(env, password, &pwn);
    if (pw == NULL)
        return NULL;
    unsigned char out[FASTSM2_PRIVKEY_ENCRYPTED_MAX + 512];
    size_t outlen = sizeof out;
    int rc = fastsm2_privkey_serialize_encrypted(out, &outlen, k, fmt, scheme, (uint32_t)iterations, pw, (size_t)pwn);
    wipe(pw, (size_t)pwn);
    free(pw);
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_status(env, X_ARG, rc);
    wipe(out, sizeof out);
    return r;
}

/* ---- public keys ------------------------------------------------------------ */

/* kind 0: SEC1 point; 1: key file (SPKI PEM/DER or point); 2: certificate. */
JNIFN(jlong, pubParse)(JNIEnv *env, jclass cls, jbyteArray in, jint kind)
{
    (void)cls;
    jsize n = 0;
    unsigned char *buf = get_copy(env, in, &n);
    if (buf == NULL)
        return 0;
    fastsm2_pubkey *p = (fastsm2_pubkey *)calloc(1, sizeof *p);
    if (p == NULL) {
        free(buf);
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return 0;
    }
    int rc;
    if (kind == 0)
        rc = fastsm2_pubkey_from_bytes(p, buf, (size_t)n);
    else if (kind == 1)
        rc = fastsm2_pubkey_parse(p, buf, (size_t)n);
    else
        rc = fastsm2_pubkey_parse_certificate(p, buf, (size_t)n);
    free(buf);
    return pub_done(env, p, rc, X_KEYSPEC);
}

JNIFN(void, pubPrecompute)(JNIEnv *env, jclass cls, jobject ref)
{
    (void)cls;
    fastsm2_pubkey *p = (fastsm2_pubkey *)ref_get(env, ref);
    if (p == NULL)
        return;
    int rc = fastsm2_pubkey_precompute(p);
    if (rc != FASTSM2_OK)
        throw_status(env, X_STATE, rc);
}

JNIFN(jbyteArray, pubToBytes)(JNIEnv *env, jclass cls, jobject ref, jboolean compressed)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    if (p == NULL)
        return NULL;
    unsigned char pt[65];
    size_t ptlen = sizeof pt;
    int rc = fastsm2_pubkey_to_bytes(pt, &ptlen, p, compressed ? 1 : 0);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_STATE, rc);
        return NULL;
    }
    return new_bytes(env, pt, ptlen);
}

JNIFN(jbyteArray, pubSerialize)(JNIEnv *env, jclass cls, jobject ref, jint fmt)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    if (p == NULL)
        return NULL;
    unsigned char out[512];
    size_t outlen = sizeof out;
    int rc = fastsm2_pubkey_serialize(out, &outlen, p, fmt);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_ARG, rc);
        return NULL;
    }
    return new_bytes(env, out, outlen);
}

/* Z_A of a public key for an ID (NULL: default, empty: the empty ID). */
JNIFN(jbyteArray, computeZ)(JNIEnv *env, jclass cls, jobject ref, jbyteArray id)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    id_arg ida;
    if (p == NULL || !id_get(env, id, &ida, X_ARG))
        return NULL;
    unsigned char z[32];
    int rc = fastsm2_compute_z(z, p, ida.p, ida.len);
    id_free(&ida);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_ARG, rc);
        return NULL;
    }
    return new_bytes(env, z, 32);
}

/* ---- signatures ------------------------------------------------------------- */

/* raw r || s, or its DER: one crossing for the whole signature. */
static jbyteArray sig_out(JNIEnv *env, const unsigned char sig[64], jboolean der)
{
    if (!der)
        return new_bytes(env, sig, 64);
    unsigned char out[FASTSM2_SIG_DER_MAX];
    size_t outlen = sizeof out;
    int rc = fastsm2_sig_to_der(out, &outlen, sig);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_SIGNATURE, rc);
        return NULL;
    }
    return new_bytes(env, out, outlen);
}

/* Sign msg[off, off+len) (GB/T 32918.2 6.1, e = SM3(Z_A || M)). */
JNIFN(jbyteArray, sign)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray id, jbyteArray msg, jint off, jint len, jboolean der)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    if (k == NULL || !check_range(env, msg, off, len))
        return NULL;
    id_arg ida;
    if (!id_get(env, id, &ida, X_SIGNATURE))
        return NULL;
    unsigned char sig[64];
    jbyte *m = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, msg, NULL);
    if (m == NULL) {
        id_free(&ida);
        return NULL;
    }
    int rc = fastsm2_sign(sig, k, ida.p, ida.len, m + off, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, msg, m, JNI_ABORT);
    id_free(&ida);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_SIGNATURE, rc);
        return NULL;
    }
    return sig_out(env, sig, der);
}

JNIFN(jbyteArray, signDigest)(JNIEnv *env, jclass cls, jobject ref, jbyteArray e, jboolean der)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    unsigned char eb[32], sig[64];
    if (k == NULL || !get_exact(env, e, eb, 32, X_SIGNATURE, "fastsm2: a digest is 32 bytes"))
        return NULL;
    int rc = fastsm2_sign_digest(sig, k, eb);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_SIGNATURE, rc);
        return NULL;
    }
    return sig_out(env, sig, der);
}

/* The signature argument as raw r || s: 1; 0 when it is not one, with
 * SignatureException thrown for a malformed DER or raw length, or with
 * *range set (no exception) when DER holds r or s out of range (a
 * well-formed signature that does not verify). */
static int sig_in(JNIEnv *env, jbyteArray sig, jboolean der, unsigned char s[64], int *range)
{
    *range = 0;
    if (sig == NULL) {
        throw_msg(env, X_SIGNATURE, "fastsm2: null signature");
        return 0;
    }
    jsize n = (*env)->GetArrayLength(env, sig);
    if (!der) {
        if (n != 64) {
            throw_msg(env, X_SIGNATURE, "fastsm2: a raw SM2 signature is 64 bytes");
            return 0;
        }
        (*env)->GetByteArrayRegion(env, sig, 0, 64, (jbyte *)s);
        return 1;
    }
    unsigned char buf[FASTSM2_SIG_DER_MAX];
    int rc = FASTSM2_ERR_DER;
    if (n <= (jsize)sizeof buf) {
        (*env)->GetByteArrayRegion(env, sig, 0, n, (jbyte *)buf);
        rc = fastsm2_sig_from_der(s, buf, (size_t)n);
    }
    if (rc == FASTSM2_ERR_SIG_RANGE) {
        *range = 1;
        return 0;
    }
    if (rc != FASTSM2_OK) {
        throw_msg(env, X_SIGNATURE, "fastsm2: malformed DER signature (FASTSM2_ERR_DER)");
        return 0;
    }
    return 1;
}

/* true: valid; false: a well-formed signature that does not verify. */
static jboolean verified(JNIEnv *env, int rc)
{
    if (rc == FASTSM2_OK)
        return JNI_TRUE;
    if (rc != FASTSM2_ERR_SIG_RANGE && rc != FASTSM2_ERR_BAD_SIGNATURE)
        throw_status(env, X_SIGNATURE, rc);
    return JNI_FALSE;
}

JNIFN(jboolean, verify)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray id, jbyteArray msg, jint off, jint len, jbyteArray sig, jboolean der)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    unsigned char s[64];
    int range;
    if (p == NULL || !check_range(env, msg, off, len))
        return JNI_FALSE;
    if (!sig_in(env, sig, der, s, &range))
        return JNI_FALSE;
    id_arg ida;
    if (!id_get(env, id, &ida, X_SIGNATURE))
        return JNI_FALSE;
    jbyte *m = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, msg, NULL);
    if (m == NULL) {
        id_free(&ida);
        return JNI_FALSE;
    }
    int rc = fastsm2_verify_status(p, ida.p, ida.len, m + off, (size_t)len, s);
    (*env)->ReleasePrimitiveArrayCritical(env, msg, m, JNI_ABORT);
    id_free(&ida);
    return verified(env, rc);
}

JNIFN(jboolean, verifyDigest)(JNIEnv *env, jclass cls, jobject ref, jbyteArray e, jbyteArray sig, jboolean der)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    unsigned char eb[32], s[64];
    int range;
    if (p == NULL || !get_exact(env, e, eb, 32, X_SIGNATURE, "fastsm2: a digest is 32 bytes"))
        return JNI_FALSE;
    if (!sig_in(env, sig, der, s, &range))
        return JNI_FALSE;
    return verified(env, fastsm2_verify_digest_status(p, eb, s));
}

JNIFN(jbyteArray, sigToDer)(JNIEnv *env, jclass cls, jbyteArray raw)
{
    (void)cls;
    unsigned char s[64], der[FASTSM2_SIG_DER_MAX];
    size_t derlen = sizeof der;
    if (!get_exact(env, raw, s, 64, X_ARG, "fastsm2: a raw SM2 signature is 64 bytes"))
        return NULL;
    int rc = fastsm2_sig_to_der(der, &derlen, s);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_ARG, rc);
        return NULL;
    }
    return new_bytes(env, der, derlen);
}

/* ---- batches ---------------------------------------------------------------- */

/* e_i = SM3(Z || msg_i) for every message (Z given, 32 bytes); ok[i] = 0
 * for a null message (hashed as empty) when ok is given, else a null
 * message throws NullPointerException. */
static int digests_of(JNIEnv *env, unsigned char *e, const unsigned char z[32], jobjectArray msgs, jsize n,
                      unsigned char *ok)
{
    for (jsize i = 0; i < n; i++) {
        jbyteArray m = (jbyteArray)(*env)->GetObjectArrayElement(env, msgs, i);
        fastsm2_sm3_ctx c;
        fastsm2_sm3_init(&c);
        fastsm2_sm3_update(&c, z, 32);
        if (m == NULL) {
            if (ok == NULL) {
                char what[64];
                snprintf(what, sizeof what, "fastsm2: msgs[%d] is null", (int)i);
                throw_msg(env, X_NPE, what);
                return 0;
            }
            ok[i] = 0;
        } else {
            jsize mlen = (*env)->GetArrayLength(env, m);
            jbyte *p = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, m, NULL);
            if (p == NULL)
                return 0;
            fastsm2_sm3_update(&c, p, (size_t)mlen);
            (*env)->ReleasePrimitiveArrayCritical(env, m, p, JNI_ABORT);
            (*env)->DeleteLocalRef(env, m);
        }
        fastsm2_sm3_final(e + 32 * (size_t)i, &c);
    }
    return 1;
}

/* Sign every message with one key (its Z given): DER signatures. */
JNIFN(jobjectArray, signBatch)(JNIEnv *env, jclass cls, jobject ref, jbyteArray z, jobjectArray msgs, jint threads)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    unsigned char zb[32];
    if (k == NULL || !get_exact(env, z, zb, 32, X_ARG, "fastsm2: Z is 32 bytes"))
        return NULL;
    if (msgs == NULL) {
        throw_msg(env, X_NPE, "fastsm2: msgs is null");
        return NULL;
    }
    jsize n = (*env)->GetArrayLength(env, msgs);
    size_t cnt = n ? (size_t)n : 1;
    unsigned char *e = (unsigned char *)malloc(32 * cnt);
    unsigned char *sigs = (unsigned char *)malloc(64 * cnt);
    jobjectArray r = NULL;
    if (e == NULL || sigs == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
    } else if (digests_of(env, e, zb, msgs, n, NULL)) {
        int rc = fastsm2_sign_digest_batch(sigs, k, 1, e, (size_t)n, threads < 0 ? 0u : (unsigned)threads);
        jclass bytes = rc == FASTSM2_OK ? (*env)->FindClass(env, "[B") : NULL;
        if (rc != FASTSM2_OK)
            throw_status(env, X_SIGNATURE, rc);
        else if (bytes != NULL && (r = (*env)->NewObjectArray(env, n, bytes, NULL)) != NULL) {
            for (jsize i = 0; i < n; i++) {
                jbyteArray d = sig_out(env, sigs + 64 * (size_t)i, JNI_TRUE);
                if (d == NULL) {
                    r = NULL;
                    break;
                }
                (*env)->SetObjectArrayElement(env, r, i, d);
                (*env)->DeleteLocalRef(env, d);
            }
        }
    }
    free(e);
    free(sigs);
    return r;
}

/* Verify every (message, DER signature) with one key (Z given). */
JNIFN(jbooleanArray, verifyBatch)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray z, jobjectArray msgs, jobjectArray sigs, jint threads)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    unsigned char zb[32];
    if (p == NULL || !get_exact(env, z, zb, 32, X_ARG, "fastsm2: Z is 32 bytes"))
        return NULL;
    if (msgs == NULL || sigs == NULL) {
        throw_msg(env, X_NPE, "fastsm2: msgs or sigs is null");
        return NULL;
    }
    jsize n = (*env)->GetArrayLength(env, msgs);
    if ((*env)->GetArrayLength(env, sigs) != n) {
        throw_msg(env, X_ARG, "fastsm2: as many signatures as messages");
        return NULL;
    }
    size_t cnt = n ? (size_t)n : 1;
    unsigned char *e = (unsigned char *)malloc(32 * cnt);
    unsigned char *s = (unsigned char *)calloc(cnt, 64);
    unsigned char *ok = (unsigned char *)malloc(cnt);
    int *res = (int *)calloc(cnt, sizeof(int));
    jboolean *rb = (jboolean *)calloc(cnt, sizeof(jboolean));
    jbooleanArray r = NULL;
    if (e == NULL || s == NULL || ok == NULL || res == NULL || rb == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
        goto done;
    }
    memset(ok, 1, cnt);
    for (jsize i = 0; i < n; i++) {
        jbyteArray d = (jbyteArray)(*env)->GetObjectArrayElement(env, sigs, i);
        unsigned char buf[FASTSM2_SIG_DER_MAX];
        jsize dn = d == NULL ? 0 : (*env)->GetArrayLength(env, d);
        if (d == NULL || dn > (jsize)sizeof buf) {
            ok[i] = 0; /* r = s = 0 never verifies */
        } else {
            (*env)->GetByteArrayRegion(env, d, 0, dn, (jbyte *)buf);
            if (fastsm2_sig_from_der(s + 64 * (size_t)i, buf, (size_t)dn) != FASTSM2_OK) {
                ok[i] = 0;
                memset(s + 64 * (size_t)i, 0, 64);
            }
        }
        if (d != NULL)
            (*env)->DeleteLocalRef(env, d);
    }
    if (!digests_of(env, e, zb, msgs, n, ok))
        goto done;
    int rc = fastsm2_verify_digest_batch(res, p, 1, e, s, (size_t)n, threads < 0 ? 0u : (unsigned)threads);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_ARG, rc);
        goto done;
    }
    for (jsize i = 0; i < n; i++)
        rb[i] = res[i] == 1 && ok[i] ? JNI_TRUE : JNI_FALSE;
    r = (*env)->NewBooleanArray(env, n);
    if (r != NULL)
        (*env)->SetBooleanArrayRegion(env, r, 0, n, rb);
done:
    free(e);
    free(s);
    free(ok);
    free(res);
    free(rb);
    return r;
}

/* ---- encryption --------------------------------------------------------------- */

JNIFN(jbyteArray, encrypt)(JNIEnv *env, jclass cls, jobject ref, jbyteArray msg, jint off, jint len, jint flags)
{
    (void)cls;
    const fastsm2_pubkey *p = (const fastsm2_pubkey *)ref_get(env, ref);
    if (p == NULL || !check_range(env, msg, off, len))
        return NULL;
    if (len == 0) {
        throw_msg(env, X_BLOCKSIZE, "fastsm2: SM2 cannot encrypt an empty message");
        return NULL;
    }
    size_t cap = fastsm2_ciphertext_size((size_t)len, flags);
    if (cap == 0 || cap > 0x7fffffff) {
        throw_status(env, X_BLOCKSIZE, FASTSM2_ERR_LENGTH);
        return NULL;
    }
    unsigned char *out = (unsigned char *)malloc(cap);
    if (out == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return NULL;
    }
    size_t outlen = cap;
    jbyte *m = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, msg, NULL);
    if (m == NULL) {
        free(out);
        return NULL;
    }
    int rc = fastsm2_encrypt(out, &outlen, p, m + off, (size_t)len, flags);
    (*env)->ReleasePrimitiveArrayCritical(env, msg, m, JNI_ABORT);
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_status(env, rc == FASTSM2_ERR_ARG || rc == FASTSM2_ERR_LENGTH ? X_BLOCKSIZE : X_PROVIDER, rc);
    free(out);
    return r;
}

/* Any ciphertext that does not decrypt: BadPaddingException, no plaintext. */
JNIFN(jbyteArray, decrypt)(JNIEnv *env, jclass cls, jobject ref, jbyteArray ct, jint off, jint len, jint flags)
{
    (void)cls;
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, ref);
    if (k == NULL || !check_range(env, ct, off, len))
        return NULL;
    size_t cap = len > 0 ? (size_t)len : 1; /* the plaintext is shorter */
    unsigned char *out = (unsigned char *)malloc(cap);
    if (out == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return NULL;
    }
    size_t outlen = cap;
    jbyte *c = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, ct, NULL);
    if (c == NULL) {
        free(out);
        return NULL;
    }
    int rc = fastsm2_decrypt(out, &outlen, k, (const unsigned char *)c + off, (size_t)len, flags);
    (*env)->ReleasePrimitiveArrayCritical(env, ct, c, JNI_ABORT);
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_status(env, X_BADPADDING, rc);
    wipe(out, cap);
    free(out);
    return r;
}

/* ---- SM3 and HMAC-SM3: state kept by Java in a byte array ---------------- */

JNIFN(jint, sm3StateSize)(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)sizeof(fastsm2_sm3_ctx);
}

JNIFN(jint, hmacStateSize)(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)sizeof(fastsm2_hmac_sm3_ctx);
}

JNIFN(jint, kxStateSize)(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jint)sizeof(fastsm2_kx_ctx);
}

#define STATE_ARG(st, c) get_exact(env, st, &(c), (jsize)sizeof(c), X_ARG, "fastsm2: not a state of this library")

JNIFN(void, sm3Init)(JNIEnv *env, jclass cls, jbyteArray st)
{
    (void)cls;
    fastsm2_sm3_ctx c;
    if (st == NULL || (*env)->GetArrayLength(env, st) != (jsize)sizeof c) {
        throw_msg(env, X_ARG, "fastsm2: not a state of this library");
        return;
    }
    fastsm2_sm3_init(&c);
    (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
}

JNIFN(void, sm3Update)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray in, jint off, jint len)
{
    (void)cls;
    fastsm2_sm3_ctx c;
    if (!STATE_ARG(st, c) || !check_range(env, in, off, len))
        return;
    jbyte *p = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (p == NULL)
        return;
    fastsm2_sm3_update(&c, p + off, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
    (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
}

JNIFN(jbyteArray, sm3Final)(JNIEnv *env, jclass cls, jbyteArray st)
{
    (void)cls;
    fastsm2_sm3_ctx c;
    unsigned char d[32];
    if (!STATE_ARG(st, c))
        return NULL;
    fastsm2_sm3_final(d, &c);
    (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
    return new_bytes(env, d, 32);
}

JNIFN(jbyteArray, sm3)(JNIEnv *env, jclass cls, jbyteArray in, jint off, jint len)
{
    (void)cls;
    unsigned char d[32];
    if (!check_range(env, in, off, len))
        return NULL;
    jbyte *p = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (p == NULL)
        return NULL;
    fastsm2_sm3(d, p + off, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
    return new_bytes(env, d, 32);
}

JNIFN(void, hmacInit)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray key)
{
    (void)cls;
    fastsm2_hmac_sm3_ctx c;
    if (st == NULL || (*env)->GetArrayLength(env, st) != (jsize)sizeof c) {
        throw_msg(env, X_ARG, "fastsm2: not a state of this library");
        return;
    }
    if (key == NULL) {
        throw_msg(env, X_NPE, "fastsm2: null key");
        return;
    }
    jsize n = (*env)->GetArrayLength(env, key);
    jbyte *k = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, key, NULL);
    if (k == NULL)
        return;
    int rc = fastsm2_hmac_sm3_init(&c, n ? (const void *)k : (const void *)empty_id, (size_t)n);
    (*env)->ReleasePrimitiveArrayCritical(env, key, k, JNI_ABORT);
    if (rc == FASTSM2_OK)
        (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
    wipe(&c, sizeof c);
    if (rc != FASTSM2_OK)
        throw_status(env, X_KEY, rc);
}

JNIFN(void, hmacUpdate)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray in, jint off, jint len)
{
    (void)cls;
    fastsm2_hmac_sm3_ctx c;
    if (!STATE_ARG(st, c) || !check_range(env, in, off, len)) {
        wipe(&c, sizeof c);
        return;
    }
    jbyte *p = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (p != NULL) {
        fastsm2_hmac_sm3_update(&c, p + off, (size_t)len);
        (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
        (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
    }
    wipe(&c, sizeof c);
}

JNIFN(jbyteArray, hmacFinal)(JNIEnv *env, jclass cls, jbyteArray st)
{
    (void)cls;
    fastsm2_hmac_sm3_ctx c;
    unsigned char d[32];
    if (!STATE_ARG(st, c)) {
        wipe(&c, sizeof c);
        return NULL;
    }
    fastsm2_hmac_sm3_final(d, &c);
    (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
    wipe(&c, sizeof c);
    return new_bytes(env, d, 32);
}

/* ---- key exchange (GB/T 32918.3): state in a Java byte array -------------- */

/* Init, then start with the given ephemeral private scalar r (32 bytes, the
 * ephemeral key pair made by the caller) or a fresh one (r NULL); returns R. */
JNIFN(jbyteArray, kxStart)
(JNIEnv *env, jclass cls, jbyteArray st, jint role, jobject own, jbyteArray id, jobject peer, jbyteArray peerId,
 jbyteArray r)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char R[65], rb[32];
    const fastsm2_privkey *k = (const fastsm2_privkey *)ref_get(env, own);
    const fastsm2_pubkey *p = k != NULL ? (const fastsm2_pubkey *)ref_get(env, peer) : NULL;
    if (p == NULL)
        return NULL;
    if (st == NULL || (*env)->GetArrayLength(env, st) != (jsize)sizeof c) {
        throw_msg(env, X_ARG, "fastsm2: not a state of this library");
        return NULL;
    }
    if (r != NULL && !get_exact(env, r, rb, 32, X_KEY, "fastsm2: an ephemeral private key is 32 bytes"))
        return NULL;
    id_arg a, b;
    if (!id_get(env, id, &a, X_KEY))
        return NULL;
    if (!id_get(env, peerId, &b, X_KEY)) {
        id_free(&a);
        return NULL;
    }
    int rc = fastsm2_kx_init(&c, role, k, a.p, a.len, p, b.p, b.len);
    id_free(&a);
    id_free(&b);
    if (rc == FASTSM2_OK)
        rc = r != NULL ? fastsm2_kx_start_with_nonce(&c, R, rb) : fastsm2_kx_start(&c, R);
    wipe(rb, sizeof rb);
    jbyteArray out = NULL;
    if (rc == FASTSM2_OK) {
        (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
        out = new_bytes(env, R, 65);
    } else {
        throw_status(env, X_KEY, rc);
    }
    fastsm2_kx_clear(&c);
    return out;
}

JNIFN(jbyteArray, kxCompute)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray peerR, jint klen)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char R[65];
    if (!STATE_ARG(st, c))
        return NULL;
    if (peerR == NULL) {
        fastsm2_kx_clear(&c);
        throw_msg(env, X_NPE, "fastsm2: null point");
        return NULL;
    }
    jsize rn = (*env)->GetArrayLength(env, peerR);
    if (rn < 1 || rn > 65) {
        fastsm2_kx_clear(&c);
        throw_status(env, X_KEY, FASTSM2_ERR_POINT);
        return NULL;
    }
    if (klen < 1 || klen > 65536) {
        fastsm2_kx_clear(&c);
        throw_msg(env, X_ARG, "fastsm2: a key length of 1 to 65536 bytes");
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, peerR, 0, rn, (jbyte *)R);
    unsigned char *k = (unsigned char *)malloc((size_t)klen);
    if (k == NULL) {
        fastsm2_kx_clear(&c);
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return NULL;
    }
    int rc = fastsm2_kx_compute(&c, k, (size_t)klen, R, (size_t)rn);
    jbyteArray out = NULL;
    if (rc == FASTSM2_OK) {
        (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
        out = new_bytes(env, k, (size_t)klen);
    } else {
        throw_status(env, rc == FASTSM2_ERR_STATE ? X_STATE : X_KEY, rc);
    }
    wipe(k, (size_t)klen);
    free(k);
    fastsm2_kx_clear(&c);
    return out;
}

JNIFN(jbyteArray, kxConfirmation)(JNIEnv *env, jclass cls, jbyteArray st)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char s[32];
    if (!STATE_ARG(st, c))
        return NULL;
    int rc = fastsm2_kx_confirmation(s, &c);
    fastsm2_kx_clear(&c);
    if (rc != FASTSM2_OK) {
        throw_status(env, X_STATE, rc);
        return NULL;
    }
    return new_bytes(env, s, 32);
}

JNIFN(void, kxVerifyConfirmation)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray peerS)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char s[32];
    if (!STATE_ARG(st, c))
        return;
    if (!get_exact(env, peerS, s, 32, X_GENERAL, "fastsm2: a confirmation value is 32 bytes")) {
        fastsm2_kx_clear(&c);
        return;
    }
    int rc = fastsm2_kx_verify_confirmation(&c, s);
    fastsm2_kx_clear(&c);
    if (rc == FASTSM2_ERR_STATE)
        throw_status(env, X_STATE, rc);
    else if (rc != 1 && rc != FASTSM2_OK)
        throw_status(env, X_GENERAL, rc == 0 ? FASTSM2_ERR_CONFIRM : rc);
}

/* ---- SM4 (GB/T 32907) and its modes: state in native memory (SM4Ref) -------- */

#define X_AEADTAG "javax/crypto/AEADBadTagException"
#define X_SHORT   "javax/crypto/ShortBufferException"

/* One Cipher's SM4 state: the expanded key and a streaming context. */
typedef struct {
    fastsm2_sm4_key key;
    union {
        fastsm2_sm4_ctx s;
        fastsm2_sm4_gcm_ctx g;
    } c;
} jsm4;

static void sm4_wipe(void *state)
{
    wipe(state, sizeof(jsm4));
}

/* The exception a status of an SM4 data call is, by its contract. */
static void sm4_throw(JNIEnv *env, int rc)
{
    switch (rc) {
    case FASTSM2_ERR_TAG: throw_status(env, X_AEADTAG, rc); break;
    case FASTSM2_ERR_PADDING: throw_msg(env, X_BADPADDING, "fastsm2: pad block corrupted (FASTSM2_ERR_PADDING)"); break;
    case FASTSM2_ERR_LENGTH: throw_status(env, X_BLOCKSIZE, rc); break;
    case FASTSM2_ERR_IV: throw_status(env, X_ARG, rc); break; /* the IV is checked by the Java side before */
    case FASTSM2_ERR_BUFFER_TOO_SMALL: throw_status(env, X_SHORT, rc); break;
    case FASTSM2_ERR_STATE: throw_status(env, X_STATE, rc); break;
    default: throw_status(env, X_ARG, rc);
    }
}

/* A Java array pinned for one call (critical: no copy). */
typedef struct {
    jbyteArray a;
    jbyte *p;
} pin;

static int pin_get(JNIEnv *env, pin *x, jbyteArray a)
{
    x->a = a;
    x->p = NULL;
    if (a == NULL)
        return 1;
    x->p = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, a, NULL);
    return x->p != NULL;
}

/* mode 0: JNI_ABORT (read only), else copy back (critical: no copy anyway) */
static void pin_release(JNIEnv *env, pin *x, jint mode)
{
    if (x->p != NULL)
        (*env)->ReleasePrimitiveArrayCritical(env, x->a, x->p, mode);
    x->p = NULL;
}

/* (out, outOff) can take need bytes; else ShortBufferException. */
static int check_out(JNIEnv *env, jbyteArray out, jint outOff, jlong need)
{
    if (out == NULL) {
        throw_msg(env, X_NPE, "fastsm2: null output");
        return 0;
    }
    jsize n = (*env)->GetArrayLength(env, out);
    if (outOff < 0 || outOff > n) {
        throw_msg(env, X_ARG, "fastsm2: bad output offset");
        return 0;
    }
    if ((jlong)n - outOff < need) {
        throw_status(env, X_SHORT, FASTSM2_ERR_BUFFER_TOO_SMALL);
        return 0;
    }
    return 1;
}

/* An IV or nonce (at most 64 bytes here; longer GCM IVs are copied whole). */
typedef struct {
    unsigned char small[64];
    unsigned char *p;
    size_t len;
} iv_arg;

static int iv_get(JNIEnv *env, jbyteArray iv, iv_arg *out)
{
    out->p = NULL;
    out->len = 0;
    if (iv == NULL)
        return 1;
    jsize n = (*env)->GetArrayLength(env, iv);
    out->p = n <= (jsize)sizeof out->small ? out->small : (unsigned char *)malloc((size_t)n);
    if (out->p == NULL) {
        throw_msg(env, X_OOM, "fastsm2: no memory");
        return 0;
    }
    (*env)->GetByteArrayRegion(env, iv, 0, n, (jbyte *)out->p);
    out->len = (size_t)n;
    return 1;
}

static void iv_free(iv_arg *a)
{
    if (a->p != NULL && a->p != a->small)
        free(a->p);
    a->p = NULL;
}

JNIFN(jstring, sm4Backend)(JNIEnv *env, jclass cls)
{
    (void)cls;
    return (*env)->NewStringUTF(env, fastsm2_sm4_backend_name());
}

JNIFN(jlong, sm4New)(JNIEnv *env, jclass cls)
{
    (void)cls;
    jsm4 *s = (jsm4 *)calloc(1, sizeof *s);
    if (s == NULL)
        throw_msg(env, X_OOM, "fastsm2: no memory");
    return (jlong)(uintptr_t)s;
}

/* GB/T 32907 7.3: expand a 16-byte key into the Cipher's state. */
JNIFN(void, sm4Key)(JNIEnv *env, jclass cls, jobject ref, jbyteArray key)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    unsigned char k[16];
    if (s == NULL || !get_exact(env, key, k, 16, X_KEY, "fastsm2: an SM4 key is 16 bytes"))
        return;
    int rc = fastsm2_sm4_key_init(&s->key, k);
    wipe(k, sizeof k);
    if (rc != FASTSM2_OK)
        throw_status(env, X_KEY, rc);
}

/* Wipe an abandoned streaming context. */
JNIFN(void, sm4Clear)(JNIEnv *env, jclass cls, jobject ref)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s != NULL)
        wipe(&s->c, sizeof s->c);
}

/* The whole of (in[off, off+len)) in mode (FASTSM2_SM4_ECB ... _CFB) into
 * out[outOff...]: one call, no copy. ECB with padding, OFB and CFB go
 * through a streaming context on the stack. Returns the bytes written. */
JNIFN(jint, sm4Crypt)
(JNIEnv *env, jclass cls, jobject ref, jint mode, jboolean enc, jboolean padded, jbyteArray iv, jbyteArray in, jint off,
 jint len, jbyteArray out, jint outOff)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s == NULL || !check_range(env, in, off, len))
        return 0;
    unsigned char ivb[16];
    if (mode != FASTSM2_SM4_ECB && !get_exact(env, iv, ivb, 16, X_ARG, "fastsm2: an SM4 IV is 16 bytes here"))
        return 0;
    int pad = padded ? FASTSM2_SM4_PAD_PKCS7 : FASTSM2_SM4_PAD_NONE;
    jlong need = enc && padded ? ((jlong)len / 16 + 1) * 16 : len;
    if (!check_out(env, out, outOff, need))
        return 0;
    if ((mode == FASTSM2_SM4_ECB || mode == FASTSM2_SM4_CBC) && !padded && len % 16 != 0) {
        throw_msg(env, X_BLOCKSIZE, "fastsm2: data not block size aligned (FASTSM2_ERR_LENGTH)");
        return 0;
    }
    if (!enc && padded && (len == 0 || len % 16 != 0)) {
        throw_msg(env, X_BLOCKSIZE, "fastsm2: last block incomplete in decryption (FASTSM2_ERR_LENGTH)");
        return 0;
    }
    int same = (*env)->IsSameObject(env, in, out);
    pin pi, po;
    if (!pin_get(env, &pi, in))
        return 0;
    if (!pin_get(env, &po, same ? NULL : out)) {
        pin_release(env, &pi, JNI_ABORT);
        return 0;
    }
    const unsigned char *src = (const unsigned char *)pi.p + off;
    unsigned char *dst = (unsigned char *)(same ? pi.p : po.p) + outOff;
    size_t outlen = (size_t)((*env)->GetArrayLength(env, out) - outOff);
    int rc;
    switch (mode) {
    case FASTSM2_SM4_CBC:
        rc = enc ? fastsm2_sm4_cbc_encrypt(dst, &outlen, &s->key, ivb, pad, src, (size_t)len)
                 : fastsm2_sm4_cbc_decrypt(dst, &outlen, &s->key, ivb, pad, src, (size_t)len);
        break;
    case FASTSM2_SM4_CTR:
        rc = fastsm2_sm4_ctr(dst, &s->key, ivb, src, (size_t)len);
        outlen = (size_t)len;
        break;
    default:
        if (mode == FASTSM2_SM4_ECB && !padded) {
            rc = enc ? fastsm2_sm4_ecb_encrypt(dst, &s->key, src, (size_t)len)
                     : fastsm2_sm4_ecb_decrypt(dst, &s->key, src, (size_t)len);
            outlen = (size_t)len;
            break;
        }
        {
            fastsm2_sm4_ctx c;
            size_t cap = outlen, n1 = cap, n2;
            rc = fastsm2_sm4_init(&c, mode, enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT, pad, &s->key,
                                  mode == FASTSM2_SM4_ECB ? NULL : ivb, mode == FASTSM2_SM4_ECB ? 0 : 16);
            if (rc == FASTSM2_OK)
                rc = fastsm2_sm4_update(&c, dst, &n1, src, (size_t)len);
            if (rc == FASTSM2_OK) {
                n2 = cap - n1;
                rc = fastsm2_sm4_final(&c, dst + n1, &n2);
                outlen = n1 + n2;
            }
            fastsm2_sm4_ctx_clear(&c);
        }
    }
    pin_release(env, &po, 0);
    pin_release(env, &pi, same ? 0 : JNI_ABORT);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return 0;
    }
    return (jint)outlen;
}

/* ECB or CBC decryption with PKCS#7 into a new array of exactly the
 * plaintext's length: the last block first (its padding gives the length,
 * checked in constant time), then the others straight into the array. */
JNIFN(jbyteArray, sm4DecryptPadded)
(JNIEnv *env, jclass cls, jobject ref, jint mode, jbyteArray iv, jbyteArray in, jint off, jint len)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s == NULL || !check_range(env, in, off, len))
        return NULL;
    unsigned char ivb[16], last[16], prev[16];
    if (mode != FASTSM2_SM4_ECB && !get_exact(env, iv, ivb, 16, X_ARG, "fastsm2: an SM4 IV is 16 bytes here"))
        return NULL;
    if (len == 0 || len % 16 != 0) {
        throw_msg(env, X_BLOCKSIZE, "fastsm2: last block incomplete in decryption (FASTSM2_ERR_LENGTH)");
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, in, off + len - 16, 16, (jbyte *)last);
    if (mode == FASTSM2_SM4_CBC) {
        if (len > 16)
            (*env)->GetByteArrayRegion(env, in, off + len - 32, 16, (jbyte *)prev);
        else
            memcpy(prev, ivb, 16);
    }
    int rc = fastsm2_sm4_ecb_decrypt(last, &s->key, last, 16);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return NULL;
    }
    if (mode == FASTSM2_SM4_CBC)
        for (int i = 0; i < 16; i++)
            last[i] ^= prev[i];
    /* PKCS#7 (RFC 5652 6.3) in constant time: p in [1, 16], the last p bytes equal p */
    unsigned p = last[15], bad = ((p - 1u) >> 8) | ((16u - p) >> 8); /* p == 0 or p > 16 */
    for (unsigned i = 1; i <= 16; i++) {
        unsigned inpad = (i - p - 1u) >> 31; /* 1 when i <= p */
        bad |= inpad & (((unsigned)(last[16 - i] ^ p) + 0xffu) >> 8);
    }
    if (bad & 1u) {
        wipe(last, sizeof last);
        throw_msg(env, X_BADPADDING, "fastsm2: pad block corrupted (FASTSM2_ERR_PADDING)");
        return NULL;
    }
    jsize n = len - (jsize)p;
    jbyteArray r = (*env)->NewByteArray(env, n);
    if (r == NULL) {
        wipe(last, sizeof last);
        return NULL;
    }
    pin pi, po;
    if (!pin_get(env, &pi, in)) {
        wipe(last, sizeof last);
        return NULL;
    }
    if (!pin_get(env, &po, r)) {
        pin_release(env, &pi, JNI_ABORT);
        wipe(last, sizeof last);
        return NULL;
    }
    size_t body = (size_t)len - 16, outlen = (size_t)n;
    rc = FASTSM2_OK;
    if (body > 0)
        rc = mode == FASTSM2_SM4_CBC
                 ? fastsm2_sm4_cbc_decrypt((unsigned char *)po.p, &outlen, &s->key, ivb, FASTSM2_SM4_PAD_NONE,
                                           (const unsigned char *)pi.p + off, body)
                 : fastsm2_sm4_ecb_decrypt((unsigned char *)po.p, &s->key, (const unsigned char *)pi.p + off, body);
    if (rc == FASTSM2_OK)
        memcpy((unsigned char *)po.p + body, last, 16 - p);
    pin_release(env, &po, 0);
    pin_release(env, &pi, JNI_ABORT);
    wipe(last, sizeof last);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return NULL;
    }
    return r;
}

/* Streaming ECB/CBC/CTR/OFB/CFB: start (iv NULL for ECB). */
JNIFN(void, sm4Init)(JNIEnv *env, jclass cls, jobject ref, jint mode, jboolean enc, jboolean padded, jbyteArray iv)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    unsigned char ivb[16];
    if (s == NULL)
        return;
    if (mode != FASTSM2_SM4_ECB && !get_exact(env, iv, ivb, 16, X_ARG, "fastsm2: an SM4 IV is 16 bytes here"))
        return;
    int rc = fastsm2_sm4_init(&s->c.s, mode, enc ? FASTSM2_SM4_ENCRYPT : FASTSM2_SM4_DECRYPT,
                              padded ? FASTSM2_SM4_PAD_PKCS7 : FASTSM2_SM4_PAD_NONE, &s->key,
                              mode == FASTSM2_SM4_ECB ? NULL : ivb, mode == FASTSM2_SM4_ECB ? 0 : 16);
    if (rc != FASTSM2_OK)
        sm4_throw(env, rc);
}

/* The next bytes: the count written (ShortBufferException: nothing consumed). */
JNIFN(jint, sm4Update)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray in, jint off, jint len, jbyteArray out, jint outOff)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s == NULL || !check_range(env, in, off, len) || !check_out(env, out, outOff, 0))
        return 0;
    int same = (*env)->IsSameObject(env, in, out);
    pin pi, po;
    if (!pin_get(env, &pi, in))
        return 0;
    if (!pin_get(env, &po, same ? NULL : out)) {
        pin_release(env, &pi, JNI_ABORT);
        return 0;
    }
    size_t outlen = (size_t)((*env)->GetArrayLength(env, out) - outOff);
    int rc = fastsm2_sm4_update(&s->c.s, (unsigned char *)(same ? pi.p : po.p) + outOff, &outlen,
                                (const unsigned char *)pi.p + off, (size_t)len);
    pin_release(env, &po, 0);
    pin_release(env, &pi, same ? 0 : JNI_ABORT);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return 0;
    }
    return (jint)outlen;
}

/* Finish: the last (padded or unpadded) block; wipes the context. */
JNIFN(jint, sm4Final)(JNIEnv *env, jclass cls, jobject ref, jbyteArray out, jint outOff)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    unsigned char last[16];
    size_t n = sizeof last;
    if (s == NULL || !check_out(env, out, outOff, 0))
        return 0;
    int rc = fastsm2_sm4_final(&s->c.s, last, &n);
    if (rc == FASTSM2_OK && (jlong)(*env)->GetArrayLength(env, out) - outOff < (jlong)n)
        rc = FASTSM2_ERR_BUFFER_TOO_SMALL;
    if (rc == FASTSM2_OK)
        (*env)->SetByteArrayRegion(env, out, outOff, (jsize)n, (const jbyte *)last);
    wipe(last, sizeof last);
    wipe(&s->c, sizeof s->c);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return 0;
    }
    return (jint)n;
}

/* GCM and CCM one-shot: in[off, off+len) with the AAD aad[0, aadLen) into
 * out[outOff...]; encryption writes the ciphertext and then the tag,
 * decryption reads the tag from the input's last tagLen bytes and writes
 * the plaintext only when the tag matches (AEADBadTagException otherwise,
 * nothing released). */
static jint aead(JNIEnv *env, jobject ref, int gcm, int enc, jbyteArray iv, jbyteArray aad, jint aadLen, jbyteArray in,
                 jint off, jint len, jbyteArray out, jint outOff, jint tagLen)
{
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s == NULL || !check_range(env, in, off, len))
        return 0;
    if (aadLen < 0 || (aadLen > 0 && (aad == NULL || (*env)->GetArrayLength(env, aad) < aadLen))) {
        throw_msg(env, X_ARG, "fastsm2: bad AAD length");
        return 0;
    }
    if (tagLen < 4 || tagLen > 16 || (!enc && len < tagLen)) {
        throw_msg(env, enc ? X_ARG : X_AEADTAG, "fastsm2: data too short for the tag");
        return 0;
    }
    jlong dlen = enc ? len : len - tagLen;
    if (!check_out(env, out, outOff, enc ? (jlong)len + tagLen : dlen))
        return 0;
    iv_arg n;
    if (!iv_get(env, iv, &n))
        return 0;
    int same = (*env)->IsSameObject(env, in, out);
    pin pa, pi, po;
    if (!pin_get(env, &pa, aadLen > 0 ? aad : NULL)) {
        iv_free(&n);
        return 0;
    }
    if (!pin_get(env, &pi, in)) {
        pin_release(env, &pa, JNI_ABORT);
        iv_free(&n);
        return 0;
    }
    if (!pin_get(env, &po, same ? NULL : out)) {
        pin_release(env, &pi, JNI_ABORT);
        pin_release(env, &pa, JNI_ABORT);
        iv_free(&n);
        return 0;
    }
    const unsigned char *a = (const unsigned char *)pa.p, *src = (const unsigned char *)pi.p + off;
    unsigned char *dst = (unsigned char *)(same ? pi.p : po.p) + outOff;
    unsigned char tag[16];
    int rc;
    if (enc) {
        rc = gcm ? fastsm2_sm4_gcm_encrypt(dst, tag, (size_t)tagLen, &s->key, n.p, n.len, a, (size_t)aadLen, src,
                                           (size_t)len)
                 : fastsm2_sm4_ccm_encrypt(dst, tag, (size_t)tagLen, &s->key, n.p, n.len, a, (size_t)aadLen, src,
                                           (size_t)len);
        if (rc == FASTSM2_OK)
            memcpy(dst + len, tag, (size_t)tagLen);
    } else {
        memcpy(tag, src + dlen, (size_t)tagLen);
        rc = gcm ? fastsm2_sm4_gcm_decrypt(dst, &s->key, n.p, n.len, a, (size_t)aadLen, src, (size_t)dlen, tag,
                                           (size_t)tagLen)
                 : fastsm2_sm4_ccm_decrypt(dst, &s->key, n.p, n.len, a, (size_t)aadLen, src, (size_t)dlen, tag,
                                           (size_t)tagLen);
    }
    pin_release(env, &po, 0);
    pin_release(env, &pi, same ? 0 : JNI_ABORT);
    pin_release(env, &pa, JNI_ABORT);
    iv_free(&n);
    if (rc != FASTSM2_OK) {
        if (rc == FASTSM2_ERR_TAG)
            throw_msg(env, X_AEADTAG,
                      gcm ? "fastsm2: mac check in GCM failed (FASTSM2_ERR_TAG)"
                          : "fastsm2: mac check in CCM failed (FASTSM2_ERR_TAG)");
        else
            sm4_throw(env, rc);
        return 0;
    }
    return (jint)(enc ? (jlong)len + tagLen : dlen);
}

JNIFN(jint, sm4GcmEncrypt)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray iv, jbyteArray aad, jint aadLen, jbyteArray in, jint off, jint len,
 jbyteArray out, jint outOff, jint tagLen)
{
    (void)cls;
    return aead(env, ref, 1, 1, iv, aad, aadLen, in, off, len, out, outOff, tagLen);
}

JNIFN(jint, sm4GcmDecrypt)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray iv, jbyteArray aad, jint aadLen, jbyteArray in, jint off, jint len,
 jbyteArray out, jint outOff, jint tagLen)
{
    (void)cls;
    return aead(env, ref, 1, 0, iv, aad, aadLen, in, off, len, out, outOff, tagLen);
}

JNIFN(jint, sm4CcmEncrypt)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray iv, jbyteArray aad, jint aadLen, jbyteArray in, jint off, jint len,
 jbyteArray out, jint outOff, jint tagLen)
{
    (void)cls;
    return aead(env, ref, 0, 1, iv, aad, aadLen, in, off, len, out, outOff, tagLen);
}

JNIFN(jint, sm4CcmDecrypt)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray iv, jbyteArray aad, jint aadLen, jbyteArray in, jint off, jint len,
 jbyteArray out, jint outOff, jint tagLen)
{
    (void)cls;
    return aead(env, ref, 0, 0, iv, aad, aadLen, in, off, len, out, outOff, tagLen);
}

/* Streaming GCM encryption: start with the IV and the whole AAD. */
JNIFN(void, sm4GcmInit)(JNIEnv *env, jclass cls, jobject ref, jbyteArray iv, jbyteArray aad, jint aadLen)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s == NULL)
        return;
    if (aadLen < 0 || (aadLen > 0 && (aad == NULL || (*env)->GetArrayLength(env, aad) < aadLen))) {
        throw_msg(env, X_ARG, "fastsm2: bad AAD length");
        return;
    }
    iv_arg n;
    if (!iv_get(env, iv, &n))
        return;
    int rc = fastsm2_sm4_gcm_init(&s->c.g, FASTSM2_SM4_ENCRYPT, &s->key, n.p, n.len);
    iv_free(&n);
    if (rc == FASTSM2_OK && aadLen > 0) {
        pin pa;
        if (!pin_get(env, &pa, aad))
            return;
        rc = fastsm2_sm4_gcm_aad(&s->c.g, (const unsigned char *)pa.p, (size_t)aadLen);
        pin_release(env, &pa, JNI_ABORT);
    }
    if (rc != FASTSM2_OK) {
        wipe(&s->c, sizeof s->c);
        sm4_throw(env, rc);
    }
}

JNIFN(jint, sm4GcmUpdate)
(JNIEnv *env, jclass cls, jobject ref, jbyteArray in, jint off, jint len, jbyteArray out, jint outOff)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    if (s == NULL || !check_range(env, in, off, len) || !check_out(env, out, outOff, len))
        return 0;
    if (len == 0)
        return 0;
    int same = (*env)->IsSameObject(env, in, out);
    pin pi, po;
    if (!pin_get(env, &pi, in))
        return 0;
    if (!pin_get(env, &po, same ? NULL : out)) {
        pin_release(env, &pi, JNI_ABORT);
        return 0;
    }
    int rc = fastsm2_sm4_gcm_update(&s->c.g, (unsigned char *)(same ? pi.p : po.p) + outOff,
                                    (const unsigned char *)pi.p + off, (size_t)len);
    pin_release(env, &po, 0);
    pin_release(env, &pi, same ? 0 : JNI_ABORT);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return 0;
    }
    return len;
}

JNIFN(jint, sm4GcmFinal)(JNIEnv *env, jclass cls, jobject ref, jbyteArray out, jint outOff, jint tagLen)
{
    (void)cls;
    jsm4 *s = (jsm4 *)ref_get(env, ref);
    unsigned char tag[16];
    if (s == NULL || !check_out(env, out, outOff, tagLen))
        return 0;
    if (tagLen < 4 || tagLen > 16) {
        throw_msg(env, X_ARG, "fastsm2: a GCM tag of 4 to 16 bytes");
        return 0;
    }
    int rc = fastsm2_sm4_gcm_encrypt_final(&s->c.g, tag, (size_t)tagLen);
    wipe(&s->c, sizeof s->c);
    if (rc != FASTSM2_OK) {
        sm4_throw(env, rc);
        return 0;
    }
    (*env)->SetByteArrayRegion(env, out, outOff, tagLen, (const jbyte *)tag);
    return tagLen;
}
