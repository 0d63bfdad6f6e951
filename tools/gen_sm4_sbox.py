#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write src/sm4/sm4_sbox.h: the SM4 S-box (GB/T 32907 clause 6.2) in the
forms the SM4 tables use, derived here from its algebraic structure and
checked against it on all 256 inputs before anything is written.

The S-box is S(x) = A(I(A(x) + C)) + C, with I the inversion in
GF(2^8) = GF(2)[t]/(t^8+t^7+t^6+t^5+t^4+t^2+1) (0 to 0), A the circulant
linear map whose rows are the rotations of 0xA7 (y_i = x_i + x_{i+1} +
x_{i+2} + x_{i+5} + x_{i+7}, indices mod 8) and C = 0xD3 (the structure
published for the SM4 S-box; the 16 values the header also lists are
the table's first row, which this reproduces).

What the header holds:
  1. fs2_sm4_sbox_bs(): the S-box as a Boolean circuit on eight bit planes
     (plane k holds bit k of every byte; any type with ^, & and ~, e.g.
     uint64_t for 64 S-boxes at once). The inversion runs in the tower
     field GF(((2^2)^2)^2) (GF(4) = GF(2)[W]/(W^2+W+1), GF(16) =
     GF(4)[Z]/(Z^2+Z+W), GF(256) = GF(16)[Y]/(Y^2+Y+mu)): 36 ANDs. The
     isomorphism into the tower and A are merged into one linear layer at
     the top, A and the isomorphism back into one at the bottom; each
     linear layer's XORs are shared greedily (Paar's heuristic). Among the
     choices of mu and of the isomorphism the one with the fewest gates is
     kept.
  2. The affine maps that turn AES's S-box into SM4's, for AES-NI and GFNI:
     with Phi an isomorphism from SM4's field to AES's
     (GF(2)[t]/(t^8+t^4+t^3+t+1)),
       S(x) = A Phi^-1 Inv_aes(Phi A x + Phi C) + C
     so GF2P8AFFINEQB with (Phi A, Phi C) then GF2P8AFFINEINVQB with
     (A Phi^-1, C) is S (FS2_SM4_GFNI_*), and with AES's SubBytes(y) =
     A_aes Inv_aes(y) + 0x63 (what AESENCLAST applies to each byte, after
     ShiftRows), S(x) = M3 SubBytes(Phi A x + Phi C) + (M3 0x63 + C) with
     M3 = A Phi^-1 A_aes^-1: two affine maps done as pairs of 16-entry
     nibble lookups (PSHUFB: FS2_SM4_AESNI_*).
  3. FS2_SM4_ROWS: the table itself, 16 rows of 16 (row h holds S(16h + l)
     at l), the reference the C test of 4. checks against
     (tests/test_sm4_wasm_sbox.c).
  4. FS2_SM4_VP_*: the S-box by 12 lookups of nibbles in 16-entry tables
     and 10 XORs (vector permutes: WebAssembly SIMD's i8x16.swizzle,
     src/sm4/sm4_wasm_sbox.h), the inversion done in GF((2^4)^2) with the
     isomorphism into it merged into the input's affine map and the one
     back into the output's (the section "vector permute" below derives
     the formulas; vp_sbox models them and is checked on all 256 inputs).

