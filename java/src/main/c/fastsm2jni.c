/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JNI glue of the FastSM2 Java provider (java/, docs/JAVA.md): the static
 * native methods of org.fastsm2.Native over the public C API
 * (include/fastsm2.h) and nothing else. Conventions:
 *  - keys live in malloc'ed fastsm2_privkey / fastsm2_pubkey objects whose
 *    address is a Java long ("handle"); privFree wipes before freeing;
 *  - every failure throws org.fastsm2.NativeException(code, message) (a
 *    RuntimeException the Java classes turn into the JCA's exception) and
 *    never crashes: every array index and length is checked here, whatever
 *    the Java side checked already;
 *  - small state objects (SM3, HMAC, key exchange) are kept by Java as byte
 *    arrays and copied into an aligned local object for each call, so that
 *    no native memory needs freeing; locals holding secrets are wiped;
 *  - messages are read with Get/ReleasePrimitiveArrayCritical (no copy)
 *    for one operation at most.
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fastsm2.h"

#define JNIFN(type, name) JNIEXPORT type JNICALL Java_org_fastsm2_Native_##name

/* Wipe that the compiler keeps (the library's own wipe is not public). */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (n--)
        *v++ = 0;
}

static void throw_code(JNIEnv *env, int code)
{
    jclass cls = (*env)->FindClass(env, "org/fastsm2/NativeException");
    if (cls == NULL)
        return; /* NoClassDefFoundError pending */
    jmethodID ctor = (*env)->GetMethodID(env, cls, "<init>", "(ILjava/lang/String;)V");
    if (ctor == NULL)
        return;
    jstring msg = (*env)->NewStringUTF(env, fastsm2_strerror(code));
    if (msg == NULL)
        return;
    jobject ex = (*env)->NewObject(env, cls, ctor, (jint)code, msg);
    if (ex != NULL)
        (*env)->Throw(env, (jthrowable)ex);
}

/* Bounds of (array, off, len): 0 and an ArrayIndexOutOfBounds-like
 * FASTSM2_ERR_ARG thrown when they do not fit. */
static int check_range(JNIEnv *env, jbyteArray a, jint off, jint len)
{
    if (a == NULL) {
        throw_code(env, FASTSM2_ERR_ARG);
        return 0;
    }
    jsize n = (*env)->GetArrayLength(env, a);
    if (off < 0 || len < 0 || off > n || len > n - off) {
        throw_code(env, FASTSM2_ERR_ARG);
        return 0;
    }
    return 1;
}

/* Copy a small Java array into buf (exactly n bytes or throw). */
static int get_exact(JNIEnv *env, jbyteArray a, void *buf, jsize n)
{
    if (a == NULL || (*env)->GetArrayLength(env, a) != n) {
        throw_code(env, FASTSM2_ERR_LENGTH);
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

/* An ID argument: NULL = the key's ID (the default), an empty array = the
 * empty ID (a non-NULL pointer with length 0), else the bytes. The copy is
 * malloc'ed (IDs up to 8191 bytes); *idp is freed by id_free. */
static const unsigned char empty_id[1] = {0};
typedef struct {
    unsigned char *heap;
    const unsigned char *p;
    size_t len;
} id_arg;

static int id_get(JNIEnv *env, jbyteArray id, id_arg *out)
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
        throw_code(env, FASTSM2_ERR_ID);
        return 0;
    }
    out->heap = (unsigned char *)malloc((size_t)n);
    if (out->heap == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return 0;
    }
    (*env)->GetByteArrayRegion(env, id, 0, n, (jbyte *)out->heap);
    out->p = out->heap;
    out->len = (size_t)n;
    return 1;
}

static void id_free(id_arg *a)
{
    free(a->heap);
    a->heap = NULL;
}

#define PRIV(h) ((const fastsm2_privkey *)(uintptr_t)(h))
#define PUB(h)  ((fastsm2_pubkey *)(uintptr_t)(h))

static int check_handle(JNIEnv *env, jlong h)
{
    if (h == 0) {
        throw_code(env, FASTSM2_ERR_ARG);
        return 0;
    }
    return 1;
}

/* ---- library information ------------------------------------------------ */

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

/* ---- private keys ----------------------------------------------------------- */

