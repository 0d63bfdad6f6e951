// SPDX-License-Identifier: Apache-2.0
// SM4 (GB/T 32907) and its modes in the modern API: bytes in, bytes out,
// AEAD as one call (ciphertext || tag), streaming for large data. Every
// call is the C library's (include/fastsm2.h, section SM4): constant time
// in the key and the data, one implementation chosen for the CPU
// (sm4.backend says which).
//
//   sm4.gcmEncrypt(key, iv, data, { aad })  -> ciphertext || 16-byte tag
//   sm4.gcmDecrypt(key, iv, sealed, { aad }) -> plaintext, or FASTSM2_ERR_TAG
//   sm4.cbcEncrypt(key, iv, data)            -> PKCS#7 padded ciphertext
//   sm4.createCipher('ctr', key, iv)         -> { update(chunk), final() }
//
// key: an Sm4Key (expanded once: sm4.Key.fromBytes) or 16 bytes (expanded
// for the call and wiped after).
import { fail } from './errors.js'
import { binary, fromHex, opts } from './bytes.js'
import type { Engine, KeyHandle } from './engine.js'

export type Sm4Padding = 'pkcs7' | 'none'
export type Sm4StreamMode = 'ecb' | 'cbc' | 'ctr' | 'ofb' | 'cfb'

export interface Sm4Key {
  /** Wipe and free the expanded key now (else when it is garbage-collected). */
  destroy (): void
}

export interface Sm4KeyConstructor {
  /** Not for use: keys come from fromBytes and fromHex. */
  new (handle: never): Sm4Key
  readonly prototype: Sm4Key
  /** GB/T 32907 7.3: expand a 16-byte key (and GCM's hash key). */
  fromBytes (key: Uint8Array): Sm4Key
  fromHex (hex: string): Sm4Key
}

/** A key: an Sm4Key or its 16 bytes. */
export type Sm4KeyInput = Sm4Key | Uint8Array

export interface Sm4Cipher {
  /** The output this piece completes (stream modes: as long as the piece;
   *  ECB and CBC: whole blocks). Decrypting GCM: NOT AUTHENTICATED until
   *  final() returns. */
  update (data: Uint8Array): Uint8Array
  /** The rest (ECB/CBC: the padded or unpadded last block); the operation
   *  is wiped. */
  final (): Uint8Array
  /** Wipe an abandoned operation. */
  destroy (): void
}

export interface Sm4GcmEncryptor {
  /** Authenticate more associated data (before the first update). */
  aad (data: Uint8Array): this
  update (data: Uint8Array): Uint8Array
  /** The tag (tagLength bytes, 16 by default). */
  final (): Uint8Array
  destroy (): void
}

export interface Sm4GcmDecryptor {
  aad (data: Uint8Array): this
  /** Plaintext NOT YET AUTHENTICATED: keep it from any use until final()
   *  returns, and discard it if final() throws. */
  update (data: Uint8Array): Uint8Array
  /** Returns if the tag matches; FASTSM2_ERR_TAG otherwise. */
  final (tag: Uint8Array): void
  destroy (): void
}

export interface AeadOptions {
  /** Associated data: authenticated, not encrypted. */
  aad?: Uint8Array
  /** Bytes of tag: GCM 4 to 16 (12 to 16 advised), CCM 4, 6, ..., 16; default 16. */
  tagLength?: number
}

