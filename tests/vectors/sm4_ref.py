#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent SM4 in plain Python, to check tests/vectors/sm4-examples.txt.

Written from the standards alone, sharing nothing with the C code: the S-box
as the table of GB/T 32907 clause 6.2 rebuilt from its algebraic form
(checked against the table's first row), the cipher of clauses 7.1-7.3, GCM
bit by bit as NIST SP 800-38D's algorithm 1 states it, CCM's formatting of
SP 800-38C appendix A, and XTS (IEEE 1619-2018, and GB/T 17964-2021's order
of the tweak's bits, OpenSSL's default for SM4-XTS).

  sm4_ref.py [--slow] [FILE]
      check every case of FILE (default: sm4-examples.txt beside this
      script); exit 0 if all match, 1 if not. The 1,000,000-fold example
      takes minutes in Python: it runs with --slow only (the C tests run
      it every time).

ctest runs it as test_sm4_vectors (tests/test_sm4_vectors.py), so a vector
copied in wrong or a reference that disagrees fails the build's tests.
"""
import os
import sys


def _gmul(a, b, poly=0x1F5):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= poly
    return r


def _sbox():
    def inv(a):
        r = 1 if a else 0
        for _ in range(254 if a else 0):
            r = _gmul(r, a)
        return r

    def rotr8(x, k):
        return ((x >> k) | (x << (8 - k))) & 0xFF

    def aff(x):
        return x ^ rotr8(x, 1) ^ rotr8(x, 2) ^ rotr8(x, 5) ^ rotr8(x, 7) ^ 0xD3

    s = [aff(inv(aff(x))) for x in range(256)]
    assert s[:8] == [0xD6, 0x90, 0xE9, 0xFE, 0xCC, 0xE1, 0x3D, 0xB7]
    return s


SBOX = _sbox()
FK = [0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC]


def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


def _tau(a):
    return int.from_bytes(bytes(SBOX[b] for b in a.to_bytes(4, "big")), "big")


def round_keys(key):
    k = [int.from_bytes(key[4 * i:4 * i + 4], "big") ^ FK[i] for i in range(4)]
    rk = []
    for i in range(32):
        ck = int.from_bytes(bytes(((4 * i + j) * 7) & 0xFF for j in range(4)), "big")
        b = _tau(k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ ck)
        k.append(k[i] ^ b ^ _rotl(b, 13) ^ _rotl(b, 23))
        rk.append(k[-1])
    return rk


def _crypt(rk, block):
    x = [int.from_bytes(block[4 * i:4 * i + 4], "big") for i in range(4)]
    for i in range(32):
        b = _tau(x[i + 1] ^ x[i + 2] ^ x[i + 3] ^ rk[i])
        x.append(x[i] ^ b ^ _rotl(b, 2) ^ _rotl(b, 10) ^ _rotl(b, 18) ^ _rotl(b, 24))
    return b"".join(v.to_bytes(4, "big") for v in x[35:31:-1])


def encrypt_block(key, block):
    return _crypt(round_keys(key), block)


def decrypt_block(key, block):
    return _crypt(round_keys(key)[::-1], block)


def _xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


# ---- GCM (SP 800-38D) --------------------------------------------------------

def _gf_mul(x, y):
    z, v = 0, y
    for i in range(128):
        if x >> (127 - i) & 1:
            z ^= v
        v = (v >> 1) ^ (0xE1 << 120) if v & 1 else v >> 1
    return z


def _ghash(h, data):
    y = 0
    for i in range(0, len(data), 16):
        y = _gf_mul(y ^ int.from_bytes(data[i:i + 16], "big"), h)
    return y


def _pad16(b):
    return b + bytes(-len(b) % 16)


def gcm_encrypt(key, iv, aad, pt, taglen=16):
    rk = round_keys(key)
    h = int.from_bytes(_crypt(rk, bytes(16)), "big")
    if len(iv) == 12:
        j0 = iv + b"\0\0\0\1"
    else:
        j0 = _ghash(h, _pad16(iv) + bytes(8) + (8 * len(iv)).to_bytes(8, "big")).to_bytes(16, "big")

    def inc32(c):
        return c[:12] + ((int.from_bytes(c[12:], "big") + 1) % 2**32).to_bytes(4, "big")

    ctr, ct = inc32(j0), b""
    for i in range(0, len(pt), 16):
        ct += _xor(pt[i:i + 16], _crypt(rk, ctr))
        ctr = inc32(ctr)
    s = _ghash(h, _pad16(aad) + _pad16(ct) + (8 * len(aad)).to_bytes(8, "big") + (8 * len(ct)).to_bytes(8, "big"))
    return ct, _xor(s.to_bytes(16, "big"), _crypt(rk, j0))[:taglen]


# ---- CCM (SP 800-38C) --------------------------------------------------------

def ccm_encrypt(key, nonce, aad, pt, taglen):
    rk = round_keys(key)
    q = 15 - len(nonce)
    b0 = bytes([(0x40 if aad else 0) | ((taglen - 2) // 2) << 3 | (q - 1)]) + nonce + len(pt).to_bytes(q, "big")
    if not aad:
        enc_aad = b""
    elif len(aad) < 0xFF00:
        enc_aad = len(aad).to_bytes(2, "big") + aad
    elif len(aad) < 2**32:
        enc_aad = b"\xff\xfe" + len(aad).to_bytes(4, "big") + aad
    else:
        enc_aad = b"\xff\xff" + len(aad).to_bytes(8, "big") + aad
    data = b0 + _pad16(enc_aad) + _pad16(pt)
    mac = bytes(16)
    for i in range(0, len(data), 16):
        mac = _crypt(rk, _xor(mac, data[i:i + 16]))

    def a(i):
        return bytes([q - 1]) + nonce + i.to_bytes(q, "big")

    ct = b"".join(_xor(pt[i:i + 16], _crypt(rk, a(1 + i // 16))) for i in range(0, len(pt), 16))
    return ct, _xor(mac, _crypt(rk, a(0)))[:taglen]


# ---- XTS (IEEE 1619-2018, GB/T 17964-2021) ----------------------------------

def _mul_alpha(t, standard):
    if standard == "IEEE":
        v = int.from_bytes(t, "little") << 1
        if v >> 128:
            v ^= (1 << 128) | 0x87
        return v.to_bytes(16, "little")
    v = int.from_bytes(t, "big")
    v = (v >> 1) ^ (0xE1 << 120) if v & 1 else v >> 1
    return v.to_bytes(16, "big")


def xts_encrypt(key32, tweak, pt, standard):
    rk1 = round_keys(key32[:16])
    t = encrypt_block(key32[16:], tweak)
    m, r = divmod(len(pt), 16)
    blocks = [pt[16 * i:16 * i + 16] for i in range(m)]
    ct = []
    for b in blocks:
        ct.append(_xor(_crypt(rk1, _xor(b, t)), t))
        t = _mul_alpha(t, standard)
    if r:
        cc = ct.pop()
        tail = pt[16 * m:]
        pp = tail + cc[r:]
        ct.append(_xor(_crypt(rk1, _xor(pp, t)), t))
        ct.append(cc[:r])
    return b"".join(ct)


# ---- the vectors file -------------------------------------------------------

def read_cases(path):
    """[(section, {key: value})] in file order."""
    cases, cur = [], None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if s.startswith("["):
                cur = {}
                cases.append((s[1:s.index("]")], cur))
            else:
                k, v = (w.strip() for w in s.split("=", 1))
                cur[k] = v
    return cases


def data(case, name):
    """A hex field, or name_seq = N: the bytes i mod 256 for i < N."""
    if name + "_seq" in case:
        return bytes(i & 0xFF for i in range(int(case[name + "_seq"])))
    return bytes.fromhex(case.get(name, ""))


def check(section, c, slow):
    """None if the case holds, else what differs; "skipped" for a slow
    one without slow."""
    key = data(c, "key")
    if int(c.get("times", "1")) > 1 and not slow:
        return "skipped"
    if section.startswith("sm4-block"):
        want = data(c, "ciphertext")
        got = data(c, "plaintext")
        for _ in range(int(c.get("times", "1"))):
            got = encrypt_block(key, got)
        rk = round_keys(key)
        if "rk0" in c and (rk[0] != int(c["rk0"], 16) or rk[31] != int(c["rk31"], 16)):
            return "round keys"
        return None if got == want else "ciphertext %s" % got.hex()
    if section.startswith("sm4-gcm") or section.startswith("sm4-ccm"):
        f = gcm_encrypt if section.startswith("sm4-gcm") else ccm_encrypt
        iv = data(c, "iv")
        ct, tag = f(key, iv, data(c, "aad"), data(c, "plaintext"), len(data(c, "tag")))
        return None if (ct, tag) == (data(c, "ciphertext"), data(c, "tag")) else "ct %s tag %s" % (ct.hex(), tag.hex())
    if section.startswith("sm4-xts"):
        ct = xts_encrypt(key, data(c, "tweak"), data(c, "plaintext"), c["standard"])
        return None if ct == data(c, "ciphertext") else "ct %s" % ct.hex()
    return "unknown section"


def main():
    args = sys.argv[1:]
    slow = "--slow" in args
    args = [a for a in args if a != "--slow"]
    path = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "sm4-examples.txt")
    bad = skipped = 0
    cases = read_cases(path)
    for section, c in cases:
        why = check(section, c, slow)
        if why == "skipped":
            skipped += 1
        elif why:
            bad += 1
            print("sm4_ref: [%s] differs: %s" % (section, why))
    print("sm4_ref: %d cases, %d differ, %d skipped (slow)" % (len(cases), bad, skipped))
    return 1 if bad or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
