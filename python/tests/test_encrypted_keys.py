# SPDX-License-Identifier: Apache-2.0
"""Password-encrypted keys, certificates, HMAC-SM3, the gmssl-package key
forms and the named key-file errors, through the Python API. GmSSL's own
files are the repository's tests/fixtures/gmssl; OpenSSL is the cross-check."""
import hmac
import subprocess

import pytest

import fastsm2
from conftest import REPO

FIX = REPO / "tests" / "fixtures" / "gmssl"
PW = "fastsm2-fixture"


@pytest.mark.parametrize("version", ["3.1", "3.2"])
def test_gmssl_files(version):
    d = FIX / version
    msg = (FIX / "msg.txt").read_bytes()
    keyfile = (d / "key.pem").read_bytes()
    with pytest.raises(fastsm2.EncryptedKeyError):
        fastsm2.PrivateKey.from_pem(keyfile)
    with pytest.raises(fastsm2.KeyFormatError):  # the older, wider name still catches it
        fastsm2.PrivateKey.load(keyfile)
    with pytest.raises(fastsm2.PasswordError):
        fastsm2.PrivateKey.from_pem(keyfile, password="nope")
    key = fastsm2.PrivateKey.from_pem(keyfile, password=PW)
    pub = fastsm2.PublicKey.from_pem((d / "pub.pem").read_bytes())
    assert key.public_key == pub
    assert pub.verify(msg, (d / "sig.der").read_bytes())
    assert key.decrypt((d / "ct.der").read_bytes()) == msg
    cert = fastsm2.PublicKey.from_certificate((d / "cert.pem").read_bytes())
    assert cert == pub
    with pytest.raises(fastsm2.CertificateError):
        fastsm2.PublicKey.load((d / "cert.pem").read_bytes())
    assert fastsm2.hmac_sm3(bytes(range(16)), msg).hex() == (d / "hmac.txt").read_text()[:64]


@pytest.mark.parametrize("scheme", ["sm3-sm4", "sha256-sm4", "sha256-aes256"])
def test_round_trip(scheme):
    key = fastsm2.PrivateKey.generate()
    for enc in (lambda: key.to_pem(password="pw", scheme=scheme, iterations=1000),
                lambda: key.to_der(password=b"pw", scheme=scheme, iterations=1000)):
        blob = enc()
        assert fastsm2.PrivateKey.load(blob, password="pw").to_bytes() == key.to_bytes()
        with pytest.raises(fastsm2.PasswordError):
            fastsm2.PrivateKey.load(blob, password="pW")
    with pytest.raises(ValueError):
        key.to_pem(password="x", format="sec1")
    with pytest.raises(ValueError):
        key.to_pem(password="x", scheme="rot13")


def _with_count(der, old, new):
    """der with its 3-byte iteration INTEGER old replaced by new."""
    was = bytes([2, 3]) + old.to_bytes(3, "big")
    assert der.count(was) == 1
    return der.replace(was, bytes([2, 3]) + new.to_bytes(3, "big"))


def test_iteration_limit():
    key = fastsm2.PrivateKey.generate()
    der = key.to_der(password="pw", scheme="sha256-aes256", iterations=70000)
    # the default limit reads this; a lower one refuses it, naming both counts
    assert fastsm2.PrivateKey.load(der, password="pw").to_bytes() == key.to_bytes()
    with pytest.raises(fastsm2.IterationsError, match="70000 PBKDF2 iterations, more than the limit of 1000"):
        fastsm2.PrivateKey.load(der, password="pw", max_iterations=1000)
    assert fastsm2.PrivateKey.from_der(der, password="pw", max_iterations=70000).to_bytes() == key.to_bytes()
    # past the default (2**21): refused at once, named (it was "KeyCipherError:
    # PBES1, legacy PEM" past 2**24), read when the caller raises the limit
    big = _with_count(der, 70000, (1 << 21) + 1)
    with pytest.raises(fastsm2.IterationsError, match="2097153 PBKDF2 iterations.*limit of 2097152.*max_iterations"):
        fastsm2.PrivateKey.load(big, password="pw")
    with pytest.raises(fastsm2.EncryptedKeyError):
        fastsm2.PrivateKey.load(big)  # no password: asked for first
    with pytest.raises(fastsm2.IterationsError, match="70000 PBKDF2 iterations, more than the limit of 100"):
        fastsm2.PrivateKey.load(der, max_iterations=100)  # ... unless a limit is given
    assert issubclass(fastsm2.IterationsError, fastsm2.KeyFormatError)
    with pytest.raises(fastsm2.PasswordError):  # read: the changed count derives another key
        fastsm2.PrivateKey.load(_with_count(der, 70000, 70001), password="pw", max_iterations=70001)
    with pytest.raises(fastsm2.EncryptedKeyError):
        fastsm2.PrivateKey.load(der)
    for bad in (0, -1, 1 << 32, 1.5, True):
        with pytest.raises(ValueError):
            fastsm2.PrivateKey.load(der, password="pw", max_iterations=bad)