static fastsm2_privkey *priv_alloc(JNIEnv *env)
{
    fastsm2_privkey *k = (fastsm2_privkey *)calloc(1, sizeof *k);
    if (k == NULL)
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
    return k;
}

static jlong priv_done(JNIEnv *env, fastsm2_privkey *k, int rc)
{
    if (rc != FASTSM2_OK) {
        fastsm2_privkey_clear(k);
        free(k);
        throw_code(env, rc);
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
    return priv_done(env, k, fastsm2_privkey_generate(k));
}

JNIFN(jlong, privFromBytes)(JNIEnv *env, jclass cls, jbyteArray d)
{
    (void)cls;
    unsigned char buf[32];
    if (!get_exact(env, d, buf, 32))
        return 0;
    fastsm2_privkey *k = priv_alloc(env);
    if (k == NULL) {
        wipe(buf, sizeof buf);
        return 0;
    }
    int rc = fastsm2_privkey_from_bytes(k, buf);
    wipe(buf, sizeof buf);
    return priv_done(env, k, rc);
}

/* Parse a key file; password NULL: fastsm2_privkey_parse. */
JNIFN(jlong, privParse)(JNIEnv *env, jclass cls, jbyteArray in, jbyteArray password)
{
    (void)cls;
    if (!check_range(env, in, 0, in ? (*env)->GetArrayLength(env, in) : 0))
        return 0;
    jsize n = (*env)->GetArrayLength(env, in);
    unsigned char *buf = (unsigned char *)malloc(n ? (size_t)n : 1);
    unsigned char *pw = NULL;
    jsize pwn = 0;
    if (buf == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return 0;
    }
    (*env)->GetByteArrayRegion(env, in, 0, n, (jbyte *)buf);
    if (password != NULL) {
        pwn = (*env)->GetArrayLength(env, password);
        pw = (unsigned char *)malloc(pwn ? (size_t)pwn : 1);
        if (pw == NULL) {
            wipe(buf, (size_t)n);
            free(buf);
            throw_code(env, FASTSM2_ERR_NO_MEMORY);
            return 0;
        }
        (*env)->GetByteArrayRegion(env, password, 0, pwn, (jbyte *)pw);
    }
    fastsm2_privkey *k = priv_alloc(env);
    int rc = FASTSM2_ERR_NO_MEMORY;
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
    return priv_done(env, k, rc);
}

JNIFN(void, privToBytes)(JNIEnv *env, jclass cls, jlong h, jbyteArray out)
{
    (void)cls;
    unsigned char d[32];
    if (!check_handle(env, h) || !check_range(env, out, 0, 32))
        return;
    int rc = fastsm2_privkey_to_bytes(d, PRIV(h));
    if (rc == FASTSM2_OK)
        (*env)->SetByteArrayRegion(env, out, 0, 32, (const jbyte *)d);
    wipe(d, sizeof d);
    if (rc != FASTSM2_OK)
        throw_code(env, rc);
}

/* The 65-byte public point of a private key. */
JNIFN(jbyteArray, privPublic)(JNIEnv *env, jclass cls, jlong h)
{
    (void)cls;
    if (!check_handle(env, h))
        return NULL;
    fastsm2_pubkey *pub = (fastsm2_pubkey *)malloc(sizeof *pub);
    if (pub == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return NULL;
    }
    unsigned char pt[65];
    size_t ptlen = sizeof pt;
    int rc = fastsm2_privkey_pubkey(pub, PRIV(h));
    if (rc == FASTSM2_OK)
        rc = fastsm2_pubkey_to_bytes(pt, &ptlen, pub, 0);
    free(pub);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, pt, ptlen);
}

static jlong pub_done(JNIEnv *env, fastsm2_pubkey *p, int rc);

/* The public key of a private key as a new public-key handle (no
 * re-validation of a point the library made itself). */
JNIFN(jlong, privPublicKey)(JNIEnv *env, jclass cls, jlong h)
{
    (void)cls;
    if (!check_handle(env, h))
        return 0;
    fastsm2_pubkey *pub = (fastsm2_pubkey *)calloc(1, sizeof *pub);
    if (pub == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return 0;
    }
    return pub_done(env, pub, fastsm2_privkey_pubkey(pub, PRIV(h)));
}

