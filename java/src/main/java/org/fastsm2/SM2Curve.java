// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.math.BigInteger;
import java.security.spec.ECField;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.EllipticCurve;

/** The curve sm2p256v1 of GB/T 32918.5 (OID 1.2.156.10197.1.301) as a JCA
 *  {@link ECParameterSpec}, and the SEC1 point encoding. */
public final class SM2Curve {
    private SM2Curve() {}

    public static final String NAME = "sm2p256v1";
    public static final String OID = "1.2.156.10197.1.301";

    public static final BigInteger P = h("FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF");
    public static final BigInteger A = h("FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC");
    public static final BigInteger B = h("28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93");
    public static final BigInteger GX = h("32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7");
    public static final BigInteger GY = h("BC3736A2F4F6779C59BDCEE36B692153D0A9877CC62A474002DF32E52139F0A0");
    public static final BigInteger N = h("FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123");

    /** sm2p256v1, cofactor 1. */
    public static final ECParameterSpec SPEC =
            new ECParameterSpec(new EllipticCurve(new ECFieldFp(P), A, B), new ECPoint(GX, GY), N, 1);

    private static BigInteger h(String s) {
        return new BigInteger(s, 16);
    }

    /** Whether params describe sm2p256v1 (compared by value, so that the
     *  specs of BouncyCastle and of certificates read by the JDK match). */
    public static boolean isSM2(ECParameterSpec params) {
        if (params == null) return false;
        if (params == SPEC) return true;
        EllipticCurve c = params.getCurve();
        ECField f = c.getField();
        return f instanceof ECFieldFp && ((ECFieldFp) f).getP().equals(P) && c.getA().equals(A)
                && c.getB().equals(B) && params.getGenerator().getAffineX().equals(GX)
                && params.getGenerator().getAffineY().equals(GY) && params.getOrder().equals(N)
                && params.getCofactor() == 1;
    }

    /** 32-byte big-endian form of a non-negative integer below 2^256. */
    static byte[] to32(BigInteger v) {
        if (v.signum() < 0 || v.bitLength() > 256) throw new IllegalArgumentException("integer out of range");
        byte[] b = v.toByteArray();
        byte[] out = new byte[32];
        int n = Math.min(b.length, 32);
        System.arraycopy(b, b.length - n, out, 32 - n, n);
        return out;
    }

    /** The SEC1 uncompressed encoding 04 || x || y of a point.
     *  @throws IllegalArgumentException for the point at infinity or coordinates over 256 bits */
    public static byte[] encodePoint(ECPoint w) {
        if (w == null || w == ECPoint.POINT_INFINITY) throw new IllegalArgumentException("point at infinity");
        byte[] out = new byte[65];
        out[0] = 4;
        System.arraycopy(to32(w.getAffineX()), 0, out, 1, 32);
        System.arraycopy(to32(w.getAffineY()), 0, out, 33, 32);
        return out;
    }

    /** The point of 04 || x || y (not checked to be on the curve: SM2PublicKey.fromPoint does).
     *  @throws IllegalArgumentException if it is not 65 bytes starting with 04 */
    public static ECPoint decodePoint(byte[] p) {
        if (p.length != 65 || p[0] != 4) throw new IllegalArgumentException("not an uncompressed point");
        byte[] x = new byte[32], y = new byte[32];
        System.arraycopy(p, 1, x, 0, 32);
        System.arraycopy(p, 33, y, 0, 32);
        return new ECPoint(new BigInteger(1, x), new BigInteger(1, y));
    }
}
