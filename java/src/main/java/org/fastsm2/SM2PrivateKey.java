// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECParameterSpec;
import java.util.Arrays;
import javax.security.auth.Destroyable;

/**
 * An SM2 private key d in [1, n-2] on sm2p256v1 with its public key, held by
 * the library (which also keeps (1+d)^-1 and Z_A of the default ID). Safe to
 * share between threads. {@link #destroy()} wipes the native key and the
 * Java copy of d at once (and waits for operations running with it); a
 * {@link java.lang.ref.Cleaner} wipes and frees the native key when the key
 * becomes unreachable. getEncoded() is PKCS#8 (id-ecPublicKey + sm2p256v1).
 */
public final class SM2PrivateKey implements ECPrivateKey, Destroyable {
    private static final long serialVersionUID = 1L;

    private final transient NativeRef ref;
    private final transient byte[] d = new byte[32];
    private transient volatile SM2PublicKey pub;

    SM2PrivateKey(long handle) {
        this.ref = new NativeRef(this, handle, true);
        Native.privToBytes(handle, d);
    }

    /** A key from d (32 bytes big-endian). */
    public static SM2PrivateKey fromBytes(byte[] d32) {
        return new SM2PrivateKey(Native.privFromBytes(d32));
    }

    /** A fresh key from the library's generator (GB/T 32918.1 6.1). */
    public static SM2PrivateKey generate() {
        return new SM2PrivateKey(Native.privGenerate());
    }

    long acquire() {
        return ref.acquire();
    }

    void release() {
        ref.release();
    }

    /** The matching public key (made once). */
    public SM2PublicKey getPublicKey() {
        SM2PublicKey p = pub;
        if (p == null) {
            long h = ref.acquire();
            try {
                p = pub = new SM2PublicKey(Native.privPublicKey(h));
            } finally {
                ref.release();
            }
        }
        return p;
    }

    /** d as 32 bytes big-endian (a copy: wipe it after use). */
    public byte[] toBytes() {
        check();
        return d.clone();
    }

    private void check() {
        if (ref.isFreed()) throw new IllegalStateException("fastsm2: the key was destroyed");
    }

    /** The key file: PEM ("PRIVATE KEY", PKCS#8) when pem, else DER. */
    public byte[] serialize(boolean pem, boolean sec1) {
        long h = ref.acquire();
        try {
            byte[] b = Native.privSerialize(h, (pem ? Native.FMT_PEM : Native.FMT_DER)
                    | (sec1 ? Native.FMT_SEC1 : Native.FMT_PKCS8), 0, 0, null);
            return pem ? strip0(b) : b;
        } finally {
            ref.release();
        }
    }

    /** Password-encrypted PKCS#8 (PBES2): scheme 1 = hmacWithSM3 + SM4-CBC
     *  (GmSSL's), 2 = SHA-256 + SM4-CBC, 3 = SHA-256 + AES-256-CBC; iterations
     *  0 = 65536.
     *  @throws IllegalArgumentException for another scheme or a negative count
     *  @throws NullPointerException if password is null */
    public byte[] serializeEncrypted(boolean pem, int scheme, int iterations, char[] password) {
        if (scheme < 1 || scheme > 3) throw new IllegalArgumentException("fastsm2: PBE scheme 1, 2 or 3, not " + scheme);
        if (iterations < 0) throw new IllegalArgumentException("fastsm2: a negative iteration count");
        java.util.Objects.requireNonNull(password, "password");
        byte[] pw = SM2.utf8(password);
        long h = ref.acquire();
        try {
            byte[] b = Native.privSerialize(h, pem ? Native.FMT_PEM : Native.FMT_DER, scheme, iterations, pw);
            return pem ? strip0(b) : b;
        } finally {
            ref.release();
            Arrays.fill(pw, (byte) 0);
        }
    }

    /** PEM "PRIVATE KEY" (unencrypted PKCS#8) as a string. */
    public String toPem() {
        return new String(serialize(true, false), StandardCharsets.US_ASCII);
    }

    private static byte[] strip0(byte[] b) {
        int n = b.length;
        while (n > 0 && b[n - 1] == 0) n--;
        return n == b.length ? b : Arrays.copyOf(b, n);
    }

    @Override
    public BigInteger getS() {
        check();
        return new BigInteger(1, d);
    }

    @Override
    public ECParameterSpec getParams() {
        return SM2Curve.SPEC;
    }

    @Override
    public String getAlgorithm() {
        return "EC";
    }

    @Override
    public String getFormat() {
        return "PKCS#8";
    }

    @Override
    public byte[] getEncoded() {
        return serialize(false, false);
    }

    /** Wipes d here and in the native key; the key is unusable afterwards. */
    @Override
    public void destroy() {
        ref.free();
        Arrays.fill(d, (byte) 0);
    }

    @Override
    public boolean isDestroyed() {
        return ref.isFreed();
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof ECPrivateKey) || isDestroyed()) return false;
        ECPrivateKey k = (ECPrivateKey) o;
        return SM2Curve.isSM2(k.getParams()) && java.security.MessageDigest.isEqual(
                SM2Curve.to32(k.getS()), d);
    }

    @Override
    public int hashCode() {
        return isDestroyed() ? 0 : getPublicKey().hashCode();
    }

    @Override
    public String toString() {
        return "SM2PrivateKey[sm2p256v1" + (isDestroyed() ? ", destroyed]" : "]");
    }

    private Object writeReplace() {
        return new java.security.KeyRep(java.security.KeyRep.Type.PRIVATE, "SM2", "PKCS#8", getEncoded());
    }
}