JNIFN(void, privFree)(JNIEnv *env, jclass cls, jlong h)
{
    (void)env;
    (void)cls;
    if (h == 0)
        return;
    fastsm2_privkey *k = (fastsm2_privkey *)(uintptr_t)h;
    fastsm2_privkey_clear(k);
    free(k);
}

/* fmt: FASTSM2_KEYFMT_*; password NULL: unencrypted. */
JNIFN(jbyteArray, privSerialize)
(JNIEnv *env, jclass cls, jlong h, jint fmt, jint scheme, jint iterations, jbyteArray password)
{
    (void)cls;
    if (!check_handle(env, h))
        return NULL;
    unsigned char out[FASTSM2_PRIVKEY_ENCRYPTED_MAX + 512];
    size_t outlen = sizeof out;
    int rc;
    if (password != NULL) {
        jsize pwn = (*env)->GetArrayLength(env, password);
        unsigned char *pw = (unsigned char *)malloc(pwn ? (size_t)pwn : 1);
        if (pw == NULL) {
            throw_code(env, FASTSM2_ERR_NO_MEMORY);
            return NULL;
        }
        (*env)->GetByteArrayRegion(env, password, 0, pwn, (jbyte *)pw);
        rc = iterations < 0 ? FASTSM2_ERR_ARG
                            : fastsm2_privkey_serialize_encrypted(out, &outlen, PRIV(h), fmt, scheme,
                                                                  (uint32_t)iterations, pw, (size_t)pwn);
        wipe(pw, (size_t)pwn);
        free(pw);
    } else {
        rc = fastsm2_privkey_serialize(out, &outlen, PRIV(h), fmt);
    }
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_code(env, rc);
    wipe(out, sizeof out);
    return r;
}

/* ---- public keys ----------------------------------------------------------- */

static jlong pub_done(JNIEnv *env, fastsm2_pubkey *p, int rc)
{
    if (rc != FASTSM2_OK) {
        free(p);
        throw_code(env, rc);
        return 0;
    }
    return (jlong)(uintptr_t)p;
}

/* kind 0: SEC1 point; 1: key file (SPKI PEM/DER or point); 2: certificate. */
JNIFN(jlong, pubParse)(JNIEnv *env, jclass cls, jbyteArray in, jint kind)
{
    (void)cls;
    if (in == NULL) {
        throw_code(env, FASTSM2_ERR_ARG);
        return 0;
    }
    jsize n = (*env)->GetArrayLength(env, in);
    fastsm2_pubkey *p = (fastsm2_pubkey *)calloc(1, sizeof *p);
    unsigned char *buf = (unsigned char *)malloc(n ? (size_t)n : 1);
    if (p == NULL || buf == NULL) {
        free(p);
        free(buf);
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return 0;
    }
    (*env)->GetByteArrayRegion(env, in, 0, n, (jbyte *)buf);
    int rc;
    if (kind == 0)
        rc = fastsm2_pubkey_from_bytes(p, buf, (size_t)n);
    else if (kind == 1)
        rc = fastsm2_pubkey_parse(p, buf, (size_t)n);
    else
        rc = fastsm2_pubkey_parse_certificate(p, buf, (size_t)n);
    free(buf);
    return pub_done(env, p, rc);
}

JNIFN(void, pubPrecompute)(JNIEnv *env, jclass cls, jlong h)
{
    (void)cls;
    if (!check_handle(env, h))
        return;
    int rc = fastsm2_pubkey_precompute(PUB(h));
    if (rc != FASTSM2_OK)
        throw_code(env, rc);
}

JNIFN(jbyteArray, pubToBytes)(JNIEnv *env, jclass cls, jlong h, jboolean compressed)
{
    (void)cls;
    if (!check_handle(env, h))
        return NULL;
    unsigned char pt[65];
    size_t ptlen = sizeof pt;
    int rc = fastsm2_pubkey_to_bytes(pt, &ptlen, PUB(h), compressed ? 1 : 0);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, pt, ptlen);
}

JNIFN(jbyteArray, pubSerialize)(JNIEnv *env, jclass cls, jlong h, jint fmt)
{
    (void)cls;
    if (!check_handle(env, h))
        return NULL;
    unsigned char out[512];
    size_t outlen = sizeof out;
    int rc = fastsm2_pubkey_serialize(out, &outlen, PUB(h), fmt);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, out, outlen);
}

