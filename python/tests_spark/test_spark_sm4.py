# SPDX-License-Identifier: Apache-2.0
"""fastsm2.spark.sm4_encrypt / sm4_decrypt / try_sm4_decrypt on a real Spark
session, side by side with Spark's own aes_encrypt / aes_decrypt /
try_aes_decrypt on the same rows: the same layout (lengths, the IV in
front), the same nulls, the same failures (the job fails where Spark's
fails, null where try_ gives null); every SM4 row checked with the one-shot
Python API (fastsm2.SM4GCM, sm4_cbc_decrypt, sm4_ecb_decrypt)."""
import pytest
from pyspark.sql import functions as F

import fastsm2
from fastsm2 import spark as fs
from fastsm2.ciphers import sm4_cbc_decrypt, sm4_ecb_decrypt


def _rows(rng, n=300):
    rows = []
    keys = [rng.getrandbits(128).to_bytes(16, "big") for _ in range(4)]
    for i in range(n):
        msg = None if i % 37 == 5 else rng.getrandbits(8 * (i % 70)).to_bytes(i % 70, "big")
        key = None if i % 41 == 7 else keys[i % 4]
        aad = None if i % 43 == 9 else (b"row %d" % i)
        rows.append((i, msg, key, aad, ("text %d" % i) if i % 3 else None))
    return rows


@pytest.fixture(scope="module")
def frame(spark):
    import random
    rows = _rows(random.Random(46))
    return spark.createDataFrame(rows, "i long, msg binary, key binary, aad binary, txt string").cache()


