# SPDX-License-Identifier: Apache-2.0
"""fastsm2.spark on a real Spark session (local[2]): every row's result is
checked against the single-call API (PublicKey.load, verify_or_raise,
verify_digest_or_raise, PrivateKey.sign, sm3_digest)."""
import importlib.metadata
import re
from collections import Counter

import pandas as pd
import pytest

import fastsm2
import fastsm2._batch
from fastsm2 import CURVE_ORDER as N
from fastsm2 import DEFAULT_ID, FastSM2Error, IDError, PrivateKey, PublicKey
from fastsm2 import spark as fs

from conftest import REPO

P = 0xFFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF  # the field prime (GB/T 32918.5)
SM2_CURVE_OID = bytes.fromhex("06082a811ccf5501822d")  # 1.2.156.10197.1.301


# ---- the reference: the single-call API, row by row -----------------------------------------
def reference(key, data, sig, ident, raw=False, digest=False):
    """(valid, reason) of one row with the single-call API."""
    if key is None:
        return False, "key: null"
    try:
        pub = PublicKey.load(key)
    except FastSM2Error as e:
        return False, "key: " + e.name
    if data is None:
        return False, ("digest" if digest else "message") + ": null"
    if sig is None:
        return False, "signature: null"
    if digest and len(data) != 32:
        return False, "digest: FASTSM2_ERR_LENGTH"
    ident = DEFAULT_ID if ident is None else ident
    try:
        ok = pub.verify_digest(data, sig, raw=raw) if digest else pub.verify(data, sig, id=ident, raw=raw)
    except IDError:
        ok = False
    try:
        if digest:
            pub.verify_digest_or_raise(data, sig, raw=raw)
        else:
            pub.verify_or_raise(data, sig, id=ident, raw=raw)
    except IDError as e:
        assert not ok
        return False, "id: " + e.name
    except FastSM2Error as e:
        assert not ok
        return False, "signature: " + e.name
    assert ok
    return True, None