JNIFN(void, pubFree)(JNIEnv *env, jclass cls, jlong h)
{
    (void)env;
    (void)cls;
    free((void *)(uintptr_t)h);
}

/* Z_A of a public key for an ID (NULL: default, empty: the empty ID). */
JNIFN(jbyteArray, computeZ)(JNIEnv *env, jclass cls, jlong pubh, jbyteArray id)
{
    (void)cls;
    if (!check_handle(env, pubh))
        return NULL;
    id_arg ida;
    if (!id_get(env, id, &ida))
        return NULL;
    unsigned char z[32];
    int rc = fastsm2_compute_z(z, PUB(pubh), ida.p, ida.len);
    id_free(&ida);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, z, 32);
}

/* ---- signatures ------------------------------------------------------------- */

/* Sign msg[off, off+len) (GB/T 32918.2 6.1, e = SM3(Z_A || M)): raw r||s,
 * or DER (GM/T 0009) when der is set: one crossing for the whole signature. */
JNIFN(jbyteArray, sign)
(JNIEnv *env, jclass cls, jlong h, jbyteArray id, jbyteArray msg, jint off, jint len, jboolean der)
{
    (void)cls;
    if (!check_handle(env, h) || !check_range(env, msg, off, len))
        return NULL;
    id_arg ida;
    if (!id_get(env, id, &ida))
        return NULL;
    unsigned char sig[64], out[FASTSM2_SIG_DER_MAX];
    size_t outlen = sizeof out;
    jbyte *m = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, msg, NULL);
    if (m == NULL) {
        id_free(&ida);
        return NULL;
    }
    int rc = fastsm2_sign(sig, PRIV(h), ida.p, ida.len, m + off, (size_t)len);
    (*env)->ReleasePrimitiveArrayCritical(env, msg, m, JNI_ABORT);
    id_free(&ida);
    if (rc == FASTSM2_OK && der)
        rc = fastsm2_sig_to_der(out, &outlen, sig);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return der ? new_bytes(env, out, outlen) : new_bytes(env, sig, 64);
}

JNIFN(jbyteArray, signDigest)(JNIEnv *env, jclass cls, jlong h, jbyteArray e)
{
    (void)cls;
    unsigned char eb[32], sig[64];
    if (!check_handle(env, h) || !get_exact(env, e, eb, 32))
        return NULL;
    int rc = fastsm2_sign_digest(sig, PRIV(h), eb);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, sig, 64);
}

/* Verify: returns the status (FASTSM2_OK or the reason), throws nothing
 * for a bad signature. sig is raw r||s (64 bytes), or DER when der is set
 * (FASTSM2_ERR_DER when malformed, FASTSM2_ERR_SIG_RANGE for r or s out of
 * range), decoded here: one crossing per verification. */
JNIFN(jint, verify)
(JNIEnv *env, jclass cls, jlong h, jbyteArray id, jbyteArray msg, jint off, jint len, jbyteArray sig, jboolean der)
{
    (void)cls;
    unsigned char s[64];
    if (!check_handle(env, h) || !check_range(env, msg, off, len))
        return FASTSM2_ERR_ARG;
    if (der) {
        if (sig == NULL) {
            throw_code(env, FASTSM2_ERR_ARG);
            return FASTSM2_ERR_ARG;
        }
        unsigned char buf[FASTSM2_SIG_DER_MAX];
        jsize n = (*env)->GetArrayLength(env, sig);
        if (n > (jsize)sizeof buf)
            return FASTSM2_ERR_DER;
        (*env)->GetByteArrayRegion(env, sig, 0, n, (jbyte *)buf);
        int rc = fastsm2_sig_from_der(s, buf, (size_t)n);
        if (rc != FASTSM2_OK)
            return rc;
    } else if (!get_exact(env, sig, s, 64)) {
        return FASTSM2_ERR_ARG;
    }
    id_arg ida;
    if (!id_get(env, id, &ida))
        return FASTSM2_ERR_ARG;
    jbyte *m = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, msg, NULL);
    if (m == NULL) {
        id_free(&ida);
        return FASTSM2_ERR_NO_MEMORY;
    }
    int rc = fastsm2_verify_status(PUB(h), ida.p, ida.len, m + off, (size_t)len, s);
    (*env)->ReleasePrimitiveArrayCritical(env, msg, m, JNI_ABORT);
    id_free(&ida);
    return rc;
}

