// SPDX-License-Identifier: Apache-2.0
// sm-crypto's sm4 (encrypt and decrypt with mode 'ecb' | 'cbc', iv,
// padding 'pkcs#7' | 'pkcs#5' | 'none', output 'string' | 'array') and
// sm-crypto-v2's (the same, mode 'gcm' with associatedData, outputTag and
// tag, and sm4(data, key, cryptFlag, options)), over the C library's SM4.
// Strings in are UTF-8 to encrypt and hex to decrypt; keys, IVs, tags and
// associated data given as strings are hex; encryption outputs hex,
// decryption UTF-8, unless output is 'array'. Differences, all on bad
// input: a key or IV of the wrong length, an unknown mode or padding, data
// that is not whole blocks without padding, bad padding and a tag mismatch
// throw FastSM2Errors (sm-crypto throws Errors for some of them and
// silently drops a partial last block without padding); GCM decryption
// without a tag is refused (sm-crypto-v2 then decrypts unauthenticated).
import { fail } from './errors.js'
import { toHex, fromHex, utf8, fromUtf8, bytes } from './bytes.js'
import type { Api } from './api.js'
import type { Flavor } from './smcrypto.js'
import type { KeyHandle } from './engine.js'

type Data = string | Uint8Array | number[] | ArrayBufferView

export interface Sm4Options {
  /** 'pkcs#7' (default; 'pkcs#5' is the same) or 'none' (whole blocks only). */
  padding?: 'pkcs#7' | 'pkcs#5' | 'none' | null
  /** 'ecb' (default) or 'cbc'; sm-crypto-v2 also 'gcm'. */
  mode?: 'cbc' | 'ecb' | 'gcm'
  /** CBC: 16 bytes (hex or bytes); GCM: any length, 12 advised. */
  iv?: string | Uint8Array | number[]
  /** 'string' (default: hex out of encrypt, UTF-8 out of decrypt) or 'array'. */
  output?: 'string' | 'array'
  /** GCM: associated data (hex or bytes). */
  associatedData?: string | Uint8Array
  /** GCM with output 'array': { output, tag } instead of the ciphertext alone. */
  outputTag?: boolean
  /** GCM decryption: the 16-byte tag (hex or bytes). */
  tag?: string | Uint8Array
}

export interface GCMResult<T> { output: T, tag?: T }

export interface SmCryptoSm4 {
  encrypt (data: Data, key: string | Uint8Array | number[], options?: Sm4Options & { output?: 'string' }): string
  encrypt (data: Data, key: string | Uint8Array | number[], options: Sm4Options & { output: 'array' }): number[]
  decrypt (data: Data, key: string | Uint8Array | number[], options?: Sm4Options & { output?: 'string' }): string
  decrypt (data: Data, key: string | Uint8Array | number[], options: Sm4Options & { output: 'array' }): number[]
}

export interface SmCryptoV2Sm4 {
  encrypt (data: Data, key: string | Uint8Array, options: Sm4Options & { mode: 'gcm', output: 'array' }): GCMResult<Uint8Array> | Uint8Array
  encrypt (data: Data, key: string | Uint8Array, options: Sm4Options & { mode: 'gcm', output?: 'string' }): GCMResult<string>
  encrypt (data: Data, key: string | Uint8Array, options?: Sm4Options & { output?: 'string' }): string
  encrypt (data: Data, key: string | Uint8Array, options: Sm4Options & { output: 'array' }): Uint8Array
  decrypt (data: Data, key: string | Uint8Array, options?: Sm4Options & { output?: 'string' }): string
  decrypt (data: Data, key: string | Uint8Array, options: Sm4Options & { output: 'array' }): Uint8Array
  /** cryptFlag 1 encrypts, 0 decrypts. */
  sm4 (data: Data, key: string | Uint8Array, cryptFlag: 0 | 1, options?: Sm4Options): string | Uint8Array | GCMResult<string> | GCMResult<Uint8Array>
}