# ---- malformed inputs ---------------------------------------------------------------------------
def der_int(v):
    return b"\x02" + bytes([(v.bit_length() + 8) // 8]) + v.to_bytes((v.bit_length() + 8) // 8, "big")


def der_sig(r, s):
    body = der_int(r) + der_int(s)
    return b"\x30" + bytes([len(body)]) + body


def bad_key(rng, pub):
    der = pub.to_der()
    pt = pub.to_bytes()
    y = int.from_bytes(pt[33:], "big")
    forms = [
        b"",
        der[:-1],
        der + b"\x00",
        der[:rng.randrange(1, len(der) - 1)],
        pt[:1] + pt[1:33] + ((y + 1) % P).to_bytes(32, "big"),  # off the curve
        b"\x04" + bytes(rng.getrandbits(8) for _ in range(64)),
        pt[1:],  # 64 bytes, no prefix
        b"\x00",  # the point at infinity
        b"\x05" + pt[1:33],
        b"-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----\n",
    ]
    i = der.find(SM2_CURVE_OID)
    if i >= 0:  # an unknown curve
        forms.append(der[:i + len(SM2_CURVE_OID) - 1] + b"\x2e" + der[i + len(SM2_CURVE_OID):])
    return rng.choice(forms)


def bad_sig(rng, sig_der, raw64):
    r = int.from_bytes(raw64[:32], "big")
    s = int.from_bytes(raw64[32:], "big")
    forms = [
        b"",
        sig_der[:-1],
        sig_der + b"\x00",
        raw64,  # r || s where DER is expected
        der_sig(0, s),
        der_sig(r, 0),
        der_sig(N, s),
        der_sig(r, N + 5),
        der_sig(r, N - r),  # r + s = n
        b"\x30" + bytes([len(sig_der) - 1]) + b"\x02\x21\x00" + sig_der[4:] if sig_der[3] == 32 else b"\x30\x00",
    ]
    return rng.choice(forms)


def forged(raw64):
    r = int.from_bytes(raw64[:32], "big")
    s = int.from_bytes(raw64[32:], "big")
    s2 = s + 1 if s + 1 < N and r + s + 1 != N else s - 1
    return der_sig(r, s2)


KINDS = [  # (kind, weight)
    ("valid", 40), ("valid_id", 14), ("forged_msg", 7), ("forged_sig", 6), ("other_key", 5), ("wrong_id", 8),
    ("bad_key", 8), ("bad_sig", 7), ("bad_id", 2), ("null", 3),
]


def make_rows(rng, n, signers):
    """n rows (i, kind, key, msg, sig, id) over the signers (Zipf-like: a
    few keys sign most rows), each key in one of its three encodings."""
    kinds = [k for k, _ in KINDS]
    weights = [w for _, w in KINDS]
    sw = [1.0 / (j + 1) for j in range(len(signers))]
    rows = []
    for i in range(n):
        kind = rng.choices(kinds, weights)[0]
        sk = rng.choices(signers, sw)[0]
        pub = sk.public_key
        key = rng.choice([pub.to_der(), pub.to_bytes(), pub.to_bytes(compressed=True)])
        msg = rng.randbytes(rng.randrange(0, 160))
        ident = None
        if kind in ("valid_id", "wrong_id", "bad_id"):
            ident = rng.choice(["alice@example.com", "\u5f20\u4e09@example.cn", "bob-%d" % rng.randrange(50)])
        raw = sk.sign(msg, id=DEFAULT_ID if ident is None else ident, raw=True)
        sig = fastsm2.sig_to_der(raw)
        if kind == "forged_msg":
            msg = msg + b"!"
        elif kind == "forged_sig":
            sig = forged(raw)
        elif kind == "other_key":
            other = signers[(signers.index(sk) + 1) % len(signers)].public_key
            key = rng.choice([other.to_der(), other.to_bytes()])
        elif kind == "wrong_id":
            ident = rng.choice([None, ident + "x", ident.upper() + "-other"])
        elif kind == "bad_key":
            key = bad_key(rng, pub)
        elif kind == "bad_sig":
            sig = bad_sig(rng, sig, raw)
        elif kind == "bad_id":
            ident = "x" * 8192
        elif kind == "null":
            which = rng.randrange(3)
            key, msg, sig = (None if which == 0 else key, None if which == 1 else msg, None if which == 2 else sig)
        rows.append((i, kind, key, msg, sig, ident))
    return rows


def expect_by_kind(kind, valid, reason):
    """What each kind of row must give, whatever the reference says: so that
    a wrong reference cannot pass the comparison."""
    if kind in ("valid", "valid_id"):
        assert valid and reason is None
    elif kind in ("forged_msg", "forged_sig", "other_key", "wrong_id"):
        assert not valid and reason == "signature: FASTSM2_ERR_BAD_SIGNATURE"
    elif kind == "bad_key":
        assert not valid and reason.startswith("key: FASTSM2_ERR_")
    elif kind == "bad_sig":
        assert not valid and reason in ("signature: FASTSM2_ERR_DER", "signature: FASTSM2_ERR_SIG_RANGE")
    elif kind == "bad_id":
        assert not valid and reason == "id: FASTSM2_ERR_ID"
    elif kind == "null":
        assert not valid and reason in ("key: null", "message: null", "signature: null")
    else:
        raise AssertionError(kind)


@pytest.fixture(scope="module")
def signers():
    return [PrivateKey.generate() for _ in range(40)]


# ---- verification ---------------------------------------------------------------------------------
def test_verify_100k_rows_against_single_calls(spark, rng, signers):
    n = 100_000
    rows = make_rows(rng, n, signers)
    pdf = pd.DataFrame(rows, columns=["i", "kind", "key", "msg", "sig", "id"])
    from pyspark.sql.types import BinaryType, LongType, StringType, StructField, StructType

    schema = StructType([StructField("i", LongType(), False), StructField("kind", StringType(), False),
                         StructField("key", BinaryType(), True), StructField("msg", BinaryType(), True),
                         StructField("sig", BinaryType(), True), StructField("id", StringType(), True)])
    df = spark.createDataFrame(pdf, schema).repartition(6)
    out = fs.verify(df, "key", "sig", msg_col="msg", id_col="id")
    assert out.columns == ["i", "kind", "key", "msg", "sig", "id", "valid", "reason"]
    got = out.select("i", "valid", "reason").toPandas().sort_values("i")
    assert len(got) == n and list(got["i"]) == list(range(n))
    assert not got["valid"].isna().any()

    reasons = Counter()
    kinds = Counter()
    for (i, kind, key, msg, sig, ident), valid, reason in zip(rows, got["valid"], got["reason"]):
        want = reference(key, msg, sig, ident)
        have = (bool(valid), None if reason is None else str(reason))
        assert have == want, "row %d (%s): spark %r, single call %r" % (i, kind, have, want)
        expect_by_kind(kind, *have)
        reasons[have[1]] += 1
        kinds[kind] += 1
    assert set(kinds) == {k for k, _ in KINDS}
    for r in ("key: null", "message: null", "signature: null", "id: FASTSM2_ERR_ID",
              "signature: FASTSM2_ERR_BAD_SIGNATURE", "signature: FASTSM2_ERR_DER", "signature: FASTSM2_ERR_SIG_RANGE",
              "key: FASTSM2_ERR_POINT", "key: FASTSM2_ERR_DER"):
        assert reasons[r] > 0, r
    assert reasons[None] > n // 2


def test_verify_digests_raw_pem_keys(spark, rng, signers):
    """Digests and raw r || s, PEM keys in a string column."""
    rows = []
    for i in range(20_000):
        sk = rng.choice(signers[:5]) if rng.random() < 0.9 else rng.choice(signers)
        pub = sk.public_key
        e = pub.message_digest(rng.randbytes(20))
        raw = sk.sign_digest(e, raw=True)
        key = pub.to_pem().decode()
        c = rng.randrange(10)
        if c == 0:
            raw = raw[:63]
        elif c == 1:
            raw = raw[:32] + ((int.from_bytes(raw[32:], "big") + 1) % N or 1).to_bytes(32, "big")
        elif c == 2:
            e = e[:31]
        elif c == 3:
            raw = bytes(32) + raw[32:]
        elif c == 4:
            key = key.replace("M", "!", 1)
        elif c == 5:
            key = None
        rows.append((i, key, e, raw))
    df = spark.createDataFrame(pd.DataFrame(rows, columns=["i", "pem", "e", "rs"]),
                               "i long, pem string, e binary, rs binary")
    got = fs.verify(df, "pem", "rs", digest_col="e", raw=True, valid_col="ok", reason_col="why")
    got = got.select("i", "ok", "why").toPandas().sort_values("i")
    seen = Counter()
    for (i, key, e, raw), ok, why in zip(rows, got["ok"], got["why"]):
        want = reference(None if key is None else key.encode(), e, raw, None, raw=True, digest=True)
        assert (bool(ok), why) == want, i
        seen[why] += 1
    for r in (None, "key: null", "key: FASTSM2_ERR_PEM", "digest: FASTSM2_ERR_LENGTH", "signature: FASTSM2_ERR_LENGTH",
              "signature: FASTSM2_ERR_SIG_RANGE", "signature: FASTSM2_ERR_BAD_SIGNATURE"):
        assert seen[r] > 0, r


def test_verify_plan_errors(spark):
    df = spark.createDataFrame([(1, b"k", b"s", b"m")], "key long, sig binary, msg binary, k binary")
    with pytest.raises(TypeError):
        fs.verify(df)
    with pytest.raises(ValueError):
        fs.verify(df, "k", msg_col="msg", digest_col="msg")
    with pytest.raises(ValueError):
        fs.verify(df, "k", valid_col="msg")
    with pytest.raises(ValueError):
        fs.verify(df, "k", msg_col="nope")


# ---- signing and SM3 --------------------------------------------------------------------------------
def test_sign_with_key_and_key_file(spark, rng, tmp_path):
    key = PrivateKey.generate()
    pub = key.public_key
    msgs = [None if rng.random() < 0.02 else rng.randbytes(rng.randrange(0, 100)) for _ in range(6000)]
    msgs[10] = msgs[11] = b"same message"
    df = spark.createDataFrame(pd.DataFrame({"i": range(len(msgs)), "msg": msgs}), "i long, msg binary").repartition(3)
    path = tmp_path / "signer.pem"
    path.write_bytes(key.to_pem())
    for signed in (fs.sign(df, key), fs.sign(df, key_file=str(path)), fs.sign(df, key.to_pem().decode())):
        got = signed.toPandas().sort_values("i")
        sigs = list(got["sig"])
        for m, s in zip(msgs, sigs):
            if m is None:
                assert s is None
            else:
                assert pub.verify(m, s)
                assert not pub.verify(m + b"x", s)
        assert sigs[10] != sigs[11]  # a fresh k per signature
        assert len({s for s in sigs if s is not None}) == sum(m is not None for m in msgs)
    # With an ID, raw; then the verification of the signed column, all valid.
    signed = fs.sign(df.where("msg is not null"), key, id="signer@example.com", raw=True, sig_col="rs")
    checked = fs.verify(signed.withColumn("pub", fs_lit(pub.to_der())), "pub", "rs", msg_col="msg",
                        id="signer@example.com", raw=True)
    assert checked.where("not valid").count() == 0
    assert checked.count() == sum(m is not None for m in msgs)


def fs_lit(b):
    from pyspark.sql.functions import lit

    return lit(bytearray(b))


def test_sign_digests(spark, rng):
    key = PrivateKey.generate()
    ds = [rng.randbytes(32) for _ in range(999)] + [b"short", None]
    df = spark.createDataFrame(pd.DataFrame({"i": range(len(ds)), "e": ds}), "i long, e binary")
    got = fs.sign(df, key, digest_col="e", raw=True).toPandas().sort_values("i")
    for d, s in zip(ds, got["sig"]):
        if d is None or len(d) != 32:
            assert s is None
        else:
            assert key.public_key.verify_digest(d, s, raw=True)


def test_sign_plan_errors(spark):
    df = spark.createDataFrame([(b"m",)], "msg binary")
    with pytest.raises(ValueError):
        fs.sign(df)
    with pytest.raises(ValueError):
        fs.sign(df, PrivateKey.generate(), key_file="/x")
    with pytest.raises(FastSM2Error):
        fs.sign(df, b"not a key")


def test_sm3_column(spark, rng):
    vals = [None if rng.random() < 0.05 else rng.randbytes(rng.randrange(0, 300)) for _ in range(5000)]
    df = spark.createDataFrame(pd.DataFrame({"i": range(len(vals)), "m": vals}), "i long, m binary")
    got = fs.sm3(df, "m", out_col="h").toPandas().sort_values("i")
    for v, h in zip(vals, got["h"]):
        assert h == (None if v is None else fastsm2.sm3_digest(v))
    text = spark.createDataFrame([("abc",), (None,), ("\u4e2d\u6587",)], "t string")
    got = [r["sm3"] for r in fs.sm3(text, "t").collect()]
    assert got[0].hex() == "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"
    assert got[1] is None and got[2] == fastsm2.sm3_digest("\u4e2d\u6587".encode("utf-8"))


# ---- one batch (no Spark): keys parsed once, one call per key ------------------------------------------
def test_keys_parsed_once_and_one_key_object_per_group(monkeypatch, signers):
    fs._local.__dict__.pop("keys", None)
    loads = []
    orig = PublicKey.load.__func__

    def counting_load(cls, data):
        loads.append(bytes(data))
        return orig(cls, data)

    calls = []
    orig_verify = fastsm2._batch._cpu_verify

    def recording_verify(results, pubs, npubs, digests, sigs, n, threads):
        calls.append((npubs, n))
        return orig_verify(results, pubs, npubs, digests, sigs, n, threads)

    tabled = []
    orig_precompute = fs._precompute

    def recording_precompute(pk):
        tabled.append(pk.to_bytes())
        orig_precompute(pk)

    monkeypatch.setattr(fs, "_precompute", recording_precompute)
    monkeypatch.setattr(PublicKey, "load", classmethod(counting_load))
    monkeypatch.setattr(fastsm2._batch, "_cpu_verify", recording_verify)
    rows = []
    for j in range(3):  # three keys with many rows each
        sk = signers[j]
        for k in range(500 + 100 * j):
            m = b"%d/%d" % (j, k)
            rows.append((sk.public_key.to_der(), m, sk.sign(m)))
    for j in range(3, 8):  # five keys with one row each
        sk = signers[j]
        rows.append((sk.public_key.to_bytes(), b"one", sk.sign(b"one")))
    pdf = pd.DataFrame(rows, columns=["key", "msg", "sig"]).sample(frac=1, random_state=1)
    out = fs.verify_frame(pdf)
    assert out["valid"].all() and out["reason"].isna().all()
    assert sorted(loads) == sorted({r[0] for r in rows})  # each distinct key once
    assert sorted(calls) == [(1, 500), (1, 600), (1, 700), (5, 5)]
    # Tables for the three keys with many rows, once; none for a key of one row.
    assert sorted(tabled) == sorted(signers[j].public_key.to_bytes() for j in range(3))
    # The next batch (as a Python worker runs them) parses nothing again.
    loads.clear()
    calls.clear()
    out = fs.verify_frame(pdf)
    assert out["valid"].all() and loads == []
    assert len(calls) == 4
    # A single-row key verified a third time (its third batch) gets them too.
    tabled.clear()
    out = fs.verify_frame(pdf)
    assert out["valid"].all() and loads == [] and len(tabled) == 5
    tabled.clear()
    fs.verify_frame(pdf)
    assert tabled == []


def test_verify_frame_misuse():
    pdf = pd.DataFrame({"key": [b"k"], "sig": [b"s"], "msg": [b"m"], "valid": [True]})
    with pytest.raises(ValueError):
        fs.verify_frame(pdf)  # "valid" exists
    with pytest.raises(ValueError):
        fs.verify_frame(pdf, msg_col="msg", digest_col="msg", valid_col="v")
    with pytest.raises(ValueError):
        fs.verify_frame(pdf, digest_col="msg", id_col="key", valid_col="v")
    out = fs.verify_frame(pdf.drop(columns="valid"))
    assert list(out["valid"]) == [False] and list(out["reason"]) == [reference(b"k", b"m", b"s", None)[1]]
    assert len(fs.verify_frame(pdf.iloc[:0], valid_col="v")) == 0


# ---- packaging and docs -----------------------------------------------------------------------------------
def test_wheel_declares_the_spark_extra():
    md = importlib.metadata.metadata("fastsm2")
    assert "spark" in (md.get_all("Provides-Extra") or [])
    reqs = md.get_all("Requires-Dist") or []
    assert any(re.match(r"pyspark\b.*extra == .spark.", r) for r in reqs), reqs
    # PySpark warns on every job under pandas 3: the extra keeps pandas below it
    assert any(re.match(r"pandas\b.*<3.*extra == .spark.", r) for r in reqs), reqs


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def test_spark_md_examples_run(spark, tmp_path, monkeypatch):
    blocks = python_blocks((REPO / "docs" / "SPARK.md").read_text())
    assert blocks
    monkeypatch.chdir(tmp_path)
    ns = {"__name__": "__doc_example__"}
    for i, code in enumerate(blocks):
        # the ledger (1) and the job over it (2) run in turn; the third is a
        # script of its own and runs alone
        if i == 2:
            ns = {"__name__": "__doc_example__"}
        exec(compile(code, "docs/SPARK.md block %d" % (i + 1), "exec"), ns)
