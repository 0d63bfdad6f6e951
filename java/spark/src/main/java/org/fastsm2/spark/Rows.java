// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.TaskContext;
import org.fastsm2.FastSM2Provider;
import org.fastsm2.SM2;
import org.fastsm2.SM2ParameterSpec;
import org.fastsm2.SM2PrivateKey;
import org.fastsm2.SM2PublicKey;
import org.fastsm2.SM3;

/**
 * The work of one row, with the keys of the running task: each distinct key
 * (by its bytes) is parsed once per task (one partition) and kept, up to
 * {@link #KEY_CACHE_SIZE} keys; a public key that verifies a second time
 * gets the library's tables (2 KB). A private key the cache drops, and the
 * copy of its bytes the cache was keyed by, are wiped at once; at the end of
 * the task the cache is dropped and every private key in it wiped.
 * State is per thread, and a task runs on one thread.
 */
final class Rows {
    private Rows() {}

    /** Distinct keys kept per task (least recently used dropped). */
    static final int KEY_CACHE_SIZE = 4096;

    static final Provider PROVIDER = new FastSM2Provider();
    private static final Object BAD = new Object(); // a key that did not parse
    private static final ThreadLocal<State> STATE = new ThreadLocal<>();
    /** Keys parsed in this JVM (the tests check the per-task cache with them). */
    static final AtomicLong PUB_PARSES = new AtomicLong(), PRIV_PARSES = new AtomicLong();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The keys and Signature objects of one task. */
    static final class State {
        final Map<ByteBuffer, Object> pubs = lru(false);
        /** Keyed by a copy of the key's bytes, which is wiped with the key. */
        final Map<ByteBuffer, Object> privs = lru(true);
        /** SM4 keys (SecretKeySpec), keyed by a copy of their bytes, wiped when dropped. */
        final Map<ByteBuffer, Object> sm4Keys = lru(true);
        final javax.crypto.Cipher[] sm4Ciphers = new javax.crypto.Cipher[6]; // (GCM, CBC, ECB) x (encrypt, decrypt)
        boolean inTask; // false: no Spark task (the driver folding a constant, a test): private keys not kept
        Signature verifier, signer;
        byte[] verifierId, signerId; // the ID last set (null: the default)
        boolean verifierIdSet, signerIdSet; // false: unknown (a setParameter failed)

        /** The copies of private key bytes this state holds that are not wiped (for the tests). */
        int secretBytesHeld() {
            int n = 0;
            for (ByteBuffer b : concat(privs.keySet(), sm4Keys.keySet())) {
                boolean zero = true;
                for (byte x : b.array()) zero &= x == 0;
                if (!zero) n++;
            }
            return n;
        }

        void close() {
            for (Map.Entry<ByteBuffer, Object> e : privs.entrySet()) wipe(e.getKey(), e.getValue());
            for (Map.Entry<ByteBuffer, Object> e : sm4Keys.entrySet()) wipe(e.getKey(), e.getValue());
            sm4Keys.clear();
            Arrays.fill(sm4Ciphers, null);
            privs.clear();
            pubs.clear();
        }
    }

