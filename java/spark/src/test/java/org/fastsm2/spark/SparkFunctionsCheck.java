// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import static org.apache.spark.sql.functions.col;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.fastsm2.FastSM2Provider;
import org.fastsm2.SM2ParameterSpec;
import org.fastsm2.SM2PrivateKey;
import org.fastsm2.SM3;

/**
 * `make test-spark-java` (tests/harness/test-spark-java.sh): the Spark SQL
 * functions in a local[2] session. Part 1, the SQL route of the extension
 * (spark.sql.extensions): --rows rows (default 100,000) signed with
 * sm2_sign, verified with sm2_verify, a sample checked with the plain JCA
 * provider and with BouncyCastle when its jar is on the class path, tampered
 * rows, wrong IDs, bad keys and signatures, key encodings, SM3 vectors, the
 * per-task key cache. Part 2, FastSM2Functions.register and the Column
 * helpers in a session without the extension. Exits 1 on the first failure.
 */
public final class SparkFunctionsCheck {
    private static int checks;

    private static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            System.err.println("FAIL: " + what);
            System.exit(1);
        }
    }

    private static void eq(Object got, Object want, String what) {
        boolean same = got == null ? want == null
                : got instanceof byte[] && want instanceof byte[] ? Arrays.equals((byte[]) got, (byte[]) want)
                : got.equals(want);
        check(same, what + ": got " + got + ", want " + want);
    }

    private static long count(SparkSession spark, String sql) {
        return ((Number) spark.sql(sql).first().get(0)).longValue();
    }

    private static Object one(SparkSession spark, String sql) {
        return spark.sql(sql).first().get(0);
    }

    private static String fails(SparkSession spark, String sql) {
        try {
            spark.sql(sql).collect();
        } catch (Exception e) {
            StringBuilder sb = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) sb.append(t).append(" | ");
            return sb.toString();
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int nkeys = 20;
        long t0 = System.nanoTime();
        SparkSession spark = SparkSession.builder().master("local[2]").appName("fastsm2-spark-java-test")
                .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.sql.extensions", FastSM2Extensions.class.getName()).getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");

        // ---- keys: 20 signers; public keys as SPKI DER, uncompressed and compressed points, PEM ----
        List<Row> keyRows = new ArrayList<>();
        SM2PrivateKey[] keys = new SM2PrivateKey[nkeys];
        for (int k = 0; k < nkeys; k++) {
            keys[k] = SM2PrivateKey.generate();
            byte[] pubBin = k % 3 == 0 ? keys[k].getPublicKey().getEncoded()
                    : k % 3 == 1 ? keys[k].getPublicKey().toPoint() : keys[k].getPublicKey().toCompressedPoint();
            keyRows.add(RowFactory.create(k, keys[k].getEncoded(), keys[k].toPem(), pubBin,
                    keys[k].getPublicKey().getEncoded(), keys[k].getPublicKey().toPem()));
        }
        spark.createDataFrame(keyRows, StructType.fromDDL(
                "k int, priv binary, priv_pem string, pub binary, pub_der binary, pub_pem string"))
                .createOrReplaceTempView("signers");

        // ---- n rows of 96-byte messages; one in three signed under the ID alice@example.cn ----
        spark.range(0, n, 1, 4).createOrReplaceTempView("ids");
        spark.sql("SELECT id, CAST(id * 7 % " + nkeys + " AS INT) AS k,"
                + " concat(unhex(sha2(CAST(id AS STRING), 512)), unhex(sha2(CAST(id AS STRING), 256))) AS msg,"
                + " CASE WHEN id % 3 = 0 THEN 'alice@example.cn' END AS signer FROM ids")
                .createOrReplaceTempView("docs");
        long p0 = Rows.PRIV_PARSES.get();
        long ts = System.nanoTime();
        Dataset<Row> signed = spark.sql("SELECT d.id, d.k, d.msg, d.signer, s.pub, s.pub_der, s.pub_pem,"
                + " sm2_sign(s.priv, d.msg, d.signer) AS sig FROM docs d JOIN signers s USING (k)").cache();
        check(signed.count() == n, "rows signed");
        double signSecs = (System.nanoTime() - ts) / 1e9;
        signed.createOrReplaceTempView("signed");
        long privParses = Rows.PRIV_PARSES.get() - p0;
        int parts = signed.rdd().getNumPartitions();
        check(privParses <= (long) nkeys * Math.max(parts, 4),
                "private keys parsed once per key and task: " + privParses + " parses, " + parts + " partitions");
        check(count(spark, "SELECT count(*) FROM signed WHERE sig IS NULL OR hex(substr(sig, 1, 1)) != '30'"
                + " OR CAST(conv(hex(substr(sig, 2, 1)), 16, 10) AS INT) != length(sig) - 2 OR length(sig) > 72") == 0,
                "signatures are DER SEQUENCEs of at most 72 bytes");

        // ---- every row verifies; the key cache parses each key once per task ----
        long q0 = Rows.PUB_PARSES.get();
        long tv = System.nanoTime();
        eq(count(spark, "SELECT count_if(sm2_verify(pub, msg, sig, signer)) FROM signed"), (long) n,
                "rows verified with sm2_verify");
        double verifySecs = (System.nanoTime() - tv) / 1e9;
        long pubParses = Rows.PUB_PARSES.get() - q0;
        check(pubParses <= (long) nkeys * Math.max(parts, 4),
                "public keys parsed once per key and task: " + pubParses + " parses, " + parts + " partitions");
        // tampered messages (one row in ten), a wrong ID, the ID left out
        eq(count(spark, "SELECT count_if(sm2_verify(pub, CASE WHEN id % 10 = 0 THEN concat(msg, x'00') ELSE msg END,"
                + " sig, signer)) FROM signed"), (long) n - (n + 9) / 10, "tampered rows give false");
        eq(count(spark, "SELECT count_if(sm2_verify(pub, msg, sig, 'bob@example.cn')) FROM signed"), 0L,
                "a wrong ID gives false");
        eq(count(spark, "SELECT count_if(sm2_verify(pub, msg, sig)) FROM signed"), (long) n - (n + 2) / 3,
                "without the ID only the default-ID rows verify");
        eq(count(spark, "SELECT count_if(sm2_verify(pub, msg, sig, CAST(signer AS BINARY))) FROM signed"), (long) n,
                "a BINARY ID is the same as its STRING");
        eq(count(spark, "SELECT count_if(sm2_verify(pub_pem, msg, sig, signer)) FROM signed WHERE id < 3000"), 3000L,
                "SPKI PEM keys (STRING)");
        eq(count(spark, "SELECT count_if(sm2_verify(pub, msg, sig, signer) = sm2_verify(pub_der, msg, sig, signer))"
                + " FROM signed WHERE id < 3000"), 3000L, "point and SPKI DER keys agree");
        eq(count(spark, "SELECT count(*) FROM signed WHERE sm2_verify(pub, msg, sig, signer) IS NULL"), 0L,
                "sm2_verify is never null");

        // ---- a sample checked outside Spark: the JCA provider, and BouncyCastle if present ----
        Provider fast = new FastSM2Provider();
        Provider bc = null;
        try {
            bc = (Provider) Class.forName("org.bouncycastle.jce.provider.BouncyCastleProvider")
                    .getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            System.out.println("test-spark-java: no BouncyCastle on the class path: the sample is checked with the"
                    + " FastSM2 provider only");
        }
        List<Row> sample = spark.sql("SELECT id, msg, signer, pub_der, sig FROM signed WHERE id % " + Math.max(1, n / 301)
                + " = 0").collectAsList();
        check(sample.size() > 300, "sample size " + sample.size());
        for (Row r : sample) {
            long id = r.getLong(0);
            byte[] msg = (byte[]) r.get(1), pub = (byte[]) r.get(3), sig = (byte[]) r.get(4);
            String signer = r.getString(2);
            byte[] idb = (signer == null ? "1234567812345678" : signer).getBytes(StandardCharsets.UTF_8);
            check(jcaVerify(fast, new SM2ParameterSpec(idb), pub, msg, sig), "FastSM2 JCA verifies row " + id);
            byte[] bad = msg.clone();
            bad[5] ^= 1;
            check(!jcaVerify(fast, new SM2ParameterSpec(idb), pub, bad, sig), "FastSM2 JCA rejects tampered row " + id);
            if (bc != null) {
                AlgorithmParameterSpec spec = (AlgorithmParameterSpec) Class
                        .forName("org.bouncycastle.jcajce.spec.SM2ParameterSpec").getConstructor(byte[].class)
                        .newInstance((Object) idb);
                check(jcaVerify(bc, spec, pub, msg, sig), "BouncyCastle verifies row " + id);
            }
        }

        // ---- bad input: false, never null, never a failed job ----
        spark.sql("SELECT pub, msg, sig FROM signed WHERE signer IS NULL LIMIT 1").createOrReplaceTempView("good");
        String[] badVerify = {
            "sm2_verify(NULL, msg, sig)", "sm2_verify(pub, NULL, sig)", "sm2_verify(pub, msg, NULL)",
            "sm2_verify(x'00', msg, sig)", "sm2_verify('not a key', msg, sig)", "sm2_verify(x'', msg, sig)",
            "sm2_verify(concat(x'04', unhex(repeat('01', 64))), msg, sig)", // not on the curve
            "sm2_verify(concat(x'05', substr(pub, 2)), msg, sig)", "sm2_verify(substr(pub, 1, 20), msg, sig)",
            "sm2_verify('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n', msg, sig)",
            "sm2_verify(pub, msg, x'3000')", "sm2_verify(pub, msg, x'')", "sm2_verify(pub, msg, substr(sig, 1, 40))",
            "sm2_verify(pub, msg, concat(sig, x'00'))", "sm2_verify(pub, msg, unhex(repeat('00', 64)))",
            "sm2_verify(pub, msg, x'3006020100020100')", // r = s = 0
            "sm2_verify(pub, msg, sig, repeat('x', 9000))", // an ID over 8191 bytes
            "sm2_verify(NULL, NULL, NULL)", "sm2_verify(NULL, NULL, NULL, NULL)",
        };
        for (String e : badVerify) {
            Object v = one(spark, "SELECT " + e + " FROM good");
            eq(v, Boolean.FALSE, e);
        }
        eq(one(spark, "SELECT sm2_verify(pub, msg, sig) FROM good"), Boolean.TRUE, "the good row verifies");
        eq(one(spark, "SELECT sm2_verify(pub, msg, sig, NULL) FROM good"), Boolean.TRUE, "a null ID is the default");
        // a column of keys, some bad, in one job: the bad rows are false, the others true
        eq(count(spark, "SELECT count_if(sm2_verify(CASE WHEN id % 4 = 0 THEN x'0102' ELSE pub END, msg, sig, signer))"
                + " FROM signed WHERE id < 1000"), 750L, "bad keys in a column: those rows false, the job goes on");

        // sm2_sign: nulls give null; a key that does not load fails the query, naming the cause
        eq(one(spark, "SELECT sm2_sign(priv, NULL) FROM signers WHERE k = 0"), null, "sm2_sign of a null message");
        eq(one(spark, "SELECT sm2_sign(NULL, x'00')"), null, "sm2_sign with a null key");
        System.out.println("test-spark-java: the ERROR lines of a failing sm2_sign task next are expected");
        String err = fails(spark, "SELECT sm2_sign(x'3000', msg) FROM docs WHERE id < 10");
        check(err != null && err.contains("sm2_sign: the private key does not load"), "a bad private key: " + err);
        err = fails(spark, "SELECT sm2_sign(pub_der, msg) FROM docs d JOIN signers s USING (k) WHERE d.id < 10");
        check(err != null && err.contains("sm2_sign: the private key does not load")
                && err.contains("a public key, not a private key"), "a public key given to sm2_sign: " + err);
        err = fails(spark, "SELECT sm2_sign(pub_pem, msg) FROM docs d JOIN signers s USING (k) WHERE d.id < 10");
        check(err != null && err.contains("a public key, not a private key"), "a PEM public key given to sm2_sign: " + err);
        err = fails(spark, "SELECT sm2_sign(priv, x'00', repeat('x', 9000)) FROM signers WHERE k = 0");
        check(err != null && err.contains("sm2_sign: the signer ID"), "an ID over 8191 bytes: " + err);
        // PEM private keys (STRING) sign what the binary key's public key verifies
        // (sm2_sign is non-deterministic, a fresh k each time: Spark wants it out of an aggregate's arguments)
        eq(count(spark, "SELECT count_if(sm2_verify(pub_der, msg, sig)) FROM (SELECT s.pub_der, d.msg,"
                + " sm2_sign(s.priv_pem, d.msg) AS sig FROM docs d JOIN signers s USING (k) WHERE d.id < 500)"), 500L,
                "PEM private keys");
        // STRING messages are their UTF-8 bytes
        eq(one(spark, "SELECT sm2_verify(pub_der, CAST('签名 ✓' AS BINARY), sm2_sign(priv, '签名 ✓'))"
                + " FROM signers WHERE k = 1"), Boolean.TRUE, "STRING messages as UTF-8");
        // two signatures of one message differ (fresh k), and sm2_sign is not folded into one
        eq(one(spark, "SELECT sm2_sign(priv, x'01') = sm2_sign(priv, x'01') FROM signers WHERE k = 2"), Boolean.FALSE,
                "two signatures differ");
        // argument checks at analysis time
        for (String e : new String[] {"sm2_verify(x'00', x'00')", "sm2_verify(1, x'00', x'00')",
                "sm2_verify(x'00', x'00', 'sig')", "sm2_sign(x'00')", "sm3(x'00', x'00')", "sm3(42)"}) {
            err = fails(spark, "SELECT " + e);
            check(err != null && err.contains("fastsm2: "), e + " is refused: " + err);
        }

        // ---- SM3 (GB/T 32905 A.1, A.2, and the empty message) ----
        eq(one(spark, "SELECT sm3('abc')"), "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0", "sm3 abc");
        eq(one(spark, "SELECT sm3(CAST('abc' AS BINARY))"),
                "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0", "sm3 of binary abc");
        eq(one(spark, "SELECT sm3(repeat('abcd', 16))"),
                "debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732", "sm3 abcd x16");
        eq(one(spark, "SELECT sm3(x'')"), "1ab21d8355cfa17f8e61194831e81a8f22bec8c728fefb747ed035eb5082aa2b",
                "sm3 of nothing");
        eq(one(spark, "SELECT sm3(NULL)"), null, "sm3 of null");
        List<Row> hashed = spark.sql("SELECT msg, sm3(msg) FROM signed WHERE id < 200").collectAsList();
        for (Row r : hashed) eq(r.getString(1), hex(SM3.digest((byte[]) r.get(0))), "sm3 of a message");
        eq(count(spark, "SELECT count(DISTINCT sm3(msg)) FROM signed"), (long) n, "sm3 over every row");
        String desc = spark.sql("DESCRIBE FUNCTION sm2_verify").collectAsList().toString();
        check(desc.contains("sm2_verify(pub, msg, sig[, id])"), "DESCRIBE FUNCTION: " + desc);

        // ---- verifyBatched (the batch API per partition): sm2_verify's answer on every row ----
        Dataset<Row> mixed = spark.sql("SELECT id, CASE WHEN id % 7 = 0 THEN x'0102' ELSE pub END AS pub,"
                + " CASE WHEN id % 10 = 0 THEN concat(msg, x'00') WHEN id % 11 = 0 THEN NULL ELSE msg END AS msg,"
                + " CASE WHEN id % 13 = 0 THEN x'3000' WHEN id % 17 = 0 THEN NULL ELSE sig END AS sig, signer"
                + " FROM signed").cache();
        check(mixed.count() == n, "mixed rows");
        long tb = System.nanoTime();
        Dataset<Row> batched = FastSM2Functions.verifyBatched(mixed, "pub", "msg", "sig", "signer", "valid").cache();
        long nvalid = batched.filter("valid").count();
        double batchSecs = (System.nanoTime() - tb) / 1e9;
        batched.createOrReplaceTempView("batched");
        eq(count(spark, "SELECT count(*) FROM batched WHERE valid != sm2_verify(pub, msg, sig, signer)"), 0L,
                "verifyBatched = sm2_verify on every row (bad keys, tampered, null and malformed rows)");
        check(nvalid > n / 2 && nvalid < n, "verifyBatched: some rows valid, some not: " + nvalid);
        eq(count(spark, "SELECT count(*) FROM batched WHERE valid IS NULL"), 0L, "verifyBatched is never null");
        eq(FastSM2Functions.verifyBatched(mixed, "pub", "msg", "sig", null, "ok").filter("ok").count(),
                count(spark, "SELECT count_if(sm2_verify(pub, msg, sig)) FROM batched"),
                "verifyBatched with the default ID = sm2_verify(pub, msg, sig)");
        check(Arrays.asList(batched.columns()).equals(Arrays.asList("id", "pub", "msg", "sig", "signer", "valid")),
                "verifyBatched keeps the columns and adds one");

        System.out.printf("test-spark-java: verifyBatched %.0f rows/s (with the caching)%n", n / batchSecs);
        System.out.printf("test-spark-java: SQL route: %d rows, %d partitions: sm2_sign %.0f rows/s (with the join and"
                + " caching), sm2_verify %.0f rows/s; %d private and %d public key parses%n", n, parts,
                n / signSecs, n / verifySecs, privParses, pubParses);
        spark.stop();

        // ---- part 2: FastSM2Functions.register and the Column helpers, no extension ----
        SparkSession s2 = SparkSession.builder().master("local[2]").appName("fastsm2-spark-java-register")
                .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate();
        s2.sparkContext().setLogLevel("ERROR");
        check(fails(s2, "SELECT sm3('abc')") != null, "no sm3 before register");
        FastSM2Functions.register(s2);
        eq(one(s2, "SELECT sm3('abc')"), "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0",
                "sm3 after register");
        List<Row> few = new ArrayList<>();
        for (int i = 0; i < 2000; i++)
            few.add(RowFactory.create(i, ("contract " + i).getBytes(StandardCharsets.UTF_8)));
        Dataset<Row> docs = s2.createDataFrame(few, StructType.fromDDL("i int, msg binary"));
        SM2PrivateKey key = keys[0];
        Dataset<Row> out = docs
                .withColumn("sig", FastSM2Functions.sm2_sign(org.apache.spark.sql.functions.lit(key.getEncoded()),
                        col("msg"), org.apache.spark.sql.functions.lit("notary@example.cn")))
                .withColumn("ok", FastSM2Functions.sm2_verify(
                        org.apache.spark.sql.functions.lit(key.getPublicKey().toPem()), col("msg"), col("sig"),
                        org.apache.spark.sql.functions.lit("notary@example.cn")))
                .withColumn("ok_default", FastSM2Functions.sm2_verify(
                        org.apache.spark.sql.functions.lit(key.getPublicKey().getEncoded()), col("msg"), col("sig")))
                .withColumn("h", FastSM2Functions.sm3(col("msg")));
        List<Row> got = out.collectAsList();
        check(got.size() == 2000, "register: rows");
        for (Row r : got) {
            check(r.getBoolean(r.fieldIndex("ok")), "register: a row verifies");
            check(!r.getBoolean(r.fieldIndex("ok_default")), "register: the default ID does not verify it");
            eq(r.getString(r.fieldIndex("h")), hex(SM3.digest((byte[]) r.get(1))), "register: sm3");
        }
        Row r0 = got.get(0);
        check(jcaVerify(fast, new SM2ParameterSpec("notary@example.cn"), key.getPublicKey().getEncoded(),
                (byte[]) r0.get(1), (byte[]) r0.get(2)), "register: the JCA provider verifies a signature");
        s2.stop();
        System.out.printf("test-spark-java: %d checks passed in %.1f s%n", checks, (System.nanoTime() - t0) / 1e9);
    }

    private static boolean jcaVerify(Provider p, AlgorithmParameterSpec spec, byte[] spki, byte[] msg, byte[] sig)
            throws Exception {
        PublicKey pk = KeyFactory.getInstance(p.getName().equals("BC") ? "EC" : "SM2", p)
                .generatePublic(new X509EncodedKeySpec(spki));
        Signature s = Signature.getInstance("SM3withSM2", p);
        s.setParameter(spec);
        s.initVerify(pk);
        s.update(msg);
        return s.verify(sig);
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
}
