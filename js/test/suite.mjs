// SPDX-License-Identifier: Apache-2.0
// The test suite of the JavaScript package, written once and run by Node's
// test runner (test/*.test.mjs, on the addon and on WebAssembly) and in
// Chromium (test/browser/, on WebAssembly): no Node module in here.
//   cases({ api, smc, vectors, refs }) -> [{ name, fn }]
// api: the modern API; smc: the sm-crypto module made on it; vectors: the
// text of tests/vectors/gbt32918-examples.txt; refs (Node only): sm-crypto
// and sm-crypto-v2, for interop in both directions.

const enc = new TextEncoder()
const dec = new TextDecoder()
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('')
const unhex = (s) => Uint8Array.from(s.match(/../g) || [], (h) => parseInt(h, 16))

function assert (cond, msg) { if (!cond) throw new Error('assertion failed: ' + msg) }
function eq (a, b, msg) {
  if (a instanceof Uint8Array) a = hex(a)
  if (b instanceof Uint8Array) b = hex(b)
  if (a !== b) throw new Error('assertion failed: ' + msg + ': ' + JSON.stringify(a) + ' !== ' + JSON.stringify(b))
}
function throwsCode (fn, code, msg) {
  try {
    fn()
  } catch (e) {
    if (e.name !== 'FastSM2Error' || e.code !== code) throw new Error(msg + ': expected ' + code + ', got ' + e.name + ' ' + e.code + ' ' + e.message)
    return e
  }
  throw new Error(msg + ': expected ' + code + ', nothing thrown')
}
async function rejectsCode (p, code, msg) {
  try { await p } catch (e) {
    if (e.code !== code) throw new Error(msg + ': expected ' + code + ', got ' + e.code)
    return
  }
  throw new Error(msg + ': expected ' + code + ', nothing thrown')
}

// [section] key = value  ->  { section: [{ key: value, ... }] } (a repeated
// key starts a new record)
function parseVectors (text) {
  const out = {}
  let sec = null
  for (const line of text.split('\n')) {
    const l = line.trim()
    if (!l || l.startsWith('#')) continue
    const m = /^\[(\w+)\]$/.exec(l)
    if (m) { sec = out[m[1]] = [{}]; continue }
    const [k, v] = l.split('=').map((s) => s.trim())
    let rec = sec[sec.length - 1]
    if (k in rec) { rec = {}; sec.push(rec) }
    rec[k] = v
  }
  return out
}

// DER of SEQUENCE { INTEGER x, INTEGER y, OCTET STRING c3, OCTET STRING c2 }
function derCiphertext (x, y, c3, c2) {
  const len = (n) => n < 128 ? [n] : n < 256 ? [0x81, n] : [0x82, n >> 8, n & 255]
  const int = (b) => { let i = 0; while (i < b.length - 1 && b[i] === 0 && b[i + 1] < 128) i++; b = b.slice(i); if (b[0] >= 128) b = [0, ...b]; return [2, ...len(b.length), ...b] }
  const oct = (b) => [4, ...len(b.length), ...b]
  const body = [...int([...x]), ...int([...y]), ...oct([...c3]), ...oct([...c2])]
  return Uint8Array.from([0x30, ...len(body.length), ...body])
}

// The GB/T 32905 / 32918 examples through both APIs: after a corpus of bad
// input, the engine must still give these.
function knownAnswers (api, smc, V) {
  const S = V.sign[0]
  const E = V.encrypt[0]
  for (const r of V.sm3) eq(hex(api.sm3(enc.encode(r.msg_ascii))), r.digest.toLowerCase(), 'SM3 ' + r.msg_ascii)
  const k = api.PrivateKey.fromHex(S.d)
  eq(k.publicKey.toHex(), ('04' + S.Px + S.Py).toLowerCase(), 'P = dG')
  eq(hex(k.publicKey.computeZ({ id: S.id_ascii })), S.ZA.toLowerCase(), 'Z_A')
  const sig = unhex((S.r + S.s).toLowerCase())
  const msg = enc.encode(S.msg_ascii)
  assert(k.publicKey.verify(msg, sig), 'the example signature')
  const bad = sig.slice(); bad[5] ^= 0x10
  assert(!k.publicKey.verify(msg, bad), 'a changed signature')
  const C1 = unhex(E.C1.toLowerCase()); const C2 = unhex(E.C2.toLowerCase()); const C3 = unhex(E.C3.toLowerCase())
  const ct = new Uint8Array(C1.length + C2.length + C3.length)
  ct.set(C1); ct.set(C3, C1.length); ct.set(C2, C1.length + C3.length)
  eq(dec.decode(k.decrypt(ct)), E.msg_ascii, 'the example ciphertext')
  eq(smc.sm3(V.sm3[0].msg_ascii), V.sm3[0].digest.toLowerCase(), 'sm-crypto sm3')
  assert(smc.sm2.doVerifySignature(S.msg_ascii, (S.r + S.s).toLowerCase(), '04' + S.Px + S.Py), 'sm-crypto verifies the example')
  eq(smc.sm2.getPublicKeyFromPrivateKey(S.d), ('04' + S.Px + S.Py).toLowerCase(), 'sm-crypto P = dG')
  // GB/T 32907-2016 A.1: the key encrypts itself
  const a1 = unhex('0123456789abcdeffedcba9876543210')
  eq(hex(api.sm4.ecbEncrypt(a1, a1, { padding: 'none' })), '681edf34d206965e86b3e94f536e4246', 'SM4 A.1')
  eq(smc.sm4.encrypt(a1, '0123456789abcdeffedcba9876543210', { padding: 'none' }), '681edf34d206965e86b3e94f536e4246', 'sm-crypto sm4 A.1')
  const m = enc.encode('round trip')
  assert(k.publicKey.verify(m, k.sign(m)), 'sign and verify')
  eq(k.decrypt(k.publicKey.encrypt(m)), m, 'encrypt and decrypt')
  k.destroy()
}

