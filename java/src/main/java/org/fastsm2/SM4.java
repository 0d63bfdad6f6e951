// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import org.fastsm2.internal.Native;

/** SM4 (GB/T 32907) beside Cipher "SM4": which implementation runs here. */
public final class SM4 {
    private SM4() {}

    /** The SM4 implementation the library chose on this CPU ("avx2-aesni", "armv8-sm4", "generic", ...). */
    public static String backend() {
        return Native.sm4Backend();
    }
}
