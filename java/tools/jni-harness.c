/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the JNI glue (libfastsm2jni.so) without a JVM: a minimal JNIEnv whose
 * functions are the few the glue calls, byte arrays as plain memory, typed
 * handles (org.fastsm2.internal.NativeRef) as a struct holding the address,
 * exceptions recorded by class name. Built for aarch64 and run under
 * qemu-aarch64 by java/tools/check-aarch64.sh, so that the linux-aarch64
 * library of the jar is loaded and exercised on a machine without an arm64
 * JDK; the x86-64 library gets the same run natively. Prints
 * "jni-harness: N passed, N failed".
 */
#include <dlfcn.h>
#include <jni.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jsize len;
    unsigned char data[];
} arr;

typedef struct {
    jlong address;
} ref; /* a NativeRef: the glue reads its one field */
#define R(x) ((jobject) & (x))

static const char *thrown;   /* class of the pending exception, NULL if none */
static char thrown_msg[256]; /* its message */

static arr *mk(jsize n, const void *p)
{
    arr *a = calloc(1, sizeof(arr) + (size_t)n * sizeof(void *) + 1);
    a->len = n;
    if (p != NULL)
        memcpy(a->data, p, (size_t)n);
    return a;
}

static jclass JNICALL FindClass(JNIEnv *e, const char *n)
{
    (void)e;
    return (jclass)n;
}
static jint JNICALL ThrowNew(JNIEnv *e, jclass c, const char *m)
{
    (void)e;
    thrown = (const char *)c;
    snprintf(thrown_msg, sizeof thrown_msg, "%s", m);
    return 0;
}
static jboolean JNICALL ExceptionCheck(JNIEnv *e)
{
    (void)e;
    return thrown != NULL;
}
static jfieldID JNICALL GetFieldID(JNIEnv *e, jclass c, const char *n, const char *s)
{
    (void)e, (void)c, (void)s;
    return (jfieldID)n;
}
static jlong JNICALL GetLongField(JNIEnv *e, jobject o, jfieldID f)
{
    (void)e, (void)f;
    return ((ref *)o)->address;
}
static jstring JNICALL NewStringUTF(JNIEnv *e, const char *s)
{
    (void)e;
    return (jstring)s;
}
static jsize JNICALL GetArrayLength(JNIEnv *e, jarray a)
{
    (void)e;
    return ((arr *)a)->len;
}
static jbyteArray JNICALL NewByteArray(JNIEnv *e, jsize n)
{
    (void)e;
    return (jbyteArray)mk(n, NULL);
}
static jbooleanArray JNICALL NewBooleanArray(JNIEnv *e, jsize n)
{
    (void)e;
    return (jbooleanArray)mk(n, NULL);
}
static jobjectArray JNICALL NewObjectArray(JNIEnv *e, jsize n, jclass c, jobject init)
{
    (void)e, (void)c, (void)init;
    return (jobjectArray)mk(n, NULL);
}
static void JNICALL GetByteArrayRegion(JNIEnv *e, jbyteArray a, jsize o, jsize n, jbyte *b)
{
    (void)e;
    memcpy(b, ((arr *)a)->data + o, (size_t)n);
}
static void JNICALL SetByteArrayRegion(JNIEnv *e, jbyteArray a, jsize o, jsize n, const jbyte *b)
{
    (void)e;
    memcpy(((arr *)a)->data + o, b, (size_t)n);
}
static void JNICALL SetBooleanArrayRegion(JNIEnv *e, jbooleanArray a, jsize o, jsize n, const jboolean *b)
{
    (void)e;
    memcpy(((arr *)a)->data + o, b, (size_t)n);
}
static void *JNICALL GetCritical(JNIEnv *e, jarray a, jboolean *c)
{
    (void)e, (void)c;
    return ((arr *)a)->data;
}
static void JNICALL ReleaseCritical(JNIEnv *e, jarray a, void *p, jint m)
{
    (void)e, (void)a, (void)p, (void)m;
}
static jobject JNICALL GetObjectArrayElement(JNIEnv *e, jobjectArray a, jsize i)
{
    (void)e;
    return ((jobject *)((arr *)a)->data)[i];
}
static void JNICALL SetObjectArrayElement(JNIEnv *e, jobjectArray a, jsize i, jobject v)
{
    (void)e;
    ((jobject *)((arr *)a)->data)[i] = v;
}
static jboolean JNICALL IsSameObject(JNIEnv *e, jobject a, jobject b)
{
    (void)e;
    return a == b;
}
static void JNICALL DeleteLocalRef(JNIEnv *e, jobject o)
{
    (void)e, (void)o;
}

