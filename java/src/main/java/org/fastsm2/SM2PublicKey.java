// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.interfaces.ECPublicKey;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

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
    private final transient NativeRef ref;
    private final transient AtomicInteger uses = new AtomicInteger();
    private transient volatile boolean precomputed;

    SM2PublicKey(long handle) {
        this.ref = new NativeRef(this, handle, false);
        long h = ref.acquire();
        try {
            this.point = Native.pubToBytes(h, false);
        } finally {
            ref.release();
        }
    }

    /** A key from its SEC1 point (04||x||y or compressed 02/03||x). */
    public static SM2PublicKey fromPoint(byte[] sec1) {
        return new SM2PublicKey(Native.pubParse(sec1.clone(), 0));
    }

    static SM2PublicKey fromPoint(ECPoint w) {
        return new SM2PublicKey(Native.pubParse(SM2Curve.encodePoint(w), 0));
    }

    /** The 65-byte uncompressed point 04 || x || y. */
    public byte[] toPoint() {
        return point.clone();
    }

    /** The 33-byte compressed point 02/03 || x. */
    public byte[] toCompressedPoint() {
        long h = ref.acquire();
        try {
            return Native.pubToBytes(h, true);
        } finally {
            ref.release();
        }
    }

    /** The handle, read-locked; tables made on the second use. */
    long acquire() {
        long h = ref.acquire();
        // exactly one thread (the second use) makes the tables; the library
        // lets other threads verify and encrypt meanwhile
        if (!precomputed && uses.incrementAndGet() == 2) {
            Native.pubPrecompute(h);
            precomputed = true;
        }
        return h;
    }

    void release() {
        ref.release();
    }

    /** PEM "PUBLIC KEY" (SPKI). */
    public String toPem() {
        long h = ref.acquire();
        try {
            byte[] b = Native.pubSerialize(h, Native.FMT_PEM);
            return new String(b, 0, b.length - (b.length > 0 && b[b.length - 1] == 0 ? 1 : 0),
                    java.nio.charset.StandardCharsets.US_ASCII);
        } finally {
            ref.release();
        }
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
        long h = ref.acquire();
        try {
            return Native.pubSerialize(h, Native.FMT_DER);
        } finally {
            ref.release();
        }
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
