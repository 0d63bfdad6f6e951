// SPDX-License-Identifier: Apache-2.0
// The modern API, the same over both engines (the Node-API addon and the
// WebAssembly build): keys as objects, bytes as Uint8Array, formats named.
//
//   signature formats:  'raw' (r || s, 64 bytes; default) or 'der'
//   ciphertext formats: 'c1c3c2' (04 || x || y || C3 || C2; default, GB/T 32918.4-2016),
//                       'c1c2c3' (04 || x || y || C2 || C3, the 2010 order),
//                       'der'    (GM/T 0009 SEQUENCE { x, y, C3, C2 }, what OpenSSL and GmSSL write)
//   signer ID: `id` (Uint8Array or string); absent = "1234567812345678"
import { FastSM2Error, fail } from './errors.mjs'
import { toHex, fromHex, utf8, binary, bytes, concat } from './bytes.mjs'

const CT_FLAGS = { c1c3c2: 1, c1c2c3: 3, der: 0 }
const KEYFMT = { pkcs8: 0, sec1: 1 }
const N = 0xfffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54123n

function ctFlags (format) {
  const f = CT_FLAGS[format === undefined ? 'c1c3c2' : format]
  if (f === undefined) fail('ARG', 'ciphertext format must be c1c3c2, c1c2c3 or der')
  return f
}

function sigFormat (format) {
  if (format === undefined || format === 'raw') return 'raw'
  if (format === 'der') return 'der'
  fail('ARG', "signature format must be 'raw' or 'der'")
}

function idBytes (id) {
  if (id === undefined || id === null) return null
  return typeof id === 'string' ? utf8(id) : binary(id, 'id')
}

function pemText (v) {
  return typeof v === 'string' ? utf8(v) : binary(v, 'key file')
}

// e = the integer of a byte string, reduced mod n, as 32 bytes: what
// sm-crypto signs when asked not to hash (hash: false).
function digestOfInteger (u8) {
  if (u8.length === 32) return u8
  let v = 0n
  for (const b of u8) v = (v << 8n) | BigInt(b)
  v %= N
  return fromHex(v.toString(16).padStart(64, '0'))
}