    private static java.util.List<ByteBuffer> concat(java.util.Set<ByteBuffer> a, java.util.Set<ByteBuffer> b) {
        java.util.List<ByteBuffer> l = new java.util.ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    /** Destroy a cached private key and wipe the bytes it was found by. */
    private static void wipe(ByteBuffer key, Object value) {
        if (value instanceof SM2PrivateKey) ((SM2PrivateKey) value).destroy();
        Arrays.fill(key.array(), (byte) 0);
    }

    private static <V> Map<ByteBuffer, V> lru(boolean secret) {
        return new LinkedHashMap<ByteBuffer, V>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, V> e) {
                if (size() <= KEY_CACHE_SIZE) return false;
                if (!secret) return true;
                // removed here, before its key's bytes are wiped (a wiped key would not be found)
                ByteBuffer k = e.getKey();
                V v = remove(k);
                wipe(k, v);
                return false;
            }
        };
    }

    /** This thread's state; in a Spark task, dropped (keys wiped) when the task ends. */
    static State state() {
        State st = STATE.get();
        if (st == null) {
            State fresh = new State();
            st = fresh;
            STATE.set(fresh);
            TaskContext tc = TaskContext.get();
            if (tc != null) {
                fresh.inTask = true;
                tc.addTaskCompletionListener(ctx -> {
                    fresh.close();
                    if (STATE.get() == fresh) STATE.remove();
                });
            }
        }
        return st;
    }

    /** BINARY as is, STRING as its UTF-8 bytes, anything else null. */
    static byte[] bytes(Object v) {
        if (v instanceof byte[]) return (byte[]) v;
        if (v instanceof String) return ((String) v).getBytes(StandardCharsets.UTF_8);
        return null;
    }

    static SM2PublicKey publicKey(State st, byte[] b) {
        ByteBuffer k = ByteBuffer.wrap(b);
        Object v = st.pubs.get(k);
        if (v == null) {
            PUB_PARSES.incrementAndGet();
            try {
                v = SM2.loadPublicKey(b);
            } catch (InvalidKeySpecException | RuntimeException e) {
                v = BAD;
            }
            st.pubs.put(ByteBuffer.wrap(b.clone()), v);
        }
        return v == BAD ? null : (SM2PublicKey) v;
    }

    private static SM2PrivateKey loadPrivate(byte[] b) {
        PRIV_PARSES.incrementAndGet();
        try {
            return SM2.loadPrivateKey(b, null);
        } catch (InvalidKeySpecException | RuntimeException e) {
            throw new IllegalArgumentException("sm2_sign: the private key does not load: " + e.getMessage(), e);
        }
    }

    /** The key of these bytes: in a task, parsed once and kept until the task ends. */
    private static SM2PrivateKey privateKey(State st, byte[] b) {
        if (!st.inTask) return loadPrivate(b);
        Object v = st.privs.get(ByteBuffer.wrap(b));
        if (v == null) {
            byte[] copy = b.clone();
            try {
                v = loadPrivate(b);
            } catch (IllegalArgumentException e) {
                st.privs.put(ByteBuffer.wrap(copy), BAD);
                throw e;
            }
            st.privs.put(ByteBuffer.wrap(copy), v);
        }
        if (v == BAD) throw new IllegalArgumentException("sm2_sign: the private key does not load");
        return (SM2PrivateKey) v;
    }

    private static Signature signature() {
        try {
            return Signature.getInstance("SM3withSM2", PROVIDER);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("fastsm2: no SM3withSM2 in the provider", e);
        }
    }

    private static SM2ParameterSpec spec(byte[] id) {
        return id == null ? SM2ParameterSpec.defaultId() : new SM2ParameterSpec(id);
    }

    /**
     * sm2_verify: true when sig is a valid DER signature of msg by pub under
     * the signer ID (null: the default ID); false for anything else, a null
     * or malformed input included. Never throws for bad input.
     */
    static boolean verify(Object pub, Object msg, Object sig, Object id) {
        byte[] p = bytes(pub), m = bytes(msg), i = id == null ? null : bytes(id);
        if (p == null || m == null || !(sig instanceof byte[]) || (id != null && i == null)) return false;
        try {
            State st = state();
            SM2PublicKey key = publicKey(st, p);
            if (key == null) return false;
            if (st.verifier == null) {
                st.verifier = signature();
            }
            Signature s = st.verifier;
            if (!st.verifierIdSet || !Arrays.equals(st.verifierId, i)) {
                st.verifierIdSet = false;
                s.setParameter(spec(i));
                st.verifierId = i == null ? null : i.clone();
                st.verifierIdSet = true;
            }
            s.initVerify(key);
            s.update(m);
            return s.verify((byte[]) sig);
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            return false; // bad input (or anything else) never fails the job: the row is not valid
        }
    }

    /**
     * sm2_sign: the DER signature of msg by priv under the signer ID (null:
     * the default ID); null for a null key or message. A key that does not
     * load fails the query (IllegalArgumentException), as signing with a
     * wrong key must not go unnoticed.
     */
    static byte[] sign(Object priv, Object msg, Object id) {
        return sign(state(), priv, msg, id);
    }

    static byte[] sign(State st, Object priv, Object msg, Object id) {
        byte[] k = bytes(priv), m = bytes(msg), i = id == null ? null : bytes(id);
        if (k == null || m == null) return null;
        SM2PrivateKey key = privateKey(st, k);
        try {
            return sign(st, key, m, i);
        } finally {
            if (!st.inTask) key.destroy(); // not cached outside a task: nothing else would wipe it
        }
    }

    private static byte[] sign(State st, SM2PrivateKey key, byte[] m, byte[] i) {
        try {
            if (st.signer == null) {
                st.signer = signature();
            }
            Signature s = st.signer;
            if (!st.signerIdSet || !Arrays.equals(st.signerId, i)) {
                st.signerIdSet = false;
                s.setParameter(spec(i));
                st.signerId = i == null ? null : i.clone();
                st.signerIdSet = true;
            }
            s.initSign(key);
            s.update(m);
            return s.sign();
        } catch (InvalidAlgorithmParameterException | IllegalArgumentException e) {
            throw new IllegalArgumentException("sm2_sign: the signer ID is rejected: " + e.getMessage(), e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("sm2_sign: " + e.getMessage(), e);
        }
    }

    /** sm3: the SM3 digest as 64 lowercase hex digits (as Spark's sha2 gives SHA-2); null for null. */
    static String sm3(Object in) {
        byte[] b = bytes(in);
        if (b == null) return null;
        byte[] d = SM3.digest(b);
        char[] out = new char[2 * d.length];
        for (int j = 0; j < d.length; j++) {
            out[2 * j] = HEX[(d[j] >> 4) & 15];
            out[2 * j + 1] = HEX[d[j] & 15];
        }
        return new String(out);
    }
}