export function makeSmCryptoSm4 (api: Api, flavor: Flavor): SmCryptoSm4 & SmCryptoV2Sm4 {
  const { engine } = api._internal
  const v2 = flavor === 'sm-crypto-v2'

  // hex (sm-crypto's: an odd length gets a leading 0) or bytes
  const hexOrBytes = (v: unknown, what: string): Uint8Array => {
    if (typeof v === 'string') return fromHex(v.length & 1 ? '0' + v : v, what)
    return bytes(v, what)
  }

  // sm-crypto's output 'array', a plain array of numbers: filled by index,
  // about 4x Array.from's rate on 16 KiB in V8 (which halved the SM4 rate)
  const numbers = (u8: Uint8Array): number[] => {
    const n = u8.length
    const a: number[] = new Array(n)
    for (let i = 0; i < n; i++) a[i] = u8[i]
    return a
  }

  function sm4 (data: unknown, key: unknown, cryptFlag: unknown, options?: Sm4Options): any {
    const o: Sm4Options = options === undefined || options === null ? {} : options
    if (typeof o !== 'object') fail('ARG', 'options must be an object')
    const enc = cryptFlag !== 0
    const { mode = 'ecb', output = 'string' } = o
    const k = hexOrBytes(key, 'key')
    if (k.length !== 16) fail('LENGTH', 'key is invalid: 128 bits')
    const input = typeof data === 'string' ? (enc ? utf8(data) : fromHex(data, 'data')) : bytes(data, 'data')
    const out = (u8: Uint8Array, isPlain: boolean): string | Uint8Array | number[] => {
      if (output === 'array') {
        if (v2) return u8
        const a = numbers(u8)
        if (isPlain) u8.fill(0)
        return a
      }
      if (isPlain) { const s = fromUtf8(u8); u8.fill(0); return s }
      return toHex(u8)
    }
    let h: KeyHandle
    try { h = engine.sm4Key(k) } finally { if (k !== key) k.fill(0) }
    try {
      if (mode === 'gcm') {
        if (!v2) fail('ARG', "mode must be 'ecb' or 'cbc' (GCM: fastsm2/sm-crypto-v2)")
        // sm-crypto-v2's default IV is 16 zero bytes
        const iv = o.iv === undefined || o.iv === null ? new Uint8Array(16) : hexOrBytes(o.iv, 'iv')
        const aad = o.associatedData ? hexOrBytes(o.associatedData, 'associatedData') : new Uint8Array(0)
        if (enc) {
          const sealed = engine.sm4AeadEncrypt(false, h, iv, aad, input, 16)
          const ct = sealed.subarray(0, sealed.length - 16)
          const tag = sealed.subarray(sealed.length - 16)
          if (output === 'array') return o.outputTag ? { output: ct, tag } : ct
          return { output: toHex(ct), tag: toHex(tag) }
        }
        if (o.tag === undefined || o.tag === null) fail('ARG', 'GCM decryption needs the tag (sm-crypto-v2 would decrypt without authenticating)')
        return out(engine.sm4AeadDecrypt(false, h, iv, aad, input, hexOrBytes(o.tag, 'tag')), true)
      }
      if (mode !== 'ecb' && mode !== 'cbc') fail('ARG', "mode must be 'ecb', 'cbc'" + (v2 ? " or 'gcm'" : ''))
      const pad = o.padding === undefined || o.padding === 'pkcs#7' || o.padding === 'pkcs#5' ? 1 : o.padding === 'none' || o.padding === null ? 0 : fail('ARG', "padding must be 'pkcs#7', 'pkcs#5' or 'none'")
      let result: Uint8Array
      if (mode === 'cbc') {
        // sm-crypto-v2's default IV is 16 zero bytes; sm-crypto requires one
        const iv = o.iv === undefined || o.iv === null ? (v2 ? new Uint8Array(16) : fail('IV', 'iv is invalid: CBC needs 16 bytes')) : hexOrBytes(o.iv, 'iv')
        if (iv.length !== 16) fail('IV', 'iv is invalid: 128 bits')
        result = engine.sm4Cbc(h, enc, pad, iv, input)
      } else if (pad === 0) {
        result = engine.sm4Ecb(h, enc, input)
      } else {
        const c = engine.sm4StreamInit(1, enc, 1, h, null)
        try {
          const a = engine.sm4StreamUpdate(c, input)
          const b = engine.sm4StreamFinal(c)
          result = new Uint8Array(a.length + b.length)
          result.set(a); result.set(b, a.length)
          a.fill(0); b.fill(0)
        } finally { engine.keyFree(c) }
      }
      return out(result, !enc)
    } finally {
      engine.keyFree(h)
    }
  }

  return {
    encrypt: (data: Data, key: unknown, options?: Sm4Options) => sm4(data, key, 1, options),
    decrypt: (data: Data, key: unknown, options?: Sm4Options) => sm4(data, key, 0, options),
    sm4: (data: Data, key: unknown, cryptFlag: 0 | 1, options?: Sm4Options) => sm4(data, key, cryptFlag, options)
  } as unknown as SmCryptoSm4 & SmCryptoV2Sm4
}
