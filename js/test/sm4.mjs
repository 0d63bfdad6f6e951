// SPDX-License-Identifier: Apache-2.0
// SM4 through the package: the modern API's sm4 (every mode, one-shot and
// streaming, against the known answers of tests/vectors/sm4-examples.txt:
// GB/T 32907-2016 appendix A, RFC 8998 appendix A, OpenSSL-made cases) and
// the sm4 of fastsm2/sm-crypto and fastsm2/sm-crypto-v2 against sm-crypto
// and sm-crypto-v2 themselves, both ways. Node (test/node.test.mjs, both
// engines) and Chromium (test/browser/): no Node module in here.
//   sm4Cases({ api, v1, v2, refs, vectors }) -> [{ name, fn }]

const enc = new TextEncoder()
const dec = new TextDecoder()
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('')
const unhex = (s) => Uint8Array.from(s.match(/../g) || [], (h) => parseInt(h, 16))
function assert (cond, msg) { if (!cond) throw new Error('assertion failed: ' + msg) }
function eq (a, b, msg) {
  const norm = (x) => x instanceof Uint8Array ? 'u8:' + hex(x) : Array.isArray(x) ? 'arr:' + JSON.stringify(x) : JSON.stringify(x)
  if (norm(a) !== norm(b)) throw new Error('assertion failed: ' + msg + ': ' + norm(a).slice(0, 160) + ' !== ' + norm(b).slice(0, 160))
}
function throwsCode (fn, code, msg) {
  try { fn() } catch (e) {
    if (e.name !== 'FastSM2Error' || e.code !== code) throw new Error(msg + ': expected ' + code + ', got ' + e.name + ' ' + e.code + ' ' + e.message)
    return e
  }
  throw new Error(msg + ': expected ' + code + ', nothing thrown')
}
const rnd = (n, seed) => { const u = new Uint8Array(n); let x = seed | 0 || 1; for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; u[i] = x & 255 } return u }
const cat = (...a) => { const o = new Uint8Array(a.reduce((n, x) => n + x.length, 0)); let i = 0; for (const x of a) { o.set(x, i); i += x.length } return o }

// [name] then key = value lines (hex; "aad_seq = N": N bytes 00 01 02 ...)
function parseSm4Vectors (text) {
  const out = {}
  let cur = null
  for (const line of text.split('\n')) {
    const l = line.trim()
    if (!l || l.startsWith('#')) continue
    const m = /^\[([\w-]+)\]$/.exec(l)
    if (m) { cur = out[m[1]] = {}; continue }
    const i = l.indexOf('=')
    const k = l.slice(0, i).trim()
    const v = l.slice(i + 1).trim()
    if (k === 'aad_seq') cur.aad = Uint8Array.from({ length: Number(v) }, (_, j) => j & 255)
    else if (k === 'times' || k === 'standard') cur[k] = v
    else cur[k] = unhex(v.toLowerCase())
  }
  return out
}

