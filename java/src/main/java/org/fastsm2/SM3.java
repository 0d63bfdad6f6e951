// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import org.fastsm2.internal.Native;

/** SM3 (GB/T 32905) in one call, beside MessageDigest "SM3". */
public final class SM3 {
    private SM3() {}

    /** SM3 of data (32 bytes).
     *  @throws NullPointerException if data is null */
    public static byte[] digest(byte[] data) {
        return Native.sm3(data, 0, data.length);
    }

    /** SM3 of data[off, off + len).
     *  @throws IllegalArgumentException for a bad range */
    public static byte[] digest(byte[] data, int off, int len) {
        return Native.sm3(data, off, len);
    }
}
