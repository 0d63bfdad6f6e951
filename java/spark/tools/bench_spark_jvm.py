# SPDX-License-Identifier: Apache-2.0
"""Rows per second of the Spark SQL functions of the jar (sm2_verify,
sm2_sign, sm3 of java/spark: fastsm2-spark.jar) beside the Python
fastsm2.spark (verify, sign, sm3) on the same rows, in one Spark session
(local[2]) and one process run: `make bench-spark-java`, or this script with
PySpark and fastsm2 installed and --jars fastsm2-jca.jar,fastsm2-spark.jar.

The rows are those of `make bench-spark` (python/tools/bench_spark.py):
--rows messages of --msg-len bytes signed by --keys signers (a Zipf-like
mix), SPKI DER keys, DER signatures, the default ID, --forged of them
forged. The DataFrame is cached in one partition ("1 executor core": one
task at a time) or in four ("2 executor cores"). After an untimed pass of
each run, the runs take turns --rounds times and each keeps its best pass.
Each pass ends in one aggregate (the count of valid rows, the total length
of the signatures or digests), so that every row is computed and nothing is
collected.

Also FastSM2Functions.verifyBatched (the Dataset call of the jar that
groups rows by key and uses the batch API), called through py4j.

Printed: a Markdown table (rows/s, and the ratio of each JVM run to the
Python run of the same work and cores) and the conditions."""
import argparse
import os
import platform
import sys
import time

import fastsm2
from fastsm2 import spark as fs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python", "tools"))
from bench_spark import make_rows  # noqa: E402  the rows of make bench-spark


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jars", required=True, help="fastsm2-jca.jar,fastsm2-spark.jar")
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--keys", type=int, default=20)
    ap.add_argument("--msg-len", type=int, default=100)
    ap.add_argument("--forged", type=float, default=0.05)
    ap.add_argument("--batch", type=int, default=10_000, help="spark.sql.execution.arrow.maxRecordsPerBatch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3, help="timed passes of each run, interleaved; the best counts")
    a = ap.parse_args()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("FASTSM2_GPU", "off")

    keys, owner, keycol, msgs, sigs, nvalid = make_rows(a.rows, a.keys, a.msg_len, a.forged, a.seed)
    n = a.rows
    signer = keys[0]
    priv_der = signer.to_der()  # PKCS#8

    import pandas as pd
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master("local[2]").appName("fastsm2-bench-spark-jvm")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", "2g")
             .config("spark.jars", a.jars)
             .config("spark.sql.extensions", "org.fastsm2.spark.FastSM2Extensions")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(a.batch))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    pdf = pd.DataFrame({"key": keycol, "msg": msgs, "sig": sigs})
    src = spark.createDataFrame(pdf, "key binary, msg binary, sig binary")
    dfs = {1: src.coalesce(1).cache(), 2: src.repartition(4).cache()}
    for df in dfs.values():
        assert df.count() == n
    priv_lit = "X'%s'" % priv_der.hex()

    def py_verify(c):
        got = fs.verify(dfs[c]).agg(F.count_if(F.col("valid"))).collect()[0][0]
        assert got == nvalid, (got, nvalid)

    def jvm_verify(c):
        got = dfs[c].selectExpr("count_if(sm2_verify(key, msg, sig))").collect()[0][0]
        assert got == nvalid, (got, nvalid)

    jfs = spark.sparkContext._jvm.org.fastsm2.spark.FastSM2Functions
    try:
        from pyspark.sql.classic.dataframe import DataFrame as JDataFrame
    except ImportError:  # PySpark 3.5
        from pyspark.sql import DataFrame as JDataFrame

    def jvm_batched(c):
        jdf = jfs.verifyBatched(dfs[c]._jdf, "key", "msg", "sig", None, "valid")
        got = JDataFrame(jdf, spark).agg(F.count_if(F.col("valid"))).collect()[0][0]
        assert got == nvalid, (got, nvalid)

    def py_sign(c):
        got = fs.sign(dfs[c].select("msg"), signer).agg(F.sum(F.length("sig"))).collect()[0][0]
        assert got > 70 * n, got

    def jvm_sign(c):
        got = dfs[c].selectExpr("sm2_sign(%s, msg) AS sig" % priv_lit).agg(F.sum(F.length("sig"))).collect()[0][0]
        assert got > 70 * n, got

    def py_sm3(c):
        got = fs.sm3(dfs[c].select("msg"), "msg").agg(F.sum(F.length("sm3"))).collect()[0][0]
        assert got == 32 * n, got

    def jvm_sm3(c):
        got = dfs[c].selectExpr("sum(length(sm3(msg)))").collect()[0][0]
        assert got == 64 * n, got

    def jvm_none(c):
        got = dfs[c].selectExpr("count_if(length(key) + length(msg) + length(sig) > 0)").collect()[0][0]
        assert got == n, got

    runs = []
    for work, py, jvm in (("verify", py_verify, jvm_verify), ("sign", py_sign, jvm_sign), ("sm3", py_sm3, jvm_sm3)):
        for c in (1, 2):
            where = "1 executor core (1 partition)" if c == 1 else "2 executor cores (4 partitions)"
            runs.append(("%s, %s: fastsm2.spark.%s (Python)" % (work, where, work), (lambda f, c: lambda: f(c))(py, c),
                         None))
            runs.append(("%s, %s: SQL %s (JVM)" % (work, where, {"verify": "sm2_verify", "sign": "sm2_sign"}.get(
                work, "sm3")), (lambda f, c: lambda: f(c))(jvm, c), len(runs) - 1))
            if work == "verify":
                runs.append(("verify, %s: FastSM2Functions.verifyBatched (JVM, the batch API per partition)" % where,
                             (lambda c: lambda: jvm_batched(c))(c), len(runs) - 2))
    for c in (1, 2):
        runs.append(("no work, %d executor core%s: the JVM pass alone (count_if over the columns)" % (
            c, "" if c == 1 else "s"), (lambda c: lambda: jvm_none(c))(c), None))
    for _, fn, _ in runs:  # warm-up: Python workers started, JIT, keys cached
        fn()
    best = [float("inf")] * len(runs)
    for _ in range(a.rounds):  # interleaved, the best of each: a noisy neighbour slows every run alike
        for j, (_, fn, _) in enumerate(runs):
            t = time.perf_counter()
            fn()
            best[j] = min(best[j], time.perf_counter() - t)
    spark_version = spark.version
    jvm = spark.sparkContext._jvm.System.getProperty("java.vm.version")
    spark.stop()

    print("fastsm2 %s (%s backend), Spark/PySpark %s, Java %s, pandas %s, Python %s, %s, %d CPUs, load average %s" % (
        fastsm2.__version__, fastsm2.backend(), spark_version, jvm, pd.__version__, platform.python_version(),
        platform.machine(), os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
    print("%d rows, %d keys (Zipf-like), %d-byte messages, DER signatures, %.0f%% forged; %d-row Arrow batches; "
          "Spark in local[2]; the best of %d interleaved passes" % (n, a.keys, a.msg_len, 100 * a.forged, a.batch,
                                                                    a.rounds))
    print()
    print("| run | rows/s | JVM / Python |")
    print("|---|---:|---:|")
    for (name, _, ref), dt in zip(runs, best):
        ratio = "%.2f" % (best[ref] / dt) if ref is not None else ""
        print("| %s | %.0f | %s |" % (name, n / dt, ratio))


if __name__ == "__main__":
    main()
