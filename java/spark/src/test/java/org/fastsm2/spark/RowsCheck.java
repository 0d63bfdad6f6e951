// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import org.fastsm2.FastSM2Provider;
import org.fastsm2.SM2PrivateKey;

/**
 * `make test-spark-java`, before the Spark session: the per-task state of
 * the row functions (Rows), driven directly as a task would. The private
 * keys a task caches, and the copies of their bytes, stay within the
 * cache's bound: the keys the cache evicts are destroyed and their bytes
 * wiped; a cached key is still found after many evictions; close() wipes
 * the rest. Exits 1 on the first failure.
 */
public final class RowsCheck {
    private static int checks;

    private static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            System.err.println("FAIL: " + what);
            System.exit(1);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Rows.KEY_CACHE_SIZE + 300;
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            SM2PrivateKey k = SM2PrivateKey.generate();
            keys[i] = k.getEncoded();
            k.destroy();
        }
        byte[] msg = "row".getBytes(StandardCharsets.UTF_8);
        Rows.State st = new Rows.State();
        st.inTask = true;
        long p0 = Rows.PRIV_PARSES.get();
        for (int i = 0; i < n; i++) {
            check(Rows.sign(st, keys[i], msg, null) != null, "key " + i + " signs");
            // the most recent key stays cached: signing again parses nothing
            if (i % 500 == 0) {
                long p = Rows.PRIV_PARSES.get();
                check(Rows.sign(st, keys[i], msg, null) != null, "key " + i + " again");
                check(Rows.PRIV_PARSES.get() == p, "key " + i + " found in the cache");
            }
        }
        check(Rows.PRIV_PARSES.get() - p0 == n, "each key parsed once: " + (Rows.PRIV_PARSES.get() - p0));
        int held = st.secretBytesHeld();
        check(held <= Rows.KEY_CACHE_SIZE, "private key bytes held by a task: " + held + " for a cache of "
                + Rows.KEY_CACHE_SIZE + " keys");
        // an evicted key is parsed again, and signs what its public key verifies
        long p = Rows.PRIV_PARSES.get();
        byte[] sig = Rows.sign(st, keys[0], msg, null);
        check(Rows.PRIV_PARSES.get() == p + 1, "an evicted key is parsed again");
        FastSM2Provider fp = new FastSM2Provider();
        PrivateKey k0 = KeyFactory.getInstance("SM2", fp).generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(keys[0]));
        Signature v = Signature.getInstance("SM3withSM2", fp);
        v.initVerify(KeyFactory.getInstance("SM2", fp).generatePublic(
                new X509EncodedKeySpec(((SM2PrivateKey) k0).getPublicKey().getEncoded())));
        v.update(msg);
        check(v.verify(sig), "the re-parsed key signs correctly");
        st.close();
        check(st.secretBytesHeld() == 0, "close() wipes every copy: " + st.secretBytesHeld());
        System.out.printf("test-spark-java: RowsCheck: %d checks passed (%d keys through a cache of %d)%n", checks, n,
                Rows.KEY_CACHE_SIZE);
    }
}
