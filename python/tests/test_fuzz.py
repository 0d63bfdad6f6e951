# SPDX-License-Identifier: Apache-2.0
"""Fuzzing in-process: random bytes, mutated valid encodings and wrong types
into every entry point. A crash would kill the test run; every exception
must be the library's (FastSM2Error) or a TypeError/ValueError."""
import os
import random

import pytest

import fastsm2
from fastsm2 import hazmat

ALLOWED = (fastsm2.FastSM2Error, TypeError, ValueError)
ROUNDS = 400


@pytest.fixture(scope="module")
def material():
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    return {
        "key": key, "pub": pub,
        "valid": [key.to_pem(), key.to_der(), key.to_pem(format="sec1"), key.to_der(format="sec1"), pub.to_pem(),
                  pub.to_der(), pub.to_bytes(), pub.to_bytes(True), key.sign(b"m"), key.sign(b"m", raw=True),
                  pub.encrypt(b"fuzz me"), pub.encrypt(b"fuzz me", raw=True),
                  pub.encrypt(b"fuzz me", raw=True, c1c2c3=True)],
    }


def _targets(m):
    key, pub = m["key"], m["pub"]
    kx = fastsm2.KeyExchangeInitiator(key, pub)
    kx.start()
    return [
        fastsm2.PrivateKey.from_pem, fastsm2.PrivateKey.from_der, fastsm2.PrivateKey.load,
        fastsm2.PrivateKey.from_bytes, fastsm2.PublicKey.from_pem, fastsm2.PublicKey.from_der,
        fastsm2.PublicKey.load, fastsm2.PublicKey.from_bytes, fastsm2.sig_from_der,
        lambda b: pub.verify(b"m", b), lambda b: pub.verify(b"m", b, raw=True),
        lambda b: pub.verify_or_raise(b"m", b), lambda b: pub.verify_digest(bytes(32), b, raw=True),
        lambda b: pub.verify(b, b"\x30\x06\x02\x01\x01\x02\x01\x01", id=b or b"x"),
        key.decrypt, lambda b: key.decrypt(b, raw=True), lambda b: key.decrypt(b, raw=True, c1c2c3=True),
        lambda b: fastsm2.KeyExchangeResponder(key, pub).compute(b),
        lambda b: kx.compute(b), kx.verify_confirmation,
        lambda b: fastsm2.sm3(b).digest(), lambda b: fastsm2.kdf(b, len(b)),
        lambda b: pub.encrypt(b), lambda b: key.sign(b, id=b), lambda b: pub.z(b),
        lambda b: fastsm2.verify_digest_batch(pub, bytes(32 * (len(b) // 64)), b[:64 * (len(b) // 64)], raw=True),
        lambda b: hazmat.sign_digest_with_nonce(key, bytes(32), b),
        lambda b: hazmat.encrypt_with_nonce(pub, b"x", b),
    ]


def _call(f, arg):
    try:
        f(arg)
    except ALLOWED:
        pass


def _seed(default):
    """The run's FS2T_SEED (make test draws one and prints it), mixed with
    the test's own constant; the constant alone when it is not set."""
    env = os.environ.get("FS2T_SEED")
    return default if not env else int(env, 0) ^ default


def test_random_bytes(material):
    rnd = random.Random(_seed(20240917))
    targets = _targets(material)
    for _ in range(ROUNDS):
        n = rnd.choice([0, 1, 2, 31, 32, 33, 64, 65, 72, 97, 98, 150, rnd.randrange(0, 600)])
        data = bytes(rnd.getrandbits(8) for _ in range(n))
        for f in targets:
            _call(f, data)


def test_mutated_valid_encodings(material):
    rnd = random.Random(_seed(7))
    targets = _targets(material)
    for _ in range(ROUNDS):
        b = bytearray(rnd.choice(material["valid"]))
        op = rnd.randrange(4)
        if op == 0 and b:
            i = rnd.randrange(len(b))
            b[i] ^= 1 << rnd.randrange(8)
        elif op == 1 and b:
            del b[rnd.randrange(len(b)):]
        elif op == 2:
            b[rnd.randrange(len(b) + 1):0] = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(1, 5)))
        else:
            b = b.replace(b"\x30", bytes([rnd.getrandbits(8)]), 1)
        for f in targets:
            _call(f, bytes(b))
            _call(f, b)  # bytearray
            _call(f, memoryview(b))


WRONG = [None, 0, -1, 1 << 300, 3.5, "text", "", [], [1, 2], {}, object(), True, b"\x00" * 3,
         memoryview(b"abcd")[::2], 10 ** 20]


def test_wrong_types(material):
    key, pub = material["key"], material["pub"]
    calls = [
        lambda x: fastsm2.PrivateKey.from_pem(x), lambda x: fastsm2.PrivateKey.from_der(x),
        lambda x: fastsm2.PrivateKey.from_bytes(x), lambda x: fastsm2.PrivateKey.from_int(x),
        lambda x: fastsm2.PrivateKey.from_hex(x), lambda x: fastsm2.PublicKey.from_bytes(x),
        lambda x: fastsm2.PublicKey.from_pem(x), lambda x: fastsm2.PublicKey.from_point(x, x),
        lambda x: key.sign(x), lambda x: key.sign(b"m", id=x), lambda x: key.sign(b"m", raw=x),
        lambda x: key.sign_digest(x), lambda x: key.decrypt(x), lambda x: key.to_pem(format=x),
        lambda x: pub.verify(x, b"s"), lambda x: pub.verify(b"m", x), lambda x: pub.verify(b"m", b"s", id=x),
        lambda x: pub.verify_digest(x, x), lambda x: pub.encrypt(x), lambda x: pub.z(x),
        lambda x: fastsm2.sm3(x), lambda x: fastsm2.sm3().update(x), lambda x: fastsm2.kdf(x, 3),
        lambda x: fastsm2.kdf(b"z", x), lambda x: fastsm2.sig_to_der(x), lambda x: fastsm2.sig_from_der(x),
        lambda x: fastsm2.KeyExchangeInitiator(x, pub), lambda x: fastsm2.KeyExchangeResponder(key, x),
        lambda x: fastsm2.KeyExchangeInitiator(key, pub, id=x), lambda x: fastsm2.KeyExchangeInitiator(key, pub).compute(x),
        lambda x: fastsm2.KeyExchangeInitiator(key, pub).compute(pub.to_bytes(), x),
        lambda x: fastsm2.sign_digest_batch(x, [bytes(32)]), lambda x: fastsm2.sign_digest_batch(key, x),
        lambda x: fastsm2.sign_digest_batch(key, [bytes(32)], threads=x),
        lambda x: fastsm2.sign_digest_batch(key, [bytes(32)], gpu=x),
        lambda x: fastsm2.verify_digest_batch(x, [bytes(32)], [bytes(64)], raw=True),
        lambda x: fastsm2.verify_digest_batch(pub, [bytes(32)], x), lambda x: fastsm2.sign_batch(key, x),
        lambda x: fastsm2.verify_batch(pub, [b"m"], [x]), lambda x: fastsm2.gpu.GPU(x),
        lambda x: hazmat.sign_digest_with_nonce(x, bytes(32), bytes(32)),
        lambda x: hazmat.kx_start_with_nonce(x, bytes(32)), lambda x: fastsm2.error_for_code(x),
    ]
    for f in calls:
        for x in WRONG:
            try:
                f(x)
            except ALLOWED:
                pass
            except fastsm2.UnsupportedError:
                pass
    # the key still works after all that
    assert pub.verify(b"ok", key.sign(b"ok"))
