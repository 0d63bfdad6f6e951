// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.DigestException;
import java.security.MessageDigestSpi;
import org.fastsm2.internal.Native;

/** MessageDigest "SM3" (GB/T 32905): the state lives in a Java array that
 *  each native call copies in and out (no native memory to free). */
public final class SM3DigestSpi extends MessageDigestSpi implements Cloneable {
    private static final int STATE = Native.sm3StateSize();
    private byte[] st = new byte[STATE];
    private boolean started;

    @Override
    protected int engineGetDigestLength() {
        return 32;
    }

    private void start() {
        if (!started) {
            Native.sm3Init(st);
            started = true;
        }
    }

    @Override
    protected void engineUpdate(byte b) {
        engineUpdate(new byte[] {b}, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) {
        start();
        Native.sm3Update(st, b, off, len);
    }

    @Override
    protected byte[] engineDigest() {
        start();
        started = false;
        return Native.sm3Final(st);
    }

    @Override
    protected int engineDigest(byte[] buf, int off, int len) throws DigestException {
        if (len < 32 || off < 0 || off > buf.length - 32) throw new DigestException("fastsm2: need 32 bytes");
        System.arraycopy(engineDigest(), 0, buf, off, 32);
        return 32;
    }

    @Override
    protected void engineReset() {
        started = false;
    }

    @Override
    public Object clone() throws CloneNotSupportedException {
        SM3DigestSpi c = (SM3DigestSpi) super.clone();
        c.st = st.clone();
        return c;
    }
}