JNIFN(jint, verifyDigest)(JNIEnv *env, jclass cls, jlong h, jbyteArray e, jbyteArray sig)
{
    (void)cls;
    unsigned char eb[32], s[64];
    if (!check_handle(env, h) || !get_exact(env, e, eb, 32) || !get_exact(env, sig, s, 64))
        return FASTSM2_ERR_ARG;
    return fastsm2_verify_digest_status(PUB(h), eb, s);
}

JNIFN(jbyteArray, sigToDer)(JNIEnv *env, jclass cls, jbyteArray raw)
{
    (void)cls;
    unsigned char s[64], der[FASTSM2_SIG_DER_MAX];
    size_t derlen = sizeof der;
    if (!get_exact(env, raw, s, 64))
        return NULL;
    int rc = fastsm2_sig_to_der(der, &derlen, s);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, der, derlen);
}

JNIFN(jbyteArray, sigFromDer)(JNIEnv *env, jclass cls, jbyteArray der, jint off, jint len)
{
    (void)cls;
    if (!check_range(env, der, off, len))
        return NULL;
    if (len > 1024) {
        throw_code(env, FASTSM2_ERR_DER);
        return NULL;
    }
    unsigned char buf[1024], s[64];
    (*env)->GetByteArrayRegion(env, der, off, len, (jbyte *)buf);
    int rc = fastsm2_sig_from_der(s, buf, (size_t)len);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, s, 64);
}

/* ---- batches ----------------------------------------------------------------- */

/* e_i = SM3(Z || msg_i) for every message (Z given, 32 bytes). */
static int digests_of(JNIEnv *env, unsigned char *e, const unsigned char z[32], jobjectArray msgs, jsize n)
{
    for (jsize i = 0; i < n; i++) {
        jbyteArray m = (jbyteArray)(*env)->GetObjectArrayElement(env, msgs, i);
        if (m == NULL) {
            throw_code(env, FASTSM2_ERR_ARG);
            return 0;
        }
        jsize mlen = (*env)->GetArrayLength(env, m);
        jbyte *p = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, m, NULL);
        if (p == NULL)
            return 0;
        fastsm2_sm3_ctx c;
        fastsm2_sm3_init(&c);
        fastsm2_sm3_update(&c, z, 32);
        fastsm2_sm3_update(&c, p, (size_t)mlen);
        fastsm2_sm3_final(e + 32 * (size_t)i, &c);
        (*env)->ReleasePrimitiveArrayCritical(env, m, p, JNI_ABORT);
        (*env)->DeleteLocalRef(env, m);
    }
    return 1;
}

/* Sign every message with one key (its Z given): n*64 bytes r||s. */
JNIFN(jbyteArray, signBatch)(JNIEnv *env, jclass cls, jlong h, jbyteArray z, jobjectArray msgs, jint threads)
{
    (void)cls;
    unsigned char zb[32];
    if (!check_handle(env, h) || msgs == NULL || !get_exact(env, z, zb, 32))
        return NULL;
    jsize n = (*env)->GetArrayLength(env, msgs);
    size_t cnt = n ? (size_t)n : 1;
    unsigned char *e = (unsigned char *)malloc(32 * cnt);
    unsigned char *sigs = (unsigned char *)malloc(64 * cnt);
    jbyteArray r = NULL;
    if (e == NULL || sigs == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
    } else if (digests_of(env, e, zb, msgs, n)) {
        int rc = fastsm2_sign_digest_batch(sigs, PRIV(h), 1, e, (size_t)n, threads < 0 ? 0u : (unsigned)threads);
        if (rc == FASTSM2_OK)
            r = new_bytes(env, sigs, 64 * (size_t)n);
        else
            throw_code(env, rc);
    }
    free(e);
    free(sigs);
    return r;
}

