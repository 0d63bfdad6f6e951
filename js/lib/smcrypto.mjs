// SPDX-License-Identifier: Apache-2.0
// sm-crypto's API (names, arguments, hex and string conventions, outputs)
// over libfastsm2, so that migrating is changing the import. Written from
// sm-crypto 0.5.8's documentation and observed behaviour; the tests check
// every function against sm-crypto and sm-crypto-v2 in both directions.
//
// Conventions kept: keys are hex (private 64 digits, public '04'||x||y or
// 02/03||x), strings are UTF-8, ciphertexts are hex WITHOUT the 04 prefix of
// C1, cipherMode 1 = C1C3C2 (default), 0 = C1C2C3; doSignature hashes with
// Z_A by default (hash: true, as sm-crypto 0.5.8; sm-crypto-v2 defaults to
// hash: false, so pass it explicitly when coming from v2); doDecrypt returns
// '' (or [] with output: 'array') when the ciphertext does not decrypt.
// Differences: malformed hex and wrong argument types throw FastSM2Error;
// an empty message cannot be encrypted (FASTSM2_ERR_LENGTH, GB/T 32918.4
// A5); doDecrypt also takes a ciphertext that keeps the 04 prefix.
import { FastSM2Error, fail } from './errors.mjs'
import { toHex, fromHex, utf8, fromUtf8, bytes, opts } from './bytes.mjs'
import { digestOfInteger } from './api.mjs'

const C1C2C3 = 0