def test_openssl_reads_ours(openssl, tmp_path):
    key = fastsm2.PrivateKey.generate()
    path = tmp_path / "k.pem"
    path.write_bytes(key.to_pem(password="pw", scheme="sha256-aes256", iterations=2048))
    out = subprocess.run([openssl, "pkey", "-in", str(path), "-passin", "pass:pw", "-pubout"],
                         check=True, capture_output=True).stdout
    assert fastsm2.PublicKey.from_pem(out) == key.public_key
    # and we read openssl's
    subprocess.run([openssl, "genpkey", "-algorithm", "SM2", "-sm4-cbc", "-pass", "pass:o", "-out",
                    str(tmp_path / "o.pem")], check=True, capture_output=True)
    k2 = fastsm2.PrivateKey.from_pem((tmp_path / "o.pem").read_bytes(), password=b"o")
    out = subprocess.run([openssl, "pkey", "-in", str(tmp_path / "o.pem"), "-passin", "pass:o", "-pubout"],
                         check=True, capture_output=True).stdout
    assert fastsm2.PublicKey.from_pem(out) == k2.public_key


def test_named_errors(openssl, tmp_path):
    subprocess.run([openssl, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out",
                    str(tmp_path / "p.pem")], check=True, capture_output=True)
    with pytest.raises(fastsm2.CurveError):
        fastsm2.PrivateKey.from_pem((tmp_path / "p.pem").read_bytes())
    subprocess.run([openssl, "ec", "-in", str(tmp_path / "p.pem"), "-aes256", "-passout", "pass:x", "-out",
                    str(tmp_path / "legacy.pem")], check=True, capture_output=True)
    with pytest.raises(fastsm2.KeyCipherError):
        fastsm2.PrivateKey.from_pem((tmp_path / "legacy.pem").read_bytes(), password="x")
    big = b"-----BEGIN PRIVATE KEY-----\n" + (b"A" * 64 + b"\n") * 120 + b"-----END PRIVATE KEY-----\n"
    with pytest.raises(fastsm2.TooLargeError):
        fastsm2.PrivateKey.from_pem(big)
    assert issubclass(fastsm2.CurveError, fastsm2.KeyFormatError) and issubclass(fastsm2.PasswordError, ValueError)


def test_hmac_sm3(openssl, tmp_path):
    key, msg = b"secret key", b"message " * 50
    want = hmac.new(key, msg, fastsm2.sm3).digest()
    assert fastsm2.hmac_sm3(key, msg) == want
    h = fastsm2.HMACSM3(key, msg[:7])
    h2 = h.copy()
    h.update(msg[7:])
    assert h.digest() == want and h.hexdigest() == want.hex()
    h2.update(msg[7:])
    assert h2.digest() == want
    (tmp_path / "m").write_bytes(msg)
    out = subprocess.run([openssl, "dgst", "-sm3", "-hmac", key.decode(), str(tmp_path / "m")],
                         check=True, capture_output=True, text=True).stdout
    assert out.strip().endswith(want.hex())


def test_gmssl_package_forms():
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    xy = pub.to_bytes()[1:]
    assert fastsm2.PublicKey.from_bytes(xy) == pub
    assert fastsm2.PublicKey.from_hex(xy.hex()) == pub
    assert fastsm2.PublicKey.from_hex(pub.to_hex()) == pub
    assert fastsm2.PublicKey.from_hex(pub.to_hex(compressed=True)) == pub
    assert pub.to_hex() == "04" + xy.hex()
    with pytest.raises(fastsm2.LengthError):
        fastsm2.PublicKey.from_bytes(xy[:63])
    with pytest.raises(TypeError):
        fastsm2.PublicKey.from_hex(xy)
