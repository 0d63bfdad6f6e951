// SPDX-License-Identifier: Apache-2.0
// The modern API, the same over both engines (engine.ts): keys as objects,
// bytes as Uint8Array, formats named.
//
//   signature formats:  'raw' (r || s, 64 bytes; default) or 'der'
//   ciphertext formats: 'c1c3c2' (04 || x || y || C3 || C2; default, GB/T 32918.4-2016),
//                       'c1c2c3' (04 || x || y || C2 || C3, the 2010 order),
//                       'der'    (GM/T 0009 SEQUENCE { x, y, C3, C2 }, what OpenSSL and GmSSL write)
//   signer ID: `id` (Uint8Array or string); absent = "1234567812345678"
import { FastSM2Error, ERROR_CODES, fail } from './errors.js'
import { toHex, fromHex, utf8, binary, bytes, concat, opts } from './bytes.js'
import type { Engine, KeyHandle } from './engine.js'
import { makeSm4, type Sm4Api } from './sm4.js'

/** 'raw': r || s, 64 bytes (default); 'der': GM/T 0009 SEQUENCE { r, s }. */
export type SignatureFormat = 'raw' | 'der'
/** 'c1c3c2': 04||x||y||C3||C2 (default, GB/T 32918.4-2016); 'c1c2c3': 04||x||y||C2||C3;
 *  'der': GM/T 0009 SEQUENCE { x, y, C3, C2 } (OpenSSL, GmSSL). */
export type CiphertextFormat = 'c1c3c2' | 'c1c2c3' | 'der'
/** A signer ID; absent: "1234567812345678". */
export type SignerId = string | Uint8Array

export interface PublicKey {
  /** SEC1: 04||x||y (65 bytes), or 02/03||x (33) with compressed. */
  toBytes (opts?: { compressed?: boolean }): Uint8Array
  toHex (opts?: { compressed?: boolean }): string
  /** SPKI. */
  toPem (): string
  toDer (): Uint8Array
  /** Tables that make later verifications and encryptions with this key faster. */
  precompute (): this
  /** Z_A (GB/T 32918.2 5.5). */
  computeZ (opts?: { id?: SignerId }): Uint8Array
  /** true only for a valid signature (a malformed one is false). */
  verify (msg: Uint8Array, sig: Uint8Array, opts?: { id?: SignerId, format?: SignatureFormat }): boolean
  verifyDigest (e: Uint8Array, sig: Uint8Array, opts?: { format?: SignatureFormat }): boolean
  encrypt (msg: Uint8Array, opts?: { format?: CiphertextFormat }): Uint8Array
  /** Wipe and free the key now (else when it is garbage-collected). */
  destroy (): void
}

export interface PublicKeyConstructor {
  /** Not for use: keys come from the static methods. */
  new (handle: never): PublicKey
  readonly prototype: PublicKey
  /** SEC1: 04||x||y (65 bytes) or 02/03||x (33). */
  fromBytes (sec1: Uint8Array): PublicKey
  fromHex (hex: string): PublicKey
  /** SPKI, PEM or DER (a bare SEC1 point is read too). */
  fromPem (pem: string | Uint8Array): PublicKey
  fromDer (der: Uint8Array): PublicKey
}

export interface PrivateKey {
  toBytes (): Uint8Array
  toHex (): string
  toPem (opts?: { format?: 'pkcs8' | 'sec1' }): string
  toDer (opts?: { format?: 'pkcs8' | 'sec1' }): Uint8Array
  /** P = dG (made once, destroyed with this key). */
  readonly publicKey: PublicKey
  /** GB/T 32918.2 6.1 on msg: e = SM3(Z_A || msg). */
  sign (msg: Uint8Array, opts?: { id?: SignerId, format?: SignatureFormat }): Uint8Array
  /** GB/T 32918.2 6.1 A3-A7 on a 32-byte digest e. */
  signDigest (e: Uint8Array, opts?: { format?: SignatureFormat }): Uint8Array
  decrypt (ct: Uint8Array, opts?: { format?: CiphertextFormat }): Uint8Array
  /** Plain ECDH: the x-coordinate of [d]P (32 bytes); derive keys from it (RFC 8998's curveSM2). */
  ecdh (peer: PublicKey | Uint8Array): Uint8Array
  /** Wipe and free the key now (else when it is garbage-collected). */
  destroy (): void
}

