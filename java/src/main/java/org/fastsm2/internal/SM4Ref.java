// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.internal;

/**
 * The native state of one SM4 Cipher: the expanded key (round keys and
 * GCM's hash key) and a streaming context, in native memory so that no
 * copy of them is left behind in the Java heap by the garbage collector;
 * wiped when the Cipher re-keys, by {@link #destroy}, and by the Cleaner.
 * For one thread at a time, as the Cipher that owns it.
 */
public final class SM4Ref extends NativeRef {
    public SM4Ref() {
        super(Native.sm4New(), KIND_SM4);
    }

    public void destroy() {
        freeNow();
    }
}
