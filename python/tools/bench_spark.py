# SPDX-License-Identifier: Apache-2.0
"""Rows per second of SM2 verification: fastsm2.spark on 1 and 2 executor
cores of a Spark local[2] session beside the single-process batch API, in
one process run (`make bench-spark`, or this script with PySpark and
fastsm2 installed).

The rows: --rows messages of --msg-len bytes signed by --keys signers (a
Zipf-like mix: a few keys sign most rows), DER signatures and SPKI DER keys
as a ledger would hold them, the default ID, --forged of them forged. After
an untimed pass of each run (Python workers started, keys cached), the runs
take turns --rounds times and each keeps its best pass: the steady rate of
a long job, with a noisy neighbour slowing every run alike. "1 executor
core" is the DataFrame in one partition (one task at a time), "2" in four.

Printed: a Markdown table (rows/s and the ratio to the one-thread batch
API) and the conditions (CPU, load average, versions)."""
import argparse
import os
import platform
import random
import sys
import time

import fastsm2
from fastsm2 import spark as fs


def make_rows(n, nkeys, msg_len, forged, seed):
    rng = random.Random(seed)
    keys = [fastsm2.PrivateKey.generate() for _ in range(nkeys)]
    weights = [1.0 / (j + 1) for j in range(nkeys)]
    owner = rng.choices(range(nkeys), weights, k=n)
    msgs = [rng.randbytes(msg_len) for _ in range(n)]
    sigs = [b""] * n
    for j, k in enumerate(keys):
        idx = [i for i in range(n) if owner[i] == j]
        for i, s in zip(idx, fastsm2.sign_batch(k, [msgs[i] for i in idx], threads=0)):
            sigs[i] = s
    nbad = 0
    for i in range(n):
        if rng.random() < forged:
            msgs[i] = msgs[i][:-1] + bytes([msgs[i][-1] ^ 1])
            nbad += 1
    ders = [k.public_key.to_der() for k in keys]
    return keys, owner, [ders[o] for o in owner], msgs, sigs, n - nbad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
    # ---- the single-process batch API: parsed keys, rows grouped by key ----
    pubs = [fastsm2.PublicKey.load(k.public_key.to_der()) for k in keys]
    for p in pubs:  # their tables, as fastsm2.spark makes them for keys used more than twice
        fs._precompute(p)
    groups = {}
    for i, o in enumerate(owner):
        groups.setdefault(o, []).append(i)

    def batch_api(threads):
        good = 0
        for o, idx in groups.items():
            res = fastsm2.verify_batch(pubs[o], [msgs[i] for i in idx], [sigs[i] for i in idx], threads=threads)
            good += sum(res)
        assert good == nvalid, (good, nvalid)

    # ---- fastsm2.spark.verify_frame on pandas frames, one process, no Spark ----
    import pandas as pd

    pdf = pd.DataFrame({"key": keycol, "msg": msgs, "sig": sigs})
    frames = [pdf.iloc[i:i + a.batch] for i in range(0, n, a.batch)]

    def frames_run():
        good = sum(int(fs.verify_frame(f, threads=1)["valid"].sum()) for f in frames)
        assert good == nvalid, (good, nvalid)

    # ---- Spark local[2]: one task at a time (one partition), or two ----
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master("local[2]").appName("fastsm2-bench-spark")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", "2g")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(a.batch))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    src = spark.createDataFrame(pdf, "key binary, msg binary, sig binary")
    dfs = {1: src.coalesce(1).cache(), 2: src.repartition(4).cache()}
    for df in dfs.values():
        assert df.count() == n

    def spark_verify(slots):
        got = fs.verify(dfs[slots]).agg(F.sum(F.col("valid").cast("int")).alias("ok")).collect()[0]["ok"]
        assert got == nvalid, (got, nvalid)

    def spark_identity(slots):
        def ident(it):
            for p in it:
                yield p.assign(valid=True)

        got = dfs[slots].mapInPandas(ident, "key binary, msg binary, sig binary, valid boolean").agg(
            F.sum(F.col("valid").cast("int"))).collect()[0][0]
        assert got == n

    runs = [
        ("batch API, one process, threads=1 (keys parsed, tables made beforehand)", lambda: batch_api(1)),
        ("batch API, one process, threads=2 (keys parsed, tables made beforehand)", lambda: batch_api(2)),
        ("verify_frame, one process, %d-row pandas frames (no Spark)" % a.batch, frames_run),
        ("Spark, 1 executor core (1 partition): fastsm2.spark.verify", lambda: spark_verify(1)),
        ("Spark, 2 executor cores (4 partitions): fastsm2.spark.verify", lambda: spark_verify(2)),
        ("Spark, 1 executor core: the pass without verifying (Arrow and pandas only)", lambda: spark_identity(1)),
        ("Spark, 2 executor cores: the pass without verifying", lambda: spark_identity(2)),
    ]
    for _, fn in runs:  # warm-up: Python workers started, keys cached
        fn()
    best = [float("inf")] * len(runs)
    for _ in range(a.rounds):  # interleaved, the best of each: a noisy neighbour slows every run alike
        for j, (_, fn) in enumerate(runs):
            t = time.perf_counter()
            fn()
            best[j] = min(best[j], time.perf_counter() - t)
    spark_version = spark.version
    spark.stop()
    results = [(name, dt) for (name, _), dt in zip(runs, best)]

    base = n / results[0][1]
    print("fastsm2 %s (%s backend), PySpark %s, pandas %s, Python %s, %s, %d CPUs, load average %s" % (
        fastsm2.__version__, fastsm2.backend(), spark_version, pd.__version__, platform.python_version(),
        platform.machine(), os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
    print("%d rows, %d keys (Zipf-like), %d-byte messages, DER signatures, %.0f%% forged; %d-row Arrow batches; "
          "Spark in local[2]; the best of %d interleaved passes" % (n, a.keys, a.msg_len, 100 * a.forged, a.batch,
                                                                    a.rounds))
    print()
    print("| run | rows/s | ratio |")
    print("|---|---:|---:|")
    for name, dt in results:
        print("| %s | %.0f | %.2f |" % (name, n / dt, n / dt / base))


if __name__ == "__main__":
    main()
