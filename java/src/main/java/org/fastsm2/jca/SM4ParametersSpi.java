// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.io.IOException;
import java.math.BigInteger;
import java.security.AlgorithmParametersSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.Arrays;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * AlgorithmParameters of SM4: "SM4" (alias the CBC OID
 * 1.2.156.10197.1.104.2) is an IV, encoded as a DER OCTET STRING (as
 * BouncyCastle and the JDK encode AES's); "GCM" / "SM4-GCM" (OID
 * 1.2.156.10197.1.104.8) and "CCM" / "SM4-CCM" (OID .104.9) are a nonce and
 * a tag length, GCMParameters / CCMParameters of RFC 5084: SEQUENCE {
 * OCTET STRING nonce, INTEGER tag length in bytes DEFAULT 12 }.
 */
public class SM4ParametersSpi extends AlgorithmParametersSpi {
    private final boolean aead;
    private byte[] iv;
    private int tagBits = 128;

    public SM4ParametersSpi() {
        this(false);
    }

    SM4ParametersSpi(boolean aead) {
        this.aead = aead;
    }

    /** "GCM", "SM4-GCM"; and "CCM", "SM4-CCM" (the same encoding). */
    public static final class AEAD extends SM4ParametersSpi {
        public AEAD() {
            super(true);
        }
    }

    @Override
    protected void engineInit(AlgorithmParameterSpec spec) throws InvalidParameterSpecException {
        if (aead && spec instanceof GCMParameterSpec) {
            GCMParameterSpec g = (GCMParameterSpec) spec;
            iv = g.getIV();
            tagBits = g.getTLen();
        } else if (spec instanceof IvParameterSpec) {
            iv = ((IvParameterSpec) spec).getIV();
            tagBits = 128;
        } else {
            throw new InvalidParameterSpecException("fastsm2: " + (aead ? "GCMParameterSpec or IvParameterSpec" : "IvParameterSpec")
                    + " expected, not " + (spec == null ? "null" : spec.getClass().getName()));
        }
    }

    @Override
    protected void engineInit(byte[] der) throws IOException {
        Der d = new Der(der);
        if (!aead) {
            iv = d.octets();
        } else {
            Der s = d.sequence();
            iv = s.octets();
            int t = 12;
            if (s.more()) {
                BigInteger v = s.integer();
                if (v.signum() <= 0 || v.bitLength() > 5) throw new IOException("fastsm2: bad tag length");
                t = v.intValue();
                if (t == 12) throw new IOException("fastsm2: DER: the DEFAULT value is encoded");
            }
            s.end();
            tagBits = 8 * t;
        }
        d.end();
    }

    @Override
    protected void engineInit(byte[] der, String format) throws IOException {
        if (format != null && !format.equalsIgnoreCase("ASN.1") && !format.equalsIgnoreCase("DER"))
            throw new IOException("fastsm2: only ASN.1 (DER), not " + format);
        engineInit(der);
    }

    @Override
    protected <T extends AlgorithmParameterSpec> T engineGetParameterSpec(Class<T> type) throws InvalidParameterSpecException {
        if (iv == null) throw new InvalidParameterSpecException("fastsm2: not initialised");
        if (aead && type.isAssignableFrom(GCMParameterSpec.class)) return type.cast(new GCMParameterSpec(tagBits, iv));
        if (type.isAssignableFrom(IvParameterSpec.class)) return type.cast(new IvParameterSpec(iv));
        throw new InvalidParameterSpecException("fastsm2: cannot give " + type.getName());
    }

    @Override
    protected byte[] engineGetEncoded() throws IOException {
        if (iv == null) throw new IOException("fastsm2: not initialised");
        byte[] o = tlv(0x04, iv);
        if (!aead) return o;
        if (tagBits == 96) return tlv(0x30, o);
        byte[] t = tlv(0x02, BigInteger.valueOf(tagBits / 8).toByteArray());
        byte[] body = Arrays.copyOf(o, o.length + t.length);
        System.arraycopy(t, 0, body, o.length, t.length);
        return tlv(0x30, body);
    }

    @Override
    protected byte[] engineGetEncoded(String format) throws IOException {
        if (format != null && !format.equalsIgnoreCase("ASN.1") && !format.equalsIgnoreCase("DER"))
            throw new IOException("fastsm2: only ASN.1 (DER), not " + format);
        return engineGetEncoded();
    }

    @Override
    protected String engineToString() {
        return aead ? "SM4 AEAD parameters: nonce of " + (iv == null ? 0 : iv.length) + " bytes, tag of " + tagBits + " bits"
                : "SM4 IV";
    }

    private static byte[] tlv(int tag, byte[] v) {
        int n = v.length;
        byte[] len = n < 128 ? new byte[] {(byte) n} : n < 256 ? new byte[] {(byte) 0x81, (byte) n}
                : new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
        byte[] out = new byte[1 + len.length + n];
        out[0] = (byte) tag;
        System.arraycopy(len, 0, out, 1, len.length);
        System.arraycopy(v, 0, out, 1 + len.length, n);
        return out;
    }

    /** A strict DER reader of what these parameters hold. */
    private static final class Der {
        private final byte[] b;
        private int p;
        private final int end;

        Der(byte[] b) {
            this(b, 0, b.length);
        }

        private Der(byte[] b, int p, int end) {
            this.b = b;
            this.p = p;
            this.end = end;
        }

        private int[] header(int tag) throws IOException {
            if (p + 2 > end || (b[p] & 0xff) != tag) throw new IOException("fastsm2: DER: tag " + tag + " expected");
            int l = b[p + 1] & 0xff, h = 2;
            if (l == 0x81) {
                if (p + 3 > end || (b[p + 2] & 0xff) < 128) throw new IOException("fastsm2: DER: bad length");
                l = b[p + 2] & 0xff;
                h = 3;
            } else if (l == 0x82) {
                if (p + 4 > end || (b[p + 2] & 0xff) == 0) throw new IOException("fastsm2: DER: bad length");
                l = (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
                if (l < 256) throw new IOException("fastsm2: DER: bad length");
                h = 4;
            } else if (l >= 128) {
                throw new IOException("fastsm2: DER: bad length");
            }
            if (l > end - p - h) throw new IOException("fastsm2: DER: truncated");
            int[] r = {p + h, l};
            p += h + l;
            return r;
        }

        byte[] octets() throws IOException {
            int[] h = header(0x04);
            return Arrays.copyOfRange(b, h[0], h[0] + h[1]);
        }

        Der sequence() throws IOException {
            int[] h = header(0x30);
            return new Der(b, h[0], h[0] + h[1]);
        }

        BigInteger integer() throws IOException {
            int[] h = header(0x02);
            if (h[1] == 0 || (h[1] > 1 && b[h[0]] == 0 && b[h[0] + 1] >= 0))
                throw new IOException("fastsm2: DER: bad INTEGER");
            return new BigInteger(Arrays.copyOfRange(b, h[0], h[0] + h[1]));
        }

        boolean more() {
            return p < end;
        }

        void end() throws IOException {
            if (p != end) throw new IOException("fastsm2: DER: trailing bytes");
        }
    }
}
