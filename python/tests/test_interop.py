# SPDX-License-Identifier: Apache-2.0
"""Cross-checks on real files: the fastsm2 CLI, the openssl command line
(OpenSSL 3: the SM2 signer ID must be given, -sigopt distid:...), and the
formats of the pure-Python gmssl package (hex keys, C1C2C3 by default, a
64-byte C1 without 04)."""
import hmac
import subprocess

import pytest

import fastsm2

ID = "1234567812345678"


def run(*args, input=None, ok=True):
    p = subprocess.run([str(a) for a in args], input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if ok:
        assert p.returncode == 0, (args, p.stderr.decode(errors="replace"))
    return p


@pytest.fixture
def files(tmp_path):
    key = fastsm2.PrivateKey.generate()
    (tmp_path / "key.pem").write_bytes(key.to_pem())
    (tmp_path / "pub.pem").write_bytes(key.public_key.to_pem())
    msg = b"interop message\n" * 100
    (tmp_path / "msg").write_bytes(msg)
    return tmp_path, key, msg


# ---- the fastsm2 CLI ---------------------------------------------------------------
def test_cli_signatures(cli, files):
    d, key, msg = files
    run(cli, "sign", "--key", d / "key.pem", "--in", d / "msg", "--out", d / "cli.sig")
    assert key.public_key.verify(msg, (d / "cli.sig").read_bytes())
    run(cli, "sign", "--key", d / "key.pem", "--id", "alice", "--raw", "--in", d / "msg", "--out", d / "a.sig")
    assert key.public_key.verify(msg, (d / "a.sig").read_bytes(), id="alice", raw=True)
    assert not key.public_key.verify(msg, (d / "a.sig").read_bytes(), raw=True)
    (d / "py.sig").write_bytes(key.sign(msg))
    run(cli, "verify", "--pub", d / "pub.pem", "--in", d / "msg", "--sig", d / "py.sig")
    (d / "bad.sig").write_bytes(key.sign(msg + b"x"))
    assert run(cli, "verify", "--pub", d / "pub.pem", "--in", d / "msg", "--sig", d / "bad.sig",
               ok=False).returncode == 1


def test_cli_encryption_and_keys(cli, files):
    d, key, msg = files
    for flags, kw in (([], {}), (["--raw"], {"raw": True}), (["--raw", "--c1c2c3"], {"raw": True, "c1c2c3": True})):
        run(cli, "encrypt", "--pub", d / "pub.pem", "--in", d / "msg", "--out", d / "ct", *flags)
        assert key.decrypt((d / "ct").read_bytes(), **kw) == msg
        (d / "pyct").write_bytes(key.public_key.encrypt(msg, **kw))
        run(cli, "decrypt", "--key", d / "key.pem", "--in", d / "pyct", "--out", d / "pt", *flags)
        assert (d / "pt").read_bytes() == msg
    run(cli, "keygen", "--out", d / "k2.pem", "--pubout", d / "p2.pem")
    k2 = fastsm2.PrivateKey.from_pem((d / "k2.pem").read_bytes())
    assert k2.to_pem() == (d / "k2.pem").read_bytes()
    assert k2.public_key.to_pem() == (d / "p2.pem").read_bytes()
    assert fastsm2.PublicKey.from_pem((d / "p2.pem").read_text()) == k2.public_key
    run(cli, "pubkey", "--key", d / "key.pem", "--out", d / "p3.pem")
    assert (d / "p3.pem").read_bytes() == key.public_key.to_pem()


def test_cli_sm3(cli, tmp_path):
    for n in (0, 1, 55, 56, 64, 1000, 100000):
        data = bytes((i * 7 + n) & 0xFF for i in range(n))
        (tmp_path / "f").write_bytes(data)
        out = run(cli, "sm3", tmp_path / "f").stdout.decode().split()[0]
        assert out == fastsm2.sm3(data).hexdigest()


# ---- the openssl command line -----------------------------------------------------------
def test_openssl_keys(openssl, tmp_path):
    run(openssl, "genpkey", "-algorithm", "SM2", "-out", tmp_path / "k.pem")
    run(openssl, "pkey", "-in", tmp_path / "k.pem", "-pubout", "-out", tmp_path / "p.pem")
    run(openssl, "pkey", "-in", tmp_path / "k.pem", "-outform", "DER", "-out", tmp_path / "k.der")
    run(openssl, "ec", "-in", tmp_path / "k.pem", "-out", tmp_path / "sec1.pem")
    key = fastsm2.PrivateKey.from_pem((tmp_path / "k.pem").read_bytes())
    assert key.to_pem() == (tmp_path / "k.pem").read_bytes()  # byte for byte as OpenSSL writes
    assert fastsm2.PrivateKey.from_der((tmp_path / "k.der").read_bytes()) == key
    assert fastsm2.PrivateKey.from_pem((tmp_path / "sec1.pem").read_bytes()) == key
    assert fastsm2.PublicKey.from_pem((tmp_path / "p.pem").read_bytes()) == key.public_key
    assert key.public_key.to_pem() == (tmp_path / "p.pem").read_bytes()
    mine = fastsm2.PrivateKey.generate()
    (tmp_path / "m.pem").write_bytes(mine.to_pem(format="sec1"))
    out = run(openssl, "pkey", "-in", tmp_path / "m.pem", "-pubout").stdout
    assert out == mine.public_key.to_pem()


def test_openssl_signatures(openssl, files):
    d, key, msg = files
    (d / "py.sig").write_bytes(key.sign(msg))
    run(openssl, "dgst", "-sm3", "-verify", d / "pub.pem", "-sigopt", "distid:" + ID, "-signature", d / "py.sig",
        d / "msg")
    # openssl hashes an empty ID when none is given: our signature fails there
    assert run(openssl, "dgst", "-sm3", "-verify", d / "pub.pem", "-signature", d / "py.sig", d / "msg",
               ok=False).returncode != 0
    (d / "alice.sig").write_bytes(key.sign(msg, id=b"alice@example.com"))
    run(openssl, "dgst", "-sm3", "-verify", d / "pub.pem", "-sigopt", "distid:alice@example.com", "-signature",
        d / "alice.sig", d / "msg")
    run(openssl, "dgst", "-sm3", "-sign", d / "key.pem", "-sigopt", "distid:" + ID, "-out", d / "o.sig", d / "msg")
    assert key.public_key.verify(msg, (d / "o.sig").read_bytes())
    assert not key.public_key.verify(msg[:-1], (d / "o.sig").read_bytes())
    run(openssl, "pkeyutl", "-sign", "-inkey", d / "key.pem", "-rawin", "-digest", "sm3", "-pkeyopt", "distid:bob",
        "-in", d / "msg", "-out", d / "bob.sig")
    assert key.public_key.verify(msg, (d / "bob.sig").read_bytes(), id="bob")


def test_openssl_empty_id(openssl, files):
    """id=b"" is the empty ID: what openssl signs with when no distid is set."""
    d, key, msg = files
    (d / "empty.sig").write_bytes(key.sign(msg, id=b""))
    run(openssl, "dgst", "-sm3", "-verify", d / "pub.pem", "-signature", d / "empty.sig", d / "msg")
    run(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", d / "pub.pem", "-rawin", "-digest", "sm3", "-in", d / "msg",
        "-sigfile", d / "empty.sig")
    assert run(openssl, "dgst", "-sm3", "-verify", d / "pub.pem", "-sigopt", "distid:" + ID, "-signature",
               d / "empty.sig", d / "msg", ok=False).returncode != 0
    run(openssl, "dgst", "-sm3", "-sign", d / "key.pem", "-out", d / "o.sig", d / "msg")
    osig = (d / "o.sig").read_bytes()
    assert key.public_key.verify(msg, osig, id=b"")
    assert key.public_key.verify(msg, osig, id="")
    key.public_key.verify_or_raise(msg, osig, id=b"")
    assert key.public_key.with_id(b"").verify(msg, osig, id=b"")
    assert not key.public_key.verify(msg, osig)  # the default ID
    assert not key.public_key.verify(msg, osig, id=None)  # None: the default ID too


def test_openssl_encryption(openssl, files):
    d, key, msg = files
    (d / "ct").write_bytes(key.public_key.encrypt(msg))
    out = run(openssl, "pkeyutl", "-decrypt", "-inkey", d / "key.pem", "-in", d / "ct").stdout
    assert out == msg
    run(openssl, "pkeyutl", "-encrypt", "-pubin", "-inkey", d / "pub.pem", "-in", d / "msg", "-out", d / "oct")
    assert key.decrypt((d / "oct").read_bytes()) == msg


def test_openssl_sm3_and_hmac(openssl, tmp_path):
    data = bytes(range(256)) * 50
    (tmp_path / "f").write_bytes(data)
    out = run(openssl, "dgst", "-sm3", "-r", tmp_path / "f").stdout.decode().split()[0]
    assert out == fastsm2.sm3(data).hexdigest()
    out = run(openssl, "dgst", "-sm3", "-hmac", "k3y", "-r", tmp_path / "f").stdout.decode().split()[0]
    assert out == hmac.new(b"k3y", data, fastsm2.sm3).hexdigest()


# ---- the gmssl package's formats ----------------------------------------------------------
def _gmssl_key():
    """A new key the gmssl package can take. Its CryptSM2 strips a leading
    "04" from the x || y hex with str.lstrip("04"), which removes every
    leading '0' and '4': a key whose x starts with the hex digits 04 (1 in
    256) is misread there and its arithmetic fails (TypeError). Such keys
    are not a fastsm2 matter; draw again."""
    while True:
        key = fastsm2.PrivateKey.generate()
        if not key.public_key.to_bytes()[1:].hex().startswith("04"):
            return key


def _gmssl_pair(gmssl_sm2, key, mode=0):
    pub_hex = key.public_key.to_bytes()[1:].hex()  # gmssl: x || y, 128 hex digits, no 04
    return gmssl_sm2.CryptSM2(private_key=key.to_hex(), public_key=pub_hex, mode=mode)


def test_gmssl_hex_keys(gmssl_sm2):
    key = _gmssl_key()
    g = _gmssl_pair(gmssl_sm2, key)
    assert fastsm2.PrivateKey.from_hex(g.private_key) == key
    assert fastsm2.PublicKey.from_bytes(bytes.fromhex("04" + g.public_key)) == key.public_key


def test_gmssl_encryption(gmssl_sm2):
    key = _gmssl_key()
    msg = b"gmssl interop"
    for mode in (0, 1):  # 0: C1C2C3 (gmssl's default), 1: C1C3C2
        g = _gmssl_pair(gmssl_sm2, key, mode)
        ct = g.encrypt(msg)
        assert len(ct) == 64 + 32 + len(msg)  # C1 without its 04
        assert key.decrypt(b"\x04" + ct, raw=True, c1c2c3=(mode == 0)) == msg
        ours = key.public_key.encrypt(msg, raw=True, c1c2c3=(mode == 0))
        assert g.decrypt(ours[1:]) == msg


def test_gmssl_signatures(gmssl_sm2):
    key = _gmssl_key()
    g = _gmssl_pair(gmssl_sm2, key)
    msg = b"signed by gmssl"
    k_hex = fastsm2.PrivateKey.generate().to_hex()  # gmssl needs the caller's k; take it from the CSPRNG
    sig_hex = g.sign_with_sm3(msg, k_hex)
    assert key.public_key.verify(msg, bytes.fromhex(sig_hex), raw=True)
    ours = key.sign(msg, raw=True)
    assert g.verify_with_sm3(ours.hex(), msg)
    assert not g.verify_with_sm3(key.sign(b"other", raw=True).hex(), msg)


def test_gmssl_sm3():
    try:
        from gmssl import func, sm3
    except ImportError:
        from conftest import missing
        missing("the gmssl package")
    for data in (b"", b"abc", bytes(range(200))):
        assert sm3.sm3_hash(func.bytes_to_list(data)) == fastsm2.sm3(data).hexdigest()
