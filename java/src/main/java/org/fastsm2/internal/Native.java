// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.SignatureException;
import java.security.spec.InvalidKeySpecException;
import java.util.Locale;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.ShortBufferException;

/**
 * The JNI entry points (java/src/main/c/fastsm2jni.c) and the loader. The
 * jar carries /fastsm2/native/linux-{x86_64,aarch64}/libfastsm2jni.so, which
 * is copied once per JVM to a temporary file, loaded, and the file deleted
 * (Linux keeps the mapping); the system property
 * {@code fastsm2.native.path} names a library file to load instead.
 * <p>
 * Each method throws the exception of the contract of the JCA or API
 * method it serves, from the native code itself (the throws clauses below);
 * a null array is a NullPointerException, a bad offset or length an
 * IllegalArgumentException, a destroyed key an IllegalStateException, the
 * OS random generator failing a ProviderException, no memory an
 * OutOfMemoryError. Handles are the typed {@link NativeRef}s; a bare
 * address appears only where a handle is made or freed.
 */
public final class Native {
    private Native() {}

    /** The platform directory of the native library ("linux-x86_64", ...). */
    public static final String PLATFORM = platform();

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

    // key file formats (FASTSM2_KEYFMT_*) and ciphertext flags (FASTSM2_CT_*)
    public static final int FMT_PKCS8 = 0, FMT_SEC1 = 1, FMT_DER = 0, FMT_PEM = 2;
    public static final int CT_DER = 0, CT_RAW = 1, CT_C1C3C2 = 0, CT_C1C2C3 = 2;
    // what pubParse reads
    public static final int PUB_POINT = 0, PUB_FILE = 1, PUB_CERTIFICATE = 2;

    public static native String version();

    public static native String backend();

    /** FASTSM2_ERR_* name of a status code. */
    public static native String errorName(int code);

    /** Wipe (secrets) and free a native object: NativeRef's Cleaner. */
    static native void free(int kind, long address);

    // ---- private keys: the address of a new fastsm2_privkey -------------------------

    public static native long privGenerate();

    /** d (32 bytes big-endian) in [1, n-2]. */
    public static native long privFromBytes(byte[] d) throws InvalidKeySpecException;

    /** A key file (PKCS#8, SEC1, PEM or DER; encrypted PKCS#8 with a password). */
    public static native long privParse(byte[] in, byte[] password) throws InvalidKeySpecException;

    public static native void privToBytes(PrivateKeyRef k, byte[] out32);

    /** The address of a new fastsm2_pubkey: the key's public key. */
    public static native long privPublicKey(PrivateKeyRef k);

    public static native byte[] privSerialize(PrivateKeyRef k, int fmt);

    /** Encrypted PKCS#8 (PBES2): IllegalArgumentException for a bad scheme or count. */
    public static native byte[] privSerializeEncrypted(PrivateKeyRef k, int fmt, int scheme, int iterations,
            byte[] password);

    // ---- public keys -------------------------------------------------------------

    /** PUB_POINT, PUB_FILE or PUB_CERTIFICATE: the address of a new fastsm2_pubkey. */
    public static native long pubParse(byte[] in, int kind) throws InvalidKeySpecException;

    static native void pubPrecompute(PublicKeyRef k);

    public static native byte[] pubToBytes(PublicKeyRef k, boolean compressed);

    public static native byte[] pubSerialize(PublicKeyRef k, int fmt);

    /** Z_A (GB/T 32918.2 5.5) of the key and an ID (null: the default ID;
     *  empty: the empty ID). IllegalArgumentException for an ID over 8191 bytes. */
    public static native byte[] computeZ(PublicKeyRef k, byte[] id);

    // ---- signatures (GB/T 32918.2) ---------------------------------------------------

    /** e = SM3(Z_A || msg[off, off+len)), signed: DER when der, else r || s. */
    public static native byte[] sign(PrivateKeyRef k, byte[] id, byte[] msg, int off, int len, boolean der)
            throws SignatureException;

    public static native byte[] signDigest(PrivateKeyRef k, byte[] e, boolean der) throws SignatureException;

    /** true for a valid signature, false for a well-formed one that does not
     *  verify (or r, s out of range); SignatureException for a malformed one. */
    public static native boolean verify(PublicKeyRef k, byte[] id, byte[] msg, int off, int len, byte[] sig,
            boolean der) throws SignatureException;

    public static native boolean verifyDigest(PublicKeyRef k, byte[] e, byte[] sig, boolean der)
            throws SignatureException;

    /** DER signatures of SM3(z || msgs[i]), on threads library threads. */
    public static native byte[][] signBatch(PrivateKeyRef k, byte[] z, byte[][] msgs, int threads)
            throws SignatureException;

    /** Whether sigs[i] (DER) is valid for SM3(z || msgs[i]); a null or
     *  malformed signature or a null message is false. */
    public static native boolean[] verifyBatch(PublicKeyRef k, byte[] z, byte[][] msgs, byte[][] sigs, int threads);

    /** r || s as DER (IllegalArgumentException when r or s is out of range). */
    public static native byte[] sigToDer(byte[] raw);

    // ---- encryption (GB/T 32918.4) ----------------------------------------------------

