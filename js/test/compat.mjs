// SPDX-License-Identifier: Apache-2.0
// The compatibility suite: everything sm-crypto 0.5.x and sm-crypto-v2
// 1.15.x export, checked against the packages themselves in both
// directions, on one engine. Run by Node's test runner (test/node.test.mjs,
// on the addon and on WebAssembly) and in Chromium (test/browser/, with
// both packages loaded in the page): no Node module in here.
//   compatCases({ api, v1, v2, refs }) -> [{ name, fn }]
// v1, v2: fastsm2/sm-crypto and fastsm2/sm-crypto-v2 made on api; refs:
// { 'sm-crypto': ..., 'sm-crypto-v2': ... } (their exports).

const enc = new TextEncoder()
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('')
const unhex = (s) => Uint8Array.from(s.match(/../g) || [], (h) => parseInt(h, 16))
function assert (cond, msg) { if (!cond) throw new Error('assertion failed: ' + msg) }
function eq (a, b, msg) {
  const norm = (x) => x instanceof Uint8Array ? 'u8:' + hex(x) : Array.isArray(x) ? 'arr:' + JSON.stringify(x) : JSON.stringify(x, (k, v) => typeof v === 'bigint' ? v.toString(16) + 'n' : v)
  if (norm(a) !== norm(b)) throw new Error('assertion failed: ' + msg + ': ' + norm(a).slice(0, 200) + ' !== ' + norm(b).slice(0, 200))
}
function throwsCode (fn, code, msg) {
  try { fn() } catch (e) {
    if (e.name !== 'FastSM2Error' || e.code !== code) throw new Error(msg + ': expected ' + code + ', got ' + e.name + ' ' + e.code + ' ' + e.message)
    return e
  }
  throw new Error(msg + ': expected ' + code + ', nothing thrown')
}
// a deterministic rng with sm-crypto's interface (nextBytes(array))
function rngOf (seed) {
  let x = seed >>> 0 || 1
  return { nextBytes (a) { for (let i = 0; i < a.length; i++) { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; a[i] = x & 255 } } }
}