function sm4Cases ({ api, v1, v2, refs, vectors }) {
  const list = []
  const t = (name, fn) => list.push({ name: 'sm4: ' + name, fn })
  const { sm4 } = api
  const V = parseSm4Vectors(vectors)

  t('GB/T 32907 appendix A (the 1,000,000-fold encryption as one CBC chain)', () => {
    const a1 = V['sm4-block-a1']
    eq(sm4.ecbEncrypt(a1.key, a1.plaintext, { padding: 'none' }), a1.ciphertext, 'A.1')
    eq(sm4.ecbDecrypt(a1.key, a1.ciphertext, { padding: 'none' }), a1.plaintext, 'A.1 decrypted')
    const k = sm4.Key.fromBytes(a1.key)
    eq(sm4.ecbEncrypt(k, a1.plaintext, { padding: 'none' }), a1.ciphertext, 'A.1 with an Sm4Key')
    // CBC with a zero IV over x, 0, 0, ...: block i is E^i(x)
    const a2 = V['sm4-block-a2']
    const n = Number(a2.times)
    const chain = new Uint8Array(16 * n)
    chain.set(a2.plaintext)
    const c = sm4.cbcEncrypt(k, new Uint8Array(16), chain, { padding: 'none' })
    eq(c.subarray(16 * n - 16), a2.ciphertext, 'A.2')
    k.destroy()
    throwsCode(() => sm4.ecbEncrypt(k, a1.plaintext), 'FASTSM2_ERR_ARG', 'a destroyed key')
  })

  t('GCM, CCM and XTS known answers (RFC 8998, SP 800-38D edges, OpenSSL)', () => {
    let n = 0
    for (const [name, v] of Object.entries(V)) {
      const aad = v.aad || new Uint8Array(0)
      if (name.startsWith('sm4-gcm')) {
        const sealed = sm4.gcmEncrypt(v.key, v.iv, v.plaintext, { aad, tagLength: v.tag.length })
        eq(sealed, cat(v.ciphertext, v.tag), name)
        eq(sm4.gcmDecrypt(v.key, v.iv, sealed, { aad, tagLength: v.tag.length }), v.plaintext, name + ' decrypted')
        const bad = sealed.slice(); bad[bad.length - 1] ^= 1
        throwsCode(() => sm4.gcmDecrypt(v.key, v.iv, bad, { aad, tagLength: v.tag.length }), 'FASTSM2_ERR_TAG', name + ' tampered')
        n++
      } else if (name.startsWith('sm4-ccm')) {
        const sealed = sm4.ccmEncrypt(v.key, v.iv, v.plaintext, { aad, tagLength: v.tag.length })
        eq(sealed, cat(v.ciphertext, v.tag), name)
        eq(sm4.ccmDecrypt(v.key, v.iv, sealed, { aad, tagLength: v.tag.length }), v.plaintext, name + ' decrypted')
        const bad = sealed.slice(); bad[0] ^= 1
        throwsCode(() => sm4.ccmDecrypt(v.key, v.iv, bad, { aad, tagLength: v.tag.length }), 'FASTSM2_ERR_TAG', name + ' tampered')
        n++
      } else if (name.startsWith('sm4-xts')) {
        const k1 = v.key.subarray(0, 16); const k2 = v.key.subarray(16)
        const o = { standard: (v.standard || 'GB').toLowerCase() }
        eq(sm4.xtsEncrypt(k1, k2, v.iv || v.tweak, v.plaintext, o), v.ciphertext, name)
        eq(sm4.xtsDecrypt(k1, k2, v.iv || v.tweak, v.ciphertext, o), v.plaintext, name + ' decrypted')
        n++
      }
    }
    assert(n >= 6, 'cases read: ' + n)
  })

  t('every mode round-trips; streaming in pieces equals one call', () => {
    const key = rnd(16, 1)
    const iv = rnd(16, 2)
    for (const len of [0, 1, 15, 16, 17, 31, 32, 33, 100, 4096 + 5]) {
      const m = rnd(len, len + 3)
      const e1 = sm4.cbcEncrypt(key, iv, m)
      eq(e1.length, (len >> 4 << 4) + 16, 'PKCS#7 length ' + len)
      eq(sm4.cbcDecrypt(key, iv, e1), m, 'cbc ' + len)
      eq(sm4.ecbDecrypt(key, sm4.ecbEncrypt(key, m)), m, 'ecb ' + len)
      eq(sm4.ctr(key, iv, sm4.ctr(key, iv, m)), m, 'ctr ' + len)
      const g = sm4.gcmEncrypt(key, iv.subarray(0, 12), m, { aad: rnd(7, 9) })
      eq(g.length, len + 16, 'gcm length')
      eq(sm4.gcmDecrypt(key, iv.subarray(0, 12), g, { aad: rnd(7, 9) }), m, 'gcm ' + len)
      eq(sm4.ccmDecrypt(key, iv.subarray(0, 12), sm4.ccmEncrypt(key, iv.subarray(0, 12), m, { tagLength: 12 }), { tagLength: 12 }), m, 'ccm ' + len)
      if (len >= 16) eq(sm4.xtsDecrypt(key, rnd(16, 5), iv, sm4.xtsEncrypt(key, rnd(16, 5), iv, m)), m, 'xts ' + len)
      // streams in pieces of 1, 7, 16 and 33 bytes
      for (const mode of ['ecb', 'cbc', 'ctr', 'ofb', 'cfb']) {
        const ivm = mode === 'ecb' ? null : iv
        const once = mode === 'ecb' ? sm4.ecbEncrypt(key, m) : mode === 'cbc' ? e1 : null
        for (const piece of [1, 7, 16, 33]) {
          const c = sm4.createCipher(mode, key, ivm)
          const parts = []
          for (let i = 0; i < len; i += piece) parts.push(c.update(m.subarray(i, i + piece)))
          parts.push(c.final())
          const ct = cat(...parts)
          if (once) eq(ct, once, mode + ' stream = one call, piece ' + piece)
          if (mode === 'ctr') eq(ct, sm4.ctr(key, iv, m), 'ctr stream')
          const d = sm4.createDecipher(mode, key, ivm)
          const back = []
          for (let i = 0; i < ct.length; i += piece) back.push(d.update(ct.subarray(i, i + piece)))
          back.push(d.final())
          eq(cat(...back), m, mode + ' stream round trip, piece ' + piece)
          throwsCode(() => c.update(m), 'FASTSM2_ERR_STATE', 'update after final')
        }
      }
      const ge = sm4.createGcmEncryptor(key, iv.subarray(0, 12)).aad(rnd(3, 1)).aad(rnd(4, 2))
      const gparts = []
      for (let i = 0; i < len; i += 10) gparts.push(ge.update(m.subarray(i, i + 10)))
      const tag = ge.final()
      eq(cat(...gparts, tag), sm4.gcmEncrypt(key, iv.subarray(0, 12), m, { aad: cat(rnd(3, 1), rnd(4, 2)) }), 'gcm stream = one call')
      const gd = sm4.createGcmDecryptor(key, iv.subarray(0, 12), { aad: cat(rnd(3, 1), rnd(4, 2)) })
      eq(gd.update(cat(...gparts)), m, 'gcm stream decrypted')
      gd.final(tag)
      const gb = sm4.createGcmDecryptor(key, iv.subarray(0, 12))
      gb.update(cat(...gparts))
      throwsCode(() => gb.final(tag), 'FASTSM2_ERR_TAG', 'gcm stream without its AAD')
    }
  })

  t('SM4 bad input: named errors, nothing released', () => {
    const key = rnd(16, 1)
    throwsCode(() => sm4.Key.fromBytes(new Uint8Array(15)), 'FASTSM2_ERR_LENGTH', 'key of 15 bytes')
    throwsCode(() => sm4.cbcEncrypt(rnd(17, 1), rnd(16, 1), rnd(3, 1)), 'FASTSM2_ERR_LENGTH', 'key of 17 bytes')
    throwsCode(() => sm4.cbcEncrypt(key, rnd(15, 1), rnd(3, 1)), 'FASTSM2_ERR_IV', 'iv of 15 bytes')
    throwsCode(() => sm4.cbcEncrypt(key, rnd(16, 1), rnd(17, 1), { padding: 'none' }), 'FASTSM2_ERR_LENGTH', 'no padding, 17 bytes')
    throwsCode(() => sm4.cbcDecrypt(key, rnd(16, 1), rnd(33, 1)), 'FASTSM2_ERR_LENGTH', 'ciphertext of 33 bytes')
    throwsCode(() => sm4.cbcDecrypt(key, rnd(16, 1), sm4.cbcEncrypt(key, rnd(16, 1), rnd(32, 1), { padding: 'none' })), 'FASTSM2_ERR_PADDING', 'bad padding')
    throwsCode(() => sm4.ecbDecrypt(key, sm4.ecbEncrypt(key, rnd(16, 4), { padding: 'none' })), 'FASTSM2_ERR_PADDING', 'ECB bad padding')
    throwsCode(() => sm4.cbcEncrypt(key, rnd(16, 1), rnd(3, 1), { padding: 'zero' }), 'FASTSM2_ERR_ARG', 'unknown padding')
    throwsCode(() => sm4.gcmEncrypt(key, new Uint8Array(0), rnd(3, 1)), 'FASTSM2_ERR_IV', 'GCM iv of 0 bytes')
    throwsCode(() => sm4.gcmEncrypt(key, rnd(12, 1), rnd(3, 1), { tagLength: 3 }), 'FASTSM2_ERR_LENGTH', 'tag of 3 bytes')
    throwsCode(() => sm4.gcmDecrypt(key, rnd(12, 1), rnd(15, 1)), 'FASTSM2_ERR_LENGTH', 'sealed shorter than its tag')
    throwsCode(() => sm4.ccmEncrypt(key, rnd(6, 1), rnd(3, 1)), 'FASTSM2_ERR_IV', 'CCM nonce of 6 bytes')
    throwsCode(() => sm4.ccmEncrypt(key, rnd(12, 1), rnd(3, 1), { tagLength: 5 }), 'FASTSM2_ERR_LENGTH', 'CCM tag of 5 bytes')
    throwsCode(() => sm4.xtsEncrypt(key, key, rnd(16, 1), rnd(32, 1)), 'FASTSM2_ERR_ARG', 'XTS key1 = key2')
    throwsCode(() => sm4.xtsEncrypt(key, rnd(16, 9), rnd(16, 1), rnd(15, 1)), 'FASTSM2_ERR_LENGTH', 'XTS of 15 bytes')
    throwsCode(() => sm4.xtsEncrypt(key, rnd(16, 9), rnd(16, 1), rnd(32, 1), { standard: 'x' }), 'FASTSM2_ERR_ARG', 'XTS standard')
    throwsCode(() => sm4.createCipher('xyz', key, null), 'FASTSM2_ERR_ARG', 'unknown mode')
    throwsCode(() => sm4.createCipher('ctr', key, null), 'FASTSM2_ERR_IV', 'CTR without iv')
    throwsCode(() => sm4.ctr(key, rnd(16, 1), 'text'), 'FASTSM2_ERR_ARG', 'a string to the modern API')
    const d = sm4.createDecipher('cbc', key, rnd(16, 1))
    d.update(rnd(32, 7))
    throwsCode(() => d.final(), 'FASTSM2_ERR_PADDING', 'stream: bad padding')
    // the known answer still comes out right
    const a1 = V['sm4-block-a1']
    eq(sm4.ecbEncrypt(a1.key, a1.plaintext, { padding: 'none' }), a1.ciphertext, 'A.1 after the errors')
  })

  // ---- sm-crypto and sm-crypto-v2 --------------------------------------------
  const R1 = refs['sm-crypto'].sm4
  const R2 = refs['sm-crypto-v2'].sm4
  const key = '0123456789abcdeffedcba9876543210'
  const ivh = 'fedcba98765432100123456789abcdef'
  const msgs = ['hello world! 我是 juneandgreen.', '', 'x'.repeat(16), 'y'.repeat(100)]

  t('sm-crypto and sm-crypto-v2 sm4: ECB and CBC, every padding and output, both ways', () => {
    for (const [name, ours, ref, arr] of [['sm-crypto', v1.sm4, R1, (a) => a], ['sm-crypto-v2', v2.sm4, R2, (a) => Uint8Array.from(a)]]) {
      for (const msg of msgs) {
        for (const opt of [{}, { padding: 'pkcs#5' }, { mode: 'cbc', iv: ivh }, { mode: 'cbc', iv: unhex(ivh), padding: 'pkcs#7' }, { mode: 'ecb' }]) {
          const c = ours.encrypt(msg, key, opt)
          eq(c, ref.encrypt(msg, key, opt), name + ' encrypt ' + JSON.stringify(opt) + ' ' + msg.length)
          eq(ref.decrypt(c, key, opt), msg, name + ' theirs decrypts ours')
          eq(ours.decrypt(ref.encrypt(msg, key, opt), key, opt), msg, name + ' ours decrypts theirs')
          const ca = ours.encrypt(arr(Array.from(enc.encode(msg))), arr(Array.from(unhex(key))), { ...opt, output: 'array' })
          const ra = ref.encrypt(arr(Array.from(enc.encode(msg))), arr(Array.from(unhex(key))), { ...opt, output: 'array' })
          eq(Object.prototype.toString.call(ca), Object.prototype.toString.call(ra), name + ' array output type')
          eq(Array.from(ca), Array.from(ra), name + ' array output')
          eq(Array.from(ours.decrypt(ca, key, { ...opt, output: 'array' })), Array.from(enc.encode(msg)), name + ' array round trip')
        }
        if (msg.length % 16 === 0) {
          const o = { padding: 'none' }
          eq(ours.encrypt(msg, key, o), ref.encrypt(msg, key, o), name + ' no padding')
          eq(ours.decrypt(ref.encrypt(msg, key, o), key, o), msg, name + ' no padding, theirs')
        }
      }
      throwsCode(() => ours.decrypt('00'.repeat(16), key), 'FASTSM2_ERR_PADDING', name + ': bad padding')
      throwsCode(() => ours.encrypt('m', key.slice(2)), 'FASTSM2_ERR_LENGTH', name + ': short key')
      throwsCode(() => ours.encrypt('m', key, { mode: 'cbc', iv: '00' }), 'FASTSM2_ERR_IV', name + ': short iv')
      throwsCode(() => ours.encrypt('m', key, { mode: 'ofb' }), 'FASTSM2_ERR_ARG', name + ': unknown mode')
    }
    throwsCode(() => v1.sm4.encrypt('m', key, { mode: 'cbc' }), 'FASTSM2_ERR_IV', 'sm-crypto: CBC needs an iv')
    eq(v2.sm4.encrypt('m', key, { mode: 'cbc' }), R2.encrypt('m', key, { mode: 'cbc' }), 'sm-crypto-v2: a zero iv by default')
  })

  t('sm-crypto-v2 sm4: GCM with associatedData and tag, both ways', () => {
    for (const iv of ['00001234567800000000abcd', '31', ivh, '0f'.repeat(60)]) {
      for (const aad of [undefined, 'feedfacedeadbeef', unhex('feedfacedeadbeeffeedfacedeadbeefabaddad2')]) {
        for (const msg of msgs) {
          const o = { mode: 'gcm', iv, associatedData: aad }
          const mine = v2.sm4.encrypt(msg, key, o)
          const theirs = R2.encrypt(msg, key, o)
          eq(mine, theirs, 'encrypt (output and tag) iv ' + iv.length / 2)
          eq(R2.decrypt(mine.output, key, { ...o, tag: mine.tag }), msg, 'theirs decrypts ours')
          eq(v2.sm4.decrypt(theirs.output, key, { ...o, tag: theirs.tag }), msg, 'ours decrypts theirs')
          const a = v2.sm4.encrypt(enc.encode(msg), unhex(key), { ...o, output: 'array' })
          eq(a, R2.encrypt(enc.encode(msg), unhex(key), { ...o, output: 'array' }), 'array output: the ciphertext')
          const at = v2.sm4.encrypt(enc.encode(msg), key, { ...o, output: 'array', outputTag: true })
          const rt = R2.encrypt(enc.encode(msg), key, { ...o, output: 'array', outputTag: true })
          eq(at.output, rt.output, 'outputTag: output'); eq(at.tag, rt.tag, 'outputTag: tag')
          eq(v2.sm4.decrypt(at.output, key, { ...o, tag: at.tag, output: 'array' }), enc.encode(msg), 'array decryption')
          eq(v2.sm4.sm4(msg, key, 1, o), mine, 'sm4(..., 1, options)')
          if (msg.length) {
            const bad = theirs.tag.slice(0, -2) + (theirs.tag.endsWith('00') ? '01' : '00')
            throwsCode(() => v2.sm4.decrypt(theirs.output, key, { ...o, tag: bad }), 'FASTSM2_ERR_TAG', 'a wrong tag')
          }
        }
      }
    }
    eq(v2.sm4.encrypt('m', key, { mode: 'gcm' }), R2.encrypt('m', key, { mode: 'gcm' }), 'default iv: 16 zero bytes')
    throwsCode(() => v2.sm4.decrypt('00', key, { mode: 'gcm', iv: '00'.repeat(12) }), 'FASTSM2_ERR_ARG', 'GCM decryption without a tag')
  })

  return list
}

export { sm4Cases, parseSm4Vectors }
