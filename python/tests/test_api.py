# SPDX-License-Identifier: Apache-2.0
"""Round trips and the documented behaviour of every Python call."""
import hashlib
import hmac
import re
from pathlib import Path

import pytest

import fastsm2
from fastsm2._native import ffi, lib
from conftest import REPO

N = fastsm2.CURVE_ORDER
HEADER = (REPO / "include" / "fastsm2.h").read_text()


# ---- the binding covers the C API ---------------------------------------------
def _header_functions():
    return sorted(set(re.findall(r"FASTSM2_API\s+(?:FASTSM2_WARN_UNUSED\s+)?[\w\s\*]*?\b(fastsm2_\w+)\s*\(", HEADER)))


def test_every_header_function_is_bound_and_used():
    """Each public C function is in the extension, and the package calls it
    (a function added to include/fastsm2.h and not bound here fails)."""
    funcs = _header_functions()
    assert len(funcs) >= 50
    pkg = "".join(p.read_text() for p in Path(fastsm2.__file__).parent.rglob("*.py"))
    for f in funcs:
        assert hasattr(lib, f), "not in the cffi extension: " + f
        assert re.search(r"\b_?lib\.%s\b" % f, pkg), "not called by the Python package: " + f


def test_error_classes_match_c_names():
    codes = [int(c) for c in re.findall(r"#define FASTSM2_ERR_\w+\s+\((-\d+)\)", HEADER)]
    assert len(codes) >= 20
    seen = set()
    for code in codes:
        exc = fastsm2.error_for_code(code)
        cname = ffi.string(lib.fastsm2_error_name(code)).decode()
        assert type(exc) is not fastsm2.FastSM2Error, "no class for " + cname
        assert isinstance(exc, fastsm2.FastSM2Error)
        assert exc.name == cname and exc.code == code
        assert str(exc).startswith(cname + ": ")
        assert getattr(fastsm2, type(exc).__name__) is type(exc)
        seen.add(type(exc))
    assert len(seen) == len(codes)
    assert fastsm2.DERError.name == "FASTSM2_ERR_DER"
    assert issubclass(fastsm2.DERError, ValueError)
    unknown = fastsm2.error_for_code(-999)
    assert type(unknown) is fastsm2.FastSM2Error and unknown.code == -999


# ---- keys ---------------------------------------------------------------------------
def test_key_round_trips():
    key = fastsm2.PrivateKey.generate()
    d = key.to_bytes()
    assert 1 <= key.to_int() <= N - 2
    assert fastsm2.PrivateKey.from_bytes(d) == key
    assert fastsm2.PrivateKey.from_int(key.to_int()) == key
    assert fastsm2.PrivateKey.from_hex(key.to_hex()) == key
    for fmt in ("pkcs8", "sec1"):
        pem = key.to_pem(format=fmt)
        assert pem.startswith(b"-----BEGIN " + (b"PRIVATE KEY" if fmt == "pkcs8" else b"EC PRIVATE KEY"))
        assert fastsm2.PrivateKey.from_pem(pem) == key
        assert fastsm2.PrivateKey.from_pem(pem.decode()) == key
        assert fastsm2.PrivateKey.from_der(key.to_der(format=fmt)) == key
        assert fastsm2.PrivateKey.load(key.to_der(format=fmt)) == key
    pub = key.public_key
    assert pub is key.public_key
    assert fastsm2.PublicKey.from_pem(pub.to_pem()) == pub
    assert fastsm2.PublicKey.from_der(pub.to_der()) == pub
    assert fastsm2.PublicKey.from_bytes(pub.to_bytes()) == pub
    comp = pub.to_bytes(compressed=True)
    assert len(comp) == 33 and comp[0] in (2, 3) and comp[1:] == pub.to_bytes()[1:33]
    assert fastsm2.PublicKey.from_bytes(comp) == pub
    assert fastsm2.PublicKey.from_point(pub.x, pub.y) == pub
    assert hash(fastsm2.PublicKey.from_bytes(comp)) == hash(pub)
    assert key.to_hex() not in repr(key)
    other = fastsm2.PrivateKey.generate()
    assert other != key and other.public_key != pub


