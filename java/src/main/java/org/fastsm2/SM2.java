// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SignatureException;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.PrivateKeyRef;
import org.fastsm2.internal.PublicKeyRef;

/**
 * Static helpers beside the provider: key files (PEM/DER, encrypted PKCS#8,
 * certificates) read by the library, keys of other providers converted, and
 * the batch API (many signatures or verifications over N threads).
 */
public final class SM2 {
    private SM2() {}

    /** The default signer ID of GB/T 32918.2 / GM/T 0009, "1234567812345678". */
    public static byte[] defaultId() {
        return "1234567812345678".getBytes(StandardCharsets.US_ASCII);
    }

    /** libfastsm2's version (the jar's: they are built together). */
    public static String libraryVersion() {
        return Native.version();
    }

    /** The backend the library chose on this CPU ("avx2", "armv8-sm3", ...). */
    public static String backend() {
        return Native.backend();
    }

    /** The platform directory of the native library ("linux-x86_64", ...). */
    public static String platform() {
        return Native.PLATFORM;
    }

    // ---- key files ------------------------------------------------------

    /** A private key file: PKCS#8 or SEC1 ("EC PRIVATE KEY"), PEM or DER;
     *  an encrypted PKCS#8 file ("ENCRYPTED PRIVATE KEY", PBES2 with SM4 or
     *  AES, as GmSSL and OpenSSL write it) with its password (null for an
     *  unencrypted file).
     *  @throws InvalidKeySpecException for anything else, naming what it is
     *          ("a public key, not a private key", a wrong password, ...)
     *  @throws NullPointerException if file is null */
    public static SM2PrivateKey loadPrivateKey(byte[] file, char[] password) throws InvalidKeySpecException {
        byte[] pw = password == null ? null : utf8(password);
        try {
            return new SM2PrivateKey(Native.privParse(file, pw));
        } finally {
            if (pw != null) Arrays.fill(pw, (byte) 0);
        }
    }

    /** A public key file: SPKI PEM ("PUBLIC KEY") or DER, or a SEC1 point.
     *  @throws InvalidKeySpecException for anything else
     *  @throws NullPointerException if file is null */
    public static SM2PublicKey loadPublicKey(byte[] file) throws InvalidKeySpecException {
        return new SM2PublicKey(Native.pubParse(file, Native.PUB_FILE));
    }

    /** The public key of an X.509 certificate (PEM or DER). The certificate
     *  itself is NOT verified: it is read as a container of a key.
     *  @throws InvalidKeySpecException if it is not a certificate of an SM2 key */
    public static SM2PublicKey publicKeyFromCertificate(byte[] cert) throws InvalidKeySpecException {
        return new SM2PublicKey(Native.pubParse(cert, Native.PUB_CERTIFICATE));
    }

    // ---- keys of other providers -----------------------------------------

    /** This provider's key for any SM2 public key: ours as is, another
     *  provider's {@link ECPublicKey} on sm2p256v1 (BouncyCastle's, a
     *  certificate's), or a key whose encoding is X.509 SPKI.
     *  @throws InvalidKeyException for anything else (null included) */
    public static SM2PublicKey toSM2PublicKey(Key key) throws InvalidKeyException {
        if (key instanceof SM2PublicKey) return (SM2PublicKey) key;
        try {
            if (key instanceof ECPublicKey) {
                ECPublicKey k = (ECPublicKey) key;
                if (!SM2Curve.isSM2(k.getParams())) throw new InvalidKeyException("fastsm2: not an sm2p256v1 key");
                return SM2PublicKey.fromPoint(k.getW());
            }
            if (key instanceof PublicKey && "X.509".equals(key.getFormat()) && key.getEncoded() != null)
                return new SM2PublicKey(Native.pubParse(key.getEncoded(), Native.PUB_FILE));
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException("fastsm2: invalid SM2 public key: " + e.getMessage(), e);
        }
        throw new InvalidKeyException("fastsm2: not an SM2 public key: " + (key == null ? "null" : key.getClass().getName()));
    }