    public static native byte[] encrypt(PublicKeyRef k, byte[] msg, int off, int len, int flags)
            throws IllegalBlockSizeException;

    /** BadPaddingException for any ciphertext that does not decrypt (no plaintext released). */
    public static native byte[] decrypt(PrivateKeyRef k, byte[] ct, int off, int len, int flags)
            throws BadPaddingException;

    // ---- SM3 and HMAC-SM3: state in a Java array -----------------------------------------

    public static native int sm3StateSize();

    public static native int hmacStateSize();

    public static native int kxStateSize();

    public static native void sm3Init(byte[] st);

    public static native void sm3Update(byte[] st, byte[] in, int off, int len);

    public static native byte[] sm3Final(byte[] st);

    public static native byte[] sm3(byte[] in, int off, int len);

    public static native void hmacInit(byte[] st, byte[] key);

    public static native void hmacUpdate(byte[] st, byte[] in, int off, int len);

    public static native byte[] hmacFinal(byte[] st);

    // ---- key exchange (GB/T 32918.3): state in a Java array ----------------------------------

    /** Starts one side; r: the ephemeral private key (32 bytes) or null for a
     *  fresh one. Returns R (65 bytes). */
    public static native byte[] kxStart(byte[] st, int role, PrivateKeyRef own, byte[] id, PublicKeyRef peer,
            byte[] peerId, byte[] r) throws InvalidKeyException;

    public static native byte[] kxCompute(byte[] st, byte[] peerR, int klen) throws InvalidKeyException;

    public static native byte[] kxConfirmation(byte[] st);

    /** GeneralSecurityException when the peer's value does not match. */
    public static native void kxVerifyConfirmation(byte[] st, byte[] peerS) throws GeneralSecurityException;

    // ---- SM4 (GB/T 32907): the state of one Cipher (SM4Ref), modes 1-5 FASTSM2_SM4_ECB ... _CFB -----

    public static native String sm4Backend();

    /** The address of a new, zeroed SM4 state (an expanded key and a streaming context). */
    static native long sm4New();

    /** Expand a 16-byte key into the state. */
    public static native void sm4Key(SM4Ref s, byte[] key) throws InvalidKeyException;

    /** Wipe the streaming context of an abandoned operation. */
    public static native void sm4Clear(SM4Ref s);

    /** A whole message in ECB, CBC, CTR, OFB or CFB (iv: 16 bytes; null for ECB) into out[outOff...]:
     *  the bytes written. IllegalBlockSizeException for a partial block where whole blocks are
     *  needed, BadPaddingException for bad PKCS#7 padding, ShortBufferException. */
    public static native int sm4Crypt(SM4Ref s, int mode, boolean enc, boolean pkcs7, byte[] iv, byte[] in, int off,
            int len, byte[] out, int outOff) throws IllegalBlockSizeException, BadPaddingException, ShortBufferException;

    /** ECB or CBC decryption with PKCS#7 into a new array of exactly the plaintext's length. */
    public static native byte[] sm4DecryptPadded(SM4Ref s, int mode, byte[] iv, byte[] in, int off, int len)
            throws IllegalBlockSizeException, BadPaddingException;

    /** Streaming ECB/CBC/CTR/OFB/CFB: start. */
    public static native void sm4Init(SM4Ref s, int mode, boolean enc, boolean pkcs7, byte[] iv);

    public static native int sm4Update(SM4Ref s, byte[] in, int off, int len, byte[] out, int outOff)
            throws ShortBufferException;

    public static native int sm4Final(SM4Ref s, byte[] out, int outOff)
            throws IllegalBlockSizeException, BadPaddingException, ShortBufferException;

    /** GCM, one-shot: out gets the ciphertext and the tag (len + tagLen bytes). */
    public static native int sm4GcmEncrypt(SM4Ref s, byte[] iv, byte[] aad, int aadLen, byte[] in, int off, int len,
            byte[] out, int outOff, int tagLen) throws ShortBufferException;

    /** GCM, one-shot: in holds the ciphertext and the tag; out gets the plaintext only if the tag matches. */
    public static native int sm4GcmDecrypt(SM4Ref s, byte[] iv, byte[] aad, int aadLen, byte[] in, int off, int len,
            byte[] out, int outOff, int tagLen) throws AEADBadTagException, ShortBufferException;

    public static native int sm4CcmEncrypt(SM4Ref s, byte[] iv, byte[] aad, int aadLen, byte[] in, int off, int len,
            byte[] out, int outOff, int tagLen) throws ShortBufferException;

    public static native int sm4CcmDecrypt(SM4Ref s, byte[] iv, byte[] aad, int aadLen, byte[] in, int off, int len,
            byte[] out, int outOff, int tagLen) throws AEADBadTagException, ShortBufferException;

    /** Streaming GCM encryption: start with the IV and the whole AAD. */
    public static native void sm4GcmInit(SM4Ref s, byte[] iv, byte[] aad, int aadLen);

    public static native int sm4GcmUpdate(SM4Ref s, byte[] in, int off, int len, byte[] out, int outOff)
            throws ShortBufferException;

    /** Finish a streaming GCM encryption: the tag (tagLen bytes) at out[outOff]. */
    public static native int sm4GcmFinal(SM4Ref s, byte[] out, int outOff, int tagLen) throws ShortBufferException;
}