export interface PrivateKeyConstructor {
  /** Not for use: keys come from the static methods. */
  new (handle: never): PrivateKey
  readonly prototype: PrivateKey
  generate (): PrivateKey
  /** d, 32 bytes big-endian, in [1, n-2]. */
  fromBytes (d: Uint8Array): PrivateKey
  fromHex (hex: string): PrivateKey
  /** PKCS#8 or SEC1, PEM or DER; encrypted PKCS#8 with a password. */
  fromPem (pem: string | Uint8Array, opts?: { password?: string | Uint8Array }): PrivateKey
  fromDer (der: Uint8Array, opts?: { password?: string | Uint8Array }): PrivateKey
}

export interface BatchOptions { id?: SignerId, format?: SignatureFormat }

export interface Api extends Sm4Api {
  /** 'addon' (Node-API) or 'wasm'. */
  readonly engine: 'addon' | 'wasm'
  /** The C library's backend, e.g. 'avx2', 'armv8', 'generic' (WebAssembly). */
  readonly backend: string
  readonly version: string
  readonly PrivateKey: PrivateKeyConstructor
  readonly PublicKey: PublicKeyConstructor
  readonly FastSM2Error: typeof FastSM2Error
  /** Every status code, by name. */
  readonly ERROR_CODES: typeof ERROR_CODES
  sm3 (data: Uint8Array): Uint8Array
  hmacSm3 (key: Uint8Array, data: Uint8Array): Uint8Array
  /** GB/T 32918.4 5.4.3's KDF: SM3(z || 1) || SM3(z || 2) || ..., length bytes. */
  kdf (z: Uint8Array, length: number): Uint8Array
  /** Many operations; with the addon on a worker thread over all cores. */
  signBatch (key: PrivateKey, msgs: Uint8Array[], opts?: BatchOptions & { packed?: false }): Promise<Uint8Array[]>
  signBatch (key: PrivateKey, msgs: Uint8Array[], opts: { id?: SignerId, format?: 'raw', packed: true }): Promise<Uint8Array>
  verifyBatch (key: PublicKey, msgs: Uint8Array[], sigs: Uint8Array[] | Uint8Array, opts?: BatchOptions): Promise<boolean[]>
  /** digests: 32-byte arrays, or one Uint8Array of n * 32 bytes. */
  signDigestBatch (key: PrivateKey, digests: Uint8Array[] | Uint8Array, opts?: { format?: SignatureFormat, packed?: false }): Promise<Uint8Array[]>
  /** { packed: true }: one Uint8Array of n raw signatures (64 bytes each). */
  signDigestBatch (key: PrivateKey, digests: Uint8Array[] | Uint8Array, opts: { format?: 'raw', packed: true }): Promise<Uint8Array>
  /** sigs: an array, or (raw) one Uint8Array of n * 64 bytes. */
  verifyDigestBatch (key: PublicKey, digests: Uint8Array[] | Uint8Array, sigs: Uint8Array[] | Uint8Array, opts?: { format?: SignatureFormat }): Promise<boolean[]>
  /** @internal for the sm-crypto modules */
  readonly _internal: Internal
}

/** @internal */
export interface Internal {
  readonly engine: Engine
  handleOf (key: PrivateKey | PublicKey): KeyHandle
  /** A PublicKey of a handle (the key's owner from now on). */
  wrapPublic (h: KeyHandle): PublicKey
}

