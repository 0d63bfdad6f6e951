// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fastsm2_pubkey, validated when made and immutable afterwards (safe to
 * share between threads without a lock; freed only when unreachable). From
 * its second use on it carries the library's precomputed tables (2 KB).
 */
public final class PublicKeyRef extends NativeRef {
    private final AtomicInteger uses = new AtomicInteger();
    private volatile boolean precomputed;

    public PublicKeyRef(long address) {
        super(address, KIND_PUBLIC_KEY);
    }

    /** Counts a use (a verification or an encryption); the second makes
     *  the tables (exactly one thread does; the library lets the others
     *  use the key meanwhile). */
    public PublicKeyRef use() {
        if (!precomputed && uses.incrementAndGet() == 2) {
            Native.pubPrecompute(this);
            precomputed = true;
        }
        return this;
    }
}