def test_key_errors():
    with pytest.raises(fastsm2.PrivateKeyError):
        fastsm2.PrivateKey.from_bytes(bytes(32))
    with pytest.raises(fastsm2.PrivateKeyError):
        fastsm2.PrivateKey.from_int(N - 1)
    assert fastsm2.PrivateKey.from_int(N - 2).to_int() == N - 2
    with pytest.raises(fastsm2.PrivateKeyError):
        fastsm2.PrivateKey.from_int(-1)
    with pytest.raises(ValueError):
        fastsm2.PrivateKey.from_bytes(b"\x01" * 31)
    with pytest.raises(TypeError):
        fastsm2.PrivateKey()
    with pytest.raises(TypeError):
        fastsm2.PublicKey(b"\x04" + bytes(64))
    with pytest.raises(fastsm2.PointError) as ei:
        fastsm2.PublicKey.from_bytes(b"\x04" + bytes(64))
    assert ei.value.name == "FASTSM2_ERR_POINT"
    with pytest.raises(fastsm2.LengthError):
        fastsm2.PublicKey.from_bytes(b"\x04" + bytes(10))
    pub = fastsm2.PrivateKey.generate().public_key
    with pytest.raises(fastsm2.PointError):
        fastsm2.PublicKey.from_point(pub.x, pub.y ^ 1)
    with pytest.raises(fastsm2.PEMError):
        fastsm2.PrivateKey.from_pem(b"-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n")
    with pytest.raises(fastsm2.PEMError):
        fastsm2.PrivateKey.from_pem(fastsm2.PrivateKey.generate().to_der())
    with pytest.raises(fastsm2.DERError):
        fastsm2.PublicKey.from_der(pub.to_pem())
    with pytest.raises(fastsm2.DERError):
        fastsm2.PublicKey.from_der(pub.to_der()[:-1])
    with pytest.raises(ValueError):
        fastsm2.PrivateKey.generate().to_pem(format="pkcs1")
    # A P-256 key (prime256v1 OID) is another curve: KeyFormatError.
    p256 = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + pub.to_bytes()
    with pytest.raises(fastsm2.KeyFormatError):
        fastsm2.PublicKey.from_der(p256)


def test_cleared_key_is_unusable():
    key = fastsm2.PrivateKey.generate()
    key.clear()
    with pytest.raises(fastsm2.FastSM2Error):
        key.sign(b"m")


# ---- signatures ------------------------------------------------------------------------
def test_sign_verify():
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    for msg in (b"", b"a", b"message" * 1000, bytearray(b"ba"), memoryview(b"mv")):
        sig = key.sign(msg)
        assert 8 <= len(sig) <= 72 and sig[0] == 0x30
        assert pub.verify(msg, sig) is True
        assert pub.verify(bytes(msg) + b"!", sig) is False
        raw = key.sign(msg, raw=True)
        assert len(raw) == 64 and pub.verify(msg, raw, raw=True)
        assert pub.verify(msg, fastsm2.sig_to_der(raw))
        assert fastsm2.sig_from_der(fastsm2.sig_to_der(raw)) == raw
    sig = key.sign(b"m", id=b"alice@example.com")
    assert pub.verify(b"m", sig, id=b"alice@example.com")
    assert pub.verify(b"m", sig, id="alice@example.com")
    assert not pub.verify(b"m", sig)
    assert pub.verify(b"m", key.sign(b"m", id="1234567812345678"))
    assert pub.verify(b"m", key.sign(b"m"), id=b"1234567812345678")
    # two signatures of one message differ (fresh k)
    assert key.sign(b"m", raw=True) != key.sign(b"m", raw=True)
    # another key's signature does not verify
    assert not fastsm2.PrivateKey.generate().public_key.verify(b"m", key.sign(b"m"))


