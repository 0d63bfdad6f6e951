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
import { toHex, fromHex, utf8, binary, bytes, concat, opts } from './bytes.mjs'

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

    toBytes (options_) { const { compressed = false } = opts(options_); return engine.pubToBytes(handleOf(this, PublicKey), !!compressed) }
    toHex (opts) { return toHex(this.toBytes(opts)) }
    toPem () { return fromUtf8z(engine.pubSerialize(handleOf(this, PublicKey), 2)) }
    toDer () { return engine.pubSerialize(handleOf(this, PublicKey), 0) }
    /** Tables that make later verifications and encryptions faster. */
    precompute () { engine.pubPrecompute(handleOf(this, PublicKey)); return this }
    /** Z_A of GB/T 32918.2 5.5 for an ID (default "1234567812345678"). */
    computeZ (options_) { const { id } = opts(options_); return engine.computeZ(handleOf(this, PublicKey), idBytes(id)) }

    /** true only for a valid signature; a malformed one is false. */
    verify (msg, sig, options_) { const { id, format } = opts(options_);
      const raw = sigRaw(sig, sigFormat(format))
      if (!raw) return false
      return engine.verify(handleOf(this, PublicKey), idBytes(id), binary(msg, 'message'), raw) === 1
    }

    verifyDigest (e, sig, options_) { const { format } = opts(options_);
      const raw = sigRaw(sig, sigFormat(format))
      if (!raw) return false
      const d = binary(e, 'digest')
      if (d.length !== 32) fail('LENGTH', 'a digest is 32 bytes')
      return engine.verifyDigest(handleOf(this, PublicKey), d, raw) === 1
    }

    encrypt (msg, options_) { const { format } = opts(options_);
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
    static fromPem (pem, options_) { const { password } = opts(options_);
      const pw = password === undefined || password === null ? null : bytes(password, 'password')
      return new PrivateKey(engine.privParse(pemText(pem), pw))
    }

    static fromDer (der, opts) { return PrivateKey.fromPem(binary(der, 'key file'), opts) }

    toBytes () { return engine.privToBytes(handleOf(this, PrivateKey)) }
    toHex () { return toHex(this.toBytes()) }
    toPem (options_) { const { format = 'pkcs8' } = opts(options_); return fromUtf8z(engine.privSerialize(handleOf(this, PrivateKey), keyFmt(format) | 2)) }
    toDer (options_) { const { format = 'pkcs8' } = opts(options_); return engine.privSerialize(handleOf(this, PrivateKey), keyFmt(format)) }

    get publicKey () {
      let p = pubOf.get(this)
      if (!p) { p = new PublicKey(engine.privPub(handleOf(this, PrivateKey))); pubOf.set(this, p) }
      return p
    }

    /** GB/T 32918.2 6.1 on msg: e = SM3(Z_A || msg). */
    sign (msg, options_) { const { id, format } = opts(options_);
      const f = sigFormat(format)
      return sigOut(engine.sign(handleOf(this, PrivateKey), idBytes(id), binary(msg, 'message')), f)
    }

    /** A3-A7 on a 32-byte digest e. */
    signDigest (e, options_) { const { format } = opts(options_);
      const f = sigFormat(format)
      const d = binary(e, 'digest')
      if (d.length !== 32) fail('LENGTH', 'a digest is 32 bytes')
      return sigOut(engine.signDigest(handleOf(this, PrivateKey), d), f)
    }

    decrypt (ct, options_) { const { format } = opts(options_);
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

  // Batches go to the engine in chunks of CHUNK items: the copies a chunk
  // needs are all the memory a batch takes besides its input and output,
  // however many items it has. The batch holds its own handle of the key
  // (engine.keyShare), so that destroy() during the batch takes effect
  // when the batch ends.
  const CHUNK = engine.batchChunk || 65536

  // digests: an array of 32-byte Uint8Arrays, or one Uint8Array of n * 32
  // bytes -> { n, at(i0, i1) -> the packed digests i0..i1-1 }
  function digestList (list, what) {
    if (list instanceof Uint8Array) {
      if (list.length % 32) fail('LENGTH', what + ' are 32 bytes each')
      return { n: list.length / 32, at: (i0, i1) => list.subarray(32 * i0, 32 * i1) }
    }
    if (!Array.isArray(list)) fail('ARG', what + ' must be an array of Uint8Array or one Uint8Array of n * 32 bytes')
    for (let i = 0; i < list.length; i++) {
      const d = binary(list[i], what)
      if (d.length !== 32) fail('LENGTH', what + ' are 32 bytes each')
    }
    let buf = null
    return {
      n: list.length,
      at (i0, i1) {
        if (!buf || buf.length < 32 * (i1 - i0)) buf = new Uint8Array(32 * Math.min(CHUNK, list.length))
        const out = buf.subarray(0, 32 * (i1 - i0))
        for (let i = i0; i < i1; i++) out.set(binary(list[i], what), 32 * (i - i0))
        return out
      }
    }
  }

  async function withShared (key, Cls, fn) {
    const h = engine.keyShare(handleOf(key, Cls))
    try { return await fn(h) } finally { engine.keyFree(h) }
  }

  /** Sign many digests with one key. In Node with the addon this runs on a
   *  worker thread, over all cores; on WebAssembly in the calling thread,
   *  in chunks. An array of signatures (raw: views of one buffer), or with
   *  { packed: true } one Uint8Array of n raw signatures of 64 bytes. */
  async function signDigestBatch (key, digests, options_) { const { format, packed = false } = opts(options_);
    const f = sigFormat(format)
    if (packed && f !== 'raw') fail('ARG', 'packed output holds raw signatures')
    const d = digestList(digests, 'digests')
    const out = new Uint8Array(64 * d.n)
    await withShared(key, PrivateKey, async (h) => {
      for (let i = 0; i < d.n; i += CHUNK) {
        const i1 = Math.min(d.n, i + CHUNK)
        out.set(await engine.signDigestBatch(h, d.at(i, i1)), 64 * i)
      }
    })
    if (packed) return out
    const sigs = new Array(d.n)
    for (let i = 0; i < d.n; i++) sigs[i] = sigOut(out.subarray(64 * i, 64 * i + 64), f)
    return sigs
  }

  /** Verify many (digest, signature) pairs with one key: an array of
   *  booleans. sigs: an array of signatures, or (raw) one Uint8Array of
   *  n * 64 bytes. */
  async function verifyDigestBatch (pub, digests, sigs, options_) { const { format } = opts(options_);
    const f = sigFormat(format)
    const d = digestList(digests, 'digests')
    let sigAt
    if (sigs instanceof Uint8Array && f === 'raw') {
      if (sigs.length !== 64 * d.n) fail('LENGTH', 'as many signatures as digests, 64 bytes each')
      sigAt = (i0, i1) => ({ packed: sigs.subarray(64 * i0, 64 * i1), bad: null })
    } else {
      if (!Array.isArray(sigs)) fail('ARG', 'signatures must be an array')
      if (sigs.length !== d.n) fail('LENGTH', 'as many signatures as digests')
      let buf = null
      sigAt = (i0, i1) => {
        if (!buf || buf.length < 64 * (i1 - i0)) buf = new Uint8Array(64 * Math.min(CHUNK, d.n))
        const packed = buf.subarray(0, 64 * (i1 - i0))
        const bad = new Uint8Array(i1 - i0)
        for (let i = i0; i < i1; i++) {
          const r = sigRaw(sigs[i], f)
          if (r) packed.set(r, 64 * (i - i0))
          else { packed.fill(0, 64 * (i - i0), 64 * (i - i0) + 64); bad[i - i0] = 1 }
        }
        return { packed, bad }
      }
    }
    const res = new Array(d.n)
    await withShared(pub, PublicKey, async (h) => {
      for (let i = 0; i < d.n; i += CHUNK) {
        const i1 = Math.min(d.n, i + CHUNK)
        const { packed, bad } = sigAt(i, i1)
        const r = await engine.verifyDigestBatch(h, d.at(i, i1), packed)
        for (let j = i; j < i1; j++) res[j] = r[j - i] === 1 && !(bad && bad[j - i])
      }
    })
    return res
  }

  // e = SM3(Z_A || msg) of each message, as one Uint8Array of n * 32 bytes
  function digestsOfMessages (pub, msgs, id) {
    if (!Array.isArray(msgs)) fail('ARG', 'messages must be an array of Uint8Array')
    const z = pub.computeZ({ id })
    const out = new Uint8Array(32 * msgs.length)
    for (let i = 0; i < msgs.length; i++) out.set(engine.sm3(concat([z, binary(msgs[i], 'message')])), 32 * i)
    return out
  }

  /** e = SM3(Z_A || msg) for each message, then signDigestBatch. */
  async function signBatch (key, msgs, options_) { const { id, format, packed } = opts(options_);
    return signDigestBatch(key, digestsOfMessages(key.publicKey, msgs, id), { format, packed })
  }

  async function verifyBatch (pub, msgs, sigs, options_) { const { id, format } = opts(options_);
    return verifyDigestBatch(pub, digestsOfMessages(pub, msgs, id), sigs, { format })
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
