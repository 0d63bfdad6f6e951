// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

/** A status code of libfastsm2 (include/fastsm2.h), thrown by the JNI glue;
 *  the provider's classes turn it into the JCA exception of the operation. */
public final class NativeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public static final int ERR_ARG = -1, ERR_BUFFER_TOO_SMALL = -2, ERR_DER = -3, ERR_PEM = -4, ERR_LENGTH = -5,
            ERR_SIG_RANGE = -6, ERR_PRIVATE_KEY = -7, ERR_POINT = -8, ERR_BAD_SIGNATURE = -9, ERR_DECRYPT = -10,
            ERR_CIPHERTEXT = -11, ERR_ID = -12, ERR_RANDOM = -13, ERR_KEY_FORMAT = -14, ERR_KDF_ZERO = -15,
            ERR_NO_MEMORY = -16, ERR_CONFIRM = -17, ERR_STATE = -18, ERR_UNSUPPORTED = -19, ERR_SCALAR = -20,
            ERR_ENCRYPTED_KEY = -21, ERR_PASSWORD = -22, ERR_KEY_CIPHER = -23, ERR_CURVE = -24,
            ERR_CERTIFICATE = -25, ERR_TOO_LARGE = -26, ERR_ITERATIONS = -27, ERR_TAG = -28, ERR_PADDING = -29,
            ERR_IV = -30, ERR_PUBLIC_KEY = -31;

    private final int code;

    public NativeException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** The FASTSM2_ERR_* value (negative). */
    public int code() {
        return code;
    }
}
