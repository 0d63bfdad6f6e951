// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.InvalidParameterSpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.SM4Ref;

/**
 * Cipher "SM4" (GB/T 32907) in the modes ECB, CBC, CTR, OFB, CFB (CFB-128),
 * GCM (SP 800-38D) and CCM (SP 800-38C) with NoPadding, PKCS5Padding or
 * PKCS7Padding (the same: PKCS#7 over 16-byte blocks), BouncyCastle's names
 * and behaviour: plain "SM4" is SM4/ECB/PKCS7Padding; "SM4-GCM" and
 * "SM4-CCM" (OIDs 1.2.156.10197.1.104.8 and .9) are SM4/GCM/NoPadding and
 * SM4/CCM/NoPadding; the stream modes take a padding too (the plaintext is
 * padded to whole blocks, as BouncyCastle does); a CTR IV is 8 to 16
 * bytes, the counter block being the IV followed by zero bytes.
 * <p>
 * The work is the C library's (one native call per doFinal of a whole
 * message, no copy of the data); the expanded key and any streaming state
 * live in native memory ({@link SM4Ref}) and are wiped with the Cipher.
 * AEAD decryption releases no plaintext before the tag is checked: update()
 * returns nothing and doFinal() everything or AEADBadTagException. An AEAD
 * encryption must be initialised again, with another IV, before the next
 * one (IllegalStateException), and the same key and IV as the last
 * encryption are refused (InvalidAlgorithmParameterException).
 */
public class SM4CipherSpi extends CipherSpi {
    // modes: 1-5 are the C library's FASTSM2_SM4_ECB ... _CFB
    static final int ECB = 1, CBC = 2, CTR = 3, OFB = 4, CFB = 5, GCM = 6, CCM = 7;
    private static final byte[] EMPTY = new byte[0];
    private static volatile SecureRandom defaultRandom;

    private final boolean fixedMode;
    private int mode;
    private boolean pad;

    private SM4Ref ref;
    private Key keyObj; // the key last expanded into ref (an immutable SecretKeySpec is not expanded again)
    private byte[] keyPrint; // SM3 of the key last expanded: GCM/CCM refuse the same key and IV twice
    private boolean initialised, enc;
    private int opmode;
    private byte[] iv; // as given
    private byte[] iv16; // CTR: the counter block the IV starts
    private int tagLen; // bytes
    private long ctrLimit; // CTR with an IV under 16 bytes: bytes before the counter reaches the IV

    private boolean live; // a native streaming operation was started by update()
    private long total; // bytes given since init
    private long given; // bytes given to the native streaming operation (ECB/CBC: to compute what it returns)
    private long produced;
    private final Buf aad = new Buf(), data = new Buf();
    private boolean dataSeen; // AEAD: update() was called: no more AAD
    private boolean aeadDone; // AEAD encryption finished: init again
    private byte[] lastIv, lastKeyPrint; // of the last AEAD encryption

    public SM4CipherSpi() {
        this(ECB, true, false);
    }

    SM4CipherSpi(int mode, boolean pad, boolean fixedMode) {
        this.mode = mode;
        this.pad = pad;
        this.fixedMode = fixedMode;
    }

    /** Cipher "SM4-GCM" (OID 1.2.156.10197.1.104.8): SM4/GCM/NoPadding. */
    public static final class GCM extends SM4CipherSpi {
        public GCM() {
            super(SM4CipherSpi.GCM, false, true);
        }
    }

    /** Cipher "SM4-CCM" (OID 1.2.156.10197.1.104.9): SM4/CCM/NoPadding. */
    public static final class CCM extends SM4CipherSpi {
        public CCM() {
            super(SM4CipherSpi.CCM, false, true);
        }
    }

    /** A growable byte array, wiped when emptied. */
    private static final class Buf {
        byte[] b = EMPTY;
        int n;

        void add(byte[] in, int off, int len) {
            if (len == 0) return;
            if (n + len > b.length) {
                byte[] nb = Arrays.copyOf(b, Math.max(n + len, Math.max(64, 2 * b.length)));
                Arrays.fill(b, (byte) 0);
                b = nb;
            }
            System.arraycopy(in, off, b, n, len);
            n += len;
        }

        void clear() {
            Arrays.fill(b, 0, n, (byte) 0);
            n = 0;
        }
    }

    private boolean aead() {
        return mode == GCM || mode == CCM;
    }