/* Verify every (message, raw signature) with one key (Z given): 1/0 each. */
JNIFN(jbooleanArray, verifyBatch)
(JNIEnv *env, jclass cls, jlong h, jbyteArray z, jobjectArray msgs, jbyteArray sigs, jint threads)
{
    (void)cls;
    unsigned char zb[32];
    if (!check_handle(env, h) || msgs == NULL || sigs == NULL || !get_exact(env, z, zb, 32))
        return NULL;
    jsize n = (*env)->GetArrayLength(env, msgs);
    if ((*env)->GetArrayLength(env, sigs) != 64 * (jlong)n) {
        throw_code(env, FASTSM2_ERR_LENGTH);
        return NULL;
    }
    size_t cnt = n ? (size_t)n : 1;
    unsigned char *e = (unsigned char *)malloc(32 * cnt);
    unsigned char *s = (unsigned char *)malloc(64 * cnt);
    int *res = (int *)calloc(cnt, sizeof(int));
    jbooleanArray r = NULL;
    jboolean *rb = (jboolean *)calloc(cnt, sizeof(jboolean));
    if (e == NULL || s == NULL || res == NULL || rb == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
    } else if (digests_of(env, e, zb, msgs, n)) {
        (*env)->GetByteArrayRegion(env, sigs, 0, 64 * n, (jbyte *)s);
        int rc = fastsm2_verify_digest_batch(res, PUB(h), 1, e, s, (size_t)n, threads < 0 ? 0u : (unsigned)threads);
        if (rc == FASTSM2_OK) {
            for (jsize i = 0; i < n; i++)
                rb[i] = res[i] == 1 ? JNI_TRUE : JNI_FALSE;
            r = (*env)->NewBooleanArray(env, n);
            if (r != NULL)
                (*env)->SetBooleanArrayRegion(env, r, 0, n, rb);
        } else {
            throw_code(env, rc);
        }
    }
    free(e);
    free(s);
    free(res);
    free(rb);
    return r;
}

/* ---- encryption ------------------------------------------------------------ */

JNIFN(jbyteArray, encrypt)(JNIEnv *env, jclass cls, jlong h, jbyteArray msg, jint off, jint len, jint flags)
{
    (void)cls;
    if (!check_handle(env, h) || !check_range(env, msg, off, len))
        return NULL;
    size_t cap = fastsm2_ciphertext_size((size_t)len, flags);
    if (cap == 0 || cap > 0x7fffffff) {
        throw_code(env, FASTSM2_ERR_LENGTH);
        return NULL;
    }
    unsigned char *out = (unsigned char *)malloc(cap);
    if (out == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return NULL;
    }
    size_t outlen = cap;
    jbyte *m = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, msg, NULL);
    if (m == NULL) {
        free(out);
        return NULL;
    }
    int rc = fastsm2_encrypt(out, &outlen, PUB(h), m + off, (size_t)len, flags);
    (*env)->ReleasePrimitiveArrayCritical(env, msg, m, JNI_ABORT);
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_code(env, rc);
    free(out);
    return r;
}