static int pass, fail;
#define CHECK(c, what)                  \
    do {                                \
        if (c)                          \
            pass++;                     \
        else {                          \
            fail++;                     \
            printf("FAIL: %s\n", what); \
        }                               \
    } while (0)

/* the last call threw exactly cls; clears it */
static int threw(const char *cls)
{
    int ok = thrown != NULL && strcmp(thrown, cls) == 0;
    if (!ok)
        printf("  (thrown: %s %s)\n", thrown ? thrown : "nothing", thrown ? thrown_msg : "");
    thrown = NULL;
    return ok;
}

static arr *hex(const char *s)
{
    size_t n = strlen(s) / 2;
    arr *a = mk((jsize)n, NULL);
    for (size_t i = 0; i < n; i++)
        sscanf(s + 2 * i, "%2hhx", &a->data[i]);
    return a;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s libfastsm2jni.so\n", argv[0]);
        return 2;
    }
    void *so = dlopen(argv[1], RTLD_NOW);
    if (so == NULL) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    struct JNINativeInterface_ fn;
    memset(&fn, 0, sizeof fn);
    fn.FindClass = FindClass;
    fn.ThrowNew = ThrowNew;
    fn.ExceptionCheck = ExceptionCheck;
    fn.GetFieldID = GetFieldID;
    fn.GetLongField = GetLongField;
    fn.NewStringUTF = NewStringUTF;
    fn.GetArrayLength = GetArrayLength;
    fn.NewByteArray = NewByteArray;
    fn.NewBooleanArray = NewBooleanArray;
    fn.NewObjectArray = NewObjectArray;
    fn.GetByteArrayRegion = GetByteArrayRegion;
    fn.SetByteArrayRegion = SetByteArrayRegion;
    fn.SetBooleanArrayRegion = SetBooleanArrayRegion;
    fn.GetPrimitiveArrayCritical = GetCritical;
    fn.ReleasePrimitiveArrayCritical = ReleaseCritical;
    fn.GetObjectArrayElement = GetObjectArrayElement;
    fn.SetObjectArrayElement = SetObjectArrayElement;
    fn.DeleteLocalRef = DeleteLocalRef;
    fn.IsSameObject = IsSameObject;
    const struct JNINativeInterface_ *fp = &fn;
    JNIEnv *env = (JNIEnv *)&fp;
