# SPDX-License-Identifier: Apache-2.0
"""Batch calls: results equal the single calls, bad items are False, the
GIL is released, and the GPU policy falls back to CPU threads."""
import os
import sys
import threading
import time

import pytest

import fastsm2
from fastsm2 import _batch


@pytest.fixture(scope="module")
def keys():
    return [fastsm2.PrivateKey.generate() for _ in range(4)]


def _digests(n, seed=b""):
    return [fastsm2.sm3(seed + i.to_bytes(4, "big")).digest() for i in range(n)]


def test_sign_digest_batch_one_key(keys):
    key = keys[0]
    ds = _digests(37)
    sigs = fastsm2.sign_digest_batch(key, ds, raw=True, threads=2)
    assert len(sigs) == 37 and all(len(s) == 64 for s in sigs)
    assert len(set(sigs)) == 37
    for d, s in zip(ds, sigs):
        assert key.public_key.verify_digest(d, s, raw=True)
    der = fastsm2.sign_digest_batch(key, b"".join(ds))  # one buffer, DER out
    assert all(key.public_key.verify_digest(d, s) for d, s in zip(ds, der))
    assert fastsm2.sign_digest_batch(key, []) == []


def test_sign_digest_batch_per_item_keys(keys):
    ks = [keys[i % 4] for i in range(20)]
    ds = _digests(20, b"k")
    sigs = fastsm2.sign_digest_batch(ks, ds, raw=True, threads=3)
    for k, d, s in zip(ks, ds, sigs):
        assert k.public_key.verify_digest(d, s, raw=True)
    assert not keys[1].public_key.verify_digest(ds[0], sigs[0], raw=True)
    with pytest.raises(ValueError):
        fastsm2.sign_digest_batch(ks[:3], ds)
    with pytest.raises(TypeError):
        fastsm2.sign_digest_batch([keys[0].public_key] * 20, ds)
    with pytest.raises(ValueError):
        fastsm2.sign_digest_batch(keys[0], [b"short"])
    with pytest.raises(ValueError):
        fastsm2.sign_digest_batch(keys[0], b"x" * 33)
    with pytest.raises(TypeError):
        fastsm2.sign_digest_batch(keys[0], "text")
    with pytest.raises(ValueError):
        fastsm2.sign_digest_batch(keys[0], ds, threads=-1)


def test_verify_digest_batch_matches_single(keys):
    ks = [keys[i % 4] for i in range(24)]
    ds = _digests(24, b"v")
    sigs = fastsm2.sign_digest_batch(ks, ds)
    sigs[3] = b"\x30\x00"  # malformed DER
    sigs[5] = sigs[6]  # another digest's signature
    sigs[7] = b"junk"
    pubs = [k.public_key for k in ks]
    res = fastsm2.verify_digest_batch(pubs, ds, sigs, threads=2)
    single = [p.verify_digest(d, s) for p, d, s in zip(pubs, ds, sigs)]
    assert res == single
    assert [i for i, ok in enumerate(res) if not ok] == [3, 5, 7]
    raw = fastsm2.sign_digest_batch(keys[0], ds, raw=True)
    assert fastsm2.verify_digest_batch(keys[0].public_key, b"".join(ds), b"".join(raw), raw=True) == [True] * 24
    raw[0] = raw[0][:63]
    raw[1] = bytes(64)
    out = fastsm2.verify_digest_batch(keys[0].public_key, ds, raw, raw=True)
    assert out == [False, False] + [True] * 22
    with pytest.raises(ValueError):
        fastsm2.verify_digest_batch(keys[0].public_key, ds, raw[:3], raw=True)
    with pytest.raises(ValueError):
        fastsm2.verify_digest_batch(pubs[:2], ds, raw, raw=True)


def test_message_batches(keys):
    msgs = [b"m%d" % i * i for i in range(15)]
    for ident in (fastsm2.DEFAULT_ID, b"alice"):
        sigs = fastsm2.sign_batch(keys[1], msgs, id=ident)
        assert all(keys[1].public_key.verify(m, s, id=ident) for m, s in zip(msgs, sigs))
        assert fastsm2.verify_batch(keys[1].public_key, msgs, sigs, id=ident) == [True] * 15
        assert fastsm2.verify_batch(keys[1].public_key, msgs[::-1], sigs, id=ident) == \
            [a == b for a, b in zip(msgs[::-1], msgs)]
    ks = [keys[i % 4] for i in range(15)]
    sigs = fastsm2.sign_batch(ks, msgs, raw=True)
    assert fastsm2.verify_batch([k.public_key for k in ks], msgs, sigs, raw=True) == [True] * 15
    assert all(k.public_key.verify(m, s, raw=True) for k, m, s in zip(ks, msgs, sigs))
    with pytest.raises(TypeError):
        fastsm2.sign_batch(keys[0], b"not a list")


def test_batch_releases_the_gil(keys):
    """A Python thread keeps running while one batch call is inside C: it
    leaves time stamps in the middle of the call (a call that held the GIL
    would let it run only before or after)."""
    ds = b"".join(_digests(3000, b"g"))
    stamps = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            stamps.append(time.monotonic())

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    t = threading.Thread(target=ticker)
    t.start()
    try:
        time.sleep(0.01)
        t0 = time.monotonic()
        fastsm2.sign_digest_batch(keys[0], ds, raw=True, threads=1, gpu=False)
        t1 = time.monotonic()
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    margin = (t1 - t0) / 4
    inside = [s for s in stamps if t0 + margin < s < t1 - margin]
    assert t1 - t0 > 0.004, "batch too short to observe"
    assert inside, "no Python thread ran while the batch was in C"