def test_verify_is_bool_and_named_reasons():
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    raw = key.sign(b"m", raw=True)
    assert pub.verify(b"m", raw[:63], raw=True) is False
    assert pub.verify(b"m", b"\x30\x00") is False
    assert pub.verify(b"m", bytes(64), raw=True) is False
    pub.verify_or_raise(b"m", raw, raw=True)
    with pytest.raises(fastsm2.BadSignatureError):
        pub.verify_or_raise(b"x", raw, raw=True)
    with pytest.raises(fastsm2.SignatureRangeError):
        pub.verify_or_raise(b"m", bytes(64), raw=True)
    with pytest.raises(fastsm2.DERError):
        pub.verify_or_raise(b"m", b"\x30\x00")
    with pytest.raises(fastsm2.LengthError):
        pub.verify_or_raise(b"m", raw[:10], raw=True)
    # r + s = n is refused (B5)
    r = int.from_bytes(raw[:32], "big")
    forged = raw[:32] + (N - r).to_bytes(32, "big")
    with pytest.raises(fastsm2.SignatureRangeError):
        pub.verify_or_raise(b"m", forged, raw=True)
    for bad_id in (b"x" * 8192, "x" * 8192):
        with pytest.raises(fastsm2.IDError):
            key.sign(b"m", id=bad_id)
        with pytest.raises(fastsm2.IDError):
            pub.verify(b"m", raw, id=bad_id, raw=True)
    assert pub.verify(b"m", key.sign(b"m", id=b"y" * 8191), id=b"y" * 8191)
    # the empty ID (b"" or ""): an ID of its own, neither the default (None) nor b"\0"
    e = key.sign(b"m", id=b"")
    assert pub.verify(b"m", e, id=b"") and pub.verify(b"m", e, id="")
    assert not pub.verify(b"m", e) and not pub.verify(b"m", e, id=None) and not pub.verify(b"m", e, id=b"\0")
    assert pub.z(b"") != pub.z() and pub.z(None) == pub.z()
    assert pub.message_digest(b"m", id=b"") == fastsm2.sm3(pub.z(b"") + b"m").digest()
    assert pub.verify(b"m", key.sign(b"m", id=None))
    with pytest.raises(TypeError):
        pub.verify("m", raw, raw=True)
    with pytest.raises(TypeError):
        key.sign("text")


def test_digest_calls():
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    e = pub.message_digest(b"abc")
    assert e == fastsm2.sm3(pub.z() + b"abc").digest()
    sig = key.sign_digest(e)
    assert pub.verify(b"abc", sig) and pub.verify_digest(e, sig)
    raw = key.sign_digest(e, raw=True)
    assert pub.verify_digest(e, raw, raw=True)
    assert not pub.verify_digest(bytes(32), raw, raw=True)
    pub.verify_digest_or_raise(e, raw, raw=True)
    pub.verify_digest_or_raise(e, sig)
    with pytest.raises(fastsm2.BadSignatureError):
        pub.verify_digest_or_raise(bytes(32), raw, raw=True)
    with pytest.raises(fastsm2.SignatureRangeError):
        pub.verify_digest_or_raise(e, bytes(64), raw=True)
    with pytest.raises(ValueError):
        key.sign_digest(b"short")
    assert pub.message_digest(b"abc", id=b"me") == fastsm2.sm3(pub.z(b"me") + b"abc").digest()


# ---- encryption ------------------------------------------------------------------------
def _ciphertext_parts(ct, raw, c1c2c3, mlen):
    """Offsets in a ciphertext: C1's last byte (y's low byte), C3's first
    byte, C2's last byte, and (DER only) the tag of the C3 OCTET STRING."""
    if raw:  # 04 || x || y, then C3 || C2 or C2 || C3
        c3 = 65 + mlen if c1c2c3 else 65
        c2_last = 64 + mlen if c1c2c3 else 96 + mlen
        return 64, c3, c2_last, None
    # SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3, OCTET STRING C2 }
    # (C2 before C3 with c1c2c3)
    def header(pos):  # -> (content start, content length)
        n = ct[pos + 1]
        if n < 0x80:
            return pos + 2, n
        k = n & 0x7F
        return pos + 2 + k, int.from_bytes(ct[pos + 2 : pos + 2 + k], "big")

    pos, _ = header(0)
    parts = []
    for _ in range(4):
        start, n = header(pos)
        parts.append((pos, start, n))
        pos = start + n
    assert pos == len(ct)
    (_, ys, yn) = parts[1]
    c3 = parts[3] if c1c2c3 else parts[2]
    c2 = parts[2] if c1c2c3 else parts[3]
    return ys + yn - 1, c3[1], c2[1] + c2[2] - 1, c3[0]