function cases ({ api, smc, vectors, refs }) {
  const list = []
  const t = (name, fn) => list.push({ name, fn })
  const { PrivateKey, PublicKey } = api
  const V = parseVectors(vectors)
  const S = V.sign[0]
  const E = V.encrypt[0]
  const msgS = enc.encode(S.msg_ascii)

  // ---- GB/T 32918 / 32905 examples ----------------------------------------
  t('SM3 examples (GB/T 32905)', () => {
    for (const r of V.sm3) eq(hex(api.sm3(enc.encode(r.msg_ascii))), r.digest.toLowerCase(), 'SM3 ' + r.msg_ascii)
    eq(smc.sm3(V.sm3[0].msg_ascii), V.sm3[0].digest.toLowerCase(), 'sm-crypto sm3')
  })

  t('GB/T 32918 key, Z_A and e', () => {
    const k = PrivateKey.fromHex(S.d)
    eq(k.publicKey.toHex(), ('04' + S.Px + S.Py).toLowerCase(), 'P = dG')
    const odd = parseInt(S.Py.slice(-1), 16) & 1
    eq(k.publicKey.toHex({ compressed: true }), ((odd ? '03' : '02') + S.Px).toLowerCase(), 'compressed P')
    eq(hex(k.publicKey.computeZ({ id: S.id_ascii })), S.ZA.toLowerCase(), 'Z_A')
    eq(hex(k.publicKey.computeZ()), S.ZA.toLowerCase(), 'Z_A of the default ID')
    const z = k.publicKey.computeZ()
    const m = new Uint8Array(z.length + msgS.length)
    m.set(z); m.set(msgS, 32)
    eq(hex(api.sm3(m)), S.e.toLowerCase(), 'e = SM3(Z_A || M)')
    eq(smc.sm2.getHash(hex(msgS), '04' + S.Px + S.Py), S.e.toLowerCase(), 'sm-crypto getHash')
    eq(smc.sm2.getPublicKeyFromPrivateKey(S.d), ('04' + S.Px + S.Py).toLowerCase(), 'getPublicKeyFromPrivateKey')
  })

  t('GB/T 32918.2 signature example verifies, a changed one does not', () => {
    const pub = PublicKey.fromHex('04' + S.Px + S.Py)
    const sig = unhex((S.r + S.s).toLowerCase())
    assert(pub.verify(msgS, sig), 'example signature')
    assert(pub.verify(msgS, sig, { id: S.id_ascii }), 'with the ID given')
    assert(pub.verifyDigest(unhex(S.e.toLowerCase()), sig), 'on e')
    const bad = sig.slice(); bad[63] ^= 1
    assert(!pub.verify(msgS, bad), 's changed')
    assert(!pub.verify(enc.encode('message digesT'), sig), 'message changed')
    assert(!pub.verify(msgS, sig, { id: '1234567812345679' }), 'other ID')
    assert(smc.sm2.doVerifySignature(S.msg_ascii, (S.r + S.s).toLowerCase(), '04' + S.Px + S.Py), 'sm-crypto module')
    assert(smc.sm2.doVerifySignature(S.msg_ascii, (S.r + S.s), smc.sm2.compressPublicKeyHex(('04' + S.Px + S.Py).toLowerCase())), 'compressed key')
  })

  t('GB/T 32918.4 encryption example decrypts in every format', () => {
    const k = PrivateKey.fromHex(S.d)
    const C1 = unhex(E.C1.toLowerCase()); const C2 = unhex(E.C2.toLowerCase()); const C3 = unhex(E.C3.toLowerCase())
    const cat = (...a) => { const o = new Uint8Array(a.reduce((n, x) => n + x.length, 0)); let i = 0; for (const x of a) { o.set(x, i); i += x.length } return o }
    eq(dec.decode(k.decrypt(cat(C1, C3, C2))), E.msg_ascii, 'c1c3c2')
    eq(dec.decode(k.decrypt(cat(C1, C2, C3), { format: 'c1c2c3' })), E.msg_ascii, 'c1c2c3')
    eq(dec.decode(k.decrypt(derCiphertext(C1.slice(1, 33), C1.slice(33), C3, C2), { format: 'der' })), E.msg_ascii, 'der')
    eq(smc.sm2.doDecrypt(hex(cat(C1.slice(1), C3, C2)), S.d), E.msg_ascii, 'sm-crypto mode 1')
    eq(smc.sm2.doDecrypt(hex(cat(C1.slice(1), C2, C3)), S.d, 0), E.msg_ascii, 'sm-crypto mode 0')
    eq(smc.sm2.doDecrypt(hex(cat(C1, C3, C2)), S.d), E.msg_ascii, 'sm-crypto, 04 prefix kept')
    eq(smc.sm2.doDecrypt(hex(derCiphertext(C1.slice(1, 33), C1.slice(33), C3, C2)), S.d, 1, { asn1: true }), E.msg_ascii, 'asn1')
    const bad = cat(C1, C3, C2); bad[bad.length - 1] ^= 1
    throwsCode(() => k.decrypt(bad), 'FASTSM2_ERR_DECRYPT', 'C2 changed')
    eq(smc.sm2.doDecrypt(hex(bad.slice(1)), S.d), '', 'sm-crypto returns empty on failure')
    eq(JSON.stringify(smc.sm2.doDecrypt(hex(bad.slice(1)), S.d, 1, { output: 'array' })), '[]', 'array output on failure')
  })

  // ---- the modern API ------------------------------------------------------
  t('sign and verify: raw and DER, IDs, digests', () => {
    const k = PrivateKey.generate()
    const p = PublicKey.fromBytes(k.publicKey.toBytes())
    const m = enc.encode('a message')
    const raw = k.sign(m)
    eq(raw.length, 64, 'raw length')
    assert(p.verify(m, raw), 'raw verifies')
    const der = k.sign(m, { format: 'der' })
    assert(der[0] === 0x30 && der.length >= 8 && der.length <= 72, 'DER shape')
    assert(p.verify(m, der, { format: 'der' }), 'DER verifies')
    assert(!p.verify(m, der), 'DER is not raw')
    assert(!p.verify(m, raw, { format: 'der' }), 'raw is not DER')
    const withId = k.sign(m, { id: 'alice@example.com' })
    assert(p.verify(m, withId, { id: enc.encode('alice@example.com') }), 'ID as string and bytes')
    assert(!p.verify(m, withId), 'default ID differs')
    const e = api.sm3(m)
    assert(p.verifyDigest(e, k.signDigest(e)), 'signDigest')
    assert(PublicKey.fromBytes(k.publicKey.toBytes({ compressed: true })).verify(m, raw), 'compressed key')
    assert(p.precompute().verify(m, raw), 'precomputed key')
  })

  t('encrypt and decrypt: three formats, lengths 1..300', () => {
    const k = PrivateKey.generate()
    const p = k.publicKey
    for (const format of ['c1c3c2', 'c1c2c3', 'der']) {
      for (const n of [1, 2, 31, 32, 33, 64, 65, 100, 300]) {
        const m = new Uint8Array(n).map((_, i) => (i * 7 + n) & 255)
        const c = p.encrypt(m, { format })
        if (format !== 'der') { eq(c.length, n + 97, 'raw size'); eq(c[0], 4, '04 prefix') }
        eq(k.decrypt(c, { format }), m, format + ' ' + n)
      }
    }
    const c = p.encrypt(enc.encode('xy'))
    throwsCode(() => k.decrypt(c, { format: 'c1c2c3' }), 'FASTSM2_ERR_DECRYPT', 'wrong order')
  })

  t('key files: PEM and DER round trips', () => {
    const k = PrivateKey.generate()
    for (const format of ['pkcs8', 'sec1']) {
      const pem = k.toPem({ format })
      assert(pem.startsWith('-----BEGIN ' + (format === 'sec1' ? 'EC ' : '') + 'PRIVATE KEY-----'), format + ' PEM label')
      eq(PrivateKey.fromPem(pem).toHex(), k.toHex(), format + ' PEM')
      eq(PrivateKey.fromDer(k.toDer({ format })).toHex(), k.toHex(), format + ' DER')
    }
    const pem = k.publicKey.toPem()
    assert(pem.startsWith('-----BEGIN PUBLIC KEY-----'), 'SPKI label')
    eq(PublicKey.fromPem(pem).toHex(), k.publicKey.toHex(), 'SPKI PEM')
    eq(PublicKey.fromDer(k.publicKey.toDer()).toHex(), k.publicKey.toHex(), 'SPKI DER')
  })

  t('HMAC-SM3 (RFC 2104 over SM3)', () => {
    const key = new Uint8Array(80).fill(0xaa)
    const m = enc.encode('some data')
    // the definition, with a key longer than a block hashed first
    const k0 = new Uint8Array(64); k0.set(api.sm3(key))
    const pad = (b) => k0.map((x) => x ^ b)
    const inner = api.sm3(Uint8Array.from([...pad(0x36), ...m]))
    eq(api.hmacSm3(key, m), api.sm3(Uint8Array.from([...pad(0x5c), ...inner])), 'HMAC')
    eq(smc.sm3('some data', { key: hex(key) }), hex(api.hmacSm3(key, m)), 'sm-crypto hmac')
  })

  t('batches: sign and verify many', async () => {
    const k = PrivateKey.generate()
    const msgs = Array.from({ length: 40 }, (_, i) => enc.encode('item ' + i))
    const sigs = await api.signBatch(k, msgs)
    eq(sigs.length, 40, 'count')
    for (let i = 0; i < 40; i++) assert(k.publicKey.verify(msgs[i], sigs[i]), 'item ' + i)
    const bad = sigs.map((s) => s.slice()); bad[7][10] ^= 1
    const res = await api.verifyBatch(k.publicKey, msgs, bad)
    eq(res.filter((x) => !x).length, 1, 'one bad'); eq(res[7], false, 'item 7 bad')
    const der = await api.signBatch(k, msgs.slice(0, 3), { format: 'der', id: 'x' })
    assert((await api.verifyBatch(k.publicKey, msgs.slice(0, 3), der, { format: 'der', id: 'x' })).every((x) => x), 'DER batch with ID')
    eq((await api.signDigestBatch(k, [])).length, 0, 'empty batch')
    await rejectsCode(api.signDigestBatch(k, [new Uint8Array(31)]), 'FASTSM2_ERR_LENGTH', 'short digest')
  })

  // The empty signer ID (ENTL = 0, no ID bytes), what sm-crypto signs with
  // userId ''. The C library takes a non-NULL empty ID as that ID once the
  // coordinator's decision (issue 30) is merged; before, FASTSM2_ERR_ID:
  // the case then reports itself skipped.
  t('the empty signer ID', () => {
    const k = PrivateKey.generate()
    const m = enc.encode('empty id')
    let sig
    try {
      sig = k.sign(m, { id: '' })
    } catch (e) {
      if (e.code === 'FASTSM2_ERR_ID') return 'skip: this libfastsm2 refuses the empty ID (enabled once issue 30 is merged)'
      throw e
    }
    assert(k.publicKey.verify(m, sig, { id: new Uint8Array(0) }), 'verifies with the empty ID')
    assert(!k.publicKey.verify(m, sig), 'not with the default ID')
    const kp = smc.sm2.generateKeyPairHex()
    const s2 = smc.sm2.doSignature('x', kp.privateKey, { userId: '' })
    assert(smc.sm2.doVerifySignature('x', s2, kp.publicKey, { userId: '' }), 'sm-crypto module, userId empty')
    assert(!smc.sm2.doVerifySignature('x', s2, kp.publicKey), 'differs from the default ID')
    if (refs) {
      for (const [rname, ref] of Object.entries(refs)) {
        assert(ref.sm2.doVerifySignature('x', s2, kp.publicKey, { hash: true, userId: '' }), rname + ' verifies ours with userId empty')
        const s3 = ref.sm2.doSignature('x', kp.privateKey, { hash: true, userId: '' })
        assert(smc.sm2.doVerifySignature('x', s3, kp.publicKey, { userId: '' }), 'ours verifies ' + rname + ' with userId empty')
      }
    }
  })

  t('ERROR_CODES is the library\'s table of status codes', () => {
    const { engine } = api._internal
    const codes = Object.entries(api.ERROR_CODES)
    for (const [name, st] of codes) eq(engine.errorName(st), name, 'status ' + st)
    const lowest = Math.min(...codes.map(([, st]) => st))
    eq(engine.errorName(lowest - 1), 'FASTSM2_ERR_UNKNOWN', 'no code below ' + lowest + ' (a new one needs its name in src/errors.ts)')
    eq(codes.length, -lowest, 'every code from -1 down')
    const e = throwsCode(() => PrivateKey.fromHex('00'.repeat(32)), 'FASTSM2_ERR_PRIVATE_KEY', 'd = 0')
    assert(e instanceof api.FastSM2Error && e instanceof Error, 'instanceof FastSM2Error')
    eq(e.status, api.ERROR_CODES.FASTSM2_ERR_PRIVATE_KEY, 'status')
  })

  t('UTF-8 of strings as TextEncoder writes it (the sm-crypto modules encode short strings themselves)', () => {
    const samples = ['', 'a', 'hello', '中文消息 SM2 ✓', '\u0080\u07ff\u0800\uffff', '😀 emoji 𝄞', '\ud800', 'x\udc00y', '\ud83d', 'a\ud83d\ude00b\ud83d',
      'é'.repeat(100), '中'.repeat(90), 'z'.repeat(256), 'z'.repeat(257) + '中']
    let x = 7
    for (let k = 0; k < 300; k++) {
      let str = ''
      const len = k % 40
      for (let i = 0; i < len; i++) { x = (x * 1103515245 + 12345) >>> 0; str += String.fromCharCode([x % 128, x % 2048, x % 65536, 0xd800 + (x % 2048)][x % 4]) }
      samples.push(str)
    }
    for (const str of samples) eq(smc.sm2.utf8ToHex(str), hex(enc.encode(str)), 'utf8 of ' + JSON.stringify(str).slice(0, 40))
  })

  // sm-crypto module: a private key in hex is the integer d, one rule for
  // every length (odd lengths were taken below 64 digits and refused above)
  t('sm-crypto module: private key hex of any length is the integer d', () => {
    const ours = smc.sm2
    const R = refs && refs['sm-crypto'] && refs['sm-crypto'].sm2 // 0.5.8 reads hex as an integer
    // G of sm2p256v1 (GB/T 32918.5)
    const G = '0432c4ae2c1f1981195f9904466a39c9948fe30bbff2660be1715a4589334c74c7' +
      'bc3736a2f4f6779c59bdcee36b692153d0a9877cc62a474002df32e52139f0a0'
    eq(ours.getPublicKeyFromPrivateKey('1').toLowerCase(), G, "d = '1' gives G")
    const d = S.d.toLowerCase()
    eq(ours.getPublicKeyFromPrivateKey('00' + d).toLowerCase(), ('04' + S.Px + S.Py).toLowerCase(), 'the example key, 66 digits')
    const forms = ['0' + d, '000' + d, d.toUpperCase(), '0'.repeat(200) + d]
    for (const f of forms) eq(ours.getPublicKeyFromPrivateKey(f), ours.getPublicKeyFromPrivateKey(d), 'leading zeros: ' + f.length + ' digits')
    const abc = ours.getPublicKeyFromPrivateKey('abc')
    eq(ours.getPublicKeyFromPrivateKey('0abc'), abc, "'abc' = '0abc'")
    eq(ours.getPublicKeyFromPrivateKey('0'.repeat(61) + 'abc'), abc, "'abc' = 64 digits")
    const sig = ours.doSignature('m', '0' + d)
    assert(ours.doVerifySignature('m', sig, ours.getPublicKeyFromPrivateKey(d)), 'sign with 65 digits')
    const ct = ours.doEncrypt('m', ours.getPublicKeyFromPrivateKey(d))
    eq(ours.doDecrypt(ct, '00' + d), 'm', 'decrypt with 66 digits')
    if (R) {
      for (const f of ['1', 'abc', 'fff', '0' + d, '00' + d.slice(1)]) {
        eq(ours.getPublicKeyFromPrivateKey(f), R.getPublicKeyFromPrivateKey(f), 'as sm-crypto: ' + f.slice(0, 8) + ' (' + f.length + ')')
      }
    }
    throwsCode(() => ours.getPublicKeyFromPrivateKey('1' + d), 'FASTSM2_ERR_PRIVATE_KEY', '65 significant digits')
    throwsCode(() => ours.doSignature('m', 'f'.repeat(64)), 'FASTSM2_ERR_PRIVATE_KEY', 'd >= n')
    throwsCode(() => ours.doSignature('m', '000'), 'FASTSM2_ERR_PRIVATE_KEY', 'd = 0')
    throwsCode(() => ours.doSignature('m', ''), 'FASTSM2_ERR_ARG', 'empty')
    throwsCode(() => ours.doSignature('m', '0x' + d), 'FASTSM2_ERR_ARG', '0x prefix')
    throwsCode(() => ours.doSignature('m', ' ' + d), 'FASTSM2_ERR_ARG', 'space')
  })

  // ---- bad input: named errors, and the engine still works after ----------
  t('bad input throws named errors', () => {
    const n = 'fffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54123'
    const nm1 = 'fffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54122'
    throwsCode(() => PrivateKey.fromHex('00'.repeat(32)), 'FASTSM2_ERR_PRIVATE_KEY', 'd = 0')
    throwsCode(() => PrivateKey.fromHex(nm1), 'FASTSM2_ERR_PRIVATE_KEY', 'd = n - 1')
    throwsCode(() => PrivateKey.fromHex(n), 'FASTSM2_ERR_PRIVATE_KEY', 'd = n')
    throwsCode(() => PrivateKey.fromBytes(new Uint8Array(31)), 'FASTSM2_ERR_LENGTH', '31 bytes')
    throwsCode(() => PrivateKey.fromHex('zz'), 'FASTSM2_ERR_ARG', 'not hex')
    throwsCode(() => PrivateKey.fromHex('abc'), 'FASTSM2_ERR_ARG', 'odd hex')
    throwsCode(() => PrivateKey.fromBytes('secret'), 'FASTSM2_ERR_ARG', 'string key')
    throwsCode(() => PrivateKey.fromPem('-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n'), 'FASTSM2_ERR_PEM', 'bad base64')
    throwsCode(() => PrivateKey.fromDer(Uint8Array.of(0x30, 0x03, 0x02, 0x01)), 'FASTSM2_ERR_DER', 'truncated DER')
    const P = '04' + S.Px + S.Py
    const off = P.slice(0, -2) + (P.endsWith('00') ? '01' : '00')
    throwsCode(() => PublicKey.fromHex(off), 'FASTSM2_ERR_POINT', 'point off the curve')
    throwsCode(() => PublicKey.fromHex('05' + P.slice(2)), 'FASTSM2_ERR_POINT', 'bad prefix')
    throwsCode(() => PublicKey.fromHex(P.slice(2)), 'FASTSM2_ERR_LENGTH', '64 bytes')
    throwsCode(() => PublicKey.fromBytes(new Uint8Array(0)), 'FASTSM2_ERR_LENGTH', 'empty point')
    const k = PrivateKey.generate()
    throwsCode(() => k.publicKey.encrypt(new Uint8Array(0)), 'FASTSM2_ERR_LENGTH', 'empty message')
    throwsCode(() => k.publicKey.encrypt(enc.encode('x'), { format: 'c1c3c3' }), 'FASTSM2_ERR_ARG', 'unknown format')
    throwsCode(() => k.decrypt(new Uint8Array(50)), 'FASTSM2_ERR_CIPHERTEXT', 'short ciphertext')
    throwsCode(() => k.decrypt(new Uint8Array(120).fill(4)), 'FASTSM2_ERR_POINT', 'C1 off the curve')
    throwsCode(() => k.decrypt(new Uint8Array(0)), 'FASTSM2_ERR_CIPHERTEXT', 'empty ciphertext')
    throwsCode(() => k.decrypt(Uint8Array.of(0x30, 0x80, 1, 2), { format: 'der' }), 'FASTSM2_ERR_CIPHERTEXT', 'bad DER ciphertext')
    throwsCode(() => k.sign('text'), 'FASTSM2_ERR_ARG', 'string message in the modern API')
    throwsCode(() => k.sign(new Uint8Array(1), { format: 'pem' }), 'FASTSM2_ERR_ARG', 'unknown signature format')
    throwsCode(() => k.signDigest(new Uint8Array(31)), 'FASTSM2_ERR_LENGTH', 'short digest')
    throwsCode(() => k.sign(new Uint8Array(1), { id: new Uint8Array(8192) }), 'FASTSM2_ERR_ID', 'ID of 8192 bytes')
    assert(!k.publicKey.verify(new Uint8Array(1), new Uint8Array(64)), 'zero signature is false')
    assert(!k.publicKey.verify(new Uint8Array(1), new Uint8Array(63)), 'short signature is false')
    assert(!k.publicKey.verify(new Uint8Array(1), Uint8Array.of(0x30, 0), { format: 'der' }), 'bad DER is false')
    throwsCode(() => k.publicKey.verify(new Uint8Array(1), 'sig'), 'FASTSM2_ERR_ARG', 'string signature')
    const d = PrivateKey.generate(); d.destroy()
    throwsCode(() => d.sign(new Uint8Array(1)), 'FASTSM2_ERR_ARG', 'destroyed key')
    throwsCode(() => api.hmacSm3(new Uint8Array(1), 'x'), 'FASTSM2_ERR_ARG', 'hmac of a string')
    // sm-crypto module
    throwsCode(() => smc.sm2.doSignature('m', 'not hex'), 'FASTSM2_ERR_ARG', 'doSignature bad key')
    throwsCode(() => smc.sm2.doEncrypt('m', '04' + '00'.repeat(64)), 'FASTSM2_ERR_POINT', 'doEncrypt bad key')
    throwsCode(() => smc.sm2.doDecrypt('xyz', S.d), 'FASTSM2_ERR_ARG', 'doDecrypt bad hex')
    eq(smc.sm2.doDecrypt('00'.repeat(120), S.d), '', 'doDecrypt garbage')
    assert(!smc.sm2.doVerifySignature('m', 'zz', P), 'doVerifySignature bad hex')
    assert(!smc.sm2.doVerifySignature('m', '00'.repeat(64), '04' + '00'.repeat(64)), 'doVerifySignature bad key')
    assert(!smc.sm2.verifyPublicKey(off), 'verifyPublicKey off curve')
    assert(smc.sm2.verifyPublicKey(P), 'verifyPublicKey good')
    throwsCode(() => smc.sm3('x', { key: '' }), 'FASTSM2_ERR_ARG', 'hmac with no key')
    throwsCode(() => smc.sm2.compressPublicKeyHex('04'), 'FASTSM2_ERR_ARG', 'compress a short key')
    // after all of that, the engine works
    const m = enc.encode('still fine')
    assert(k.publicKey.verify(m, k.sign(m)), 'sign/verify after errors')
    eq(k.decrypt(k.publicKey.encrypt(m)), m, 'encrypt/decrypt after errors')
  })

  // ---- a corpus of bad input, then the known answers (issue 41) -----------
  // Every call either returns what its contract says for bad input (false,
  // '' or []) or throws a FastSM2Error with a status name; nothing else
  // (no TypeError from inside, no crash), and afterwards the engine still
  // gives the GB/T 32905 / 32918 answers.
  t('bad-input corpus, then the known answers still come out right', () => {
    const rnd = (n, seed) => { const u = new Uint8Array(n); let x = seed | 0 || 1; for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; u[i] = x & 255 } return u }
    const k = PrivateKey.fromHex(S.d)
    const P = k.publicKey
    const Phex = '04' + S.Px + S.Py
    const spki = P.toPem()
    const values = [undefined, null, true, false, 0, -1, 1.5, NaN, Infinity, 2 ** 53, 10n, '', 'zz', 'abc', '0x12', ' 04',
      '04' + '00'.repeat(64), 'ff'.repeat(32), 'ff'.repeat(33), '00'.repeat(32), {}, [], [256], [-1], [1.5], ['a'], { length: 3 },
      new Uint16Array(4), new Float64Array(2), new ArrayBuffer(3), new DataView(new ArrayBuffer(4)), () => 0, new Date(0),
      new Uint8Array(0), rnd(1, 1), rnd(31, 2), rnd(32, 3), rnd(33, 4), rnd(64, 5), rnd(65, 6), rnd(97, 7), rnd(200, 8),
      rnd(5000, 9), Uint8Array.of(0x30, 0x82, 0xff, 0xff), Uint8Array.of(0x30, 0x80, 0, 0), Uint8Array.of(0x30, 0x03, 0x30, 0x01, 0x30),
      Uint8Array.of(4, ...rnd(64, 10)), Uint8Array.of(2, ...rnd(32, 11)), Uint8Array.of(0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00),
      '-----BEGIN PRIVATE KEY-----\n', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', spki,
      '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n', 'x'.repeat(70000)]
    const optsList = [undefined, null, {}, { format: 'pem' }, { format: 1 }, { id: 5 }, { id: {} }, { id: new Uint8Array(9000) }, { password: 5 },
      { compressed: 'yes' }, { output: 'bytes' }, { der: 'x', hash: 'y', userId: 77, publicKey: 'zz' }, { asn1: true }, { padding: 'x' }]
    let calls = 0
    let named = 0
    const wrong = []
    const guard = (what, fn) => {
      calls++
      try {
        fn()
      } catch (e) {
        if (e && e.name === 'FastSM2Error' && /^FASTSM2_ERR_[A-Z_0-9]+$/.test(e.code) && Number.isInteger(e.status) && e.status < 0) { named++; return }
        wrong.push(what + ': ' + (e && e.name) + ' ' + (e && e.message))
      }
    }
    const name = (v) => { try { return typeof v === 'string' ? JSON.stringify(v.slice(0, 20)) : v instanceof Uint8Array ? 'u8[' + v.length + ']' : typeof v === 'bigint' ? String(v) + 'n' : Object.prototype.toString.call(v) } catch (e) { return '?' } }
    const sm = smc.sm2
    for (const v of values) {
      const w = name(v)
      guard('PrivateKey.fromBytes ' + w, () => PrivateKey.fromBytes(v).destroy())
      guard('PrivateKey.fromHex ' + w, () => PrivateKey.fromHex(v).destroy())
      guard('PrivateKey.fromPem ' + w, () => PrivateKey.fromPem(v).destroy())
      guard('PrivateKey.fromDer ' + w, () => PrivateKey.fromDer(v).destroy())
      guard('PrivateKey.fromPem password ' + w, () => PrivateKey.fromPem(v, { password: 'pw' }).destroy())
      guard('PublicKey.fromBytes ' + w, () => PublicKey.fromBytes(v).destroy())
      guard('PublicKey.fromHex ' + w, () => PublicKey.fromHex(v).destroy())
      guard('PublicKey.fromPem ' + w, () => PublicKey.fromPem(v).destroy())
      guard('PublicKey.fromDer ' + w, () => PublicKey.fromDer(v).destroy())
      guard('sign ' + w, () => k.sign(v))
      guard('signDigest ' + w, () => k.signDigest(v))
      guard('decrypt ' + w, () => k.decrypt(v))
      guard('decrypt der ' + w, () => k.decrypt(v, { format: 'der' }))
      guard('verify msg ' + w, () => P.verify(v, new Uint8Array(64)))
      guard('verify sig ' + w, () => { if (P.verify(msgS, v) !== false) throw new Error('verify true') })
      guard('verify der sig ' + w, () => { if (P.verify(msgS, v, { format: 'der' }) !== false) throw new Error('verify true') })
      guard('verifyDigest ' + w, () => P.verifyDigest(v, new Uint8Array(64)))
      guard('encrypt ' + w, () => P.encrypt(v))
      guard('computeZ ' + w, () => P.computeZ({ id: v }))
      guard('sm3 ' + w, () => api.sm3(v))
      guard('hmacSm3 ' + w, () => api.hmacSm3(v, v))
      guard('sm2.generateKeyPairHex ' + w, () => sm.generateKeyPairHex(v))
      guard('sm2.doEncrypt msg ' + w, () => sm.doEncrypt(v, Phex))
      guard('sm2.doEncrypt key ' + w, () => sm.doEncrypt('m', v))
      guard('sm2.doEncrypt mode ' + w, () => sm.doEncrypt('m', Phex, v))
      guard('sm2.doDecrypt ' + w, () => { const r = sm.doDecrypt(v, S.d); if (r !== '') throw new Error('decrypted garbage: ' + r) })
      guard('sm2.doDecrypt key ' + w, () => sm.doDecrypt('00'.repeat(120), v))
      guard('sm2.doDecrypt array ' + w, () => { const r = sm.doDecrypt(v, S.d, 1, { output: 'array' }); if (r.length !== 0) throw new Error('decrypted garbage') })
      guard('sm2.doSignature msg ' + w, () => sm.doSignature(v, S.d))
      guard('sm2.doSignature key ' + w, () => sm.doSignature('m', v))
      guard('sm2.doSignature hash false ' + w, () => sm.doSignature(v, S.d, { hash: false }))
      guard('sm2.doVerifySignature msg ' + w, () => sm.doVerifySignature(v, '00'.repeat(64), Phex))
      guard('sm2.doVerifySignature sig ' + w, () => { if (sm.doVerifySignature('m', v, Phex) !== false) throw new Error('true') })
      guard('sm2.doVerifySignature der ' + w, () => { if (sm.doVerifySignature('m', v, Phex, { der: true }) !== false) throw new Error('true') })
      guard('sm2.doVerifySignature key ' + w, () => { if (sm.doVerifySignature('m', '00'.repeat(64), v) !== false) throw new Error('true') })
      guard('sm2.getPublicKeyFromPrivateKey ' + w, () => sm.getPublicKeyFromPrivateKey(v))
      guard('sm2.compressPublicKeyHex ' + w, () => sm.compressPublicKeyHex(v))
      guard('sm2.verifyPublicKey ' + w, () => { if (sm.verifyPublicKey(v) !== false) throw new Error('true') })
      guard('sm2.comparePublicKeyHex ' + w, () => { if (sm.comparePublicKeyHex(v, Phex) !== false) throw new Error('true') })
      guard('sm2.getHash ' + w, () => sm.getHash(v, Phex))
      guard('sm2.getHash key ' + w, () => sm.getHash('00', v))
      guard('sm2.getZ ' + w, () => sm.getZ(v))
      guard('sm2.utf8ToHex ' + w, () => sm.utf8ToHex(v))
      guard('sm2.arrayToHex ' + w, () => sm.arrayToHex(v))
      guard('sm2.arrayToUtf8 ' + w, () => sm.arrayToUtf8(v))
      guard('sm2.hexToArray ' + w, () => sm.hexToArray(v))
      guard('sm2.leftPad ' + w, () => sm.leftPad(v, 64))
      guard('sm3 module ' + w, () => smc.sm3(v))
      guard('sm3 module hmac ' + w, () => smc.sm3('m', { key: v }))
      const k16 = new Uint8Array(16).fill(1)
      guard('sm4.Key.fromBytes ' + w, () => api.sm4.Key.fromBytes(v).destroy())
      guard('sm4.cbcEncrypt key ' + w, () => api.sm4.cbcEncrypt(v, new Uint8Array(16), new Uint8Array(3)))
      guard('sm4.cbcEncrypt iv ' + w, () => api.sm4.cbcEncrypt(k16, v, new Uint8Array(3)))
      guard('sm4.cbcDecrypt ' + w, () => api.sm4.cbcDecrypt(k16, new Uint8Array(16), v))
      guard('sm4.ecbDecrypt ' + w, () => api.sm4.ecbDecrypt(k16, v))
      guard('sm4.ctr ' + w, () => api.sm4.ctr(k16, v, v))
      guard('sm4.gcmEncrypt iv ' + w, () => api.sm4.gcmEncrypt(k16, v, new Uint8Array(3)))
      guard('sm4.gcmDecrypt ' + w, () => api.sm4.gcmDecrypt(k16, new Uint8Array(12), v))
      guard('sm4.gcmDecrypt aad ' + w, () => api.sm4.gcmDecrypt(k16, new Uint8Array(12), new Uint8Array(20), { aad: v }))
      guard('sm4.ccmDecrypt ' + w, () => api.sm4.ccmDecrypt(k16, v, new Uint8Array(20)))
      guard('sm4.xtsEncrypt ' + w, () => api.sm4.xtsEncrypt(k16, v, new Uint8Array(16), new Uint8Array(32)))
      guard('sm4.createCipher ' + w, () => api.sm4.createCipher(v, k16, new Uint8Array(16)).final())
      guard('sm4.createDecipher ' + w, () => { const d = api.sm4.createDecipher('cbc', k16, new Uint8Array(16)); d.update(v); d.final() })
      guard('sm4.createGcmDecryptor ' + w, () => { const d = api.sm4.createGcmDecryptor(k16, new Uint8Array(12)); d.update(new Uint8Array(5)); d.final(v) })
      guard('sm-crypto sm4.encrypt ' + w, () => smc.sm4.encrypt(v, '00'.repeat(16)))
      guard('sm-crypto sm4.encrypt key ' + w, () => smc.sm4.encrypt('m', v))
      guard('sm-crypto sm4.decrypt ' + w, () => smc.sm4.decrypt(v, '00'.repeat(16)))
      guard('sm-crypto sm4.decrypt iv ' + w, () => smc.sm4.decrypt('00'.repeat(16), '00'.repeat(16), { mode: 'cbc', iv: v }))
    }
    for (const o of optsList) {
      const w = JSON.stringify(o, (key, x) => (x instanceof Uint8Array ? 'u8[' + x.length + ']' : x))
      guard('sign opts ' + w, () => k.sign(msgS, o))
      guard('signDigest opts ' + w, () => k.signDigest(new Uint8Array(32), o))
      guard('toPem opts ' + w, () => k.toPem(o))
      guard('toDer opts ' + w, () => k.toDer(o))
      guard('publicKey.toBytes opts ' + w, () => P.toBytes(o))
      guard('verify opts ' + w, () => P.verify(msgS, new Uint8Array(64), o))
      guard('encrypt opts ' + w, () => P.encrypt(msgS, o))
      guard('decrypt opts ' + w, () => k.decrypt(new Uint8Array(120), o))
      guard('computeZ opts ' + w, () => P.computeZ(o))
      guard('fromPem opts ' + w, () => PrivateKey.fromPem(k.toPem(), o).destroy())
      guard('sm2.doSignature opts ' + w, () => sm.doSignature('m', S.d, o))
      guard('sm2.doVerifySignature opts ' + w, () => sm.doVerifySignature('m', '00'.repeat(64), Phex, o))
      guard('sm2.doEncrypt opts ' + w, () => sm.doEncrypt('m', Phex, 1, o))
      guard('sm2.doDecrypt opts ' + w, () => sm.doDecrypt('00'.repeat(120), S.d, 1, o))
      guard('sm3 opts ' + w, () => smc.sm3('m', o))
      guard('sm4.cbcEncrypt opts ' + w, () => api.sm4.cbcEncrypt(new Uint8Array(16), new Uint8Array(16), new Uint8Array(3), o))
      guard('sm4.gcmEncrypt opts ' + w, () => api.sm4.gcmEncrypt(new Uint8Array(16), new Uint8Array(12), new Uint8Array(3), o))
      guard('sm4.xtsEncrypt opts ' + w, () => api.sm4.xtsEncrypt(new Uint8Array(16), new Uint8Array(16).fill(2), new Uint8Array(16), new Uint8Array(16), o))
      guard('sm-crypto sm4 opts ' + w, () => smc.sm4.encrypt('m', '00'.repeat(16), o))
      guard('sm-crypto sm4 decrypt opts ' + w, () => smc.sm4.decrypt('00'.repeat(32), '00'.repeat(16), o))
    }
    if (wrong.length) throw new Error(wrong.length + ' of ' + calls + ' calls ended otherwise than their contract says:\n  ' + wrong.slice(0, 40).join('\n  '))
    assert(named > calls / 3, 'most of the corpus is refused with a named error (' + named + ' of ' + calls + ')')
    // a public key where a private key belongs: FASTSM2_ERR_PUBLIC_KEY (-31), PEM and DER
    const e1 = throwsCode(() => PrivateKey.fromPem(spki), 'FASTSM2_ERR_PUBLIC_KEY', 'SPKI PEM as a private key')
    eq(e1.status, -31, 'status of FASTSM2_ERR_PUBLIC_KEY')
    assert(/public key/.test(e1.message), 'message says a public key: ' + e1.message)
    throwsCode(() => PrivateKey.fromDer(P.toDer()), 'FASTSM2_ERR_PUBLIC_KEY', 'SPKI DER as a private key')
    // the known answers, after all of that
    knownAnswers(api, smc, V)
  })

  if (api.engine === 'wasm') {
    t('wasm: no secret left in WebAssembly memory after a call', () => {
      const mem = () => new Uint8Array(api._internal.engine.memory.buffer)
      const find = (needle) => {
        const h = mem()
        outer: for (let i = 0; i + needle.length <= h.length; i++) {
          if (h[i] !== needle[0]) continue
          for (let j = 1; j < needle.length; j++) if (h[i + j] !== needle[j]) continue outer
          return i
        }
        return -1
      }
      const secret = enc.encode('PLAINTEXT-MARKER-' + Math.random().toString(36).slice(2) + '-0123456789abcdef')
      const k = PrivateKey.generate()
      const c = k.publicKey.encrypt(secret)
      eq(k.decrypt(c), secret, 'round trip')
      k.sign(secret)
      smc.sm2.doDecrypt(hex(c.slice(1)), k.toHex())
      eq(find(secret), -1, 'plaintext found in wasm memory')
      const d = k.toBytes()
      k.destroy()
      eq(find(d), -1, 'private key bytes found after destroy')
      smc.sm2.clearKeyCache()
    })
  }

  // ---- interop with sm-crypto and sm-crypto-v2 (Node) ----------------------
  if (refs) {
    const ours = smc.sm2
    for (const [rname, ref] of Object.entries(refs)) {
      // sm-crypto takes arrays of bytes, sm-crypto-v2 Uint8Array for binary input
      const bin = (a) => rname === 'sm-crypto-v2' ? Uint8Array.from(a) : a
      const msgs = ['hello', '中文消息 SM2 ✓', 'x'.repeat(1000), bin([1, 2, 3, 255]), new Uint8Array([0, 9, 8])]
      const R = ref.sm2
      const pairs = () => {
        const a = R.generateKeyPairHex(); const b = ours.generateKeyPairHex()
        return [['theirs', a], ['ours', b]]
      }
      t(rname + ': keys', () => {
        for (const [, kp] of pairs()) {
          eq(ours.getPublicKeyFromPrivateKey(kp.privateKey), R.getPublicKeyFromPrivateKey(kp.privateKey), 'public from private')
          eq(ours.compressPublicKeyHex(kp.publicKey), R.compressPublicKeyHex(kp.publicKey), 'compressed')
          eq(kp.privateKey.length, 64, 'private hex'); eq(kp.publicKey.length, 130, 'public hex')
          assert(R.verifyPublicKey(kp.publicKey) && ours.verifyPublicKey(kp.publicKey), 'valid')
          assert(ours.comparePublicKeyHex(kp.publicKey, R.compressPublicKeyHex(kp.publicKey)), 'compare')
        }
        const short = '0000' + 'a'.repeat(60) // a key with leading zero bytes
        eq(ours.getPublicKeyFromPrivateKey(short), R.getPublicKeyFromPrivateKey(short), 'leading zeros')
      })
      t(rname + ': signatures both ways (hash, der, userId, publicKey, key forms)', () => {
        for (const [, kp] of pairs()) {
          const pubs = [kp.publicKey, ours.compressPublicKeyHex(kp.publicKey)]
          for (const msg of msgs) {
            for (const der of [false, true]) {
              for (const userId of [undefined, 'alice@example.com']) {
                const opt = { der, hash: true, userId }
                const s1 = ours.doSignature(msg, kp.privateKey, opt)
                const s2 = R.doSignature(msg, kp.privateKey, opt)
                for (const pk of pubs) {
                  assert(R.doVerifySignature(msg, s1, pk, opt), 'theirs verifies ours ' + JSON.stringify(opt))
                  assert(ours.doVerifySignature(msg, s2, pk, opt), 'ours verifies theirs ' + JSON.stringify(opt))
                }
                const s3 = ours.doSignature(msg, kp.privateKey, { ...opt, publicKey: kp.publicKey })
                assert(R.doVerifySignature(msg, s3, kp.publicKey, opt), 'with publicKey given')
                assert(!R.doVerifySignature(msg + '.', s1, kp.publicKey, opt), 'other message')
              }
              // hash: false signs the message as an integer (a 32-byte digest, usually)
              const dig = typeof msg === 'string' ? hex(api.sm3(enc.encode(msg))) : null
              if (dig) {
                const o = { der, hash: false }
                assert(R.doVerifySignature(unhex(dig), ours.doSignature(unhex(dig), kp.privateKey, o), kp.publicKey, o), 'hash false: theirs verifies ours')
                assert(ours.doVerifySignature(unhex(dig), R.doSignature(unhex(dig), kp.privateKey, o), kp.publicKey, o), 'hash false: ours verifies theirs')
                assert(R.doVerifySignature(msg, ours.doSignature(msg, kp.privateKey, o), kp.publicKey, o), 'hash false, long message')
              }
            }
          }
          // the default of `hash` in our module is sm-crypto 0.5.8's (true)
          assert(ours.doVerifySignature('dflt', R.doSignature('dflt', kp.privateKey, { hash: true }), kp.publicKey), 'default hash: true')
        }
      })
      t(rname + ': encryption both ways (cipherMode 1 and 0, key forms, output)', () => {
        for (const [, kp] of pairs()) {
          const pubs = [kp.publicKey, ours.compressPublicKeyHex(kp.publicKey)]
          for (const msg of msgs) {
            const want = typeof msg === 'string' ? msg : Array.from(msg)
            for (const mode of [1, 0]) {
              for (const pk of pubs) {
                const c1 = ours.doEncrypt(msg, pk, mode)
                const c2 = R.doEncrypt(msg, pk, mode)
                eq(c1.length, c2.length, 'same length (no 04 prefix)')
                if (typeof msg === 'string') {
                  eq(R.doDecrypt(c1, kp.privateKey, mode), msg, 'theirs decrypts ours, mode ' + mode)
                  eq(ours.doDecrypt(c2, kp.privateKey, mode), msg, 'ours decrypts theirs, mode ' + mode)
                }
                eq(JSON.stringify(Array.from(R.doDecrypt(c1, kp.privateKey, mode, { output: 'array' }))),
                  JSON.stringify(typeof msg === 'string' ? Array.from(enc.encode(msg)) : want), 'array output of theirs')
                eq(JSON.stringify(ours.doDecrypt(c2, kp.privateKey, mode, { output: 'array' })),
                  JSON.stringify(Array.from(R.doDecrypt(c2, kp.privateKey, mode, { output: 'array' }))), 'array output of ours')
              }
            }
            if (rname === 'sm-crypto-v2' && typeof msg === 'string') {
              const a1 = ours.doEncrypt(msg, kp.publicKey, 1, { asn1: true })
              eq(R.doDecrypt(a1, kp.privateKey, 1, { asn1: true }), msg, 'asn1: theirs decrypts ours')
              eq(ours.doDecrypt(R.doEncrypt(msg, kp.publicKey, 1, { asn1: true }), kp.privateKey, 1, { asn1: true }), msg, 'asn1: ours decrypts theirs')
            }
          }
          const c = R.doEncrypt('m', kp.publicKey)
          const bad = c.slice(0, -2) + (c.endsWith('00') ? '01' : '00')
          eq(ours.doDecrypt(bad, kp.privateKey), R.doDecrypt(bad, kp.privateKey), 'failure result as theirs')
        }
      })
      t(rname + ': sm3 and HMAC', () => {
        for (const m of ['', 'abc', '中文', 'a'.repeat(200), bin([1, 2, 3])]) {
          eq(smc.sm3(m), ref.sm3(m), 'sm3 ' + JSON.stringify(m))
          for (const key of ['00112233', 'ab'.repeat(100), bin([1, 2, 3])]) {
            eq(smc.sm3(m, { key }), ref.sm3(m, { key }), 'hmac')
            eq(smc.sm3(m, { key, mode: 'hmac' }), ref.sm3(m, { key, mode: 'hmac' }), 'hmac mode')
          }
        }
      })
    }
  }
  return list
}

export { cases, parseVectors, hex, unhex }