# ---- GPU policy and its fallback ------------------------------------------------
def test_no_gpu_means_cpu(keys, monkeypatch):
    if fastsm2.gpu.device_count() > 0:
        pytest.skip("a GPU is present")
    monkeypatch.delenv("FASTSM2_GPU", raising=False)
    assert fastsm2.batch_backend(10 ** 6) == "cpu"
    with pytest.raises(fastsm2.UnsupportedError) as ei:
        fastsm2.sign_digest_batch(keys[0], _digests(2), gpu=True)
    assert ei.value.name == "FASTSM2_ERR_UNSUPPORTED"
    with pytest.raises(fastsm2.UnsupportedError):
        fastsm2.gpu.GPU(0)
    monkeypatch.setenv("FASTSM2_GPU", "on")
    with pytest.raises(fastsm2.UnsupportedError):
        fastsm2.verify_digest_batch(keys[0].public_key, _digests(1), [bytes(64)], raw=True)
    monkeypatch.setenv("FASTSM2_GPU", "off")
    assert fastsm2.batch_backend(10 ** 6) == "cpu"


def test_auto_mode_falls_back_to_cpu_threads(keys, monkeypatch):
    """Pretend a device is there: the GPU context cannot be made (the
    library has no CUDA), so auto mode must sign and verify on CPU threads,
    while gpu=True must raise."""
    if fastsm2.gpu.device_count() > 0:
        pytest.skip("a GPU is present")
    calls = []
    real_sign, real_verify = _batch._cpu_sign, _batch._cpu_verify
    monkeypatch.setattr(_batch, "_device_count", lambda: 1)
    monkeypatch.setattr(_batch, "_auto_gpu", None)
    monkeypatch.setattr(_batch, "_cpu_sign", lambda *a: calls.append("sign") or real_sign(*a))
    monkeypatch.setattr(_batch, "_cpu_verify", lambda *a: calls.append("verify") or real_verify(*a))
    monkeypatch.setattr(_batch, "GPU_MIN_BATCH", 4)
    monkeypatch.delenv("FASTSM2_GPU", raising=False)
    ds = _digests(8, b"f")
    sigs = fastsm2.sign_digest_batch(keys[0], ds, raw=True)
    assert fastsm2.verify_digest_batch(keys[0].public_key, ds, sigs, raw=True) == [True] * 8
    assert calls == ["sign", "verify"]
    assert fastsm2.batch_backend(8) == "cpu"
    with pytest.raises(fastsm2.UnsupportedError):
        fastsm2.sign_digest_batch(keys[0], ds, gpu=True)


def test_auto_mode_falls_back_when_the_gpu_call_fails(keys, monkeypatch):
    """A device whose batch call says FASTSM2_ERR_UNSUPPORTED or NO_MEMORY:
    auto mode redoes the batch on CPU threads; an explicit device raises."""
    class FakeGPU(fastsm2.gpu.GPU):
        def __init__(self, code):
            self.code, self.calls = code, 0

        name = "fake"

        def _sign(self, *a):
            self.calls += 1
            return self.code

        def _verify(self, *a):
            self.calls += 1
            return self.code

        def __del__(self):
            pass

    ds = _digests(6, b"x")
    for code, exc in ((fastsm2.UnsupportedError.code, fastsm2.UnsupportedError),
                      (fastsm2.NoMemoryError.code, fastsm2.NoMemoryError)):
        fake = FakeGPU(code)
        monkeypatch.setattr(_batch, "_pick_device", lambda gpu, n, f=fake: (f, "auto"))
        sigs = fastsm2.sign_digest_batch(keys[2], ds, raw=True)
        assert fastsm2.verify_digest_batch(keys[2].public_key, ds, sigs, raw=True) == [True] * 6
        assert fake.calls == 2
        monkeypatch.undo()
        with pytest.raises(exc):
            fastsm2.sign_digest_batch(keys[2], ds, gpu=fake)


@pytest.mark.skipif(fastsm2.gpu.device_count() == 0, reason="no CUDA device (or built without CUDA)")
def test_gpu_matches_cpu(keys):
    ds = _digests(2048, b"gpu")
    with fastsm2.gpu.GPU(0) as dev:
        assert dev.name
        sigs = fastsm2.sign_digest_batch(keys[0], ds, raw=True, gpu=dev)
        assert fastsm2.verify_digest_batch(keys[0].public_key, ds, sigs, raw=True, gpu=False) == [True] * 2048
        bad = list(sigs)
        bad[7] = bytes(64)
        gpu_res = fastsm2.verify_digest_batch(keys[0].public_key, ds, bad, raw=True, gpu=dev)
        assert gpu_res == fastsm2.verify_digest_batch(keys[0].public_key, ds, bad, raw=True, gpu=False)
        privs = b"".join(k.to_bytes() for k in keys)
        assert dev.keygen_batch(privs) == [k.public_key.to_bytes() for k in keys]