@pytest.mark.parametrize("raw", [False, True])
@pytest.mark.parametrize("c1c2c3", [False, True])
def test_encrypt_decrypt(raw, c1c2c3):
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    for msg in (b"x", b"hello world", bytes(range(256)) * 20):
        ct = pub.encrypt(msg, raw=raw, c1c2c3=c1c2c3)
        if raw:
            assert len(ct) == 97 + len(msg) and ct[0] == 4
        else:
            assert ct[0] == 0x30
        assert key.decrypt(ct, raw=raw, c1c2c3=c1c2c3) == msg
        if raw:
            # the other order does not authenticate
            with pytest.raises(fastsm2.DecryptError):
                key.decrypt(ct, raw=True, c1c2c3=not c1c2c3)
        # one byte flipped in each part: each gives its own error
        c1_last, c3_at, c2_at, tag_at = _ciphertext_parts(ct, raw, c1c2c3, len(msg))
        cases = [(c1_last, fastsm2.PointError), (c3_at, fastsm2.DecryptError), (c2_at, fastsm2.DecryptError)]
        if tag_at is not None:
            cases.append((tag_at, fastsm2.CiphertextError))
        for pos, error in cases:
            bad = bytearray(ct)
            bad[pos] ^= 0x01
            with pytest.raises(error):
                key.decrypt(bytes(bad), raw=raw, c1c2c3=c1c2c3)
    with pytest.raises(fastsm2.DecryptError):
        fastsm2.PrivateKey.generate().decrypt(pub.encrypt(b"secret"))


def test_raw_ciphertext_with_compressed_c1():
    key = fastsm2.PrivateKey.generate()
    ct = key.public_key.encrypt(b"compressed", raw=True)
    c1 = fastsm2.PublicKey.from_bytes(ct[:65]).to_bytes(compressed=True)
    assert key.decrypt(c1 + ct[65:], raw=True) == b"compressed"


def test_encrypt_errors():
    key = fastsm2.PrivateKey.generate()
    with pytest.raises(fastsm2.LengthError):
        key.public_key.encrypt(b"")
    with pytest.raises(fastsm2.CiphertextError):
        key.decrypt(b"\x04" + bytes(96), raw=True)
    with pytest.raises(fastsm2.CiphertextError):
        key.decrypt(b"", raw=True)
    with pytest.raises(fastsm2.FastSM2Error):
        key.decrypt(b"\x30\x03\x02\x01\x01")


# ---- SM3 and the KDF ---------------------------------------------------------------------
def test_sm3_hashlib_behaviour():
    h = fastsm2.sm3()
    assert (h.name, h.digest_size, h.block_size) == ("sm3", 32, 64)
    data = bytes(range(256)) * 9
    for cut in (0, 1, 63, 64, 65, 1000):
        h = fastsm2.sm3(data[:cut])
        h.update(memoryview(data)[cut:])
        assert h.digest() == fastsm2.sm3(data).digest()
    h = fastsm2.sm3(b"ab")
    c = h.copy()
    c.update(b"c")
    assert h.digest() == fastsm2.sm3(b"ab").digest()  # the copy is independent
    assert c.digest() == fastsm2.sm3(b"abc").digest()
    assert h.digest() == h.digest()  # digest() does not finalize
    h.update(b"c")
    assert h.hexdigest() == fastsm2.sm3(b"abc").hexdigest() == c.digest().hex()
    assert fastsm2.sm3(data=b"abc").digest() == c.digest()
    assert fastsm2.sm3_digest(data) == fastsm2.sm3(data).digest()
    assert fastsm2.sm3_digest(memoryview(data)[::3]) == fastsm2.sm3(data[::3]).digest()
    assert fastsm2.sm3(b"abc", usedforsecurity=False).digest() == c.digest()
    with pytest.raises(TypeError):
        fastsm2.sm3("abc")
    with pytest.raises(TypeError):
        fastsm2.sm3().update(None)