const CT_FLAGS: Record<CiphertextFormat, number> = { c1c3c2: 1, c1c2c3: 3, der: 0 }
const KEYFMT: Record<string, number> = { pkcs8: 0, sec1: 1 }
/** The order n of sm2p256v1 (GB/T 32918.5). */
export const N = 0xfffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54123n

function ctFlags (format: unknown): number {
  const f = CT_FLAGS[(format === undefined ? 'c1c3c2' : format) as CiphertextFormat]
  if (f === undefined) fail('ARG', 'ciphertext format must be c1c3c2, c1c2c3 or der')
  return f
}

function sigFormat (format: unknown): SignatureFormat {
  if (format === undefined || format === 'raw') return 'raw'
  if (format === 'der') return 'der'
  return fail('ARG', "signature format must be 'raw' or 'der'")
}

function idBytes (id: unknown): Uint8Array | null {
  if (id === undefined || id === null) return null
  return typeof id === 'string' ? utf8(id) : binary(id, 'id')
}

function pemText (v: unknown): Uint8Array {
  return typeof v === 'string' ? utf8(v) : binary(v, 'key file')
}

/** e = the integer of a byte string, reduced mod n, as 32 bytes: what
 *  sm-crypto signs when asked not to hash (hash: false). */
export function digestOfInteger (u8: Uint8Array): Uint8Array {
  if (u8.length === 32) return u8
  let v = 0n
  for (const b of u8) v = (v << 8n) | BigInt(b)
  v %= N
  return fromHex(v.toString(16).padStart(64, '0'))
}

function fromUtf8z (u8: Uint8Array): string { // PEM output is NUL-terminated text
  let n = u8.length
  while (n > 0 && u8[n - 1] === 0) n--
  return new TextDecoder().decode(u8.subarray(0, n))
}