function compatCases ({ api, v1, v2, refs }) {
  const list = []
  const t = (name, fn) => list.push({ name: 'compat: ' + name, fn })
  const R1 = refs['sm-crypto']
  const R2 = refs['sm-crypto-v2']
  const pairs = [['sm-crypto', v1, R1], ['sm-crypto-v2', v2, R2]]

  t('every export of sm-crypto and sm-crypto-v2 exists, of the same kind', () => {
    for (const [name, ours, ref] of pairs) {
      for (const k of Object.keys(ref)) assert(typeof ours[k] === typeof ref[k], name + ': top-level ' + k + ' is ' + typeof ours[k])
      for (const k of Object.keys(ref.sm2)) assert(typeof ours.sm2[k] === typeof ref.sm2[k], name + ': sm2.' + k + ' is ' + typeof ours.sm2[k])
    }
    // sm-crypto-v2's exports in fastsm2/sm-crypto too (a superset)
    for (const k of Object.keys(R2.sm2)) assert(typeof v1.sm2[k] === typeof R2.sm2[k], 'sm-crypto module: sm2.' + k)
    assert(v2.sm2.EmptyArray instanceof Uint8Array && v2.sm2.EmptyArray.length === 0, 'EmptyArray')
    for (const [name, ours, ref] of pairs) for (const k of Object.keys(ref.sm4)) assert(typeof ours.sm4[k] === typeof ref.sm4[k], name + ': sm4.' + k + ' is ' + typeof ours.sm4[k])
  })

  t('generateKeyPairHex(256, rng) and (seed, radix) make sm-crypto 0.5.8\'s keys', () => {
    for (let s = 1; s <= 6; s++) {
      const want = R1.sm2.generateKeyPairHex(256, rngOf(s))
      eq(v1.sm2.generateKeyPairHex(256, rngOf(s)), want, 'bits 256, rng ' + s)
      eq(v2.sm2.generateKeyPairHex(256, rngOf(s)), want, 'sm-crypto-v2 module, bits 256, rng ' + s)
      eq(v1.sm2.generateKeyPairHex(255, rngOf(s)), R1.sm2.generateKeyPairHex(255, rngOf(s)), 'bits 255')
      eq(v1.sm2.generateKeyPairHex(300, rngOf(s)), R1.sm2.generateKeyPairHex(300, rngOf(s)), 'bits 300')
    }
    for (const [seed, radix] of [['12345', undefined], ['ffee0011', 16], ['1'.repeat(100), 10], ['-77', 10]]) {
      eq(v1.sm2.generateKeyPairHex(seed, radix), R1.sm2.generateKeyPairHex(seed, radix), 'seed ' + seed)
    }
    const kp = v1.sm2.generateKeyPairHex()
    assert(/^[0-9a-f]{64}$/.test(kp.privateKey) && /^04[0-9a-f]{128}$/.test(kp.publicKey), 'random pair')
    eq(R1.sm2.getPublicKeyFromPrivateKey(kp.privateKey), kp.publicKey, 'P = dG')
    // sm-crypto-v2 1.15.1 makes the private key 1 of every seed: refused
    eq(R2.sm2.generateKeyPairHex('12345').privateKey, '0'.repeat(63) + '1', 'sm-crypto-v2 seeds give d = 1')
    throwsCode(() => v2.sm2.generateKeyPairHex('12345'), 'FASTSM2_ERR_UNSUPPORTED', 'v2 seed')
    throwsCode(() => v1.sm2.generateKeyPairHex(256, 3), 'FASTSM2_ERR_UNSUPPORTED', 'jsbn probable primes')
    throwsCode(() => v1.sm2.generateKeyPairHex('12z'), 'FASTSM2_ERR_ARG', 'bad seed digit')
  })

  t('getPoint and pointPool: the same point signs the same bytes, both ways', () => {
    for (const [name, ours, ref] of pairs) {
      const kp = ref.sm2.generateKeyPairHex()
      for (const opt of [{ hash: true }, { hash: true, der: true }, { hash: false }, { hash: true, userId: 'u@x', publicKey: kp.publicKey }]) {
        const msg = 'point pool ' + JSON.stringify(opt)
        // theirs -> ours
        const p = ref.sm2.getPoint()
        const a = ref.sm2.doSignature(msg, kp.privateKey, { ...opt, pointPool: [p] })
        const pool = [p]
        const b = ours.sm2.doSignature(msg, kp.privateKey, { ...opt, pointPool: pool })
        eq(b, a, name + ': their point, our signature ' + JSON.stringify(opt))
        eq(pool.length, 0, 'pointPool popped')
        // ours -> theirs (sm-crypto 0.5.8 takes jsbn integers: convert)
        const q = ours.sm2.getPoint()
        assert(typeof q.k === 'bigint' && typeof q.x1 === 'bigint', 'bigint k, x1')
        eq(q.x1.toString(16).padStart(64, '0'), q.publicKey.slice(2, 66), 'x1 = x(kG)')
        eq(q.k.toString(16).padStart(64, '0'), q.privateKey, 'k = the private key')
        const theirs = name === 'sm-crypto' ? { k: new (R1.sm2.getPoint().k.constructor)(q.k.toString(16), 16), x1: new (R1.sm2.getPoint().k.constructor)(q.x1.toString(16), 16) } : { ...q }
        eq(ours.sm2.doSignature(msg, kp.privateKey, { ...opt, pointPool: [{ ...q }] }), ref.sm2.doSignature(msg, kp.privateKey, { ...opt, pointPool: [theirs] }), name + ': our point ' + JSON.stringify(opt))
        const h = opt.hash
        assert(ref.sm2.doVerifySignature(msg, b, kp.publicKey, { ...opt, hash: h }), 'verifies')
      }
      // several points: one popped per signature; an unusable one is skipped
      const kp2 = ours.sm2.generateKeyPairHex()
      const pool = [ours.sm2.getPoint(), ours.sm2.getPoint(), { k: 0n }] // popped from the end
      const s1 = ours.sm2.doSignature('m', kp2.privateKey, { hash: true, pointPool: pool })
      eq(pool.length, 1, 'k = 0 skipped')
      assert(ref.sm2.doVerifySignature('m', s1, kp2.publicKey, { hash: true }), 'after a skipped point')
    }
  })

  t('hash defaults: sm-crypto hashes, sm-crypto-v2 does not', () => {
    for (const [name, ours, ref] of pairs) {
      const kp = ref.sm2.generateKeyPairHex()
      const s1 = ours.sm2.doSignature('defaults', kp.privateKey)
      assert(ref.sm2.doVerifySignature('defaults', s1, kp.publicKey), name + ' verifies ours with its defaults')
      assert(ours.sm2.doVerifySignature('defaults', ref.sm2.doSignature('defaults', kp.privateKey), kp.publicKey), name + ': ours verifies theirs, defaults')
      const other = name === 'sm-crypto' ? { hash: false } : { hash: true }
      assert(!ref.sm2.doVerifySignature('defaults', s1, kp.publicKey, other), name + ': the other hash does not verify')
    }
  })

  t('output types of doDecrypt and hexToArray', () => {
    for (const [name, ours, ref] of pairs) {
      const kp = ref.sm2.generateKeyPairHex()
      const c = ref.sm2.doEncrypt('xyz', kp.publicKey)
      const a = ours.sm2.doDecrypt(c, kp.privateKey, 1, { output: 'array' })
      const b = ref.sm2.doDecrypt(c, kp.privateKey, 1, { output: 'array' })
      eq(Object.prototype.toString.call(a), Object.prototype.toString.call(b), name + ': array output type')
      eq(Array.from(a), Array.from(b), name + ': array output')
      eq(Object.prototype.toString.call(ours.sm2.doDecrypt('00'.repeat(120), kp.privateKey, 1, { output: 'array' })), '[object Array]', name + ': failure is []')
      if (ref.sm2.hexToArray) {
        eq(Object.prototype.toString.call(ours.sm2.hexToArray('0a0b')), Object.prototype.toString.call(ref.sm2.hexToArray('0a0b')), name + ': hexToArray type')
        eq(Array.from(ours.sm2.hexToArray('a0b')), Array.from(ref.sm2.hexToArray('a0b')), name + ': hexToArray odd length')
        eq(ours.sm2.leftPad('ab', 5), ref.sm2.leftPad('ab', 5), 'leftPad')
        eq(ours.sm2.utf8ToHex('中文 ok'), ref.sm2.utf8ToHex('中文 ok'), 'utf8ToHex')
        eq(ours.sm2.arrayToHex([1, 2, 255]), ref.sm2.arrayToHex([1, 2, 255]), 'arrayToHex')
        eq(ours.sm2.arrayToUtf8(Uint8Array.from(enc.encode('中文 ok'))), ref.sm2.arrayToUtf8(Uint8Array.from(enc.encode('中文 ok'))), 'arrayToUtf8')
        eq(hex(ours.sm2.getZ(kp.publicKey, 'id')), hex(ref.sm2.getZ(kp.publicKey, 'id')), 'getZ')
        eq(ours.sm2.getHash('0011', kp.publicKey), ref.sm2.getHash('0011', kp.publicKey), 'getHash')
      }
    }
  })

  t('precomputePublicKey: ours and sm-crypto-v2\'s, taken by doEncrypt and doVerifySignature', () => {
    const kp = R2.sm2.generateKeyPairHex()
    const pre = v2.sm2.precomputePublicKey(kp.publicKey)
    eq(pre.toHex(false), kp.publicKey, 'toHex(false)')
    eq(pre.toHex(), R2.sm2.compressPublicKeyHex(kp.publicKey), 'toHex() compressed, as a noble point')
    eq(pre.x.toString(16).padStart(64, '0'), kp.publicKey.slice(2, 66), 'x')
    const theirPre = R2.sm2.precomputePublicKey(kp.publicKey)
    for (const p of [pre, theirPre]) {
      for (const mode of [0, 1]) eq(R2.sm2.doDecrypt(v2.sm2.doEncrypt('pre ' + mode, p, mode), kp.privateKey, mode), 'pre ' + mode, 'encrypt to a precomputed key, mode ' + mode)
      const s = R2.sm2.doSignature('msg', kp.privateKey, { hash: true })
      assert(v2.sm2.doVerifySignature('msg', s, p, { hash: true }), 'verify with a precomputed key')
      assert(!v2.sm2.doVerifySignature('msg2', s, p, { hash: true }), 'and not another message')
    }
  })

  t('ecdh: the shared point of sm-crypto-v2, compressed and not', () => {
    for (let i = 0; i < 4; i++) {
      const a = R2.sm2.generateKeyPairHex()
      const b = R2.sm2.generateKeyPairHex()
      for (const c of [undefined, true, false]) {
        const want = R2.sm2.ecdh(a.privateKey, b.publicKey, c)
        eq(v2.sm2.ecdh(a.privateKey, b.publicKey, c), want, 'hex keys, compressed ' + c)
        eq(v2.sm2.ecdh(unhex(a.privateKey), unhex(b.publicKey), c), want, 'byte keys')
        eq(v2.sm2.ecdh(BigInt('0x' + a.privateKey), R2.sm2.compressPublicKeyHex(b.publicKey), c), want, 'bigint key, compressed peer')
        eq(v2.sm2.ecdh(b.privateKey, a.publicKey, c), want, 'both sides agree')
      }
    }
    throwsCode(() => v2.sm2.ecdh(R2.sm2.generateKeyPairHex().privateKey, '04' + '00'.repeat(64)), 'FASTSM2_ERR_POINT', 'bad peer')
  })

  t('calculateSharedKey: sm-crypto-v2\'s key agreement, both roles, both ways', () => {
    for (const [idA, idB] of [[undefined, undefined], ['alice@x', 'bob@y']]) {
      const A = R2.sm2.generateKeyPairHex(); const eA = R2.sm2.generateKeyPairHex()
      const B = R2.sm2.generateKeyPairHex(); const eB = R2.sm2.generateKeyPairHex()
      for (const len of [16, 32, 33, 100]) {
        const wantA = R2.sm2.calculateSharedKey(A, eA, B.publicKey, eB.publicKey, len, false, idA, idB)
        const wantB = R2.sm2.calculateSharedKey(B, eB, A.publicKey, eA.publicKey, len, true, idB, idA)
        eq(wantA, wantB, 'theirs agree')
        eq(v2.sm2.calculateSharedKey(A, eA, B.publicKey, eB.publicKey, len, false, idA, idB), wantA, 'initiator, length ' + len)
        eq(v2.sm2.calculateSharedKey(B, eB, A.publicKey, eA.publicKey, len, true, idB, idA), wantB, 'responder, length ' + len)
        eq(v1.sm2.calculateSharedKey(A, eA, B.publicKey, eB.publicKey, len, false, idA, idB), wantA, 'in the sm-crypto module too')
      }
    }
  })

  t('initRNGPool, kdf and hkdf of sm-crypto-v2', async () => {
    const p = v2.sm2.initRNGPool()
    assert(p && typeof p.then === 'function', 'a promise')
    eq(await p, undefined, 'resolves to nothing')
    for (const z of ['', 'abc', '中文', unhex('00112233445566778899'), new Uint8Array(200).fill(7)]) {
      for (const len of [0, 1, 31, 32, 33, 100]) {
        eq(v2.kdf(z, len), R2.kdf(z, len), 'kdf ' + len)
        for (const iv of ['iv', unhex('0102')]) eq(v2.kdf(z, len, iv), R2.kdf(z, len, iv), 'kdf with iv ' + len)
      }
    }
    for (const [ikm, salt, info] of [['key', undefined, undefined], [unhex('0b'.repeat(22)), unhex('000102030405060708090a0b0c'), unhex('f0f1f2f3f4f5f6f7f8f9')], ['k', 'salt', 'info'], ['', '', '']]) {
      for (const len of [1, 32, 42, 100]) eq(v2.hkdf(ikm, salt, info, len), R2.hkdf(ikm, salt, info, len), 'hkdf ' + len)
    }
    eq(api.kdf(enc.encode('abc'), 40), v2.kdf('abc', 40), 'modern kdf')
  })

  t('a private key in hex is the integer d in both modules, for ecdh and key agreement too', () => {
    const A = R2.sm2.generateKeyPairHex(); const eA = R2.sm2.generateKeyPairHex()
    const B = R2.sm2.generateKeyPairHex(); const eB = R2.sm2.generateKeyPairHex()
    const d = A.privateKey
    for (const [name, ours] of [['sm-crypto', v1], ['sm-crypto-v2', v2]]) {
      eq(ours.sm2.getPublicKeyFromPrivateKey('00' + d), A.publicKey, name + ': 66 digits')
      eq(ours.sm2.getPublicKeyFromPrivateKey('abc'), R1.sm2.getPublicKeyFromPrivateKey('abc'), name + ': 3 digits')
      throwsCode(() => ours.sm2.getPublicKeyFromPrivateKey('1' + d), 'FASTSM2_ERR_PRIVATE_KEY', name + ': 65 significant digits')
    }
    eq(v2.sm2.ecdh('0' + d, B.publicKey), R2.sm2.ecdh(d, B.publicKey), 'ecdh, 65 digits')
    throwsCode(() => v2.sm2.ecdh('1' + d, B.publicKey), 'FASTSM2_ERR_PRIVATE_KEY', 'ecdh, 65 significant digits')
    const want = R2.sm2.calculateSharedKey(A, eA, B.publicKey, eB.publicKey, 32)
    eq(v2.sm2.calculateSharedKey({ ...A, privateKey: '0' + d }, { ...eA, privateKey: '000' + eA.privateKey }, B.publicKey, eB.publicKey, 32), want, 'key agreement, 65 and 67 digits')
    throwsCode(() => v2.sm2.calculateSharedKey(A, { ...eA, privateKey: 'f' + eA.privateKey }, B.publicKey, eB.publicKey, 32), 'FASTSM2_ERR_PRIVATE_KEY', 'ephemeral key, 65 significant digits')
  })

  t('asn1 ciphertexts with cipherMode 0 and 1, both ways', () => {
    const kp = R2.sm2.generateKeyPairHex()
    for (const mode of [0, 1]) {
      for (const msg of ['a', 'asn1 message ' + mode, 'x'.repeat(300)]) {
        eq(R2.sm2.doDecrypt(v2.sm2.doEncrypt(msg, kp.publicKey, mode, { asn1: true }), kp.privateKey, mode, { asn1: true }), msg, 'theirs decrypts ours, mode ' + mode)
        eq(v2.sm2.doDecrypt(R2.sm2.doEncrypt(msg, kp.publicKey, mode, { asn1: true }), kp.privateKey, mode, { asn1: true }), msg, 'ours decrypts theirs, mode ' + mode)
      }
    }
    eq(v2.sm2.doDecrypt('3000', kp.privateKey, 0, { asn1: true }), '', 'bad DER')
  })

  return list
}

export { compatCases, rngOf }