def _check_row(mode, out, msg, key, aad=None, iv=None):
    if mode == "GCM":
        assert len(out) == 12 + len(msg) + 16
        if iv is not None:
            assert out[:12] == iv
        assert fastsm2.SM4GCM(key).decrypt(out[:12], out[12:], aad or None) == msg
    elif mode == "CBC":
        assert len(out) == 16 + (len(msg) // 16 + 1) * 16
        if iv is not None:
            assert out[:16] == iv
        assert sm4_cbc_decrypt(key, out[:16], out[16:]) == msg
    else:
        assert len(out) == (len(msg) // 16 + 1) * 16
        assert sm4_ecb_decrypt(key, out) == msg


@pytest.mark.parametrize("mode", ["GCM", "CBC", "ECB", None])
def test_encrypt_decrypt_like_aes(frame, mode):
    args = () if mode is None else (mode,)
    m = mode or "GCM"
    df = frame.select(
        "i", "msg", "key", "aad",
        fs.sm4_encrypt("msg", "key", *args).alias("sm4"),
        F.aes_encrypt("msg", "key", *(F.lit(a) for a in args)).alias("aes"),
    )
    if m == "GCM":
        df = df.withColumn("sm4_aad", fs.sm4_encrypt("msg", "key", "GCM", "DEFAULT", aad="aad"))
    rows = df.collect()
    assert len(rows) == 300
    for r in rows:
        # the same nulls and the same lengths as aes_encrypt with a 16-byte key
        assert (r.sm4 is None) == (r.aes is None), r.i
        if r.sm4 is None:
            continue
        assert len(r.sm4) == len(r.aes), (r.i, m)
        _check_row(m, r.sm4, r.msg, r.key)
        if m == "GCM":
            if r.aad is None:
                assert r.sm4_aad is None
            else:
                _check_row(m, r.sm4_aad, r.msg, r.key, aad=r.aad)
    # and back through sm4_decrypt, beside aes_decrypt
    back = df.select(
        "i", "msg",
        fs.sm4_decrypt("sm4", "key", *args).alias("sm4"),
        F.aes_decrypt("aes", "key", *(F.lit(a) for a in args)).alias("aes"),
    ).collect()
    for r in back:
        assert r.sm4 == r.aes == (r.msg if r.msg is not None and r.aes is not None else r.aes)
        if r.aes is not None:
            assert r.sm4 == r.msg


def test_given_iv_and_strings(frame, spark):
    iv12, iv16 = bytes(range(12)), bytes(range(16))
    df = frame.select(
        "i", "txt", "key",
        fs.sm4_encrypt("txt", "key", "GCM", iv=F.lit(iv12)).alias("g"),
        fs.sm4_encrypt(F.col("txt"), F.col("key"), "cbc", "pkcs", iv=F.lit(iv16)).alias("c"),
        F.aes_encrypt("txt", "key", F.lit("GCM"), F.lit("DEFAULT"), F.lit(iv12)).alias("ag"),
    ).collect()
    for r in df:
        assert (r.g is None) == (r.ag is None) == (r.txt is None or r.key is None)
        if r.g is not None:
            assert r.g[:12] == r.ag[:12] == iv12
            _check_row("GCM", r.g, r.txt.encode(), r.key, iv=iv12)
            _check_row("CBC", r.c, r.txt.encode(), r.key, iv=iv16)
    # the same IV twice gives the same bytes (deterministic given the IV)
    a = frame.select(fs.sm4_encrypt("msg", "key", iv=F.lit(iv12)).alias("x")).collect()
    b = frame.select(fs.sm4_encrypt("msg", "key", iv=F.lit(iv12)).alias("x")).collect()
    assert a == b
    # and random IVs differ
    c = frame.select(fs.sm4_encrypt("msg", "key").alias("x")).collect()
    assert [r.x for r in c if r.x] != [r.x for r in a if r.x]


def _fails(df):
    from pyspark.errors import PySparkException
    try:
        from py4j.protocol import Py4JJavaError
    except ImportError:  # pragma: no cover
        Py4JJavaError = PySparkException
    with pytest.raises((PySparkException, Py4JJavaError)) as e:
        df.collect()
    return str(e.value)


def test_failures_as_aes_decrypt(frame, spark):
    """A tampered row, a wrong key, a wrong AAD, a key of the wrong length:
    the job fails for sm4_decrypt where it fails for aes_decrypt, and
    try_sm4_decrypt gives null where try_aes_decrypt does."""
    enc = frame.where("msg IS NOT NULL AND key IS NOT NULL").select(
        "i", "key", "aad",
        fs.sm4_encrypt("msg", "key", "GCM", aad="aad").alias("s"),
        F.aes_encrypt("msg", "key", F.lit("GCM"), F.lit("DEFAULT"), F.lit(b""), F.col("aad")).alias("a"),
    ).where("aad IS NOT NULL").cache()
    # a flipped byte in row 10
    flip = F.udf(lambda b: None if b is None else bytes([b[0] ^ 1]) + b[1:], "binary")
    tampered = enc.withColumn("s", F.when(F.col("i") == 10, flip("s")).otherwise(F.col("s"))) \
                  .withColumn("a", F.when(F.col("i") == 10, flip("a")).otherwise(F.col("a")))
    msg_a = _fails(tampered.select(F.aes_decrypt("a", "key", F.lit("GCM"), F.lit("DEFAULT"), F.col("aad"))))
    msg_s = _fails(tampered.select(fs.sm4_decrypt("s", "key", "GCM", aad="aad")))
    assert "AES_CRYPTO_ERROR" in msg_a
    assert "SM4_CRYPTO_ERROR" in msg_s and "FASTSM2_ERR_TAG" in msg_s
    t = tampered.select(
        "i",
        fs.try_sm4_decrypt("s", "key", "GCM", aad="aad").alias("s"),
        F.try_aes_decrypt("a", "key", F.lit("GCM"), F.lit("DEFAULT"), F.col("aad")).alias("a"),
    ).collect()
    assert [r.i for r in t if r.s is None] == [r.i for r in t if r.a is None] == [10]
    # the wrong AAD: every row fails
    wrong = enc.withColumn("aad", F.lit(b"other"))
    _fails(wrong.select(F.aes_decrypt("a", "key", F.lit("GCM"), F.lit("DEFAULT"), F.col("aad"))))
    _fails(wrong.select(fs.sm4_decrypt("s", "key", "GCM", aad="aad")))
    # a 17-byte key (invalid for both): fails, and never shows the key
    k17 = bytes(range(100, 117))
    msg_s = _fails(frame.select(fs.sm4_encrypt("msg", F.lit(k17))))
    _fails(frame.select(F.aes_encrypt("msg", F.lit(k17))))
    assert "SM4_KEY_LENGTH" in msg_s and "17 bytes" in msg_s
    assert k17.hex() not in msg_s.lower() and repr(k17) not in msg_s
    # CBC with a wrong key: bad padding on (almost) every row
    cbc = frame.where("msg IS NOT NULL AND key IS NOT NULL").select(
        fs.sm4_encrypt("msg", "key", "CBC").alias("s"), F.lit(bytes(16)).alias("k0"))
    _fails(cbc.select(fs.sm4_decrypt("s", "k0", "CBC")))
    for r in cbc.select("s", "k0", fs.try_sm4_decrypt("s", "k0", "CBC").alias("x")).collect():
        try:
            want = sm4_cbc_decrypt(r.k0, r.s[:16], r.s[16:])
        except fastsm2.PaddingError:
            want = None  # what almost every row gives
        assert r.x == want
    # an IV with ECB, an AAD with CBC: errors, as Spark's
    _fails(frame.select(F.aes_encrypt("msg", "key", F.lit("ECB"), F.lit("DEFAULT"), F.lit(bytes(16)))))
    _fails(frame.select(fs.sm4_encrypt("msg", "key", "ECB", iv=F.lit(bytes(16)))))
    _fails(frame.select(fs.sm4_encrypt("msg", "key", "CBC", aad=F.lit(b"x"))))
    with pytest.raises(ValueError):
        fs.sm4_encrypt("msg", "key", "GCM", "PKCS")
    with pytest.raises(ValueError):
        fs.sm4_decrypt("msg", "key", "CTR")
