// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The JNI entry points (java/src/main/c/fastsm2jni.c) and the loader: the
 * jar carries /fastsm2/native/linux-{x86_64,aarch64}/libfastsm2jni.so,
 * which is copied once per JVM to a temporary file, loaded, and the file
 * deleted (Linux keeps the mapping). The system property
 * {@code fastsm2.native.path} names a library file to load instead.
 * Internal: the public API is the provider and {@link SM2}.
 */
final class Native {
    private Native() {}

    static final String PLATFORM = platform();

    static {
        load();
    }

    private static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.contains("linux") ? "linux" : os.replaceAll("[^a-z0-9]", "");
        String a;
        if (arch.equals("amd64") || arch.equals("x86_64")) a = "x86_64";
        else if (arch.equals("aarch64") || arch.equals("arm64")) a = "aarch64";
        else a = arch;
        return o + "-" + a;
    }

    private static void load() {
        String override = System.getProperty("fastsm2.native.path");
        if (override != null && !override.isEmpty()) {
            System.load(override);
            return;
        }
        String res = "/fastsm2/native/" + PLATFORM + "/libfastsm2jni.so";
        try (InputStream in = Native.class.getResourceAsStream(res)) {
            if (in == null)
                throw new UnsatisfiedLinkError("fastsm2: no native library for " + PLATFORM + " in the jar (" + res
                        + "); built platforms: linux-x86_64, linux-aarch64");
            Path tmp = Files.createTempFile("libfastsm2jni-", ".so");
            try {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                System.load(tmp.toAbsolutePath().toString());
            } finally {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    tmp.toFile().deleteOnExit();
                }
            }
        } catch (IOException e) {
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("fastsm2: cannot extract " + res + ": " + e);
            u.initCause(e);
            throw u;
        }
    }

    // key file formats (FASTSM2_KEYFMT_*) and PBE schemes (FASTSM2_PBE_*)
    static final int FMT_PKCS8 = 0, FMT_SEC1 = 1, FMT_DER = 0, FMT_PEM = 2;
    static final int CT_DER = 0, CT_RAW = 1, CT_C1C3C2 = 0, CT_C1C2C3 = 2;

    static native String version();
    static native String backend();
    static native String errorName(int code);

    static native long privGenerate();
    static native long privFromBytes(byte[] d);
    static native long privParse(byte[] in, byte[] password);
    static native void privToBytes(long h, byte[] out);
    static native byte[] privPublic(long h);
    static native long privPublicKey(long h);
    static native void privFree(long h);
    static native byte[] privSerialize(long h, int fmt, int scheme, int iterations, byte[] password);

    static native long pubParse(byte[] in, int kind);
    static native void pubPrecompute(long h);
    static native byte[] pubToBytes(long h, boolean compressed);
    static native byte[] pubSerialize(long h, int fmt);
    static native void pubFree(long h);
    static native byte[] computeZ(long pub, byte[] id);

    static native byte[] sign(long h, byte[] id, byte[] msg, int off, int len, boolean der);
    static native byte[] signDigest(long h, byte[] e);
    static native int verify(long h, byte[] id, byte[] msg, int off, int len, byte[] sig, boolean der);
    static native int verifyDigest(long h, byte[] e, byte[] sig);
    static native byte[] sigToDer(byte[] raw);
    static native byte[] sigFromDer(byte[] der, int off, int len);
    static native byte[] signBatch(long h, byte[] z, byte[][] msgs, int threads);
    static native boolean[] verifyBatch(long h, byte[] z, byte[][] msgs, byte[] sigs, int threads);

    static native byte[] encrypt(long h, byte[] msg, int off, int len, int flags);
    static native byte[] decrypt(long h, byte[] ct, int off, int len, int flags);

    static native int sm3StateSize();
    static native int hmacStateSize();
    static native int kxStateSize();
    static native void sm3Init(byte[] st);
    static native void sm3Update(byte[] st, byte[] in, int off, int len);
    static native byte[] sm3Final(byte[] st);
    static native byte[] sm3(byte[] in, int off, int len);
    static native void hmacInit(byte[] st, byte[] key);
    static native void hmacUpdate(byte[] st, byte[] in, int off, int len);
    static native byte[] hmacFinal(byte[] st);

    static native byte[] kxStart(byte[] st, int role, long priv, byte[] id, long peer, byte[] peerId, byte[] r);
    static native byte[] kxCompute(byte[] st, byte[] peerR, int klen);
    static native byte[] kxConfirmation(byte[] st);
    static native int kxVerifyConfirmation(byte[] st, byte[] peerS);
}
