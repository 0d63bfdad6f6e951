# SPDX-License-Identifier: Apache-2.0
"""Secrets do not outlive the call in the package's own C buffers, and key
objects shared by threads are copied whole.

- PrivateKey.to_bytes, to_pem, to_der, decrypt and KeyExchange.compute
  leave every byte buffer they allocated with cffi zeroed once the result is
  copied out (the returned Python bytes are the caller's): a recording
  stand-in for the modules' ``ffi`` sees each buffer after the call;
- with_id() and the batch calls copy a public key while other threads
  verify with it and make its tables (its second use): every answer is
  right, in every thread.
"""
import threading

import pytest

import fastsm2
from fastsm2 import _keys, _kx
from fastsm2._native import ffi


class _Recorder:
    """ffi, recording the byte buffers that ffi.new hands out."""

    def __init__(self):
        self.bufs = []

    def new(self, ctype, *args):
        c = ffi.new(ctype, *args)
        if ctype.startswith("unsigned char"):
            self.bufs.append(c)
        return c

    def __getattr__(self, name):
        return getattr(ffi, name)


def _all_wiped(rec):
    assert rec.bufs, "the call allocated no buffer: the test sees nothing"
    return all(bytes(ffi.buffer(c)) == bytes(len(ffi.buffer(c))) for c in rec.bufs)


@pytest.fixture
def recorder(monkeypatch):
    rec = _Recorder()
    monkeypatch.setattr(_keys, "ffi", rec)
    monkeypatch.setattr(_kx, "ffi", rec)
    return rec


def test_private_key_exports_wipe_their_buffers(recorder):
    key = fastsm2.PrivateKey.generate()
    d = key.to_bytes()
    assert len(d) == 32 and d != bytes(32)
    assert _all_wiped(recorder)
    for fmt in ("pkcs8", "sec1"):
        recorder.bufs.clear()
        pem = key.to_pem(fmt)
        assert pem.startswith(b"-----BEGIN")
        assert _all_wiped(recorder)
        recorder.bufs.clear()
        der = key.to_der(fmt)
        assert fastsm2.PrivateKey.from_der(der).to_bytes() == d
        recorder.bufs.clear()
        key.to_der(fmt)
        assert _all_wiped(recorder)


def test_decrypt_wipes_its_buffer(recorder):
    key = fastsm2.PrivateKey.generate()
    ct = key.public_key.encrypt(b"attack at dawn")
    recorder.bufs.clear()
    assert key.decrypt(ct) == b"attack at dawn"
    assert _all_wiped(recorder)


def test_key_exchange_wipes_the_shared_key(recorder):
    ka, kb = fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate()
    a = fastsm2.KeyExchangeInitiator(ka, kb.public_key)
    b = fastsm2.KeyExchangeResponder(kb, ka.public_key)
    ra, rb = a.start(), b.start()
    recorder.bufs.clear()
    k1 = b.compute(ra, 32)
    assert _all_wiped(recorder)
    recorder.bufs.clear()
    k2 = a.compute(rb, 32)
    assert _all_wiped(recorder)
    assert k1 == k2 and k1 != bytes(32)


def test_copies_of_shared_keys_under_threads():
    key = fastsm2.PrivateKey.generate()
    msgs = [b"msg %d" % i for i in range(16)]
    sigs = [key.sign(m, raw=True) for m in msgs]
    digests = [key.public_key.message_digest(m) for m in msgs]
    errors = []

    for _ in range(5):
        # a fresh public key object each round: its second use makes its
        # tables while the other threads copy and verify with it
        pub = fastsm2.PublicKey.from_bytes(key.public_key.to_bytes())
        start = threading.Barrier(4)

        def verifier():
            start.wait()
            for m, s in zip(msgs, sigs):
                if not pub.verify(m, s, raw=True) or pub.verify(m + b"!", s, raw=True):
                    errors.append("verify")

        def copier():
            start.wait()
            for m, s in zip(msgs, sigs):
                other = pub.with_id(b"alice")
                if not other.verify(m, s, raw=True) or other.verify(m, s, id=b"alice", raw=True):
                    errors.append("with_id copy")

        def batcher():
            start.wait()
            for _ in range(4):
                got = fastsm2.verify_digest_batch([pub] * len(digests), digests, sigs, raw=True, threads=2, gpu=False)
                if got != [True] * len(digests):
                    errors.append("batch copy")

        def signer():
            start.wait()
            for m in msgs:
                k2 = key.with_id(b"bob")
                if not pub.verify(m, k2.sign(m, raw=True), raw=True):
                    errors.append("private copy")

        threads = [threading.Thread(target=f) for f in (verifier, copier, batcher, signer)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