    /** This provider's key for any SM2 private key (ours, an ECPrivateKey on
     *  sm2p256v1, or a PKCS#8-encoded key). The caller's key is not changed;
     *  the copy is wiped when it is destroyed or collected.
     *  @throws InvalidKeyException for anything else (null, a destroyed key included) */
    public static SM2PrivateKey toSM2PrivateKey(Key key) throws InvalidKeyException {
        if (key instanceof SM2PrivateKey) {
            if (((SM2PrivateKey) key).isDestroyed()) throw new InvalidKeyException("fastsm2: the key was destroyed");
            return (SM2PrivateKey) key;
        }
        byte[] d = null;
        try {
            if (key instanceof ECPrivateKey) {
                ECPrivateKey k = (ECPrivateKey) key;
                if (!SM2Curve.isSM2(k.getParams())) throw new InvalidKeyException("fastsm2: not an sm2p256v1 key");
                d = SM2Curve.to32(k.getS());
                return SM2PrivateKey.fromBytes(d);
            }
            if (key instanceof PrivateKey && "PKCS#8".equals(key.getFormat())) {
                d = key.getEncoded();
                if (d != null) return new SM2PrivateKey(Native.privParse(d, null));
            }
        } catch (InvalidKeySpecException | IllegalArgumentException | IllegalStateException e) {
            throw new InvalidKeyException("fastsm2: invalid SM2 private key: " + e.getMessage(), e);
        } finally {
            if (d != null) Arrays.fill(d, (byte) 0);
        }
        throw new InvalidKeyException("fastsm2: not an SM2 private key: " + (key == null ? "null" : key.getClass().getName()));
    }

    // ---- batches -------------------------------------------------------------

    /** Sign every message with one key and signer ID (null: the default) on
     *  {@code threads} threads (0: all cores): DER signatures, as the
     *  Signature "SM3withSM2" writes them.
     *  @throws InvalidKeyException if key is not an SM2 private key (or was destroyed)
     *  @throws IllegalArgumentException for an ID over 8191 bytes
     *  @throws NullPointerException if msgs or one of its messages is null */
    public static byte[][] signBatch(PrivateKey key, byte[] id, byte[][] msgs, int threads)
            throws InvalidKeyException, SignatureException {
        SM2PrivateKey k = toSM2PrivateKey(key);
        byte[] z = zOf(k.getPublicKey(), id);
        PrivateKeyRef ref = k.ref;
        long stamp;
        try {
            stamp = ref.acquire();
        } catch (IllegalStateException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
        try {
            return Native.signBatch(ref, z, msgs, threads);
        } finally {
            ref.release(stamp);
        }
    }

    /** Verify every (message, DER signature) pair with one key and ID on
     *  {@code threads} threads: true where valid (a null or malformed
     *  signature, or a null message, is false, not an exception).
     *  @throws InvalidKeyException if key is not an SM2 public key
     *  @throws IllegalArgumentException if the lengths differ, or for an ID over 8191 bytes
     *  @throws NullPointerException if msgs or sigs is null */
    public static boolean[] verifyBatch(PublicKey key, byte[] id, byte[][] msgs, byte[][] sigs, int threads)
            throws InvalidKeyException {
        if (msgs.length != sigs.length) throw new IllegalArgumentException("fastsm2: as many signatures as messages");
        SM2PublicKey k = toSM2PublicKey(key);
        return Native.verifyBatch(k.ref.use(), zOf(k, id), msgs, sigs, threads);
    }

    static byte[] zOf(SM2PublicKey k, byte[] id) {
        return Native.computeZ(k.ref, id);
    }

    // ---- utilities ------------------------------------------------------------

    static byte[] utf8(char[] pw) {
        ByteBuffer bb = StandardCharsets.UTF_8.encode(CharBuffer.wrap(pw));
        byte[] out = new byte[bb.remaining()];
        bb.get(out);
        if (bb.hasArray()) Arrays.fill(bb.array(), (byte) 0);
        return out;
    }
}