#define SYM(name, ret, ...) \
    ret (*name)(__VA_ARGS__) = (ret(*)(__VA_ARGS__))dlsym(so, "Java_org_fastsm2_internal_Native_" #name)
    SYM(backend, jstring, JNIEnv *, jclass);
    SYM(sm3, jbyteArray, JNIEnv *, jclass, jbyteArray, jint, jint);
    SYM(privFromBytes, jlong, JNIEnv *, jclass, jbyteArray);
    SYM(privGenerate, jlong, JNIEnv *, jclass);
    SYM(privPublicKey, jlong, JNIEnv *, jclass, jobject);
    SYM(privParse, jlong, JNIEnv *, jclass, jbyteArray, jbyteArray);
    void (*nfree)(JNIEnv *, jclass, jint, jlong) =
        (void (*)(JNIEnv *, jclass, jint, jlong))dlsym(so, "Java_org_fastsm2_internal_Native_free");
    SYM(pubParse, jlong, JNIEnv *, jclass, jbyteArray, jint);
    SYM(pubToBytes, jbyteArray, JNIEnv *, jclass, jobject, jboolean);
    SYM(pubSerialize, jbyteArray, JNIEnv *, jclass, jobject, jint);
    SYM(sign, jbyteArray, JNIEnv *, jclass, jobject, jbyteArray, jbyteArray, jint, jint, jboolean);
    SYM(verify, jboolean, JNIEnv *, jclass, jobject, jbyteArray, jbyteArray, jint, jint, jbyteArray, jboolean);
    SYM(encrypt, jbyteArray, JNIEnv *, jclass, jobject, jbyteArray, jint, jint, jint);
    SYM(decrypt, jbyteArray, JNIEnv *, jclass, jobject, jbyteArray, jint, jint, jint);
    SYM(signBatch, jobjectArray, JNIEnv *, jclass, jobject, jbyteArray, jobjectArray, jint);
    SYM(verifyBatch, jbooleanArray, JNIEnv *, jclass, jobject, jbyteArray, jobjectArray, jobjectArray, jint);
    SYM(computeZ, jbyteArray, JNIEnv *, jclass, jobject, jbyteArray);
    SYM(sm4Backend, jstring, JNIEnv *, jclass);
    SYM(sm4New, jlong, JNIEnv *, jclass);
    SYM(sm4Key, void, JNIEnv *, jclass, jobject, jbyteArray);
    SYM(sm4Crypt, jint, JNIEnv *, jclass, jobject, jint, jboolean, jboolean, jbyteArray, jbyteArray, jint, jint,
        jbyteArray, jint);
    SYM(sm4DecryptPadded, jbyteArray, JNIEnv *, jclass, jobject, jint, jbyteArray, jbyteArray, jint, jint);
    SYM(sm4GcmEncrypt, jint, JNIEnv *, jclass, jobject, jbyteArray, jbyteArray, jint, jbyteArray, jint, jint,
        jbyteArray, jint, jint);
    SYM(sm4GcmDecrypt, jint, JNIEnv *, jclass, jobject, jbyteArray, jbyteArray, jint, jbyteArray, jint, jint,
        jbyteArray, jint, jint);
    if (!backend || !sm3 || !privFromBytes || !privGenerate || !privPublicKey || !privParse || !nfree || !pubParse ||
        !pubToBytes || !pubSerialize || !sign || !verify || !encrypt || !decrypt || !signBatch || !verifyBatch ||
        !computeZ || !sm4Backend || !sm4New || !sm4Key || !sm4Crypt || !sm4DecryptPadded || !sm4GcmEncrypt ||
        !sm4GcmDecrypt) {
        printf("FAIL: a Java_org_fastsm2_internal_Native_* symbol is missing\n");
        return 1;
    }
    printf("jni-harness: backend %s, SM4 %s\n", (const char *)backend(env, NULL), (const char *)sm4Backend(env, NULL));

    /* SM3("abc"), GB/T 32905 */
    arr *abc = mk(3, "abc");
    arr *d = (arr *)sm3(env, NULL, (jbyteArray)abc, 0, 3);
    arr *want = hex("66C7F0F462EEEDD9D1F2D46BDC10E4E24167C4875CF2F7A2297DA02B8F4BA8E0");
    CHECK(d && d->len == 32 && !memcmp(d->data, want->data, 32), "SM3(abc)");

    /* the GB/T 32918 example key: its public point */
    arr *dk = hex("3945208F7B2144B13F36E38AC6D39F95889393692860B51A42FB81EF4DF7C5B8");
    ref k = {privFromBytes(env, NULL, (jbyteArray)dk)};
    ref kp = {k.address ? privPublicKey(env, NULL, R(k)) : 0};
    arr *pt = kp.address ? (arr *)pubToBytes(env, NULL, R(kp), JNI_FALSE) : NULL;
    arr *px = hex("09F9DF311E5421A150DD7D161E4BC5C672179FAD1833FC076BB08FF356F35020");
    CHECK(pt && pt->len == 65 && !memcmp(pt->data + 1, px->data, 32), "public key of the GB/T example");
    nfree(env, NULL, 1, k.address);
    nfree(env, NULL, 2, kp.address);

    /* sign / verify, encrypt / decrypt with a fresh key */
    k.address = privGenerate(env, NULL);
    kp.address = privPublicKey(env, NULL, R(k));
    pt = (arr *)pubToBytes(env, NULL, R(kp), JNI_FALSE);
    ref p = {pubParse(env, NULL, (jbyteArray)pt, 0)};
    CHECK(k.address != 0 && p.address != 0, "key generation");
    arr *msg = mk(14, "message digest");
    arr *sig = (arr *)sign(env, NULL, R(k), NULL, (jbyteArray)msg, 0, msg->len, JNI_FALSE);
    arr *dsig = (arr *)sign(env, NULL, R(k), NULL, (jbyteArray)msg, 0, msg->len, JNI_TRUE);
    CHECK(dsig && dsig->len >= 8 && dsig->data[0] == 0x30, "sign, DER");
    CHECK(verify(env, NULL, R(p), NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)dsig, JNI_TRUE) == JNI_TRUE,
          "verify, DER");
    CHECK(sig && sig->len == 64, "sign");
    CHECK(verify(env, NULL, R(p), NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)sig, JNI_FALSE) == JNI_TRUE,
          "verify");
    sig->data[10] ^= 1;
    CHECK(verify(env, NULL, R(p), NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)sig, JNI_FALSE) == JNI_FALSE &&
              thrown == NULL,
          "verify: a changed signature is false, no exception");
    arr *junk = mk(5, "\x30\x03\x02\x01\x01");
    CHECK(verify(env, NULL, R(p), NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)junk, JNI_TRUE) == JNI_FALSE &&
              threw("java/security/SignatureException"),
          "verify: malformed DER is SignatureException");
    for (int flags = 0; flags < 4; flags++) {
        arr *ct = (arr *)encrypt(env, NULL, R(p), (jbyteArray)msg, 0, msg->len, flags);
        arr *pl = ct ? (arr *)decrypt(env, NULL, R(k), (jbyteArray)ct, 0, ct->len, flags) : NULL;
        CHECK(pl && pl->len == msg->len && !memcmp(pl->data, msg->data, 14), "encrypt/decrypt round trip");
        if (ct) {
            ct->data[ct->len - 1] ^= 1;
            pl = (arr *)decrypt(env, NULL, R(k), (jbyteArray)ct, 0, ct->len, flags);
            CHECK(pl == NULL && threw("javax/crypto/BadPaddingException"),
                  "decrypt: a changed ciphertext is BadPaddingException");
        }
    }
    /* batch: 20 messages on 2 threads, DER, each verified singly and in a batch */
    arr *z = (arr *)computeZ(env, NULL, R(p), NULL);
    arr *msgs = mk(20, NULL);
    for (int i = 0; i < 20; i++)
        ((jobject *)msgs->data)[i] = (jobject)mk(i, "abcdefghijklmnopqrstu");
    arr *sigs = z ? (arr *)signBatch(env, NULL, R(k), (jbyteArray)z, (jobjectArray)msgs, 2) : NULL;
    int ok = sigs != NULL && sigs->len == 20;
    for (int i = 0; ok && i < 20; i++) {
        arr *s1 = (arr *)((jobject *)sigs->data)[i];
        arr *m1 = (arr *)((jobject *)msgs->data)[i];
        ok = verify(env, NULL, R(p), NULL, (jbyteArray)m1, 0, m1->len, (jbyteArray)s1, JNI_TRUE) == JNI_TRUE;
    }
    CHECK(ok, "batch signatures verify");
    if (sigs != NULL) {
        ((jobject *)sigs->data)[3] = NULL;
        ((jobject *)sigs->data)[4] = (jobject)junk;
        arr *res = (arr *)verifyBatch(env, NULL, R(p), (jbyteArray)z, (jobjectArray)msgs, (jobjectArray)sigs, 2);
        ok = res != NULL && res->len == 20;
        for (int i = 0; ok && i < 20; i++)
            ok = res->data[i] == (i != 3 && i != 4);
        CHECK(ok, "batch verification: a null and a malformed signature false, the others true");
    }
    /* bad input: a point off the curve, a public key as a private key, a bad range, a destroyed key */
    arr *off = mk(65, NULL);
    off->data[0] = 4;
    CHECK(pubParse(env, NULL, (jbyteArray)off, 0) == 0 && threw("java/security/spec/InvalidKeySpecException"),
          "off-curve point: InvalidKeySpecException");
    arr *spki = (arr *)pubSerialize(env, NULL, R(p), 0);
    CHECK(spki && privParse(env, NULL, (jbyteArray)spki, NULL) == 0 && strstr(thrown_msg, "a public key, not") &&
              threw("java/security/spec/InvalidKeySpecException"),
          "a public key as a private key: InvalidKeySpecException naming it");
    CHECK(sm3(env, NULL, (jbyteArray)abc, 2, 5) == NULL && threw("java/lang/IllegalArgumentException"),
          "out-of-range slice: IllegalArgumentException");
    CHECK(sm3(env, NULL, NULL, 0, 0) == NULL && threw("java/lang/NullPointerException"), "null: NullPointerException");
    nfree(env, NULL, 1, k.address);
    k.address = 0; /* as NativeRef after destroy() */
    CHECK(sign(env, NULL, R(k), NULL, (jbyteArray)msg, 0, msg->len, JNI_TRUE) == NULL &&
              threw("java/lang/IllegalStateException"),
          "a destroyed key: IllegalStateException");
    nfree(env, NULL, 2, p.address);
    nfree(env, NULL, 2, kp.address);

    /* SM4: GB/T 32907 A.1 in ECB; GCM both ways with AAD, a changed tag refused; CBC with PKCS#7 */
    ref s4 = {sm4New(env, NULL)};
    arr *k4 = hex("0123456789ABCDEFFEDCBA9876543210");
    sm4Key(env, NULL, R(s4), (jbyteArray)k4);
    arr *c4 = mk(16, NULL);
    CHECK(s4.address &&
              sm4Crypt(env, NULL, R(s4), 1, JNI_TRUE, JNI_FALSE, NULL, (jbyteArray)k4, 0, 16, (jbyteArray)c4, 0) ==
                  16 &&
              !memcmp(c4->data, hex("681EDF34D206965E86B3E94F536E4246")->data, 16),
          "SM4 GB/T 32907 A.1");
    arr *iv12 = mk(12, "abcdefghijkl"), *aad = mk(5, "hello"), *big = mk(1000, NULL);
    for (int i = 0; i < 1000; i++)
        big->data[i] = (unsigned char)i;
    arr *g = mk(1016, NULL), *back = mk(1000, NULL);
    CHECK(sm4GcmEncrypt(env, NULL, R(s4), (jbyteArray)iv12, (jbyteArray)aad, 5, (jbyteArray)big, 0, 1000, (jbyteArray)g,
                        0, 16) == 1016 &&
              sm4GcmDecrypt(env, NULL, R(s4), (jbyteArray)iv12, (jbyteArray)aad, 5, (jbyteArray)g, 0, 1016,
                            (jbyteArray)back, 0, 16) == 1000 &&
              !memcmp(back->data, big->data, 1000),
          "SM4-GCM round trip");
    g->data[1010] ^= 1;
    CHECK(sm4GcmDecrypt(env, NULL, R(s4), (jbyteArray)iv12, (jbyteArray)aad, 5, (jbyteArray)g, 0, 1016,
                        (jbyteArray)back, 0, 16) == 0 &&
              threw("javax/crypto/AEADBadTagException"),
          "SM4-GCM: a changed tag is AEADBadTagException");
    arr *iv16 = mk(16, "0123456789abcdef"), *cb = mk(1008, NULL);
    int n = sm4Crypt(env, NULL, R(s4), 2, JNI_TRUE, JNI_TRUE, (jbyteArray)iv16, (jbyteArray)big, 0, 1000,
                     (jbyteArray)cb, 0);
    arr *pl =
        n == 1008 ? (arr *)sm4DecryptPadded(env, NULL, R(s4), 2, (jbyteArray)iv16, (jbyteArray)cb, 0, 1008) : NULL;
    CHECK(pl && pl->len == 1000 && !memcmp(pl->data, big->data, 1000), "SM4-CBC/PKCS#7 round trip");
    CHECK(sm4DecryptPadded(env, NULL, R(s4), 2, (jbyteArray)iv16, (jbyteArray)cb, 0, 1000) == NULL &&
              threw("javax/crypto/IllegalBlockSizeException"),
          "SM4-CBC: a partial block is IllegalBlockSizeException");
    nfree(env, NULL, 3, s4.address);
    printf("jni-harness: %d passed, %d failed\n", pass, fail);
    return fail != 0;
}