function makeSmCrypto (api) {
  const { engine } = api._internal

  // Keys loaded from hex are kept in two small caches (most applications
  // use a handful of keys): loading a private key costs about as much as a
  // signature. Evicted keys are wiped at once; clearKeyCache() wipes all.
  const CACHE_MAX = 8
  const privCache = new Map()
  const pubCache = new Map()
  function cached (cache, hex, make) {
    let e = cache.get(hex)
    if (e) {
      cache.delete(hex)
      cache.set(hex, e)
      e.uses++
      return e
    }
    e = { handle: make(), uses: 1 }
    cache.set(hex, e)
    if (cache.size > CACHE_MAX) {
      const [oldKey, old] = cache.entries().next().value
      cache.delete(oldKey)
      engine.keyFree(old.handle)
    }
    return e
  }

  function privHandle (hex) {
    if (typeof hex !== 'string') fail('ARG', 'private key must be a hex string')
    const h = hex.length < 64 ? hex.padStart(64, '0') : hex
    return cached(privCache, h.toLowerCase(), () => engine.privFromBytes(fromHex(h, 'private key'))).handle
  }

  function pubHandle (hex) {
    if (typeof hex !== 'string') fail('ARG', 'public key must be a hex string')
    const e = cached(pubCache, hex.toLowerCase(), () => engine.pubFromBytes(fromHex(hex, 'public key'), false))
    if (e.uses === 3) engine.pubPrecompute(e.handle) // worth it for a key used again and again
    return e.handle
  }

  function tryPub (hex) {
    try { return pubHandle(hex) } catch (e) { if (e instanceof FastSM2Error) return null; throw e }
  }

  function clearKeyCache () {
    for (const c of [privCache, pubCache]) {
      for (const e of c.values()) engine.keyFree(e.handle)
      c.clear()
    }
  }

  function msgBytes (msg) { return typeof msg === 'string' ? utf8(msg) : bytes(msg, 'message') }
  function idOf (userId) { return userId === undefined || userId === null ? null : utf8(String(userId)) }

  function generateKeyPairHex (seed) {
    if (seed !== undefined) fail('UNSUPPORTED', 'keys from a seed string')
    const h = engine.privGenerate()
    try {
      const p = engine.privPub(h)
      const out = { privateKey: toHex(engine.privToBytes(h)), publicKey: toHex(engine.pubToBytes(p, false)) }
      engine.keyFree(p)
      return out
    } finally {
      engine.keyFree(h)
    }
  }

  function getPublicKeyFromPrivateKey (privateKey) {
    const p = engine.privPub(privHandle(privateKey))
    try { return toHex(engine.pubToBytes(p, false)) } finally { engine.keyFree(p) }
  }

  function compressPublicKeyHex (s) {
    if (typeof s !== 'string' || s.length !== 130) fail('ARG', 'Invalid public key to compress')
    const odd = parseInt(s[129], 16) & 1
    return (odd ? '03' : '02') + s.substr(2, 64)
  }

  function verifyPublicKey (publicKey) { return typeof publicKey === 'string' && tryPub(publicKey) !== null }

  function comparePublicKeyHex (a, b) {
    const ha = tryPub(a)
    const hb = tryPub(b)
    if (ha === null || hb === null) return false
    return toHex(engine.pubToBytes(ha, false)) === toHex(engine.pubToBytes(hb, false))
  }

  function doEncrypt (msg, publicKey, cipherMode = 1, options) {
    const asn1 = !!(options && options.asn1)
    if (asn1 && cipherMode === C1C2C3) fail('UNSUPPORTED', 'asn1 with cipherMode 0 (a non-standard SEQUENCE order)')
    const pub = pubHandle(publicKey)
    const flags = asn1 ? 0 : cipherMode === C1C2C3 ? 3 : 1
    const ct = engine.encrypt(pub, msgBytes(msg), flags)
    return toHex(asn1 ? ct : ct.subarray(1)) // no 04 prefix, as sm-crypto
  }

  function doDecrypt (encryptData, privateKey, cipherMode = 1, options_) { const { output = 'string', asn1 = false } = opts(options_);
    if (asn1 && cipherMode === C1C2C3) fail('UNSUPPORTED', 'asn1 with cipherMode 0 (a non-standard SEQUENCE order)')
    const key = privHandle(privateKey)
    const ct = fromHex(encryptData, 'ciphertext')
    const flags = asn1 ? 0 : cipherMode === C1C2C3 ? 3 : 1
    let msg = null
    const attempt = (buf) => {
      try { return engine.decrypt(key, buf, flags) } catch (e) { if (e instanceof FastSM2Error) return null; throw e }
    }
    if (asn1) {
      msg = attempt(ct)
    } else {
      const with04 = new Uint8Array(ct.length + 1)
      with04[0] = 4
      with04.set(ct, 1)
      msg = attempt(with04)
      with04.fill(0)
      // a ciphertext that kept its 04 prefix (Java, OpenSSL raw): the C3
      // check makes a false match impossible
      if (msg === null && ct[0] === 4) msg = attempt(ct)
    }
    if (msg === null) return output === 'array' ? [] : ''
    if (output === 'array') {
      const arr = Array.from(msg)
      msg.fill(0)
      return arr
    }
    const s = fromUtf8(msg)
    msg.fill(0)
    return s
  }

  // hash: false -> the message as an integer mod n; else the message and
  // the public key whose Z_A to hash (null: the key's own)
  function eOf (msg, publicKey, hash) {
    const m = msgBytes(msg)
    if (!hash) return digestOfInteger(m)
    return { m, pub: publicKey ? pubHandle(publicKey) : null }
  }

  function doSignature (msg, privateKey, options_) { const { der, hash = true, publicKey, userId } = opts(options_);
    const key = privHandle(privateKey)
    const e = eOf(msg, publicKey, hash)
    let sig
    if (e instanceof Uint8Array) {
      sig = engine.signDigest(key, e)
    } else if (e.pub) {
      // Z_A of the public key given (sm-crypto hashes that one, even if it
      // is not the key's own)
      const z = engine.computeZ(e.pub, idOf(userId))
      sig = engine.signDigest(key, engine.sm3(concat2(z, e.m)))
    } else {
      sig = engine.sign(key, idOf(userId), e.m)
    }
    return toHex(der ? engine.sigToDer(sig) : sig)
  }

  function doVerifySignature (msg, signHex, publicKey, options_) { const { der, hash = true, userId } = opts(options_);
    const pub = tryPub(publicKey)
    if (pub === null) return false
    let sig
    try {
      sig = fromHex(signHex, 'signature')
      if (der) sig = engine.sigFromDer(sig)
    } catch (e) {
      if (e instanceof FastSM2Error) return false
      throw e
    }
    if (sig.length !== 64) return false
    const m = msgBytes(msg)
    if (!hash) return engine.verifyDigest(pub, digestOfInteger(m), sig) === 1
    return engine.verify(pub, idOf(userId), m, sig) === 1
  }

  function getHash (hashHex, publicKey, userId) {
    const m = typeof hashHex === 'string' ? fromHex(hashHex, 'message') : bytes(hashHex)
    return toHex(engine.sm3(concat2(engine.computeZ(pubHandle(publicKey), idOf(userId)), m)))
  }

  function getZ (publicKey, userId) { return engine.computeZ(pubHandle(publicKey), idOf(userId)) }

  function concat2 (a, b) {
    const out = new Uint8Array(a.length + b.length)
    out.set(a)
    out.set(b, a.length)
    return out
  }

  function sm3 (input, options) {
    const data = typeof input === 'string' ? utf8(input) : bytes(input, 'input')
    if (options) {
      const mode = options.mode || 'hmac'
      if (mode !== 'hmac') fail('ARG', 'invalid mode')
      let key = options.key
      if (!key) fail('ARG', 'invalid key')
      key = typeof key === 'string' ? fromHex(key, 'key') : bytes(key, 'key')
      return toHex(engine.hmac(key, data))
    }
    return toHex(engine.sm3(data))
  }

  const str = (s, what) => { if (typeof s !== 'string') fail('ARG', what + ' must be a string'); return s }
  const utf8ToHex = (s) => toHex(utf8(str(s, 'input')))
  const arrayToHex = (arr) => toHex(bytes(arr, 'array'))
  const arrayToUtf8 = (arr) => fromUtf8(bytes(arr, 'array'))
  const hexToArray = (s) => { str(s, 'hex'); return Array.from(fromHex(s.length & 1 ? '0' + s : s, 'hex')) }
  const leftPad = (s, n) => {
    if (!Number.isSafeInteger(n) || n < 0) fail('ARG', 'length must be a non-negative integer')
    return str(s, 'input').padStart(n, '0')
  }

  const sm2 = {
    generateKeyPairHex,
    doEncrypt,
    doDecrypt,
    doSignature,
    doVerifySignature,
    getPublicKeyFromPrivateKey,
    compressPublicKeyHex,
    verifyPublicKey,
    comparePublicKeyHex,
    getHash,
    getZ,
    utf8ToHex,
    arrayToHex,
    arrayToUtf8,
    hexToArray,
    leftPad,
    clearKeyCache
  }
  return { sm2, sm3, FastSM2Error, engine: api.engine }
}

export { makeSmCrypto }