Usage: tools/gen_sm4_sbox.py > src/sm4/sm4_sbox.h (tests/test_sm4_sbox_gen.sh
checks that the file is this program's output).
"""
import itertools
import sys

SM4_POLY = 0x1F5
AES_POLY = 0x11B


def gmul(a, b, poly):
    """a * b in GF(2)[x] / poly, for a field of any degree (poly's top bit)."""
    top = 1 << (poly.bit_length() - 1)
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & top:
            a ^= poly
    return r


def ginv(a, poly):
    r = 1 if a else 0
    for _ in range(254 if a else 0):
        r = gmul(r, a, poly)
    return r


def rotr8(x, k):
    return ((x >> k) | (x << (8 - k))) & 0xFF


def a_sm4(x):
    return x ^ rotr8(x, 1) ^ rotr8(x, 2) ^ rotr8(x, 5) ^ rotr8(x, 7)


SBOX = [a_sm4(ginv(a_sm4(x) ^ 0xD3, SM4_POLY)) ^ 0xD3 for x in range(256)]
# GB/T 32907 clause 6.2, the table's first row (0x00 .. 0x0F)
assert SBOX[:16] == [0xD6, 0x90, 0xE9, 0xFE, 0xCC, 0xE1, 0x3D, 0xB7,
                     0x16, 0xB6, 0x14, 0xC2, 0x28, 0xFB, 0x2C, 0x05]
assert sorted(SBOX) == list(range(256))


def apply(cols, x):
    """A linear map given by the images of the 8 unit vectors."""
    r = 0
    for i in range(8):
        if x >> i & 1:
            r ^= cols[i]
    return r


def cols_of(f):
    return [f(1 << i) for i in range(8)]


def inverse_cols(cols):
    back = {apply(cols, x): x for x in range(256)}
    assert len(back) == 256
    return [back[1 << i] for i in range(8)]


# ---- the tower field --------------------------------------------------------


def m4(a, b):
    a1, a0, b1, b0 = a >> 1, a & 1, b >> 1, b & 1
    return ((a1 & b1) ^ (a1 & b0) ^ (a0 & b1)) << 1 | ((a1 & b1) ^ (a0 & b0))


N4 = 2  # W: Z^2 + Z + W is irreducible over GF(4)


def m16(a, b):
    ah, al, bh, bl = a >> 2, a & 3, b >> 2, b & 3
    hi = m4(ah ^ al, bh ^ bl) ^ m4(al, bl)
    lo = m4(m4(ah, bh), N4) ^ m4(al, bl)
    return hi << 2 | lo


def tower_mul(mu):
    def m256(a, b):
        ah, al, bh, bl = a >> 4, a & 15, b >> 4, b & 15
        hi = m16(ah ^ al, bh ^ bl) ^ m16(al, bl)
        lo = m16(m16(ah, bh), mu) ^ m16(al, bl)
        return hi << 4 | lo
    return m256


def power(mul, a, e):
    r = 1
    while e:
        if e & 1:
            r = mul(r, a)
        a, e = mul(a, a), e >> 1
    return r


def generates(mul, a):
    """1 if a has order 255 = 3 * 5 * 17 (a primitive element)."""
    return all(power(mul, a, 255 // q) != 1 for q in (3, 5, 17))


def isomorphisms(mul_from, mul_to):
    """Every field isomorphism from one representation of GF(2^8) to
    another, as the images of the unit vectors."""
    g_to = next(g for g in range(2, 256) if generates(mul_to, g))
    to_pow = [1]
    for _ in range(254):
        to_pow.append(mul_to(to_pow[-1], g_to))
    found = []
    for g in range(2, 256):
        if not generates(mul_from, g):
            continue
        phi, x = {0: 0}, 1
        for k in range(255):
            phi[x] = to_pow[k]
            x = mul_from(x, g)
        if all(phi[a ^ b] == phi[a] ^ phi[b] for a in (1 << i for i in range(8)) for b in range(256)):
            found.append(cols_of(lambda v: phi[v]))
    return found


def sm4_mul(a, b):
    return gmul(a, b, SM4_POLY)


def aes_mul(a, b):
    return gmul(a, b, AES_POLY)


# ---- the circuit -------------------------------------------------------------


def paar(targets, ninputs):
    """Greedy shared XORs for the linear forms `targets` (bit masks over
    ninputs inputs): [(new, a, b)] and the variable of each target."""
    rows = [set(i for i in range(ninputs) if t >> i & 1) for t in targets]
    ops, nv = [], ninputs
    while True:
        count = {}
        for s in rows:
            for pair in itertools.combinations(sorted(s), 2):
                count[pair] = count.get(pair, 0) + 1
        if not count:
            break
        (a, b), _ = max(count.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))
        ops.append((nv, a, b))
        for s in rows:
            if a in s and b in s:
                s -= {a, b}
                s.add(nv)
        nv += 1
    return ops, [next(iter(s)) for s in rows]


class Circuit:
    def __init__(self):
        self.gates = []  # (op, a, b); wire i is gates[i]

    def gate(self, op, a=None, b=None):
        self.gates.append((op, a, b))
        return len(self.gates) - 1

    def xor(self, a, b):
        return self.gate("xor", a, b)

    def land(self, a, b):
        return self.gate("and", a, b)

    def lnot(self, a):
        return self.gate("not", a)

    def table(self, outs):
        """The circuit's output for each of the 256 inputs, all at once: a
        wire is a 256-bit number, bit x its value on input x."""
        full = (1 << 256) - 1
        planes = [sum(1 << x for x in range(256) if x >> i & 1) for i in range(8)]
        v = []
        for op, a, b in self.gates:
            v.append(planes[a] if op == "in" else v[a] ^ v[b] if op == "xor" else v[a] & v[b] if op == "and"
                     else v[a] ^ full)
        return [sum((v[o] >> x & 1) << k for k, o in enumerate(outs)) for x in range(256)]


def linear_layer(c, inputs, forms):
    """forms: [(mask over inputs, constant)]; returns one wire per form."""
    ops, final = paar([m for m, _ in forms], len(inputs))
    var = dict(enumerate(inputs))
    for nv, a, b in ops:
        var[nv] = c.xor(var[a], var[b])
    return [c.lnot(var[f]) if k else var[f] for (_, k), f in zip(forms, final)]


def build_circuit(mu, iso):
    """iso: SM4 field -> tower, as images of the unit vectors."""
    iso_back = inverse_cols(iso)
    m_in = [apply(iso, a_sm4(1 << i)) for i in range(8)]
    c_in = apply(iso, 0xD3)

    def form(ymask):  # a sum of bits of y = m_in x + c_in, over the bits of x
        m = k = 0
        for i in range(8):
            if ymask >> i & 1:
                for j in range(8):
                    if m_in[j] >> i & 1:
                        m ^= 1 << j
                k ^= c_in >> i & 1
        return m, k

    def gf4_forms(h, l):
        return [h, l, h ^ l]

    def gf16_forms(b3, b2, b1, b0):  # operands Ah, Ah + Al, Al of a GF(4)-Karatsuba
        return gf4_forms(b3, b2) + gf4_forms(b3 ^ b1, b2 ^ b0) + gf4_forms(b1, b0)

    y = [1 << i for i in range(8)]
    ah = gf16_forms(y[7], y[6], y[5], y[4])
    al = gf16_forms(y[3], y[2], y[1], y[0])
    sm = gf16_forms(y[7] ^ y[3], y[6] ^ y[2], y[5] ^ y[1], y[4] ^ y[0])
    # the linear part of the norm: ah^2 mu + al^2
    lin = [sum(1 << i for i in range(8) if (m16(m16(1 << i >> 4, 1 << i >> 4), mu) ^ m16((1 << i) & 15, (1 << i) & 15))
               >> k & 1) for k in range(4)]
    c = Circuit()
    x = [c.gate("in", i) for i in range(8)]
    top = linear_layer(c, x, [form(f) for f in ah + al + sm + lin])
    A, B, S, L = top[0:9], top[9:18], top[18:27], top[27:31]

    def mul4(p, q):  # GF(4) Karatsuba: (hi, lo)
        t11, t00, tss = c.land(p[0], q[0]), c.land(p[1], q[1]), c.land(p[2], q[2])
        return c.xor(tss, t00), c.xor(t11, t00)

    def forms4(h, l):
        return [h, l, c.xor(h, l)]

    def mul16(a9, b9):  # (hi1, hi0, lo1, lo0)
        hh, ss, ll = mul4(a9[0:3], b9[0:3]), mul4(a9[3:6], b9[3:6]), mul4(a9[6:9], b9[6:9])
        hn = (c.xor(hh[0], hh[1]), hh[0])  # times W
        return [c.xor(ss[0], ll[0]), c.xor(ss[1], ll[1]), c.xor(hn[0], ll[0]), c.xor(hn[1], ll[1])]

    p = mul16(A, B)
    d = [c.xor(p[k], L[3 - k]) for k in range(4)]  # the norm in GF(16): d3 d2 d1 d0
    dh, dl = forms4(d[0], d[1]), forms4(d[2], d[3])
    hl = mul4(dh, dl)
    # the norm in GF(4): Dh^2 W + Dh Dl + Dl^2, and its inverse (its square)
    e1 = c.xor(c.xor(d[1], hl[0]), d[2])
    e0 = c.xor(c.xor(d[0], hl[1]), dl[2])
    ei = [e1, c.xor(e1, e0), e0]
    oh = mul4(dh, ei)
    ol = mul4(forms4(c.xor(d[0], d[2]), c.xor(d[1], d[3])), ei)
    w = [oh[0], oh[1], ol[0], ol[1]]  # d^-1
    df = forms4(w[0], w[1]) + forms4(c.xor(w[0], w[2]), c.xor(w[1], w[3])) + forms4(w[2], w[3])
    z = mul16(A, df) + mul16(S, df)  # the inverse in the tower: z7 .. z0
    zw = [z[7 - i] for i in range(8)]
    m_out = [a_sm4(apply(iso_back, 1 << i)) for i in range(8)]
    rows = [(sum(1 << i for i in range(8) if m_out[i] >> k & 1), 0xD3 >> k & 1) for k in range(8)]
    outs = linear_layer(c, zw, rows)
    return c, outs


def schedule(c, outs):
    """An order of the gates that keeps few values live (the compiler
    keeps the emitted order, and the planes must fit in registers): a
    list schedule that takes the ready gate freeing the most operands,
    then the one whose operands were made last. Returns the gate indices
    in order (inputs first)."""
    n = len(c.gates)
    uses = [0] * n
    for op, a, b in c.gates:
        for x in (a, b):
            if op != "in" and x is not None:
                uses[x] += 1
    for o in outs:
        uses[o] += 1
    done = [False] * n
    order = []
    made = {}
    for i, (op, a, b) in enumerate(c.gates):
        if op == "in":
            done[i] = True
            order.append(i)
            made[i] = 0
    left = uses[:]
    step = 1
    while len(order) < n:
        best, key = None, None
        for i, (op, a, b) in enumerate(c.gates):
            if done[i]:
                continue
            args = [a] if op == "not" else [a, b]
            if not all(done[x] for x in args):
                continue
            frees = sum(1 for x in set(args) if left[x] == args.count(x))
            k = (frees, max(made[x] for x in args))
            if key is None or k > key:
                best, key = i, k
        op, a, b = c.gates[best]
        for x in ([a] if op == "not" else [a, b]):
            left[x] -= 1
        done[best] = True
        made[best] = step
        step += 1
        order.append(best)
    return order


def best_circuit():
    best = None
    for mu in range(16):
        if not all(m16(v, v) ^ v ^ mu for v in range(16)):  # Y^2 + Y + mu irreducible
            continue
        for iso in isomorphisms(sm4_mul, tower_mul(mu)):
            c, outs = build_circuit(mu, iso)
            assert c.table(outs) == SBOX
            if best is None or len(c.gates) < len(best[0].gates):
                best = (c, outs)
    return best


# ---- AES-NI and GFNI ------------------------------------------------------


def matrix_qword(cols):
    """GF2P8AFFINEQB's matrix operand: byte 7 - i is row i (output bit i)."""
    q = 0
    for i in range(8):
        row = sum(1 << j for j in range(8) if cols[j] >> i & 1)
        q |= row << (8 * (7 - i))
    return q


def affine_maps():
    phi = isomorphisms(sm4_mul, aes_mul)[0]
    phi_back = inverse_cols(phi)
    aes_a = cols_of(lambda v: v ^ rotr8(v, 4) ^ rotr8(v, 5) ^ rotr8(v, 6) ^ rotr8(v, 7))  # FIPS 197 5.1.1
    aes_sbox = [apply(aes_a, ginv(v, AES_POLY)) ^ 0x63 for v in range(256)]
    assert aes_sbox[0x53] == 0xED  # FIPS 197 5.1.1's example
    m1 = cols_of(lambda v: apply(phi, a_sm4(v)))
    c1 = apply(phi, 0xD3)
    m2 = cols_of(lambda v: a_sm4(apply(phi_back, v)))
    m3 = cols_of(lambda v: a_sm4(apply(phi_back, apply(inverse_cols(aes_a), v))))
    c3 = apply(m3, 0x63) ^ 0xD3
    for x in range(256):
        y = apply(m1, x) ^ c1
        assert apply(m2, ginv(y, AES_POLY)) ^ 0xD3 == SBOX[x]
        assert apply(m3, aes_sbox[y]) ^ c3 == SBOX[x]
    return m1, c1, m2, m3, c3


# ---- vector permute (WebAssembly SIMD) -------------------------------------
#
# GF(256) as GF(16)[Y]/(Y^2 + a Y + a), GF(16) = GF(2)[z]/(z^4 + z + 1); a
# byte i << 4 | k stands for x = i Y + k. The conjugate of Y is Y + a, so
# x's norm is N = x (i Y + k + a i) = k^2 + a i k + a i^2, in GF(16), and
# 1/x = (i Y + k + a i) / N. With j = i + k and 1/0 taken as "infinity":
#   io = j + 1/(1/i + a/k) = N / (k + a i)
#   jo = i + 1/(1/j + a/k) = N / (k + a j)
# (1/(1/i + a/k) = i k / (k + a i); j (k + a i) + i k = N; likewise for jo),
# so u = 1/io = (k + a i)/N and v = 1/jo = (k + a j)/N, from which
# k/N = (u + v)/a and i/N = (u + k/N)/a: 1/x = (i/N) Y + u is GF(2)-linear
# in (u, v), and the output map (A and the isomorphism back) becomes two
# 16-entry tables, of io and of jo, that carry the inversion 1/io, 1/jo.
# Every step is a lookup of a nibble in a 16-entry table or an XOR, as
# i8x16.swizzle does it; "infinity" is 0x80: any index of 16 or more makes
# swizzle give 0, and 0x80 XOR a nibble stays out of range. The cases
# i = 0, k = 0, j = 0, k = a i, k = a j and x = 0 all come out right
# through that rule (checked below on all 256 inputs by a model of
# swizzle, not by reasoning).

GF16_POLY = 0x13
VP_INF = 0x80


def m16p(a, b):
    return gmul(a, b, GF16_POLY)


def inv16(a):
    return next(b for b in range(16) if m16p(a, b) == 1) if a else 0


def vp_tower_mul(a):
    def mul(x, y):
        i, k, i2, k2 = x >> 4, x & 15, y >> 4, y & 15
        ii = m16p(i, i2)
        return (m16p(ii, a) ^ m16p(i, k2) ^ m16p(k, i2)) << 4 | (m16p(ii, a) ^ m16p(k, k2))
    return mul


def swizzle(table, idx):
    """i8x16.swizzle on one byte: out of range (16 or more) gives 0."""
    return table[idx] if idx < 16 else 0


def vp_sbox(t, x):
    """The S-box as sm4_wasm_sbox.h computes it, from the tables t."""
    lo, hi = x & 15, x >> 4
    k = swizzle(t["K_LO"], lo) ^ swizzle(t["K_HI"], hi)
    i = swizzle(t["I_LO"], lo) ^ swizzle(t["I_HI"], hi)
    j = i ^ k
    ak = swizzle(t["AK"], k)
    iak = swizzle(t["INV"], i) ^ ak
    jak = swizzle(t["INV"], j) ^ ak
    io = swizzle(t["INV"], iak) ^ j
    jo = swizzle(t["INV"], jak) ^ i
    return swizzle(t["OUT_IO"], io) ^ swizzle(t["OUT_JO"], jo) ^ 0xD3


def vp_tables():
    """The first a (in order) with Y^2 + a Y + a irreducible and the first
    isomorphism found; every choice works, this one is fixed."""
    a = next(a for a in range(1, 16) if all(m16p(y, y) ^ m16p(a, y) ^ a for y in range(16)))
    mul = vp_tower_mul(a)
    phi = isomorphisms(sm4_mul, mul)[0]
    phi_back = inverse_cols(phi)
    m_in = cols_of(lambda v: apply(phi, a_sm4(v)))
    c_in = apply(phi, 0xD3)
    ia = inv16(a)
    # the inverse's byte (i/N) << 4 | u from (u, v), linear over GF(2)
    def z_of(u, v):
        kn = m16p(u ^ v, ia)
        return m16p(u ^ kn, ia) << 4 | u
    m_out = cols_of(lambda z: a_sm4(apply(phi_back, z)))
    t = {
        "K_LO": [(apply(m_in, n) ^ c_in) & 15 for n in range(16)],
        "K_HI": [apply(m_in, n << 4) & 15 for n in range(16)],
        "I_LO": [(apply(m_in, n) ^ c_in) >> 4 for n in range(16)],
        "I_HI": [apply(m_in, n << 4) >> 4 for n in range(16)],
        "AK": [m16p(a, inv16(n)) if n else VP_INF for n in range(16)],
        "INV": [inv16(n) if n else VP_INF for n in range(16)],
        "OUT_IO": [apply(m_out, z_of(inv16(n), 0)) for n in range(16)],
        "OUT_JO": [apply(m_out, z_of(0, inv16(n))) for n in range(16)],
    }
    # the tower is a field and phi an isomorphism into it
    for x in range(256):
        for y in (1, 2, 0x35, 0x80, x):
            assert apply(phi, sm4_mul(x, y)) == mul(apply(phi, x), apply(phi, y))
    assert [vp_sbox(t, x) for x in range(256)] == SBOX
    return a, t


def nibble_tables(cols, const):
    lo = [apply(cols, n) ^ const for n in range(16)]
    hi = [apply(cols, n << 4) for n in range(16)]
    return lo, hi


def main():
    c, outs = best_circuit()
    n_and = sum(1 for g in c.gates if g[0] == "and")
    n_xor = sum(1 for g in c.gates if g[0] == "xor")
    n_not = sum(1 for g in c.gates if g[0] == "not")
    m1, c1, m2, m3, c3 = affine_maps()
    vp_a, vp = vp_tables()
    pre_lo, pre_hi = nibble_tables(m1, c1)
    post_lo, post_hi = nibble_tables(m3, c3)
    o = []
    w = o.append
    w("/* SPDX-License-Identifier: Apache-2.0 */")
    w("/*")
    w(" * Generated by tools/gen_sm4_sbox.py: do not edit (tests/test_sm4_sbox_gen.sh")
    w(" * checks that this file is its output; the program says how each part")
    w(" * is derived from the S-box's algebraic form, GB/T 32907 clause 6.2).")
    w(" *")
    w(" * fs2_sm4_sbox_bs: the SM4 S-box as a Boolean circuit on eight bit planes")
    w(" * (x[k] holds bit k of each byte), in-place: %d ANDs, %d XORs, %d NOTs," % (n_and, n_xor, n_not))
    w(" * no table and no branch. The includer defines FS2_SM4_BS_T, a type with")
    w(" * ^, & and ~ (uint64_t: 64 S-boxes at once).")
    w(" *")
    w(" * FS2_SM4_GFNI_*: S(x) = GF2P8AFFINEINVQB(GF2P8AFFINEQB(x, PRE, PRE_C),")
    w(" * POST, POST_C). FS2_SM4_AESNI_*: S(x) = POST(SubBytes(PRE(x))), each of")
    w(" * PRE and POST the XOR of a lookup of the low nibble (_LO, which carries")
    w(" * the constant) and of the high nibble (_HI), as PSHUFB does them.")
    w(" *")
    w(" * FS2_SM4_ROWS: the 256 values of S, row h (16 values) holding S(16h + l)")
    w(" * at l (the reference of tests/test_sm4_wasm_sbox.c).")
    w(" *")
    w(" * FS2_SM4_VP_*: the S-box by 16-entry lookups of nibbles (WebAssembly's")
    w(" * i8x16.swizzle, which gives 0 for an index of 16 or more), the inversion")
    w(" * in GF(16)[Y]/(Y^2 + %dY + %d) (GF(16) = GF(2)[z]/(z^4 + z + 1)):" % (vp_a, vp_a))
    w(" *   k = K_LO[x & 15] ^ K_HI[x >> 4], i = I_LO[x & 15] ^ I_HI[x >> 4], j = i ^ k,")
    w(" *   iak = INV[i] ^ AK[k], jak = INV[j] ^ AK[k],")
    w(" *   io = INV[iak] ^ j, jo = INV[jak] ^ i,")
    w(" *   S(x) = OUT_IO[io] ^ OUT_JO[jo] ^ 0xD3")
    w(" * (INV and AK give 0x%02X, out of range, for 0)." % VP_INF)
    w(" */")
    w("#ifndef FS2_SM4_SBOX_H")
    w("#define FS2_SM4_SBOX_H")
    w("")
    w("#define FS2_SM4_GFNI_PRE    0x%016XULL" % matrix_qword(m1))
    w("#define FS2_SM4_GFNI_PRE_C  0x%02X" % c1)
    w("#define FS2_SM4_GFNI_POST   0x%016XULL" % matrix_qword(m2))
    w("#define FS2_SM4_GFNI_POST_C 0xD3")
    w("")
    for name, tab in (("PRE_LO", pre_lo), ("PRE_HI", pre_hi), ("POST_LO", post_lo), ("POST_HI", post_hi)):
        w("#define FS2_SM4_AESNI_%s \\" % name)
        w("    " + ", ".join("0x%02X" % v for v in tab))
    w("")
    w("/* clang-format off */")
    for name in ("K_LO", "K_HI", "I_LO", "I_HI", "AK", "INV", "OUT_IO", "OUT_JO"):
        w("#define FS2_SM4_VP_%s \\" % name)
        w("    " + ", ".join("0x%02X" % v for v in vp[name]))
    w("/* clang-format on */")
    w("")
    w("/* clang-format off */")
    w("#define FS2_SM4_ROWS \\")
    for h in range(16):
        w("    " + ", ".join("0x%02X" % SBOX[16 * h + l] for l in range(16)) + (", \\" if h < 15 else ""))
    w("/* clang-format on */")
    w("")
    w("#ifdef FS2_SM4_BS_T")
    w("/* clang-format off */")
    w("static inline void fs2_sm4_sbox_bs(FS2_SM4_BS_T x[8])")
    w("{")
    for i in schedule(c, outs):
        op, a, b = c.gates[i]
        if op == "in":
            w("    const FS2_SM4_BS_T t%d = x[%d];" % (i, a))
        elif op == "xor":
            w("    const FS2_SM4_BS_T t%d = t%d ^ t%d;" % (i, a, b))
        elif op == "and":
            w("    const FS2_SM4_BS_T t%d = t%d & t%d;" % (i, a, b))
        else:
            w("    const FS2_SM4_BS_T t%d = ~t%d;" % (i, a))
    for k, v in enumerate(outs):
        w("    x[%d] = t%d;" % (k, v))
    w("}")
    w("/* clang-format on */")
    w("#endif")
    w("")
    w("#endif")
    sys.stdout.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