function makeApi (engine) {
  const handles = new WeakMap()
  const handleOf = (key, Cls) => {
    if (!(key instanceof Cls)) fail('ARG', 'expected a ' + Cls.name)
    const h = handles.get(key)
    if (h === undefined) fail('ARG', 'the ' + Cls.name + ' was destroyed')
    return h
  }

  class PublicKey {
    constructor (handle) {
      if (handle === undefined) fail('ARG', 'use PublicKey.fromBytes, fromHex or fromPem')
      handles.set(this, handle)
      if (engine.track) engine.track(this, handle)
    }

    /** SEC1 point: 04||x||y (65 bytes) or 02/03||x (33). */
    static fromBytes (sec1) { return new PublicKey(engine.pubFromBytes(binary(sec1, 'public key'), false)) }
    static fromHex (hex) { return new PublicKey(engine.pubFromBytes(fromHex(hex, 'public key'), false)) }
    /** SPKI in PEM or DER (a bare SEC1 point is read too). */
    static fromPem (pem) { return new PublicKey(engine.pubFromBytes(pemText(pem), true)) }
    static fromDer (der) { return PublicKey.fromPem(binary(der, 'key file')) }

    toBytes ({ compressed = false } = {}) { return engine.pubToBytes(handleOf(this, PublicKey), !!compressed) }
    toHex (opts) { return toHex(this.toBytes(opts)) }
    toPem () { return fromUtf8z(engine.pubSerialize(handleOf(this, PublicKey), 2)) }
    toDer () { return engine.pubSerialize(handleOf(this, PublicKey), 0) }
    /** Tables that make later verifications and encryptions faster. */
    precompute () { engine.pubPrecompute(handleOf(this, PublicKey)); return this }
    /** Z_A of GB/T 32918.2 5.5 for an ID (default "1234567812345678"). */
    computeZ ({ id } = {}) { return engine.computeZ(handleOf(this, PublicKey), idBytes(id)) }

    /** true only for a valid signature; a malformed one is false. */
    verify (msg, sig, { id, format } = {}) {
      const raw = sigRaw(sig, sigFormat(format))
      if (!raw) return false
      return engine.verify(handleOf(this, PublicKey), idBytes(id), binary(msg, 'message'), raw) === 1
    }

    verifyDigest (e, sig, { format } = {}) {
      const raw = sigRaw(sig, sigFormat(format))
      if (!raw) return false
      const d = binary(e, 'digest')
      if (d.length !== 32) fail('LENGTH', 'a digest is 32 bytes')
      return engine.verifyDigest(handleOf(this, PublicKey), d, raw) === 1
    }

    encrypt (msg, { format } = {}) {
      return engine.encrypt(handleOf(this, PublicKey), binary(msg, 'message'), ctFlags(format))
    }

    destroy () { const h = handles.get(this); if (h !== undefined) { handles.delete(this); engine.keyFree(h) } }
  }

  function sigRaw (sig, format) {
    const s = binary(sig, 'signature')
    if (format === 'raw') return s.length === 64 ? s : null
    try { return engine.sigFromDer(s) } catch (e) { if (e instanceof FastSM2Error) return null; throw e }
  }

  function sigOut (raw, format) { return format === 'der' ? engine.sigToDer(raw) : raw }

  class PrivateKey {
    constructor (handle) {
      if (handle === undefined) fail('ARG', 'use PrivateKey.generate, fromBytes, fromHex or fromPem')
      handles.set(this, handle)
      if (engine.track) engine.track(this, handle)
    }

    static generate () { return new PrivateKey(engine.privGenerate()) }
    /** d as 32 bytes big-endian, in [1, n-2]. */
    static fromBytes (d) { return new PrivateKey(engine.privFromBytes(binary(d, 'private key'))) }
    static fromHex (hex) { return new PrivateKey(engine.privFromBytes(fromHex(hex, 'private key'))) }
    /** PKCS#8 or SEC1, PEM or DER; encrypted PKCS#8 with a password. */
    static fromPem (pem, { password } = {}) {
      const pw = password === undefined || password === null ? null : bytes(password, 'password')
      return new PrivateKey(engine.privParse(pemText(pem), pw))
    }

    static fromDer (der, opts) { return PrivateKey.fromPem(binary(der, 'key file'), opts) }

    toBytes () { return engine.privToBytes(handleOf(this, PrivateKey)) }
    toHex () { return toHex(this.toBytes()) }
    toPem ({ format = 'pkcs8' } = {}) { return fromUtf8z(engine.privSerialize(handleOf(this, PrivateKey), keyFmt(format) | 2)) }
    toDer ({ format = 'pkcs8' } = {}) { return engine.privSerialize(handleOf(this, PrivateKey), keyFmt(format)) }

    get publicKey () {
      let p = pubOf.get(this)
      if (!p) { p = new PublicKey(engine.privPub(handleOf(this, PrivateKey))); pubOf.set(this, p) }
      return p
    }

    /** GB/T 32918.2 6.1 on msg: e = SM3(Z_A || msg). */
    sign (msg, { id, format } = {}) {
      const f = sigFormat(format)
      return sigOut(engine.sign(handleOf(this, PrivateKey), idBytes(id), binary(msg, 'message')), f)
    }

    /** A3-A7 on a 32-byte digest e. */
    signDigest (e, { format } = {}) {
      const f = sigFormat(format)
      const d = binary(e, 'digest')
      if (d.length !== 32) fail('LENGTH', 'a digest is 32 bytes')
      return sigOut(engine.signDigest(handleOf(this, PrivateKey), d), f)
    }

    decrypt (ct, { format } = {}) {
      return engine.decrypt(handleOf(this, PrivateKey), binary(ct, 'ciphertext'), ctFlags(format))
    }

    /** Wipes the key now (it is wiped by the garbage collector otherwise). */
    destroy () {
      const h = handles.get(this)
      if (h !== undefined) { handles.delete(this); engine.keyFree(h) }
      const p = pubOf.get(this)
      if (p) { pubOf.delete(this); p.destroy() }
    }
  }
  const pubOf = new WeakMap()

  function keyFmt (format) {
    const f = KEYFMT[format]
    if (f === undefined) fail('ARG', "key format must be 'pkcs8' or 'sec1'")
    return f
  }

  function fromUtf8z (u8) { // PEM output is NUL-terminated text
    let n = u8.length
    while (n > 0 && u8[n - 1] === 0) n--
    return new TextDecoder().decode(u8.subarray(0, n))
  }

  function sm3 (data) { return engine.sm3(binary(data, 'data')) }
  function hmacSm3 (key, data) { return engine.hmac(binary(key, 'key'), binary(data, 'data')) }

  function digestsOf (list, what) {
    if (list instanceof Uint8Array) {
      if (list.length % 32) fail('LENGTH', what + ' are 32 bytes each')
      return list
    }
    if (!Array.isArray(list)) fail('ARG', what + ' must be an array of Uint8Array')
    const parts = list.map((d) => binary(d, what))
    for (const p of parts) if (p.length !== 32) fail('LENGTH', what + ' are 32 bytes each')
    return concat(...parts)
  }

  function split (u8, size) {
    const out = []
    for (let i = 0; i < u8.length; i += size) out.push(u8.slice(i, i + size))
    return out
  }

  /** Sign many digests with one key. In Node with the addon this runs on a
   *  worker thread, over all cores; on WebAssembly in the calling thread. */
  async function signDigestBatch (key, digests, { format } = {}) {
    const f = sigFormat(format)
    const sigs = await engine.signDigestBatch(handleOf(key, PrivateKey), digestsOf(digests, 'digests'))
    return split(sigs, 64).map((s) => sigOut(s, f))
  }

  /** Verify many (digest, signature) pairs with one key: an array of booleans. */
  async function verifyDigestBatch (pub, digests, sigs, { format } = {}) {
    const f = sigFormat(format)
    const d = digestsOf(digests, 'digests')
    if (!Array.isArray(sigs)) fail('ARG', 'signatures must be an array')
    if (sigs.length * 32 !== d.length) fail('LENGTH', 'as many signatures as digests')
    const raws = sigs.map((s) => sigRaw(s, f))
    const packed = concat(...raws.map((r) => r || new Uint8Array(64)))
    const res = await engine.verifyDigestBatch(handleOf(pub, PublicKey), d, packed)
    return Array.from(res, (r, i) => r === 1 && raws[i] !== null)
  }

  /** e = SM3(Z_A || msg) for each message, then signDigestBatch. */
  async function signBatch (key, msgs, { id, format } = {}) {
    const z = key.publicKey.computeZ({ id })
    return signDigestBatch(key, msgs.map((m) => engine.sm3(concat(z, binary(m, 'message')))), { format })
  }

  async function verifyBatch (pub, msgs, sigs, { id, format } = {}) {
    const z = pub.computeZ({ id })
    return verifyDigestBatch(pub, msgs.map((m) => engine.sm3(concat(z, binary(m, 'message')))), sigs, { format })
  }

  return {
    engine: engine.name,
    backend: engine.backend(),
    version: engine.version(),
    PrivateKey,
    PublicKey,
    FastSM2Error,
    sm3,
    hmacSm3,
    signBatch,
    verifyBatch,
    signDigestBatch,
    verifyDigestBatch,
    // for the sm-crypto module
    _internal: { engine, handleOf, digestOfInteger }
  }
}

export { makeApi, digestOfInteger }
