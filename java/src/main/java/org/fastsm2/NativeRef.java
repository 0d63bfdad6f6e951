// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.lang.ref.Cleaner;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A native key object (malloc'ed by the glue) owned by one Java key. Uses
 * hold the read lock; {@link #free} (destroy) takes the write lock, so a key
 * destroyed while another thread signs with it waits for that signature and
 * is never used after it is freed. The {@link Cleaner} frees (and, for a
 * private key, wipes) the object once the Java key is unreachable.
 */
final class NativeRef {
    static final Cleaner CLEANER = Cleaner.create();

    private static final class Free implements Runnable {
        private final long handle;
        private final boolean priv;

        Free(long handle, boolean priv) {
            this.handle = handle;
            this.priv = priv;
        }

        @Override
        public void run() {
            if (priv) Native.privFree(handle);
            else Native.pubFree(handle);
        }
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final long handle;
    private final Cleaner.Cleanable cleanable;
    private volatile boolean freed;

    NativeRef(Object owner, long handle, boolean priv) {
        this.handle = handle;
        this.cleanable = CLEANER.register(owner, new Free(handle, priv));
    }

    /** The handle, read-locked: call {@link #release} after the native call. */
    long acquire() {
        lock.readLock().lock();
        if (freed) {
            lock.readLock().unlock();
            throw new IllegalStateException("fastsm2: the key was destroyed");
        }
        return handle;
    }

    void release() {
        lock.readLock().unlock();
    }

    boolean isFreed() {
        return freed;
    }

    void free() {
        lock.writeLock().lock();
        try {
            if (!freed) {
                freed = true;
                cleanable.clean();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