def test_hmac_sm3():
    """fastsm2.sm3 plugs into hmac; HMAC as RFC 2104 spells it out."""
    key, msg = b"k" * 70, b"the message"
    mac = hmac.new(key, msg, fastsm2.sm3).digest()
    k = fastsm2.sm3(key).digest().ljust(64, b"\0")
    inner = fastsm2.sm3(bytes(x ^ 0x36 for x in k) + msg).digest()
    assert mac == fastsm2.sm3(bytes(x ^ 0x5C for x in k) + inner).digest()
    assert mac != hmac.new(key, msg, hashlib.sha256).digest()


def test_kdf():
    z = b"shared secret"
    out = fastsm2.kdf(z, 100)
    assert len(out) == 100
    blocks = b"".join(fastsm2.sm3(z + i.to_bytes(4, "big")).digest() for i in range(1, 5))
    assert out == blocks[:100]
    assert fastsm2.kdf(z, 33) == out[:33]
    assert fastsm2.kdf(bytearray(z), 5) == out[:5]
    assert fastsm2.kdf(z, 0) == b""
    with pytest.raises(fastsm2.ArgumentError):
        fastsm2.kdf(z, -1)
    with pytest.raises(fastsm2.ArgumentError):
        fastsm2.kdf(z, 1 << 40)
    with pytest.raises(TypeError):
        fastsm2.kdf("z", 5)
    with pytest.raises(TypeError):
        fastsm2.kdf(z, 5.0)


# ---- key exchange --------------------------------------------------------------------------
def _pair(id_a=fastsm2.DEFAULT_ID, id_b=fastsm2.DEFAULT_ID):
    ka, kb = fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate()
    a = fastsm2.KeyExchangeInitiator(ka, kb.public_key, id=id_a, peer_id=id_b)
    b = fastsm2.KeyExchangeResponder(kb, ka.public_key, id=id_b, peer_id=id_a)
    return a, b


def test_key_exchange():
    for ids in ((fastsm2.DEFAULT_ID, fastsm2.DEFAULT_ID), (b"alice", "bob")):
        a, b = _pair(*ids)
        ra, rb = a.start(), b.start()
        assert len(ra) == 65 and ra[0] == 4
        kb = b.compute(ra, 48)
        ka = a.compute(rb, 48)
        assert ka == kb and len(ka) == 48
        a.verify_confirmation(b.confirmation())
        b.verify_confirmation(a.confirmation())
        with pytest.raises(fastsm2.ConfirmError):
            a.verify_confirmation(a.confirmation())
        with pytest.raises(fastsm2.ConfirmError):
            b.verify_confirmation(bytes(32))
        with pytest.raises(fastsm2.ConfirmError):
            b.verify_confirmation(b"short")


def test_ecdh():
    a, b = fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate()
    s = a.ecdh(b.public_key)
    assert len(s) == 32 and s == b.ecdh(a.public_key.to_bytes())
    assert s == b.ecdh(a.public_key.to_bytes(compressed=True))
    # d = 1: the peer's own x.
    assert fastsm2.PrivateKey.from_int(1).ecdh(b.public_key) == b.public_key.to_bytes()[1:33]
    bad = bytearray(b.public_key.to_bytes())
    bad[64] ^= 1
    with pytest.raises(fastsm2.PointError):
        a.ecdh(bytes(bad))
    with pytest.raises(fastsm2.LengthError):
        a.ecdh(bytes(bad[:64]))


def test_key_exchange_mismatched_ids_disagree():
    ka, kb = fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate()
    a = fastsm2.KeyExchangeInitiator(ka, kb.public_key, id=b"alice")
    b = fastsm2.KeyExchangeResponder(kb, ka.public_key, peer_id=b"mallory")
    ra, rb = a.start(), b.start()
    assert a.compute(rb) != b.compute(ra)
    with pytest.raises(fastsm2.ConfirmError):
        a.verify_confirmation(b.confirmation())