export interface Sm4 {
  /** The SM4 implementation in use, e.g. 'aesni', 'generic'. */
  readonly backend: string
  readonly Key: Sm4KeyConstructor
  /** ECB, PKCS#7 padding unless { padding: 'none' } (then whole blocks only). */
  ecbEncrypt (key: Sm4KeyInput, data: Uint8Array, opts?: { padding?: Sm4Padding }): Uint8Array
  ecbDecrypt (key: Sm4KeyInput, data: Uint8Array, opts?: { padding?: Sm4Padding }): Uint8Array
  /** CBC (SP 800-38A) with a 16-byte IV, PKCS#7 padding unless { padding: 'none' }. */
  cbcEncrypt (key: Sm4KeyInput, iv: Uint8Array, data: Uint8Array, opts?: { padding?: Sm4Padding }): Uint8Array
  /** FASTSM2_ERR_PADDING for bad padding. CBC has no integrity: prefer GCM. */
  cbcDecrypt (key: Sm4KeyInput, iv: Uint8Array, data: Uint8Array, opts?: { padding?: Sm4Padding }): Uint8Array
  /** CTR: the counter block starts at iv (16 bytes), 128-bit big-endian; encrypts and decrypts. */
  ctr (key: Sm4KeyInput, iv: Uint8Array, data: Uint8Array): Uint8Array
  /** GCM (SP 800-38D): ciphertext || tag. iv: 12 bytes advised (any length >= 1). */
  gcmEncrypt (key: Sm4KeyInput, iv: Uint8Array, data: Uint8Array, opts?: AeadOptions): Uint8Array
  /** The plaintext of ciphertext || tag, or FASTSM2_ERR_TAG (no plaintext released). */
  gcmDecrypt (key: Sm4KeyInput, iv: Uint8Array, sealed: Uint8Array, opts?: AeadOptions): Uint8Array
  /** CCM (SP 800-38C, RFC 8998): nonce of 7 to 13 bytes; ciphertext || tag. */
  ccmEncrypt (key: Sm4KeyInput, nonce: Uint8Array, data: Uint8Array, opts?: AeadOptions): Uint8Array
  ccmDecrypt (key: Sm4KeyInput, nonce: Uint8Array, sealed: Uint8Array, opts?: AeadOptions): Uint8Array
  /** XTS (GB/T 17964 by default, or { standard: 'ieee' } IEEE 1619) of one data unit (16 bytes to 16 MiB). */
  xtsEncrypt (key1: Sm4KeyInput, key2: Sm4KeyInput, tweak: Uint8Array, data: Uint8Array, opts?: { standard?: 'gb' | 'ieee' }): Uint8Array
  xtsDecrypt (key1: Sm4KeyInput, key2: Sm4KeyInput, tweak: Uint8Array, data: Uint8Array, opts?: { standard?: 'gb' | 'ieee' }): Uint8Array
  /** Streaming encryption: ECB and CBC with PKCS#7 unless { padding: 'none' }; CTR, OFB, CFB (CFB-128). iv: 16 bytes (none for ECB). */
  createCipher (mode: Sm4StreamMode, key: Sm4KeyInput, iv: Uint8Array | null, opts?: { padding?: Sm4Padding }): Sm4Cipher
  createDecipher (mode: Sm4StreamMode, key: Sm4KeyInput, iv: Uint8Array | null, opts?: { padding?: Sm4Padding }): Sm4Cipher
  /** Streaming GCM encryption. */
  createGcmEncryptor (key: Sm4KeyInput, iv: Uint8Array, opts?: AeadOptions): Sm4GcmEncryptor
  /** Streaming GCM decryption (its output unauthenticated until final(tag)). */
  createGcmDecryptor (key: Sm4KeyInput, iv: Uint8Array, opts?: { aad?: Uint8Array }): Sm4GcmDecryptor
}

export interface Sm4Api {
  /** SM4 (GB/T 32907) and its modes. */
  readonly sm4: Sm4
}

const MODES: Record<Sm4StreamMode, number> = { ecb: 1, cbc: 2, ctr: 3, ofb: 4, cfb: 5 }

function padding (p: unknown): number {
  if (p === undefined || p === 'pkcs7') return 1
  if (p === 'none') return 0
  return fail('ARG', "padding must be 'pkcs7' or 'none'")
}

function xtsStandard (s: unknown): number {
  if (s === undefined || s === 'gb') return 0
  if (s === 'ieee') return 1
  return fail('ARG', "XTS standard must be 'gb' or 'ieee'")
}

