// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * d read while another thread destroys the key: getS(), toBytes() and
 * equals() give the key's own d or the destroyed key's exception, never a
 * d half wiped (which is another valid key: StressTest once decrypted with
 * one and got a C3 mismatch). 2,000 keys, each read by one thread in a loop
 * until another has destroyed it.
 */
class DestroyRaceTest {
    @Test
    void readersSeeTheWholeKeyOrTheException() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int round = 0; round < 2000 && failure.get() == null; round++) {
            SM2PrivateKey k = SM2PrivateKey.generate();
            final BigInteger s = k.getS();
            final byte[] b = k.toBytes();
            final SM2PrivateKey twin = SM2PrivateKey.fromBytes(b);
            CountDownLatch reading = new CountDownLatch(1);
            Thread reader = new Thread(() -> {
                try {
                    // read until the destroy shows: each read the key's d or the exception
                    for (int i = 0; ; i++) {
                        if (i == 1) reading.countDown();
                        try {
                            assertEquals(s, k.getS(), "getS: the key's d");
                            assertArrayEquals(b, k.toBytes(), "toBytes: the key's d");
                            assertTrue(twin.equals(k), "equals: the key's d");
                            assertTrue(k.equals(twin) || k.isDestroyed(), "equals: the key's d");
                        } catch (IllegalStateException destroyed) {
                            assertTrue(k.isDestroyed());
                            break;
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    reading.countDown();
                }
            });
            reader.start();
            reading.await();
            k.destroy();
            reader.join();
            twin.destroy();
            Arrays.fill(b, (byte) 0);
        }
        if (failure.get() != null) throw new AssertionError("a read raced the destroy", failure.get());
    }
}