def test_key_exchange_errors():
    a, b = _pair()
    rb = b.start()
    with pytest.raises(fastsm2.StateError):
        a.compute(rb)
    with pytest.raises(fastsm2.StateError):
        a.confirmation()
    a.start()
    with pytest.raises(fastsm2.StateError):
        a.start()
    with pytest.raises(fastsm2.PointError):
        a.compute(b"\x04" + bytes(64))
    with pytest.raises(fastsm2.LengthError):
        a.compute(rb, 0)
    with pytest.raises(fastsm2.LengthError):
        a.compute(rb, 65537)
    with pytest.raises(fastsm2.IDError):
        fastsm2.KeyExchangeInitiator(fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate().public_key,
                                     id=b"x" * 8192)
    with pytest.raises(TypeError):
        fastsm2.KeyExchangeInitiator(fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate())
    a.clear()
    with pytest.raises(fastsm2.FastSM2Error):
        a.start()


def test_module_info():
    assert fastsm2.backend() in fastsm2.available_backends()
    assert "generic" in fastsm2.available_backends()
    assert fastsm2.library_version() == fastsm2.__version__
    assert (Path(fastsm2.__file__).parent / "py.typed").is_file()


# ---- multi-buffer SM3 and streaming encryption -----------------------------------------
def test_sm3_many():
    msgs = [bytes([i]) * (i * 37) for i in range(40)] + [b"", b"abc"]
    assert fastsm2.sm3_many(msgs) == [fastsm2.sm3(m).digest() for m in msgs]
    assert fastsm2.sm3_many([bytearray(b"x"), memoryview(b"yz")]) == [fastsm2.sm3(b"x").digest(),
                                                                      fastsm2.sm3(b"yz").digest()]
    assert fastsm2.sm3_many([]) == []
    with pytest.raises(TypeError):
        fastsm2.sm3_many(b"abc")
    with pytest.raises(TypeError):
        fastsm2.sm3_many(["abc"])


