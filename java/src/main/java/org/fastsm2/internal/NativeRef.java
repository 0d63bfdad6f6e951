// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.internal;

import java.lang.ref.Cleaner;

/**
 * A native object (malloc'ed by the glue) held by one Java object: the
 * typed handle the native methods take ({@link PrivateKeyRef},
 * {@link PublicKeyRef}, {@link SM4Ref}) instead of a bare address. The glue
 * reads {@code address} itself, so a handle of the wrong type cannot be
 * passed, and since the handle is an argument of every native call that
 * uses it, it stays reachable for the whole call: the {@link Cleaner},
 * registered on the handle, cannot free the object under a running call.
 * The Cleaner wipes (for secrets) and frees the object once the handle is
 * unreachable; {@link #freeNow} does it at once.
 */
public abstract class NativeRef {
    static final Cleaner CLEANER = Cleaner.create();
    static final int KIND_PRIVATE_KEY = 1, KIND_PUBLIC_KEY = 2, KIND_SM4 = 3;

    private static final class Free implements Runnable {
        private final long address;
        private final int kind;

        Free(long address, int kind) {
            this.address = address;
            this.kind = kind;
        }

        @Override
        public void run() {
            Native.free(kind, address);
        }
    }

    /** Read by the glue (GetLongField); 0 once freed. */
    @SuppressWarnings("unused")
    private volatile long address;
    private final Cleaner.Cleanable cleanable;

    NativeRef(long address, int kind) {
        if (address == 0) throw new IllegalArgumentException("fastsm2: no native object");
        this.address = address;
        this.cleanable = CLEANER.register(this, new Free(address, kind));
    }

    /** Whether the object was freed. */
    public final boolean isFreed() {
        return address == 0;
    }

    /** Wipe and free the object now (once; later native calls with this
     *  handle throw IllegalStateException). The caller makes sure that no
     *  native call is using it. */
    final void freeNow() {
        address = 0;
        cleanable.clean();
    }
}
