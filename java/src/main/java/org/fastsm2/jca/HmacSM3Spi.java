// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.MacSpi;
import org.fastsm2.internal.Native;

/** Mac "HmacSM3" (RFC 2104 with SM3): any key length; the state (which
 *  holds the key's pads) is wiped by reset and doFinal. */
public final class HmacSM3Spi extends MacSpi implements Cloneable {
    private byte[] st = new byte[Native.hmacStateSize()];
    private byte[] key;
    private boolean fresh;

    @Override
    protected int engineGetMacLength() {
        return 32;
    }

    @Override
    protected void engineInit(Key k, AlgorithmParameterSpec params) throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (params != null) throw new InvalidAlgorithmParameterException("fastsm2: HmacSM3 takes no parameters");
        if (k == null) throw new InvalidKeyException("null key");
        byte[] enc = k.getEncoded();
        if (enc == null || !"RAW".equalsIgnoreCase(k.getFormat())) throw new InvalidKeyException("fastsm2: HmacSM3 needs a RAW secret key");
        if (key != null) Arrays.fill(key, (byte) 0);
        key = enc;
        Native.hmacInit(st, key);
        fresh = true;
    }

    private void check() {
        if (key == null) throw new IllegalStateException("fastsm2: Mac not initialised");
        if (!fresh) {
            Native.hmacInit(st, key);
            fresh = true;
        }
    }

    @Override
    protected void engineUpdate(byte b) {
        engineUpdate(new byte[] {b}, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) {
        check();
        Native.hmacUpdate(st, b, off, len);
    }

    @Override
    protected byte[] engineDoFinal() {
        check();
        fresh = false;
        byte[] r = Native.hmacFinal(st);
        Arrays.fill(st, (byte) 0);
        return r;
    }

    @Override
    protected void engineReset() {
        Arrays.fill(st, (byte) 0);
        fresh = false;
    }

    @Override
    public Object clone() throws CloneNotSupportedException {
        HmacSM3Spi c = (HmacSM3Spi) super.clone();
        c.st = st.clone();
        c.key = key == null ? null : key.clone();
        return c;
    }
}