    private boolean streamMode() {
        return mode == CTR || mode == OFB || mode == CFB;
    }

    // ---- transformation ---------------------------------------------------------

    @Override
    protected void engineSetMode(String m) throws NoSuchAlgorithmException {
        String u = m.toUpperCase(Locale.ROOT);
        int want;
        switch (u) {
            case "ECB": want = ECB; break;
            case "CBC": want = CBC; break;
            case "CTR":
            case "SIC": want = CTR; break;
            case "OFB":
            case "OFB128": want = OFB; break;
            case "CFB":
            case "CFB128": want = CFB; break;
            case "GCM": want = GCM; break;
            case "CCM": want = CCM; break;
            default: throw new NoSuchAlgorithmException("fastsm2: SM4 mode " + m + " (ECB, CBC, CTR, OFB, CFB, GCM, CCM)");
        }
        if (fixedMode && want != mode) throw new NoSuchAlgorithmException("fastsm2: this Cipher is SM4 in " + name(mode));
        mode = want;
        if (aead()) pad = false;
    }

    @Override
    protected void engineSetPadding(String p) throws NoSuchPaddingException {
        switch (p.toUpperCase(Locale.ROOT)) {
            case "NOPADDING":
                pad = false;
                break;
            case "PKCS5PADDING":
            case "PKCS7PADDING":
                if (aead()) throw new NoSuchPaddingException("fastsm2: only NoPadding can be used with AEAD modes");
                pad = true;
                break;
            default:
                throw new NoSuchPaddingException("fastsm2: SM4 padding " + p + " (NoPadding, PKCS5Padding, PKCS7Padding)");
        }
    }

    private static String name(int mode) {
        return new String[] {"", "ECB", "CBC", "CTR", "OFB", "CFB", "GCM", "CCM"}[mode];
    }

    @Override
    protected int engineGetBlockSize() {
        return 16;
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        byte[] k = key == null ? null : key.getEncoded();
        if (k == null) throw new InvalidKeyException("fastsm2: no key bytes");
        Arrays.fill(k, (byte) 0);
        return 8 * k.length;
    }

    @Override
    protected byte[] engineGetIV() {
        return iv == null ? null : iv.clone();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (!initialised || mode == ECB) return null;
        try {
            AlgorithmParameters p = AlgorithmParameters.getInstance(aead() ? name(mode) : "SM4", Providers.get());
            p.init(aead() ? new GCMParameterSpec(8 * tagLen, iv) : new IvParameterSpec(iv));
            return p;
        } catch (NoSuchAlgorithmException | InvalidParameterSpecException e) {
            throw new IllegalStateException("fastsm2: " + e, e);
        }
    }