JNIFN(jbyteArray, decrypt)(JNIEnv *env, jclass cls, jlong h, jbyteArray ct, jint off, jint len, jint flags)
{
    (void)cls;
    if (!check_handle(env, h) || !check_range(env, ct, off, len))
        return NULL;
    size_t cap = len > 0 ? (size_t)len : 1; /* the plaintext is shorter */
    unsigned char *out = (unsigned char *)malloc(cap);
    if (out == NULL) {
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return NULL;
    }
    size_t outlen = cap;
    jbyte *c = (jbyte *)(*env)->GetPrimitiveArrayCritical(env, ct, NULL);
    if (c == NULL) {
        free(out);
        return NULL;
    }
    int rc = fastsm2_decrypt(out, &outlen, PRIV(h), (const unsigned char *)c + off, (size_t)len, flags);
    (*env)->ReleasePrimitiveArrayCritical(env, ct, c, JNI_ABORT);
    jbyteArray r = NULL;
    if (rc == FASTSM2_OK)
        r = new_bytes(env, out, outlen);
    else
        throw_code(env, rc);
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

JNIFN(void, sm3Init)(JNIEnv *env, jclass cls, jbyteArray st)
{
    (void)cls;
    fastsm2_sm3_ctx c;
    if (st == NULL || (*env)->GetArrayLength(env, st) != (jsize)sizeof c) {
        throw_code(env, FASTSM2_ERR_ARG);
        return;
    }
    fastsm2_sm3_init(&c);
    (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
}

JNIFN(void, sm3Update)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray in, jint off, jint len)
{
    (void)cls;
    fastsm2_sm3_ctx c;
    if (!get_exact(env, st, &c, (jsize)sizeof c) || !check_range(env, in, off, len))
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
    if (!get_exact(env, st, &c, (jsize)sizeof c))
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
    if (st == NULL || (*env)->GetArrayLength(env, st) != (jsize)sizeof c || key == NULL) {
        throw_code(env, FASTSM2_ERR_ARG);
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
        throw_code(env, rc);
}

JNIFN(void, hmacUpdate)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray in, jint off, jint len)
{
    (void)cls;
    fastsm2_hmac_sm3_ctx c;
    if (!get_exact(env, st, &c, (jsize)sizeof c) || !check_range(env, in, off, len)) {
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
    if (!get_exact(env, st, &c, (jsize)sizeof c)) {
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
(JNIEnv *env, jclass cls, jbyteArray st, jint role, jlong priv, jbyteArray id, jlong peer, jbyteArray peerId,
 jbyteArray r)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char R[65], rb[32];
    if (!check_handle(env, priv) || !check_handle(env, peer))
        return NULL;
    if (st == NULL || (*env)->GetArrayLength(env, st) != (jsize)sizeof c) {
        throw_code(env, FASTSM2_ERR_ARG);
        return NULL;
    }
    if (r != NULL && !get_exact(env, r, rb, 32))
        return NULL;
    id_arg a, b;
    if (!id_get(env, id, &a))
        return NULL;
    if (!id_get(env, peerId, &b)) {
        id_free(&a);
        return NULL;
    }
    int rc = fastsm2_kx_init(&c, role, PRIV(priv), a.p, a.len, PUB(peer), b.p, b.len);
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
        throw_code(env, rc);
    }
    fastsm2_kx_clear(&c);
    return out;
}

JNIFN(jbyteArray, kxCompute)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray peerR, jint klen)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char R[65];
    if (!get_exact(env, st, &c, (jsize)sizeof c))
        return NULL;
    jsize rn = peerR ? (*env)->GetArrayLength(env, peerR) : -1;
    if (rn < 1 || rn > 65) {
        fastsm2_kx_clear(&c);
        throw_code(env, FASTSM2_ERR_POINT);
        return NULL;
    }
    if (klen < 1 || klen > 65536) {
        fastsm2_kx_clear(&c);
        throw_code(env, FASTSM2_ERR_LENGTH);
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, peerR, 0, rn, (jbyte *)R);
    unsigned char *k = (unsigned char *)malloc((size_t)klen);
    if (k == NULL) {
        fastsm2_kx_clear(&c);
        throw_code(env, FASTSM2_ERR_NO_MEMORY);
        return NULL;
    }
    int rc = fastsm2_kx_compute(&c, k, (size_t)klen, R, (size_t)rn);
    jbyteArray out = NULL;
    if (rc == FASTSM2_OK) {
        (*env)->SetByteArrayRegion(env, st, 0, (jsize)sizeof c, (const jbyte *)&c);
        out = new_bytes(env, k, (size_t)klen);
    } else {
        throw_code(env, rc);
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
    if (!get_exact(env, st, &c, (jsize)sizeof c))
        return NULL;
    int rc = fastsm2_kx_confirmation(s, &c);
    fastsm2_kx_clear(&c);
    if (rc != FASTSM2_OK) {
        throw_code(env, rc);
        return NULL;
    }
    return new_bytes(env, s, 32);
}

JNIFN(jint, kxVerifyConfirmation)(JNIEnv *env, jclass cls, jbyteArray st, jbyteArray peerS)
{
    (void)cls;
    fastsm2_kx_ctx c;
    unsigned char s[32];
    if (!get_exact(env, st, &c, (jsize)sizeof c))
        return FASTSM2_ERR_ARG;
    if (!get_exact(env, peerS, s, 32)) {
        fastsm2_kx_clear(&c);
        return FASTSM2_ERR_LENGTH;
    }
    int rc = fastsm2_kx_verify_confirmation(&c, s);
    fastsm2_kx_clear(&c);
    return rc;
}