export function makeApi (engine: Engine): Api {
  const handles = new WeakMap<object, KeyHandle>()
  const handleOf = (key: unknown, Cls: { name: string, prototype: object }): KeyHandle => {
    if (!(key instanceof (Cls as unknown as typeof Object))) fail('ARG', 'expected a ' + Cls.name)
    const h = handles.get(key as object)
    if (h === undefined) fail('ARG', 'the ' + Cls.name + ' was destroyed')
    return h
  }
  const own = (obj: object, h: KeyHandle): void => {
    handles.set(obj, h)
    engine.track(obj, h)
  }
  const free = (obj: object): void => {
    const h = handles.get(obj)
    if (h !== undefined) { handles.delete(obj); engine.keyFree(h) }
  }

  function sigRaw (sig: unknown, format: SignatureFormat): Uint8Array | null {
    const s = binary(sig, 'signature')
    if (format === 'raw') return s.length === 64 ? s : null
    try { return engine.sigFromDer(s) } catch (e) { if (e instanceof FastSM2Error) return null; throw e }
  }

  function sigOut (raw: Uint8Array, format: SignatureFormat): Uint8Array { return format === 'der' ? engine.sigToDer(raw) : raw }

  class PublicKeyImpl implements PublicKey {
    constructor (handle: KeyHandle) {
      if (handle === undefined) fail('ARG', 'use PublicKey.fromBytes, fromHex or fromPem')
      own(this, handle)
    }

    static fromBytes (sec1: Uint8Array): PublicKey { return new PublicKeyImpl(engine.pubFromBytes(binary(sec1, 'public key'), false)) }
    static fromHex (hex: string): PublicKey { return new PublicKeyImpl(engine.pubFromBytes(fromHex(hex, 'public key'), false)) }
    static fromPem (pem: string | Uint8Array): PublicKey { return new PublicKeyImpl(engine.pubFromBytes(pemText(pem), true)) }
    static fromDer (der: Uint8Array): PublicKey { return PublicKeyImpl.fromPem(binary(der, 'key file')) }

    toBytes (o?: { compressed?: boolean }): Uint8Array { return engine.pubToBytes(handleOf(this, PublicKeyImpl), !!opts(o).compressed) }
    toHex (o?: { compressed?: boolean }): string { return toHex(this.toBytes(o)) }
    toPem (): string { return fromUtf8z(engine.pubSerialize(handleOf(this, PublicKeyImpl), 2)) }
    toDer (): Uint8Array { return engine.pubSerialize(handleOf(this, PublicKeyImpl), 0) }
    precompute (): this { engine.pubPrecompute(handleOf(this, PublicKeyImpl)); return this }
    computeZ (o?: { id?: SignerId }): Uint8Array { return engine.computeZ(handleOf(this, PublicKeyImpl), idBytes(opts(o).id)) }

    verify (msg: Uint8Array, sig: Uint8Array, o?: { id?: SignerId, format?: SignatureFormat }): boolean {
      const { id, format } = opts(o)
      const raw = sigRaw(sig, sigFormat(format))
      if (!raw) return false
      return engine.verify(handleOf(this, PublicKeyImpl), idBytes(id), binary(msg, 'message'), raw) === 1
    }

    verifyDigest (e: Uint8Array, sig: Uint8Array, o?: { format?: SignatureFormat }): boolean {
      const raw = sigRaw(sig, sigFormat(opts(o).format))
      if (!raw) return false
      const d = binary(e, 'digest')
      if (d.length !== 32) fail('LENGTH', 'a digest is 32 bytes')
      return engine.verifyDigest(handleOf(this, PublicKeyImpl), d, raw) === 1
    }

    encrypt (msg: Uint8Array, o?: { format?: CiphertextFormat }): Uint8Array {
      return engine.encrypt(handleOf(this, PublicKeyImpl), binary(msg, 'message'), ctFlags(opts(o).format))
    }

    destroy (): void { free(this) }
  }
  Object.defineProperty(PublicKeyImpl, 'name', { value: 'PublicKey' })

  const pubOf = new WeakMap<object, PublicKey>()

  class PrivateKeyImpl implements PrivateKey {
    constructor (handle: KeyHandle) {
      if (handle === undefined) fail('ARG', 'use PrivateKey.generate, fromBytes, fromHex or fromPem')
      own(this, handle)
    }

    static generate (): PrivateKey { return new PrivateKeyImpl(engine.privGenerate()) }
    static fromBytes (d: Uint8Array): PrivateKey { return new PrivateKeyImpl(engine.privFromBytes(binary(d, 'private key'))) }
    static fromHex (hex: string): PrivateKey {
      const d = fromHex(hex, 'private key')
      try { return new PrivateKeyImpl(engine.privFromBytes(d)) } finally { d.fill(0) }
    }

    static fromPem (pem: string | Uint8Array, o?: { password?: string | Uint8Array }): PrivateKey {
      const { password } = opts(o)
      const pw = password === undefined || password === null ? null : bytes(password, 'password')
      return new PrivateKeyImpl(engine.privParse(pemText(pem), pw))
    }

    static fromDer (der: Uint8Array, o?: { password?: string | Uint8Array }): PrivateKey { return PrivateKeyImpl.fromPem(binary(der, 'key file'), o) }

    toBytes (): Uint8Array { return engine.privToBytes(handleOf(this, PrivateKeyImpl)) }
    toHex (): string { const d = this.toBytes(); try { return toHex(d) } finally { d.fill(0) } }
    toPem (o?: { format?: 'pkcs8' | 'sec1' }): string { return fromUtf8z(engine.privSerialize(handleOf(this, PrivateKeyImpl), keyFmt(opts(o).format) | 2)) }
    toDer (o?: { format?: 'pkcs8' | 'sec1' }): Uint8Array { return engine.privSerialize(handleOf(this, PrivateKeyImpl), keyFmt(opts(o).format)) }

    get publicKey (): PublicKey {
      let p = pubOf.get(this)
      if (!p) { p = new PublicKeyImpl(engine.privPub(handleOf(this, PrivateKeyImpl))); pubOf.set(this, p) }
      return p
    }

    sign (msg: Uint8Array, o?: { id?: SignerId, format?: SignatureFormat }): Uint8Array {
      const { id, format } = opts(o)
      const f = sigFormat(format)
      return sigOut(engine.sign(handleOf(this, PrivateKeyImpl), idBytes(id), binary(msg, 'message')), f)
    }

    signDigest (e: Uint8Array, o?: { format?: SignatureFormat }): Uint8Array {
      const f = sigFormat(opts(o).format)
      const d = binary(e, 'digest')
      if (d.length !== 32) fail('LENGTH', 'a digest is 32 bytes')
      return sigOut(engine.signDigest(handleOf(this, PrivateKeyImpl), d), f)
    }

    decrypt (ct: Uint8Array, o?: { format?: CiphertextFormat }): Uint8Array {
      return engine.decrypt(handleOf(this, PrivateKeyImpl), binary(ct, 'ciphertext'), ctFlags(opts(o).format))
    }

    ecdh (peer: PublicKey | Uint8Array): Uint8Array {
      const p = peer instanceof PublicKeyImpl ? peer.toBytes() : binary(peer, 'public key')
      return engine.ecdh(handleOf(this, PrivateKeyImpl), p)
    }

    destroy (): void {
      free(this)
      const p = pubOf.get(this)
      if (p) { pubOf.delete(this); p.destroy() }
    }
  }
  Object.defineProperty(PrivateKeyImpl, 'name', { value: 'PrivateKey' })

  function keyFmt (format: unknown): number {
    const f = KEYFMT[format === undefined ? 'pkcs8' : String(format)]
    if (f === undefined || typeof format === 'object') fail('ARG', "key format must be 'pkcs8' or 'sec1'")
    return f
  }

  // ---- batches ----------------------------------------------------------------
  // Batches go to the engine in chunks of batchChunk items: the copies a
  // chunk needs are all the memory a batch takes besides its input and
  // output, however many items it has. The batch holds its own handle of
  // the key (engine.keyShare), so that destroy() during the batch takes
  // effect when the batch ends.
  const CHUNK = engine.batchChunk

  interface List { n: number, at (i0: number, i1: number): Uint8Array }

  // digests: an array of 32-byte Uint8Arrays, or one Uint8Array of n * 32 bytes
  function digestList (list: unknown, what: string): List {
    if (list instanceof Uint8Array) {
      if (list.length % 32) fail('LENGTH', what + ' are 32 bytes each')
      return { n: list.length / 32, at: (i0, i1) => list.subarray(32 * i0, 32 * i1) }
    }
    if (!Array.isArray(list)) return fail('ARG', what + ' must be an array of Uint8Array or one Uint8Array of n * 32 bytes')
    for (let i = 0; i < list.length; i++) {
      if (binary(list[i], what).length !== 32) fail('LENGTH', what + ' are 32 bytes each')
    }
    let buf: Uint8Array | null = null
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

  async function withShared<T> (key: unknown, Cls: { name: string, prototype: object }, fn: (h: KeyHandle) => Promise<T>): Promise<T> {
    const h = engine.keyShare(handleOf(key, Cls))
    try { return await fn(h) } finally { engine.keyFree(h) }
  }

  async function signDigestBatch (key: PrivateKey, digests: Uint8Array[] | Uint8Array, o?: { format?: SignatureFormat, packed?: boolean }): Promise<any> {
    const { format, packed = false } = opts(o)
    const f = sigFormat(format)
    if (packed && f !== 'raw') fail('ARG', 'packed output holds raw signatures')
    const d = digestList(digests, 'digests')
    const out = new Uint8Array(64 * d.n)
    await withShared(key, PrivateKeyImpl, async (h) => {
      for (let i = 0; i < d.n; i += CHUNK) {
        const i1 = Math.min(d.n, i + CHUNK)
        out.set(await engine.signDigestBatch(h, d.at(i, i1)), 64 * i)
      }
    })
    if (packed) return out
    const sigs = new Array<Uint8Array>(d.n)
    for (let i = 0; i < d.n; i++) sigs[i] = sigOut(out.subarray(64 * i, 64 * i + 64), f)
    return sigs
  }

  async function verifyDigestBatch (pub: PublicKey, digests: Uint8Array[] | Uint8Array, sigs: Uint8Array[] | Uint8Array, o?: { format?: SignatureFormat }): Promise<boolean[]> {
    const f = sigFormat(opts(o).format)
    const d = digestList(digests, 'digests')
    let sigAt: (i0: number, i1: number) => { packed: Uint8Array, bad: Uint8Array | null }
    if (sigs instanceof Uint8Array && f === 'raw') {
      if (sigs.length !== 64 * d.n) fail('LENGTH', 'as many signatures as digests, 64 bytes each')
      sigAt = (i0, i1) => ({ packed: sigs.subarray(64 * i0, 64 * i1), bad: null })
    } else {
      if (!Array.isArray(sigs)) fail('ARG', 'signatures must be an array')
      if (sigs.length !== d.n) fail('LENGTH', 'as many signatures as digests')
      let buf: Uint8Array | null = null
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
    const res = new Array<boolean>(d.n)
    await withShared(pub, PublicKeyImpl, async (h) => {
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
  function digestsOfMessages (pub: PublicKey, msgs: unknown, id: unknown): Uint8Array {
    if (!Array.isArray(msgs)) fail('ARG', 'messages must be an array of Uint8Array')
    const z = pub.computeZ({ id: id as SignerId | undefined })
    const out = new Uint8Array(32 * msgs.length)
    for (let i = 0; i < msgs.length; i++) out.set(engine.sm3(concat([z, binary(msgs[i], 'message')])), 32 * i)
    return out
  }

  async function signBatch (key: PrivateKey, msgs: Uint8Array[], o?: BatchOptions & { packed?: boolean }): Promise<any> {
    const { id, format, packed } = opts(o)
    if (!(key instanceof PrivateKeyImpl)) fail('ARG', 'expected a PrivateKey')
    return signDigestBatch(key, digestsOfMessages(key.publicKey, msgs, id), { format, packed } as { packed: false })
  }

  async function verifyBatch (pub: PublicKey, msgs: Uint8Array[], sigs: Uint8Array[] | Uint8Array, o?: BatchOptions): Promise<boolean[]> {
    const { id, format } = opts(o)
    if (!(pub instanceof PublicKeyImpl)) fail('ARG', 'expected a PublicKey')
    return verifyDigestBatch(pub, digestsOfMessages(pub, msgs, id), sigs, { format })
  }

  function kdf (z: Uint8Array, length: number): Uint8Array {
    if (!Number.isSafeInteger(length) || length < 0) fail('ARG', 'length must be a non-negative integer')
    return engine.kdf(binary(z, 'z'), length)
  }

  const internal: Internal = {
    engine,
    handleOf: (key) => handleOf(key, key instanceof PrivateKeyImpl ? PrivateKeyImpl : PublicKeyImpl),
    wrapPublic: (h) => new PublicKeyImpl(h)
  }

  return {
    engine: engine.name,
    backend: engine.backend(),
    version: engine.version(),
    PrivateKey: PrivateKeyImpl as unknown as PrivateKeyConstructor,
    PublicKey: PublicKeyImpl as unknown as PublicKeyConstructor,
    FastSM2Error,
    ERROR_CODES,
    sm3: (data) => engine.sm3(binary(data, 'data')),
    hmacSm3: (key, data) => engine.hmac(binary(key, 'key'), binary(data, 'data')),
    kdf,
    signBatch,
    verifyBatch,
    signDigestBatch,
    verifyDigestBatch,
    ...makeSm4(engine),
    _internal: internal
  }
}
