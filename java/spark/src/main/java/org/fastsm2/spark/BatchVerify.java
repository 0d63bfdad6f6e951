// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.fastsm2.SM2;
import org.fastsm2.SM2PublicKey;

/**
 * FastSM2Functions.verifyBatched: the rows of a partition taken {@link #CHUNK}
 * at a time, grouped by (key, ID), and each group verified by one call of
 * the library's batch API (SM2.verifyBatch) over the parsed key: the rate of
 * the batch API, where the SQL function sm2_verify makes one call per row.
 * Same result as sm2_verify(pub, msg, sig[, id]) on every row.
 */
final class BatchVerify implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    static final int CHUNK = 4096;

    private final int pub, msg, sig, id; // column indexes; id -1: the default ID

    BatchVerify(int pub, int msg, int sig, int id) {
        this.pub = pub;
        this.msg = msg;
        this.sig = sig;
        this.id = id;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> in) {
        return new Iterator<Row>() {
            private final List<Row> out = new ArrayList<>(CHUNK);
            private int next;

            @Override
            public boolean hasNext() {
                if (next < out.size()) return true;
                out.clear();
                next = 0;
                List<Row> rows = new ArrayList<>(CHUNK);
                while (rows.size() < CHUNK && in.hasNext()) rows.add(in.next());
                if (rows.isEmpty()) return false;
                boolean[] ok = verify(rows);
                for (int i = 0; i < rows.size(); i++) {
                    Row r = rows.get(i);
                    Object[] v = new Object[r.length() + 1];
                    for (int j = 0; j < r.length(); j++) v[j] = r.get(j);
                    v[r.length()] = ok[i];
                    out.add(RowFactory.create(v));
                }
                return true;
            }

            @Override
            public Row next() {
                if (!hasNext()) throw new NoSuchElementException();
                return out.get(next++);
            }
        };
    }

    /** (key bytes, ID bytes or null): the rows of one batch call. */
    private static final class Group {
        final ByteBuffer key, id;

        Group(byte[] key, byte[] id) {
            this.key = ByteBuffer.wrap(key);
            this.id = id == null ? null : ByteBuffer.wrap(id);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Group)) return false;
            Group g = (Group) o;
            return key.equals(g.key) && (id == null ? g.id == null : id.equals(g.id));
        }

        @Override
        public int hashCode() {
            return key.hashCode() * 31 + (id == null ? 0 : id.hashCode());
        }
    }

    private boolean[] verify(List<Row> rows) {
        int n = rows.size();
        boolean[] ok = new boolean[n];
        Map<Group, List<Integer>> groups = new LinkedHashMap<>();
        byte[][] msgs = new byte[n][];
        for (int i = 0; i < n; i++) {
            Row r = rows.get(i);
            byte[] p = Rows.bytes(r.get(pub)), m = Rows.bytes(r.get(msg));
            Object s = r.get(sig), d = id < 0 ? null : r.get(id);
            byte[] ib = d == null ? null : Rows.bytes(d);
            if (p == null || m == null || !(s instanceof byte[]) || (d != null && ib == null)) continue; // false
            msgs[i] = m;
            groups.computeIfAbsent(new Group(p, ib), g -> new ArrayList<>()).add(i);
        }
        Rows.State st = Rows.state();
        for (Map.Entry<Group, List<Integer>> e : groups.entrySet()) {
            SM2PublicKey key = Rows.publicKey(st, e.getKey().key.array());
            if (key == null) continue; // a key that does not parse: false
            List<Integer> idx = e.getValue();
            byte[][] ms = new byte[idx.size()][], ss = new byte[idx.size()][];
            for (int j = 0; j < ms.length; j++) {
                ms[j] = msgs[idx.get(j)];
                ss[j] = (byte[]) rows.get(idx.get(j)).get(sig);
            }
            byte[] ib = e.getKey().id == null ? null : e.getKey().id.array();
            boolean[] res;
            try {
                if (ib != null && ib.length > 8191) continue; // the ID is refused: false
                res = SM2.verifyBatch(key, ib, ms, ss, 1);
            } catch (java.security.GeneralSecurityException | RuntimeException ex) {
                Arrays.fill(res = new boolean[ms.length], false); // as sm2_verify: never a failed job
            }
            for (int j = 0; j < res.length; j++) ok[idx.get(j)] = res[j];
        }
        return ok;
    }
}