@pytest.mark.parametrize("raw,c1c2c3", [(False, False), (True, False), (True, True)])
def test_streams_match_one_shot(raw, c1c2c3, tmp_path):
    key = fastsm2.PrivateKey.generate()
    msg = bytes(range(256)) * 300 + b"tail"
    st = fastsm2.EncryptStream(key.public_key, len(msg), raw=raw, c1c2c3=c1c2c3)
    body = b"".join(st.update(msg[i:i + 1000]) for i in range(0, len(msg), 1000))
    c3 = st.final()
    ct = bytearray(st.prefix + body)
    if st.c3_offset < len(st.prefix):
        assert ct[st.c3_offset:st.c3_offset + 32] == bytes(32)
        ct[st.c3_offset:st.c3_offset + 32] = c3
    else:
        assert st.c3_offset == len(ct)
        ct += c3
    assert key.decrypt(bytes(ct), raw=raw, c1c2c3=c1c2c3) == msg
    one = key.public_key.encrypt(msg, raw=raw, c1c2c3=c1c2c3)
    assert len(one) == len(ct) if raw else abs(len(one) - len(ct)) <= 2  # DER INTEGERs may carry a 00
    ds = fastsm2.DecryptStream(key, one[:fastsm2._stream.PREFIX_MAX], len(one), raw=raw, c1c2c3=c1c2c3)
    assert ds.c2_length == len(msg)
    pt = ds.update(one[ds.c2_offset:ds.c2_offset + ds.c2_length])
    ds.final(one[ds.c3_offset:ds.c3_offset + 32])
    assert pt == msg
    # files, and a tampered file leaves no output
    src, enc, dec = tmp_path / "m", tmp_path / "c", tmp_path / "d"
    src.write_bytes(msg)
    with open(src, "rb") as f, open(enc, "wb") as g:
        n = fastsm2.encrypt_file(key.public_key, f, g, raw=raw, c1c2c3=c1c2c3, chunk_size=4096)
    assert n == enc.stat().st_size
    assert key.decrypt(enc.read_bytes(), raw=raw, c1c2c3=c1c2c3) == msg
    with open(enc, "rb") as f, open(dec, "w+b") as g:
        assert fastsm2.decrypt_file(key, f, g, raw=raw, c1c2c3=c1c2c3, chunk_size=5000) == len(msg)
    assert dec.read_bytes() == msg
    bad = bytearray(enc.read_bytes())
    bad[len(bad) // 2] ^= 4
    enc.write_bytes(bytes(bad))
    with open(enc, "rb") as f, open(dec, "w+b") as g:
        with pytest.raises(fastsm2.DecryptError):
            fastsm2.decrypt_file(key, f, g, raw=raw, c1c2c3=c1c2c3)
    assert dec.read_bytes() == b""


def test_encrypt_file_one_byte_redoes_zero_kdf():
    # GB/T 32918.4 6.1 A5: t = KDF(x2 || y2, 8 bits) is zero once in 256
    # encryptions; encrypt_file must start again with a fresh k, never fail
    import io
    key = fastsm2.PrivateKey.generate()
    for _ in range(600):
        out = io.BytesIO()
        n = fastsm2.encrypt_file(key.public_key, io.BytesIO(b"x"), out)
        assert n == len(out.getvalue())
    assert key.decrypt(out.getvalue()) == b"x"


def test_stream_errors():
    key = fastsm2.PrivateKey.generate()
    with pytest.raises(fastsm2.LengthError):
        fastsm2.EncryptStream(key.public_key, 0)
    st = fastsm2.EncryptStream(key.public_key, 5)
    with pytest.raises(fastsm2.LengthError):
        st.update(b"123456")
    st.update(b"123")
    with pytest.raises(fastsm2.LengthError):
        st.final()
    with pytest.raises(ValueError):
        fastsm2.EncryptStream(key.public_key, -1)
    with pytest.raises(fastsm2.ArgumentError):  # the prefix must be min(length, 128) bytes
        fastsm2.DecryptStream(key, b"\x04" + bytes(10), 200, raw=True)
    with pytest.raises(fastsm2.PointError):
        fastsm2.DecryptStream(key, b"\x04" + bytes(127), 200, raw=True)
    with pytest.raises(fastsm2.CiphertextError):
        fastsm2.DecryptStream(key, b"\x04" + bytes(90), 91, raw=True)
    ct = key.public_key.encrypt(b"hello", raw=True)
    ds = fastsm2.DecryptStream(key, ct, len(ct), raw=True)
    ds.update(ct[ds.c2_offset:ds.c2_offset + ds.c2_length])
    with pytest.raises(fastsm2.DecryptError):
        ds.final(bytes(32))


def test_with_id_caches_but_keeps_the_default():
    key = fastsm2.PrivateKey.generate()
    alice = key.with_id(b"alice")
    assert alice == key and alice.public_key == key.public_key
    s = alice.sign(b"m", id=b"alice")
    assert key.public_key.verify(b"m", s, id=b"alice")
    assert alice.public_key.verify(b"m", s, id="alice")
    assert not alice.public_key.verify(b"m", s)  # the default ID is still the default
    d = alice.sign(b"m")  # default ID, not the cached one
    assert key.public_key.verify(b"m", d) and not key.public_key.verify(b"m", d, id=b"alice")
    pa = key.public_key.with_id("alice")
    assert pa.verify(b"m", s, id=b"alice") and not pa.verify(b"m", s) and pa.verify(b"m", d)
    ke = key.with_id(b"")  # the empty ID's Z_A cached; calls still default to the default ID
    e = ke.sign(b"m", id=b"")
    assert key.public_key.verify(b"m", e, id=b"") and not key.public_key.verify(b"m", e)
    assert key.public_key.with_id(b"").verify(b"m", e, id=b"")
    with pytest.raises(fastsm2.IDError):
        key.public_key.with_id(b"x" * 8192)


def test_public_key_load_from_private_key_file():
    """PublicKey.load takes a plain private key file, as the CLI's --pub does."""
    key = fastsm2.PrivateKey.generate()
    for data in (key.to_pem(), key.to_der(), key.to_pem(format="sec1"), key.to_pem().decode()):
        assert fastsm2.PublicKey.load(data) == key.public_key
    with pytest.raises(fastsm2.EncryptedKeyError):
        fastsm2.PublicKey.load(key.to_pem(password="pw"))
    with pytest.raises(fastsm2.PEMError):
        fastsm2.PublicKey.load(b"-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----\n")
