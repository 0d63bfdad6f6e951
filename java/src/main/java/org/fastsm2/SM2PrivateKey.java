// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECParameterSpec;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import java.util.Objects;
import javax.security.auth.Destroyable;
import org.fastsm2.internal.KeyAccess;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.PrivateKeyRef;
import org.fastsm2.internal.PublicKeyRef;

/**
 * An SM2 private key d in [1, n-2] on sm2p256v1 with its public key, held by
 * the library (which also keeps (1+d)^-1 and Z_A of the default ID). Safe to
 * share between threads. {@link #destroy()} wipes the native key and the
 * Java copy of d at once (and waits for operations running with it; later
 * ones fail); a {@link java.lang.ref.Cleaner} wipes and frees the native key
 * when the key becomes unreachable. getEncoded() is PKCS#8 (id-ecPublicKey +
 * sm2p256v1).
 */
public final class SM2PrivateKey implements ECPrivateKey, Destroyable {
    private static final long serialVersionUID = 1L;

    static {
        KeyAccess.install(new KeyAccess() {
            @Override
            public PrivateKeyRef ref(SM2PrivateKey k) {
                return k.ref;
            }

            @Override
            public PublicKeyRef ref(SM2PublicKey k) {
                return k.ref;
            }

            @Override
            public SM2PrivateKey privateKey(long address) {
                return new SM2PrivateKey(address);
            }

            @Override
            public SM2PublicKey publicKey(long address) {
                return new SM2PublicKey(address);
            }
        });
    }

    final transient PrivateKeyRef ref;
    private final transient byte[] d = new byte[32];
    private transient volatile SM2PublicKey pub;

    SM2PrivateKey(long address) {
        this.ref = new PrivateKeyRef(address);
        Native.privToBytes(ref, d);
    }

    /** A key from d (32 bytes big-endian).
     *  @throws InvalidKeySpecException if d is not 32 bytes or not in [1, n-2]
     *  @throws NullPointerException if d is null */
    public static SM2PrivateKey fromBytes(byte[] d32) throws InvalidKeySpecException {
        return new SM2PrivateKey(Native.privFromBytes(d32));
    }

    /** A fresh key from the library's generator (GB/T 32918.1 6.1).
     *  @throws java.security.ProviderException if the OS random generator fails */
    public static SM2PrivateKey generate() {
        return new SM2PrivateKey(Native.privGenerate());
    }

    /** The matching public key (made once). */
    public SM2PublicKey getPublicKey() {
        SM2PublicKey p = pub;
        if (p == null) {
            long stamp = ref.acquire();
            try {
                p = pub = new SM2PublicKey(Native.privPublicKey(ref));
            } finally {
                ref.release(stamp);
            }
        }
        return p;
    }

    /** d as 32 bytes big-endian (a copy: wipe it after use).
     *  @throws IllegalStateException if the key was destroyed */
    public byte[] toBytes() {
        long stamp = ref.acquire();
        try {
            return d.clone();
        } finally {
            ref.release(stamp);
        }
    }

    /** The key file: PEM ("PRIVATE KEY" or, with sec1, "EC PRIVATE KEY") or DER.
     *  @throws IllegalStateException if the key was destroyed */
    public byte[] serialize(boolean pem, boolean sec1) {
        long stamp = ref.acquire();
        try {
            byte[] b = Native.privSerialize(ref, (pem ? Native.FMT_PEM : Native.FMT_DER)
                    | (sec1 ? Native.FMT_SEC1 : Native.FMT_PKCS8));
            return pem ? strip0(b) : b;
        } finally {
            ref.release(stamp);
        }
    }

    /** Password-encrypted PKCS#8 (PBES2): scheme 1 = hmacWithSM3 + SM4-CBC
     *  (GmSSL's), 2 = SHA-256 + SM4-CBC, 3 = SHA-256 + AES-256-CBC; iterations
     *  0 = 65536.
     *  @throws IllegalArgumentException for another scheme or a negative count
     *  @throws NullPointerException if password is null
     *  @throws IllegalStateException if the key was destroyed */
    public byte[] serializeEncrypted(boolean pem, int scheme, int iterations, char[] password) {
        if (scheme < 1 || scheme > 3) throw new IllegalArgumentException("fastsm2: PBE scheme 1, 2 or 3, not " + scheme);
        if (iterations < 0) throw new IllegalArgumentException("fastsm2: a negative iteration count");
        byte[] pw = SM2.utf8(Objects.requireNonNull(password, "password"));
        long stamp = ref.acquire();
        try {
            byte[] b = Native.privSerializeEncrypted(ref, pem ? Native.FMT_PEM : Native.FMT_DER, scheme, iterations, pw);
            return pem ? strip0(b) : b;
        } finally {
            ref.release(stamp);
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
        // under the key's read lock: destroy() wipes d only after it has the
        // write lock, so a read never sees d half wiped
        long stamp = ref.acquire();
        try {
            return new BigInteger(1, d);
        } finally {
            ref.release(stamp);
        }
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

    /** Wipes d here and in the native key, once no operation is using it;
     *  the key is unusable afterwards. */
    @Override
    public void destroy() {
        ref.destroy();
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
        if (!SM2Curve.isSM2(k.getParams())) return false;
        byte[] theirs = SM2Curve.to32(k.getS()); // before this key's lock: one lock held at a time
        long stamp;
        try {
            stamp = ref.acquire();
        } catch (IllegalStateException destroyed) {
            return false;
        }
        try {
            return java.security.MessageDigest.isEqual(theirs, d);
        } finally {
            ref.release(stamp);
        }
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
