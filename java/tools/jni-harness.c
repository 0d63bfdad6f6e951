/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the JNI glue (libfastsm2jni.so) without a JVM: a minimal JNIEnv whose
 * functions are the few the glue calls, byte arrays as plain memory. Built
 * for aarch64 and run under qemu-aarch64 by java/tools/check-aarch64.sh, so
 * that the linux-aarch64 library of the jar is loaded and exercised on a
 * machine without an arm64 JDK. Prints "jni-harness: N passed, N failed".
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

static int thrown; /* the FASTSM2_ERR_* code of the last NativeException */

static arr *mk(jsize n, const void *p)
{
    arr *a = calloc(1, sizeof(arr) + (size_t)n + 1);
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
static jmethodID JNICALL GetMethodID(JNIEnv *e, jclass c, const char *n, const char *s)
{
    (void)e, (void)c, (void)s;
    return (jmethodID)n;
}
static jobject JNICALL NewObject(JNIEnv *e, jclass c, jmethodID m, ...)
{
    (void)e, (void)c, (void)m;
    va_list ap;
    va_start(ap, m);
    thrown = va_arg(ap, jint);
    va_end(ap);
    return (jobject)&thrown;
}
static jint JNICALL Throw(JNIEnv *e, jthrowable t)
{
    (void)e, (void)t;
    return 0;
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
    fn.GetMethodID = GetMethodID;
    fn.NewObject = NewObject;
    fn.Throw = Throw;
    fn.NewStringUTF = NewStringUTF;
    fn.GetArrayLength = GetArrayLength;
    fn.NewByteArray = NewByteArray;
    fn.NewBooleanArray = NewBooleanArray;
    fn.GetByteArrayRegion = GetByteArrayRegion;
    fn.SetByteArrayRegion = SetByteArrayRegion;
    fn.SetBooleanArrayRegion = SetBooleanArrayRegion;
    fn.GetPrimitiveArrayCritical = GetCritical;
    fn.ReleasePrimitiveArrayCritical = ReleaseCritical;
    fn.GetObjectArrayElement = GetObjectArrayElement;
    fn.DeleteLocalRef = DeleteLocalRef;
    const struct JNINativeInterface_ *fp = &fn;
    JNIEnv *env = (JNIEnv *)&fp;
#define SYM(name, ret, ...) ret (*name)(__VA_ARGS__) = (ret(*)(__VA_ARGS__))dlsym(so, "Java_org_fastsm2_Native_" #name)
    SYM(backend, jstring, JNIEnv *, jclass);
    SYM(sm3, jbyteArray, JNIEnv *, jclass, jbyteArray, jint, jint);
    SYM(privFromBytes, jlong, JNIEnv *, jclass, jbyteArray);
    SYM(privGenerate, jlong, JNIEnv *, jclass);
    SYM(privPublic, jbyteArray, JNIEnv *, jclass, jlong);
    SYM(privFree, void, JNIEnv *, jclass, jlong);
    SYM(pubParse, jlong, JNIEnv *, jclass, jbyteArray, jint);
    SYM(pubFree, void, JNIEnv *, jclass, jlong);
    SYM(sign, jbyteArray, JNIEnv *, jclass, jlong, jbyteArray, jbyteArray, jint, jint, jboolean);
    SYM(verify, jint, JNIEnv *, jclass, jlong, jbyteArray, jbyteArray, jint, jint, jbyteArray, jboolean);
    SYM(encrypt, jbyteArray, JNIEnv *, jclass, jlong, jbyteArray, jint, jint, jint);
    SYM(decrypt, jbyteArray, JNIEnv *, jclass, jlong, jbyteArray, jint, jint, jint);
    SYM(signBatch, jbyteArray, JNIEnv *, jclass, jlong, jbyteArray, jobjectArray, jint);
    SYM(computeZ, jbyteArray, JNIEnv *, jclass, jlong, jbyteArray);
    if (!backend || !sm3 || !privFromBytes || !privGenerate || !privPublic || !privFree || !pubParse || !pubFree ||
        !sign || !verify || !encrypt || !decrypt || !signBatch || !computeZ) {
        printf("FAIL: a Java_org_fastsm2_Native_* symbol is missing\n");
        return 1;
    }
    printf("jni-harness: backend %s\n", (const char *)backend(env, NULL));

    /* SM3("abc"), GB/T 32905 */
    arr *abc = mk(3, "abc");
    arr *d = (arr *)sm3(env, NULL, (jbyteArray)abc, 0, 3);
    arr *want = hex("66C7F0F462EEEDD9D1F2D46BDC10E4E24167C4875CF2F7A2297DA02B8F4BA8E0");
    CHECK(d && d->len == 32 && !memcmp(d->data, want->data, 32), "SM3(abc)");

    /* the GB/T 32918 example key: its public point */
    arr *dk = hex("3945208F7B2144B13F36E38AC6D39F95889393692860B51A42FB81EF4DF7C5B8");
    jlong k = privFromBytes(env, NULL, (jbyteArray)dk);
    arr *pt = k ? (arr *)privPublic(env, NULL, k) : NULL;
    arr *px = hex("09F9DF311E5421A150DD7D161E4BC5C672179FAD1833FC076BB08FF356F35020");
    CHECK(pt && pt->len == 65 && !memcmp(pt->data + 1, px->data, 32), "public key of the GB/T example");
    privFree(env, NULL, k);

    /* sign / verify, encrypt / decrypt with a fresh key */
    k = privGenerate(env, NULL);
    pt = (arr *)privPublic(env, NULL, k);
    jlong p = pubParse(env, NULL, (jbyteArray)pt, 0);
    CHECK(k != 0 && p != 0, "key generation");
    arr *msg = mk(14, "message digest");
    arr *sig = (arr *)sign(env, NULL, k, NULL, (jbyteArray)msg, 0, msg->len, JNI_FALSE);
    arr *dsig = (arr *)sign(env, NULL, k, NULL, (jbyteArray)msg, 0, msg->len, JNI_TRUE);
    CHECK(dsig && dsig->len >= 8 && dsig->data[0] == 0x30, "sign, DER");
    CHECK(verify(env, NULL, p, NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)dsig, JNI_TRUE) == 1, "verify, DER");
    CHECK(sig && sig->len == 64, "sign");
    CHECK(verify(env, NULL, p, NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)sig, JNI_FALSE) == 1, "verify");
    sig->data[10] ^= 1;
    CHECK(verify(env, NULL, p, NULL, (jbyteArray)msg, 0, msg->len, (jbyteArray)sig, JNI_FALSE) != 1,
          "verify refuses a changed signature");
    for (int flags = 0; flags < 4; flags++) {
        arr *ct = (arr *)encrypt(env, NULL, p, (jbyteArray)msg, 0, msg->len, flags);
        arr *pl = ct ? (arr *)decrypt(env, NULL, k, (jbyteArray)ct, 0, ct->len, flags) : NULL;
        CHECK(pl && pl->len == msg->len && !memcmp(pl->data, msg->data, 14), "encrypt/decrypt round trip");
        if (ct) {
            ct->data[ct->len - 1] ^= 1;
            thrown = 0;
            pl = (arr *)decrypt(env, NULL, k, (jbyteArray)ct, 0, ct->len, flags);
            CHECK(pl == NULL && thrown < 0, "decrypt refuses a changed ciphertext");
        }
    }
    /* batch: 20 messages on 2 threads, each verified singly */
    arr *z = (arr *)computeZ(env, NULL, p, NULL);
    arr *msgs = mk((jsize)(20 * sizeof(jobject)), NULL);
    msgs->len = 20;
    for (int i = 0; i < 20; i++)
        ((jobject *)msgs->data)[i] = (jobject)mk(i, "abcdefghijklmnopqrstu");
    arr *sigs = z ? (arr *)signBatch(env, NULL, k, (jbyteArray)z, (jobjectArray)msgs, 2) : NULL;
    int ok = sigs != NULL && sigs->len == 20 * 64;
    for (int i = 0; ok && i < 20; i++) {
        arr *s1 = mk(64, sigs->data + 64 * i);
        arr *m1 = (arr *)((jobject *)msgs->data)[i];
        ok = verify(env, NULL, p, NULL, (jbyteArray)m1, 0, m1->len, (jbyteArray)s1, JNI_FALSE) == 1;
    }
    CHECK(ok, "batch signatures verify");
    /* bad input: a point off the curve, a bad range */
    arr *junk = mk(65, NULL);
    junk->data[0] = 4;
    thrown = 0;
    CHECK(pubParse(env, NULL, (jbyteArray)junk, 0) == 0 && thrown == -8, "off-curve point refused (FASTSM2_ERR_POINT)");
    thrown = 0;
    CHECK(sm3(env, NULL, (jbyteArray)abc, 2, 5) == NULL && thrown == -1, "out-of-range slice refused");
    privFree(env, NULL, k);
    pubFree(env, NULL, p);
    printf("jni-harness: %d passed, %d failed\n", pass, fail);
    return fail != 0;
}