export function makeSm4 (engine: Engine): Sm4Api {
  const handles = new WeakMap<object, KeyHandle>()

  class Sm4KeyImpl implements Sm4Key {
    constructor (handle: KeyHandle) {
      if (handle === undefined) fail('ARG', 'use sm4.Key.fromBytes or fromHex')
      handles.set(this, handle)
      engine.track(this, handle)
    }

    static fromBytes (key: Uint8Array): Sm4Key { return new Sm4KeyImpl(engine.sm4Key(binary(key, 'SM4 key'))) }
    static fromHex (hex: string): Sm4Key {
      const k = fromHex(hex, 'SM4 key')
      try { return new Sm4KeyImpl(engine.sm4Key(k)) } finally { k.fill(0) }
    }

    destroy (): void {
      const h = handles.get(this)
      if (h !== undefined) { handles.delete(this); engine.keyFree(h) }
    }
  }
  Object.defineProperty(Sm4KeyImpl, 'name', { value: 'Sm4Key' })

  // fn with the key's handle: an Sm4Key's own (shared for the call), or one
  // made of 16 bytes for this call alone
  function withKey<T> (key: unknown, fn: (h: KeyHandle) => T): T {
    let h: KeyHandle
    if (key instanceof Sm4KeyImpl) {
      const own = handles.get(key)
      if (own === undefined) fail('ARG', 'the Sm4Key was destroyed')
      h = engine.keyShare(own)
    } else {
      h = engine.sm4Key(binary(key, 'SM4 key'))
    }
    try { return fn(h) } finally { engine.keyFree(h) }
  }

  const aadOf = (o: AeadOptions): Uint8Array => o.aad === undefined || o.aad === null ? new Uint8Array(0) : binary(o.aad, 'aad')
  const tagLen = (o: AeadOptions): number => {
    const t = o.tagLength === undefined ? 16 : o.tagLength
    if (!Number.isInteger(t) || t < 4 || t > 16) fail('LENGTH', 'tagLength must be 4 to 16')
    return t
  }
  function split (sealed: Uint8Array, t: number): [Uint8Array, Uint8Array] {
    if (sealed.length < t) fail('LENGTH', 'shorter than its tag')
    return [sealed.subarray(0, sealed.length - t), sealed.subarray(sealed.length - t)]
  }

  function stream (mode: unknown, enc: boolean, key: unknown, iv: unknown, o?: { padding?: Sm4Padding }): Sm4Cipher {
    const m = MODES[mode as Sm4StreamMode]
    if (m === undefined) fail('ARG', "mode must be 'ecb', 'cbc', 'ctr', 'ofb' or 'cfb'")
    const pad = m <= 2 ? padding(opts(o).padding) : 0
    const ivb = iv === undefined || iv === null ? null : binary(iv, 'iv')
    let ctx: KeyHandle | null = withKey(key, (h) => engine.sm4StreamInit(m, enc, pad, h, ivb))
    const owner = {}
    engine.track(owner, ctx)
    const live = (): KeyHandle => { if (ctx === null) fail('STATE', 'the operation has finished'); return ctx }
    return {
      update: (data) => engine.sm4StreamUpdate(live(), binary(data, 'data')),
      final: () => { const c = live(); try { return engine.sm4StreamFinal(c) } finally { ctx = null; engine.keyFree(c) } },
      destroy: () => { if (ctx !== null) { engine.keyFree(ctx); ctx = null } void owner }
    }
  }

  function gcmStream (enc: boolean, key: unknown, iv: unknown, o: AeadOptions): { ctx: () => KeyHandle, done: () => void, destroy: () => void } {
    let ctx: KeyHandle | null = withKey(key, (h) => engine.sm4GcmInit(enc, h, binary(iv, 'iv')))
    const owner = {}
    engine.track(owner, ctx)
    if (o.aad !== undefined && o.aad !== null) engine.sm4GcmAad(ctx, binary(o.aad, 'aad'))
    return {
      ctx: () => { if (ctx === null) fail('STATE', 'the operation has finished'); return ctx },
      done: () => { if (ctx !== null) { engine.keyFree(ctx); ctx = null } void owner },
      destroy: () => { if (ctx !== null) { engine.keyFree(ctx); ctx = null } }
    }
  }

  const sm4: Sm4 = {
    get backend () { return engine.sm4Backend() },
    Key: Sm4KeyImpl as unknown as Sm4KeyConstructor,
    ecbEncrypt: (key, data, o) => withKey(key, (h) => {
      const d = binary(data, 'data')
      if (padding(opts(o).padding) === 0) return engine.sm4Ecb(h, true, d)
      const n = d.length - (d.length % 16)
      const padded = new Uint8Array(n + 16)
      padded.set(d)
      padded.fill(16 - (d.length % 16), d.length)
      try { return engine.sm4Ecb(h, true, padded) } finally { padded.fill(0) }
    }),
    ecbDecrypt: (key, data, o) => withKey(key, (h) => {
      const d = binary(data, 'data')
      if (padding(opts(o).padding) === 0) return engine.sm4Ecb(h, false, d)
      // the streaming ECB unpads in constant time (fastsm2_sm4_final)
      const c = engine.sm4StreamInit(1, false, 1, h, null)
      try {
        const a = engine.sm4StreamUpdate(c, d)
        const b = engine.sm4StreamFinal(c)
        const out = new Uint8Array(a.length + b.length)
        out.set(a); out.set(b, a.length)
        a.fill(0); b.fill(0)
        return out
      } finally { engine.keyFree(c) }
    }),
    cbcEncrypt: (key, iv, data, o) => withKey(key, (h) => engine.sm4Cbc(h, true, padding(opts(o).padding), binary(iv, 'iv'), binary(data, 'data'))),
    cbcDecrypt: (key, iv, data, o) => withKey(key, (h) => engine.sm4Cbc(h, false, padding(opts(o).padding), binary(iv, 'iv'), binary(data, 'data'))),
    ctr: (key, iv, data) => withKey(key, (h) => engine.sm4Ctr(h, binary(iv, 'iv'), binary(data, 'data'))),
    gcmEncrypt: (key, iv, data, o) => {
      const op = opts(o)
      return withKey(key, (h) => engine.sm4AeadEncrypt(false, h, binary(iv, 'iv'), aadOf(op), binary(data, 'data'), tagLen(op)))
    },
    gcmDecrypt: (key, iv, sealed, o) => {
      const op = opts(o)
      const [ct, tag] = split(binary(sealed, 'sealed data'), tagLen(op))
      return withKey(key, (h) => engine.sm4AeadDecrypt(false, h, binary(iv, 'iv'), aadOf(op), ct, tag))
    },
    ccmEncrypt: (key, nonce, data, o) => {
      const op = opts(o)
      return withKey(key, (h) => engine.sm4AeadEncrypt(true, h, binary(nonce, 'nonce'), aadOf(op), binary(data, 'data'), tagLen(op)))
    },
    ccmDecrypt: (key, nonce, sealed, o) => {
      const op = opts(o)
      const [ct, tag] = split(binary(sealed, 'sealed data'), tagLen(op))
      return withKey(key, (h) => engine.sm4AeadDecrypt(true, h, binary(nonce, 'nonce'), aadOf(op), ct, tag))
    },
    xtsEncrypt: (key1, key2, tweak, data, o) => withKey(key1, (h1) => withKey(key2, (h2) =>
      engine.sm4Xts(h1, h2, xtsStandard(opts(o).standard), true, binary(tweak, 'tweak'), binary(data, 'data')))),
    xtsDecrypt: (key1, key2, tweak, data, o) => withKey(key1, (h1) => withKey(key2, (h2) =>
      engine.sm4Xts(h1, h2, xtsStandard(opts(o).standard), false, binary(tweak, 'tweak'), binary(data, 'data')))),
    createCipher: (mode, key, iv, o) => stream(mode, true, key, iv, o),
    createDecipher: (mode, key, iv, o) => stream(mode, false, key, iv, o),
    createGcmEncryptor (key, iv, o) {
      const op = opts(o)
      const t = tagLen(op)
      const s = gcmStream(true, key, iv, op)
      const enc: Sm4GcmEncryptor = {
        aad (data) { engine.sm4GcmAad(s.ctx(), binary(data, 'aad')); return this },
        update: (data) => engine.sm4GcmUpdate(s.ctx(), binary(data, 'data')),
        final: () => { try { return engine.sm4GcmFinal(s.ctx(), t) as Uint8Array } finally { s.done() } },
        destroy: s.destroy
      }
      return enc
    },
    createGcmDecryptor (key, iv, o) {
      const s = gcmStream(false, key, iv, opts(o))
      const dec: Sm4GcmDecryptor = {
        aad (data) { engine.sm4GcmAad(s.ctx(), binary(data, 'aad')); return this },
        update: (data) => engine.sm4GcmUpdate(s.ctx(), binary(data, 'data')),
        final: (tag) => { try { engine.sm4GcmFinal(s.ctx(), binary(tag, 'tag')) } finally { s.done() } },
        destroy: s.destroy
      }
      return dec
    }
  }
  return { sm4 }
}
