// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.internal;

import java.util.concurrent.locks.StampedLock;

/**
 * A fastsm2_privkey (d, (1+d)^-1, the public key and Z_A of the default ID)
 * shared by every thread that uses the Java key. Native calls run between
 * {@link #acquire} and {@link #release} (a read lock); {@link #destroy}
 * takes the write lock, so a key destroyed while another thread signs with
 * it waits for that signature, and every later use fails.
 */
public final class PrivateKeyRef extends NativeRef {
    private final StampedLock lock = new StampedLock();

    public PrivateKeyRef(long address) {
        super(address, KIND_PRIVATE_KEY);
    }

    /** Read-locks the key: the stamp for {@link #release}.
     *  @throws IllegalStateException if the key was destroyed */
    public long acquire() {
        long stamp = lock.readLock();
        if (isFreed()) {
            lock.unlockRead(stamp);
            throw new IllegalStateException("fastsm2: the key was destroyed");
        }
        return stamp;
    }

    public void release(long stamp) {
        lock.unlockRead(stamp);
    }

    /** Wipes and frees the native key once no call is using it. */
    public void destroy() {
        long stamp = lock.writeLock();
        try {
            freeNow();
        } finally {
            lock.unlockWrite(stamp);
        }
    }
}
