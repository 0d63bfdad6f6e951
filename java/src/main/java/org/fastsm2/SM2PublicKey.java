// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.interfaces.ECPublicKey;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.PublicKeyRef;

/**
 * An SM2 public key (sm2p256v1), validated by the library when made (GB/T
 * 32918.1 6.2). Immutable and safe to share between threads. From its
 * second verification or encryption on, the key carries the library's
 * precomputed tables (2 KB), which make each later use faster.
 * getEncoded() is X.509 SubjectPublicKeyInfo (id-ecPublicKey + sm2p256v1).
 */
public final class SM2PublicKey implements ECPublicKey {
    private static final long serialVersionUID = 1L;

    private final byte[] point; // 04 || x || y
    final transient PublicKeyRef ref;

    SM2PublicKey(long address) {
        this.ref = new PublicKeyRef(address);
        this.point = Native.pubToBytes(ref, false);
    }

    /** A key from its SEC1 point (04||x||y or compressed 02/03||x).
     *  @throws InvalidKeySpecException if it is not a point of sm2p256v1
     *  @throws NullPointerException if sec1 is null */
    public static SM2PublicKey fromPoint(byte[] sec1) throws InvalidKeySpecException {
        return new SM2PublicKey(Native.pubParse(sec1, Native.PUB_POINT));
    }

    static SM2PublicKey fromPoint(ECPoint w) throws InvalidKeySpecException {
        try {
            return fromPoint(SM2Curve.encodePoint(w));
        } catch (IllegalArgumentException e) {
            throw new InvalidKeySpecException("fastsm2: " + e.getMessage(), e);
        }
    }

    /** The 65-byte uncompressed point 04 || x || y. */
    public byte[] toPoint() {
        return point.clone();
    }

    /** The 33-byte compressed point 02/03 || x. */
    public byte[] toCompressedPoint() {
        return Native.pubToBytes(ref, true);
    }

    /** PEM "PUBLIC KEY" (SPKI). */
    public String toPem() {
        byte[] b = Native.pubSerialize(ref, Native.FMT_PEM);
        int n = b.length;
        while (n > 0 && b[n - 1] == 0) n--;
        return new String(b, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Override
    public ECPoint getW() {
        return SM2Curve.decodePoint(point);
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
        return "X.509";
    }

    @Override
    public byte[] getEncoded() {
        return Native.pubSerialize(ref, Native.FMT_DER);
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (o instanceof SM2PublicKey) return Arrays.equals(point, ((SM2PublicKey) o).point);
        if (o instanceof ECPublicKey) {
            ECPublicKey k = (ECPublicKey) o;
            return SM2Curve.isSM2(k.getParams()) && getW().equals(k.getW());
        }
        return false;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(point);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("SM2PublicKey[sm2p256v1, ");
        for (byte b : point) sb.append(String.format("%02x", b & 0xff));
        return sb.append(']').toString();
    }

    private Object writeReplace() {
        return new java.security.KeyRep(java.security.KeyRep.Type.PUBLIC, "SM2", "X.509", getEncoded());
    }
}