    @Override
    protected int engineGetOutputSize(int len) {
        long n;
        if (aead()) {
            n = enc ? data.n + (long) len + tagLen : Math.max(0, data.n + (long) len - tagLen);
        } else if (streamMode() && !pad) {
            n = len;
        } else {
            long held = pad && streamMode() ? data.n : given - produced;
            n = held + len;
            if (pad && enc) n = (n / 16 + 1) * 16;
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    // ---- init ------------------------------------------------------------------------

    private static SecureRandom random(SecureRandom r) {
        if (r != null) return r;
        SecureRandom d = defaultRandom;
        if (d == null) defaultRandom = d = new SecureRandom();
        return d;
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
        try {
            init(opmode, key, null, random, false);
        } catch (InvalidAlgorithmParameterException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        init(opmode, key, params, random, true);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        AlgorithmParameterSpec spec = null;
        if (params != null) {
            try {
                spec = aead() ? params.getParameterSpec(GCMParameterSpec.class)
                        : params.getParameterSpec(IvParameterSpec.class);
            } catch (InvalidParameterSpecException e) {
                throw new InvalidAlgorithmParameterException("fastsm2: parameters of " + params.getAlgorithm()
                        + " are not for SM4/" + name(mode), e);
            }
        }
        init(opmode, key, spec, random, true);
    }

    private void init(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random, boolean withSpec)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean e;
        switch (opmode) {
            case Cipher.ENCRYPT_MODE:
            case Cipher.WRAP_MODE:
                e = true;
                break;
            case Cipher.DECRYPT_MODE:
            case Cipher.UNWRAP_MODE:
                e = false;
                break;
            default:
                throw new java.security.InvalidParameterException("fastsm2: unknown Cipher mode " + opmode);
        }
        // the IV and tag length: checked before anything changes
        byte[] nIv = null;
        int nTag = 16;
        if (params == null) {
            if (mode != ECB) {
                if (!e) {
                    String m = "fastsm2: no IV set when one expected (SM4/" + name(mode) + " decryption)";
                    if (withSpec) throw new InvalidAlgorithmParameterException(m);
                    throw new InvalidKeyException(m);
                }
                nIv = new byte[mode == GCM || mode == CCM ? 12 : 16];
                random(random).nextBytes(nIv);
            }
        } else if (params instanceof GCMParameterSpec) {
            if (!aead()) throw new InvalidAlgorithmParameterException("fastsm2: GCMParameterSpec can only be used with AEAD modes");
            GCMParameterSpec g = (GCMParameterSpec) params;
            int bits = g.getTLen();
            if (mode == GCM && (bits < 32 || bits > 128 || bits % 8 != 0))
                throw new InvalidAlgorithmParameterException("fastsm2: invalid GCM tag length: " + bits + " bits (32 to 128, whole bytes)");
            if (mode == CCM && (bits < 32 || bits > 128 || bits % 16 != 0))
                throw new InvalidAlgorithmParameterException("fastsm2: CCM tag length in bytes must be one of {4,6,8,10,12,14,16}, not " + bits + " bits");
            nTag = bits / 8;
            nIv = g.getIV();
        } else if (params instanceof IvParameterSpec) {
            if (mode == ECB) throw new InvalidAlgorithmParameterException("fastsm2: ECB mode does not use an IV");
            nIv = ((IvParameterSpec) params).getIV();
        } else {
            throw new InvalidAlgorithmParameterException("fastsm2: SM4 takes an IvParameterSpec or a GCMParameterSpec, not "
                    + params.getClass().getName());
        }
        if (nIv != null) checkIv(nIv);
        initialised = false; // until this init succeeds
        // the same SecretKeySpec object as last time (immutable): the same bytes, expanded already
        boolean same = key == keyObj && key instanceof SecretKeySpec && ref != null;
        byte[] print = keyPrint;
        if (!same) {
            byte[] k = keyBytes(key);
            try {
                print = org.fastsm2.SM3.digest(k); // a one-way print of the key, for the AEAD reuse check
                if (ref == null) ref = new SM4Ref();
                keyObj = null;
                Native.sm4Key(ref, k);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        }
        if (aead() && e && lastIv != null && Arrays.equals(lastIv, nIv) && MessageDigest.isEqual(print, lastKeyPrint))
            throw new InvalidAlgorithmParameterException("fastsm2: cannot reuse nonce for " + name(mode) + " encryption");
        keyObj = key;
        keyPrint = print;
        reset();
        this.opmode = opmode;
        this.enc = e;
        this.iv = nIv;
        this.tagLen = nTag;
        this.aeadDone = false;
        iv16 = null;
        ctrLimit = Long.MAX_VALUE;
        if (mode == CTR) {
            iv16 = Arrays.copyOf(nIv, 16);
            if (nIv.length < 16 && 16 - nIv.length < 7) ctrLimit = 16L << (8 * (16 - nIv.length));
        } else if (nIv != null && !aead()) {
            iv16 = nIv;
        }
        initialised = true;
    }

    private void checkIv(byte[] v) throws InvalidAlgorithmParameterException {
        switch (mode) {
            case CBC:
            case OFB:
            case CFB:
                if (v.length != 16) throw new InvalidAlgorithmParameterException("fastsm2: IV must be 16 bytes long");
                break;
            case CTR:
                if (v.length < 8) throw new InvalidAlgorithmParameterException("fastsm2: CTR mode requires an IV of at least 8 bytes");
                if (v.length > 16) throw new InvalidAlgorithmParameterException("fastsm2: CTR mode requires an IV of no more than 16 bytes");
                break;
            case GCM:
                if (v.length < 1) throw new InvalidAlgorithmParameterException("fastsm2: a GCM IV must be at least 1 byte");
                break;
            case CCM:
                if (v.length < 7 || v.length > 13)
                    throw new InvalidAlgorithmParameterException("fastsm2: a CCM nonce must be 7 to 13 bytes long");
                break;
            default:
        }
    }

    private static byte[] keyBytes(Key key) throws InvalidKeyException {
        if (!(key instanceof SecretKey)) throw new InvalidKeyException("fastsm2: SM4 needs a SecretKey, not "
                + (key == null ? "null" : key.getClass().getName()));
        if (!"RAW".equalsIgnoreCase(key.getFormat())) throw new InvalidKeyException("fastsm2: SM4 needs a RAW key");
        byte[] k = key.getEncoded();
        if (k == null || k.length != 16) {
            if (k != null) Arrays.fill(k, (byte) 0);
            throw new InvalidKeyException("fastsm2: an SM4 key is 16 bytes (128 bits), not " + (k == null ? 0 : k.length));
        }
        return k;
    }

    /** Back to the state right after init (same key and IV). */
    private void reset() {
        if (live && ref != null) Native.sm4Clear(ref);
        live = false;
        total = given = produced = 0;
        aad.clear();
        data.clear();
        dataSeen = false;
    }

    private void check() {
        if (!initialised) throw new IllegalStateException("fastsm2: Cipher not initialised");
        if (aeadDone)
            throw new IllegalStateException("fastsm2: SM4/" + name(mode) + " encryption is done: init again with another IV");
    }

    private void count(int len) {
        total += len;
        if (total > ctrLimit) throw new IllegalStateException("fastsm2: Counter in CTR mode out of range (IV of "
                + iv.length + " bytes)");
    }

    // ---- AAD ---------------------------------------------------------------------------

    @Override
    protected void engineUpdateAAD(byte[] src, int off, int len) {
        if (!aead()) throw new UnsupportedOperationException("fastsm2: AAD is not supported in SM4/" + name(mode));
        check();
        if (dataSeen) throw new IllegalStateException("fastsm2: AAD must come before the data (update was called)");
        if (off < 0 || len < 0 || off > src.length - len) throw new IllegalArgumentException("fastsm2: bad offset or length");
        aad.add(src, off, len);
    }

    @Override
    protected void engineUpdateAAD(java.nio.ByteBuffer src) {
        byte[] b = new byte[src.remaining()];
        src.get(b);
        engineUpdateAAD(b, 0, b.length);
    }

    // ---- update ------------------------------------------------------------------------

    /** What a streaming ECB/CBC update of len more bytes writes. */
    private int updateOut(int len) {
        long t = given - produced + len;
        long n = !enc && pad ? (t > 0 ? (t - 1) / 16 * 16 : 0) : t / 16 * 16;
        return (int) n;
    }

    private void startStream() {
        if (!live) {
            if (mode == GCM) Native.sm4GcmInit(ref, iv, aad.b, aad.n);
            else Native.sm4Init(ref, mode, enc, pad, iv16);
            live = true;
        }
    }

    @Override
    protected byte[] engineUpdate(byte[] in, int off, int len) {
        check();
        if (len == 0) return EMPTY;
        int n = outputOfUpdate(len);
        byte[] out = n == 0 ? EMPTY : new byte[n];
        try {
            int w = update(in, off, len, out, 0);
            return w == n ? out : Arrays.copyOf(out, w);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("fastsm2: " + e.getMessage(), e);
        }
    }

    private int outputOfUpdate(int len) {
        if (aead()) return mode == GCM && enc ? len : 0;
        if (streamMode()) return pad ? 0 : len;
        return updateOut(len);
    }

    @Override
    protected int engineUpdate(byte[] in, int off, int len, byte[] out, int outOff) throws ShortBufferException {
        check();
        if (len == 0) return 0;
        int n = outputOfUpdate(len);
        if (out == null || outOff < 0 || out.length - outOff < n)
            throw new ShortBufferException("fastsm2: need " + n + " bytes of output");
        if (in == out && overlap(off, len, outOff, n)) {
            in = Arrays.copyOfRange(in, off, off + len);
            off = 0;
        }
        return update(in, off, len, out, outOff);
    }

    private static boolean overlap(int a, int alen, int b, int blen) {
        return a != b && a < b + blen && b < a + alen;
    }

    private int update(byte[] in, int off, int len, byte[] out, int outOff) throws ShortBufferException {
        if (aead()) {
            dataSeen = true;
            if (mode == GCM && enc) {
                startStream();
                return Native.sm4GcmUpdate(ref, in, off, len, out, outOff);
            }
            data.add(in, off, len); // decryption and CCM: all at doFinal
            return 0;
        }
        if (streamMode() && pad) {
            count(len);
            data.add(in, off, len);
            return 0;
        }
        if (mode == CTR) count(len);
        startStream();
        int w = Native.sm4Update(ref, in, off, len, out, outOff);
        given += len;
        produced += w;
        return w;
    }

    // ---- doFinal -----------------------------------------------------------------------

    @Override
    protected byte[] engineDoFinal(byte[] in, int off, int len) throws IllegalBlockSizeException, BadPaddingException {
        check();
        if (in == null) {
            in = EMPTY;
            off = len = 0;
        }
        try {
            if (aead()) return aeadFinal(in, off, len, null, 0);
            if (streamMode() && pad) return paddedStreamFinal(in, off, len, null, 0);
            if (!live) {
                if (mode == CTR) count(len);
                if (!enc && pad) return Native.sm4DecryptPadded(ref, mode, iv16, in, off, len);
                byte[] out = new byte[enc && pad ? (len / 16 + 1) * 16 : len];
                Native.sm4Crypt(ref, mode, enc, pad, iv16, in, off, len, out, 0);
                return out;
            }
            byte[] out = new byte[updateOut(len) + 16];
            int w = update(in, off, len, out, 0);
            w += Native.sm4Final(ref, out, w);
            return w == out.length ? out : Arrays.copyOf(out, w);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("fastsm2: " + e.getMessage(), e);
        } finally {
            done();
        }
    }

    @Override
    protected int engineDoFinal(byte[] in, int off, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        check();
        if (in == null) {
            in = EMPTY;
            off = len = 0;
        }
        if (out == null || outOff < 0 || outOff > out.length) throw new ShortBufferException("fastsm2: no output buffer");
        int cap = out.length - outOff;
        int need = engineGetOutputSize(len);
        boolean exact = aead() ? true : !(pad && !enc); // padded decryption: the output size is an upper bound
        if (exact && cap < need) throw new ShortBufferException("fastsm2: need " + need + " bytes of output, have " + cap);
        if (in == out && overlap(off, len, outOff, need)) {
            in = Arrays.copyOfRange(in, off, off + len);
            off = 0;
        }
        try {
            if (aead()) {
                aeadFinal(in, off, len, out, outOff);
                return need;
            }
            if (streamMode() && pad) return paddedStreamFinal(in, off, len, out, outOff).length;
            if (!live && cap >= need) {
                if (mode == CTR) count(len);
                return Native.sm4Crypt(ref, mode, enc, pad, iv16, in, off, len, out, outOff);
            }
            if (!live) { // padded decryption into a buffer shorter than the input
                if (mode == CTR) count(len);
                byte[] r = Native.sm4DecryptPadded(ref, mode, iv16, in, off, len);
                return give(r, out, outOff);
            }
            byte[] r = new byte[updateOut(len) + 16];
            int w = update(in, off, len, r, 0);
            w += Native.sm4Final(ref, r, w);
            return give(Arrays.copyOf(r, w), out, outOff);
        } finally {
            done();
        }
    }

    private static int give(byte[] r, byte[] out, int outOff) throws ShortBufferException {
        try {
            if (out.length - outOff < r.length)
                throw new ShortBufferException("fastsm2: need " + r.length + " bytes of output, have " + (out.length - outOff));
            System.arraycopy(r, 0, out, outOff, r.length);
            return r.length;
        } finally {
            Arrays.fill(r, (byte) 0);
        }
    }

    /** After doFinal: ready for the next message with the same key and IV
     *  (AEAD encryption: init again). */
    private void done() {
        if (aead() && enc) {
            aeadDone = true;
            lastIv = iv;
            lastKeyPrint = keyPrint;
        }
        live = false; // final wiped the native context
        total = given = produced = 0;
        aad.clear();
        data.clear();
        dataSeen = false;
    }

    /** GCM and CCM: one call over the whole message (out null: a new array). */
    private byte[] aeadFinal(byte[] in, int off, int len, byte[] out, int outOff)
            throws AEADBadTagException, ShortBufferException {
        if (enc) {
            if (mode == GCM && live) {
                byte[] o = out != null ? out : new byte[len + tagLen];
                int p = out != null ? outOff : 0;
                int w = Native.sm4GcmUpdate(ref, in, off, len, o, p);
                Native.sm4GcmFinal(ref, o, p + w, tagLen);
                return o;
            }
            byte[] src = in;
            int soff = off, slen = len;
            if (data.n > 0) {
                data.add(in, off, len);
                src = data.b;
                soff = 0;
                slen = data.n;
            }
            byte[] o = out != null ? out : new byte[slen + tagLen];
            int p = out != null ? outOff : 0;
            if (mode == GCM) Native.sm4GcmEncrypt(ref, iv, aad.b, aad.n, src, soff, slen, o, p, tagLen);
            else Native.sm4CcmEncrypt(ref, iv, aad.b, aad.n, src, soff, slen, o, p, tagLen);
            return o;
        }
        byte[] src = in;
        int soff = off, slen = len;
        if (data.n > 0) {
            data.add(in, off, len);
            src = data.b;
            soff = 0;
            slen = data.n;
        }
        if (slen < tagLen) throw new AEADBadTagException("fastsm2: data too short for a tag of " + tagLen + " bytes");
        byte[] o = out != null ? out : new byte[slen - tagLen];
        int p = out != null ? outOff : 0;
        if (mode == GCM) Native.sm4GcmDecrypt(ref, iv, aad.b, aad.n, src, soff, slen, o, p, tagLen);
        else Native.sm4CcmDecrypt(ref, iv, aad.b, aad.n, src, soff, slen, o, p, tagLen);
        return o;
    }

    /** CTR, OFB, CFB with PKCS#7 padding (BouncyCastle pads the stream modes too). */
    private byte[] paddedStreamFinal(byte[] in, int off, int len, byte[] out, int outOff)
            throws IllegalBlockSizeException, BadPaddingException, ShortBufferException {
        count(len);
        data.add(in, off, len);
        if (enc) {
            int p = 16 - data.n % 16;
            byte[] padding = new byte[p];
            Arrays.fill(padding, (byte) p);
            data.add(padding, 0, p);
            if (out != null) {
                if (out.length - outOff < data.n) throw new ShortBufferException("fastsm2: need " + data.n + " bytes");
                Native.sm4Crypt(ref, mode, true, false, iv16, data.b, 0, data.n, out, outOff);
                return new byte[data.n]; // its length is the count
            }
            byte[] o = new byte[data.n];
            Native.sm4Crypt(ref, mode, true, false, iv16, data.b, 0, data.n, o, 0);
            return o;
        }
        if (data.n == 0 || data.n % 16 != 0) throw new IllegalBlockSizeException("fastsm2: last block incomplete in decryption");
        byte[] plain = new byte[data.n];
        try {
            Native.sm4Crypt(ref, mode, false, false, iv16, data.b, 0, data.n, plain, 0);
            int p = plain[plain.length - 1] & 0xff;
            int bad = (p - 1) >>> 31 | (16 - p) >>> 31; // p == 0 or p > 16
            for (int i = 1; i <= 16; i++) {
                int in_ = ((i - p - 1) >>> 31); // 1 when i <= p
                bad |= in_ & ((((plain[plain.length - i] & 0xff) ^ p) + 0xff) >>> 8); // 1 when the byte is not p
            }
            if (bad != 0) throw new BadPaddingException("fastsm2: pad block corrupted");
            byte[] r = Arrays.copyOf(plain, plain.length - p);
            if (out == null) return r;
            give(r.clone(), out, outOff);
            return r;
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    // ---- wrap ------------------------------------------------------------------------

    @Override
    protected byte[] engineWrap(Key key) throws IllegalBlockSizeException, InvalidKeyException {
        byte[] k = key == null ? null : key.getEncoded();
        if (k == null) throw new InvalidKeyException("fastsm2: the key to wrap has no encoding");
        try {
            return engineDoFinal(k, 0, k.length);
        } catch (BadPaddingException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    @Override
    protected Key engineUnwrap(byte[] wrapped, String alg, int type) throws InvalidKeyException, NoSuchAlgorithmException {
        byte[] k;
        try {
            k = engineDoFinal(wrapped, 0, wrapped.length);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            throw new InvalidKeyException("fastsm2: " + e.getMessage(), e);
        }
        try {
            if (type == Cipher.SECRET_KEY) return new SecretKeySpec(k, alg);
            java.security.KeyFactory kf = java.security.KeyFactory.getInstance(alg);
            if (type == Cipher.PUBLIC_KEY) return kf.generatePublic(new X509EncodedKeySpec(k));
            return kf.generatePrivate(new PKCS8EncodedKeySpec(k));
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }
}
