# SPDX-License-Identifier: Apache-2.0
"""The worked examples of GB/T 32918.5 and GB/T 32905 (tests/vectors in the repository),
through the Python API, on every backend this CPU runs."""
import os
import subprocess
import sys

import pytest

import fastsm2
from fastsm2 import hazmat
from conftest import section

H = bytes.fromhex


def test_sm3(vectors):
    pairs = vectors["sm3"]
    assert len(pairs) >= 4
    for (k1, msg), (k2, digest) in zip(pairs[0::2], pairs[1::2]):
        assert (k1, k2) == ("msg_ascii", "digest")
        assert fastsm2.sm3(msg.encode()).digest() == H(digest)
        h = fastsm2.sm3()
        for ch in msg.encode():
            h.update(bytes([ch]))
        assert h.hexdigest() == digest.lower()


def test_sign_example(vectors):
    v = section(vectors, "sign")
    key = fastsm2.PrivateKey.from_bytes(H(v["d"]))
    pub = key.public_key
    assert (pub.x, pub.y) == (int(v["Px"], 16), int(v["Py"], 16))
    assert pub == fastsm2.PublicKey.from_point(int(v["Px"], 16), int(v["Py"], 16))
    msg, ident = v["msg_ascii"].encode(), v["id_ascii"].encode()
    assert pub.z(ident) == H(v["ZA"])
    assert pub.z() == H(v["ZA"])  # the default ID is the example's
    e = pub.message_digest(msg, id=ident)
    assert e == H(v["e"])
    sig = hazmat.sign_digest_with_nonce(key, e, H(v["k"]))
    assert sig == H(v["r"]) + H(v["s"])
    assert pub.verify(msg, sig, raw=True)
    assert pub.verify(msg, fastsm2.sig_to_der(sig))
    assert pub.verify_digest(e, sig, raw=True)
    assert not pub.verify(msg + b"x", sig, raw=True)
    assert not pub.verify(msg, sig, id=b"1234567812345679", raw=True)


def test_encrypt_example(vectors):
    s, v = section(vectors, "sign"), section(vectors, "encrypt")
    key = fastsm2.PrivateKey.from_bytes(H(s["d"]))
    msg, k = v["msg_ascii"].encode(), H(s["k"])
    c1, c2, c3 = H(v["C1"]), H(v["C2"]), H(v["C3"])
    raw = hazmat.encrypt_with_nonce(key.public_key, msg, k, raw=True)
    assert raw == c1 + c3 + c2
    assert hazmat.encrypt_with_nonce(key.public_key, msg, k, raw=True, c1c2c3=True) == c1 + c2 + c3
    der = hazmat.encrypt_with_nonce(key.public_key, msg, k)
    # GM/T 0009: SEQUENCE { INTEGER x, INTEGER y (leading 00: y1 >= 0x80), OCTET STRING C3, OCTET STRING C2 }
    body = b"\x02\x20" + c1[1:33] + b"\x02\x21\x00" + c1[33:] + b"\x04\x20" + c3 + bytes([4, len(c2)]) + c2
    assert der == b"\x30" + bytes([len(body)]) + body
    assert key.decrypt(raw, raw=True) == msg
    assert key.decrypt(c1 + c2 + c3, raw=True, c1c2c3=True) == msg
    assert key.decrypt(der) == msg
    with pytest.raises(fastsm2.DecryptError) as ei:
        key.decrypt(c1 + c3 + c2[:-1] + bytes([c2[-1] ^ 1]), raw=True)
    assert ei.value.name == "FASTSM2_ERR_DECRYPT"


def test_key_exchange_example(vectors):
    v = section(vectors, "key_exchange")
    ka, kb = fastsm2.PrivateKey.from_bytes(H(v["dA"])), fastsm2.PrivateKey.from_bytes(H(v["dB"]))
    assert ka.public_key.to_bytes() == b"\x04" + H(v["PAx"]) + H(v["PAy"])
    assert kb.public_key.to_bytes() == b"\x04" + H(v["PBx"]) + H(v["PBy"])
    a = fastsm2.KeyExchangeInitiator(ka, kb.public_key)
    b = fastsm2.KeyExchangeResponder(kb, ka.public_key)
    ra = hazmat.kx_start_with_nonce(a, H(v["rA"]))
    rb = hazmat.kx_start_with_nonce(b, H(v["rB"]))
    assert ra == b"\x04" + H(v["RAx"]) + H(v["RAy"])
    assert rb == b"\x04" + H(v["RBx"]) + H(v["RBy"])
    klen = len(H(v["K"]))
    assert b.compute(ra, klen) == H(v["K"])
    assert a.compute(rb, klen) == H(v["K"])
    assert b.confirmation() == H(v["SB"])
    assert a.confirmation() == H(v["SA"])
    a.verify_confirmation(H(v["SB"]))
    b.verify_confirmation(H(v["SA"]))


_BACKEND_CHECK = r"""
import sys, fastsm2
from fastsm2 import hazmat
d, k, e, r, s, c1, c3, c2 = (bytes.fromhex(x) for x in sys.argv[2:10])
assert fastsm2.backend() == sys.argv[1], fastsm2.backend()
key = fastsm2.PrivateKey.from_bytes(d)
assert hazmat.sign_digest_with_nonce(key, e, k) == r + s
assert key.public_key.verify_digest(e, r + s, raw=True)
assert hazmat.encrypt_with_nonce(key.public_key, b"encryption standard", k, raw=True) == c1 + c3 + c2
assert key.decrypt(c1 + c3 + c2, raw=True) == b"encryption standard"
print("ok")
"""


@pytest.mark.parametrize("name", fastsm2.available_backends())
def test_every_backend(vectors, name):
    """FASTSM2_CPU=<name> forces each backend the CPU runs; each reproduces
    the examples (a child process: the backend is chosen at load time)."""
    s, v = section(vectors, "sign"), section(vectors, "encrypt")
    env = dict(os.environ, FASTSM2_CPU=name)
    args = [s["d"], s["k"], s["e"], s["r"], s["s"], v["C1"], v["C3"], v["C2"]]
    out = subprocess.run([sys.executable, "-c", _BACKEND_CHECK, name] + args, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stdout
