// SPDX-License-Identifier: Apache-2.0
// sm-crypto's and sm-crypto-v2's APIs (names, arguments, hex and string
// conventions, outputs) over libfastsm2, so that migrating is changing the
// import: fastsm2/sm-crypto is sm-crypto 0.5.x, fastsm2/sm-crypto-v2 is
// sm-crypto-v2 1.15.x. Written from their documentation, type declarations
// and observed behaviour; the tests check every function against both
// packages in both directions.
//
// Conventions kept: keys are hex (private: the integer d, written as 64
// digits, read from any number of digits; public '04'||x||y or 02/03||x), strings are UTF-8, ciphertexts are hex WITHOUT the 04 prefix of
// C1, cipherMode 1 = C1C3C2 (default), 0 = C1C2C3; doSignature and
// doVerifySignature hash with Z_A by default in sm-crypto (hash: true) and
// not in sm-crypto-v2 (hash: false); doDecrypt returns '' (or [] with
// output: 'array') when the ciphertext does not decrypt.
// Differences (docs/JS.md lists them): malformed hex and wrong argument
// types throw FastSM2Error; an empty message cannot be encrypted; doDecrypt
// also takes a ciphertext that keeps the 04 prefix; keys from a seed follow
// sm-crypto 0.5.8 (sm-crypto-v2 1.15.1 turns every seed into the private key
// 1: refused in fastsm2/sm-crypto-v2).
import { FastSM2Error, fail } from './errors.js'
import { toHex, fromHex, utf8, fromUtf8, bytes, opts, concat } from './bytes.js'
import { digestOfInteger, N, type Api, type PublicKey } from './api.js'
import type { KeyHandle } from './engine.js'
import { makeSmCryptoSm4, type SmCryptoSm4, type SmCryptoV2Sm4 } from './smcrypto-sm4.js'

/** 'sm-crypto' (0.5.x) or 'sm-crypto-v2' (1.15.x). */
export type Flavor = 'sm-crypto' | 'sm-crypto-v2'

export interface KeyPair { privateKey: string, publicKey: string }
/** What getPoint returns: a key pair, k its private key and x1 the x of kG. */
export interface SignaturePoint { k: bigint, x1: bigint }
export type Point = KeyPair & SignaturePoint
/** A point of a pointPool: k as a bigint (sm-crypto-v2), a jsbn BigInteger (sm-crypto), a hex string or a number. */
export interface PoolPoint { k: bigint | number | string | { toString (radix: number): string }, x1?: unknown }
/** sm-crypto's random source for generateKeyPairHex(bits, rng). */
export interface Rng { nextBytes (array: number[]): void }
type Msg = string | Uint8Array | number[] | ArrayBufferView

/** A public key with its precomputed tables (precomputePublicKey), taken
 *  where a public key is: doEncrypt, doVerifySignature. */
export interface PrecomputedPublicKey {
  /** SEC1 hex, compressed unless isCompressed is false (as a noble point). */
  toHex (isCompressed?: boolean): string
  toRawBytes (isCompressed?: boolean): Uint8Array
  readonly x: bigint
  readonly y: bigint
  readonly publicKey: PublicKey
}
/** A public key as hex, a precomputed one, or a point with toHex(false) (sm-crypto-v2's). */
export type PublicKeyInput = string | PrecomputedPublicKey | { toHex (isCompressed?: boolean): string }

export interface SignOptions { pointPool?: PoolPoint[], der?: boolean, hash?: boolean, publicKey?: string, userId?: string }
export interface VerifyOptions { der?: boolean, hash?: boolean, userId?: string }

interface Sm2Common {
  doEncrypt (msg: Msg, publicKey: PublicKeyInput, cipherMode?: number, options?: { asn1?: boolean }): string
  doSignature (msg: Msg, privateKey: string, options?: SignOptions): string
  doVerifySignature (msg: Msg, signHex: string, publicKey: PublicKeyInput, options?: VerifyOptions): boolean
  getPublicKeyFromPrivateKey (privateKey: string): string
  compressPublicKeyHex (publicKey: string): string
  verifyPublicKey (publicKey: string): boolean
  comparePublicKeyHex (a: string, b: string): boolean
  getHash (hashHex: string | Uint8Array, publicKey: string, userId?: string): string
  getZ (publicKey: string, userId?: string): Uint8Array
  /** A key pair, k = its private key and x1 = x(kG), for doSignature's pointPool. */
  getPoint (): Point
  precomputePublicKey (publicKey: string, windowSize?: number): PrecomputedPublicKey
  /** sm-crypto-v2's key agreement (GB/T 32918.3, no confirmation): sharedKeyLength bytes. */
  calculateSharedKey (keypairA: KeyPair, ephemeralKeypairA: KeyPair, publicKeyB: string, ephemeralPublicKeyB: string,
    sharedKeyLength: number, isRecipient?: boolean, idA?: string, idB?: string): Uint8Array
  /** [privateA] publicB as a SEC1 point, compressed unless isCompressed is false (sm-crypto-v2's ecdh). */
  ecdh (privateA: string | Uint8Array | bigint, publicB: string | Uint8Array, isCompressed?: boolean): Uint8Array
  /** Nothing to do here: randomness comes from crypto.getRandomValues or the OS. */
  initRNGPool (): Promise<void>
  readonly EmptyArray: Uint8Array
  utf8ToHex (s: string): string
  arrayToHex (a: number[] | Uint8Array): string
  arrayToUtf8 (a: number[] | Uint8Array): string
  leftPad (s: string, n: number): string
  /** Wipe the keys kept from earlier calls (at most 8 private and 8 public). */
  clearKeyCache (): void
}

export interface Sm2 extends Sm2Common {
  /** A random key pair; (bits, rng) as sm-crypto's README; (seed, radix) a key from a number. */
  generateKeyPairHex (a?: number | string, b?: Rng | number, c?: unknown): KeyPair
  /** '' (or [] with output: 'array') when the ciphertext does not decrypt. */
  doDecrypt (encryptData: string, privateKey: string, cipherMode?: number, options?: { output?: 'string', asn1?: boolean }): string
  doDecrypt (encryptData: string, privateKey: string, cipherMode: number, options: { output: 'array', asn1?: boolean }): number[]
  hexToArray (s: string): number[]
}

export interface Sm2V2 extends Sm2Common {
  generateKeyPairHex (a?: number, b?: Rng): KeyPair
  doDecrypt (encryptData: string, privateKey: string, cipherMode?: number, options?: { output?: 'string', asn1?: boolean }): string
  doDecrypt (encryptData: string, privateKey: string, cipherMode: number, options: { output: 'array', asn1?: boolean }): Uint8Array
  hexToArray (s: string): Uint8Array
}

export interface Sm3Fn {
  /** SM3 hex digest; with { key } HMAC-SM3 (key hex or bytes). */
  (input: string | Uint8Array | number[], options?: { key: string | Uint8Array | number[], mode?: 'hmac' }): string
}

export interface SmCrypto {
  sm2: Sm2
  sm3: Sm3Fn
  sm4: SmCryptoSm4
  /** GM/T 0003's KDF: SM3(z || ct || iv) blocks, keylen bytes (sm-crypto-v2's kdf). */
  kdf (z: string | Uint8Array, keylen: number, iv?: string | Uint8Array): Uint8Array
  /** HKDF (RFC 5869) with HMAC-SM3 (sm-crypto-v2's hkdf). */
  hkdf (ikm: string | Uint8Array, salt: string | Uint8Array | undefined, info: string | Uint8Array | undefined, length: number): Uint8Array
  FastSM2Error: typeof FastSM2Error
  engine: 'addon' | 'wasm'
}

export interface SmCryptoV2 extends Omit<SmCrypto, 'sm2' | 'sm4'> {
  sm2: Sm2V2
  sm4: SmCryptoV2Sm4
}

const C1C2C3 = 0
const DEFAULT_ID = '1234567812345678'
const P = 0xfffffffeffffffffffffffffffffffffffffffff00000000ffffffffffffffffn

function str (s: unknown, what: string): string {
  if (typeof s !== 'string') fail('ARG', what + ' must be a string')
  return s
}

// jsbn's BigInteger(string, radix) in strict form: digits of the radix, a
// leading '-' allowed.
function parseBigInt (s: string, radix: number): bigint {
  if (!Number.isInteger(radix) || radix < 2 || radix > 36) fail('ARG', 'radix must be 2 to 36')
  const neg = s.startsWith('-')
  const body = neg ? s.slice(1) : s
  if (!body.length) fail('ARG', 'seed is empty')
  let v = 0n
  const R = BigInt(radix)
  for (const ch of body.toLowerCase()) {
    const d = parseInt(ch, 36)
    if (!(d < radix)) fail('ARG', 'seed has a digit outside radix ' + radix)
    v = v * R + BigInt(d)
  }
  return neg ? -v : v
}

// A private key in hex is the integer d, as sm-crypto 0.5.8 (and OpenSSL's
// BN_hex2bn) read it: any number of digits, odd or even, leading zeros not
// counted ('abc', '0abc' and 61 zeros + 'abc' are one key); more than 64
// significant digits is d >= 2^256 > n. One rule for every length, in both
// modules and for every private key they take (keys, ECDH, ephemeral keys).
function privBytes (hex: unknown, what = 'private key'): Uint8Array {
  if (typeof hex !== 'string') fail('ARG', what + ' must be a hex string')
  if (!/^[0-9a-fA-F]+$/.test(hex)) fail('ARG', what + ' is not hex')
  let i = 0
  while (i < hex.length - 1 && hex.charCodeAt(i) === 48) i++
  const sig = hex.slice(i)
  if (sig.length > 64) fail('PRIVATE_KEY', what + ' of ' + sig.length + ' significant hex digits, more than 256 bits')
  return fromHex(sig.padStart(64, '0'), what)
}

const to32 = (v: bigint): Uint8Array => fromHex(v.toString(16).padStart(64, '0'))
const bigOf = (u8: Uint8Array): bigint => BigInt('0x' + (toHex(u8) || '0'))

// A pointPool point's k as a bigint.
function kOf (k: unknown): bigint {
  if (typeof k === 'bigint') return k
  if (typeof k === 'number' && Number.isSafeInteger(k)) return BigInt(k)
  if (typeof k === 'string') return parseBigInt(k, 16)
  if (k && typeof (k as { toString?: unknown }).toString === 'function') {
    const h = (k as { toString (r: number): string }).toString(16) // jsbn's BigInteger
    if (typeof h === 'string' && /^-?[0-9a-f]+$/i.test(h)) return parseBigInt(h, 16)
  }
  return fail('ARG', 'a pointPool point has no usable k')
}

// DER of GM/T 0009's SEQUENCE { INTEGER, INTEGER, OCTET STRING, OCTET STRING }
// with the two strings swapped (sm-crypto-v2's asn1 with cipherMode 0 puts
// C2 before C3): the same bytes as the library's DER but for that order.
function derLen (n: number): number[] { return n < 128 ? [n] : n < 256 ? [0x81, n] : n < 65536 ? [0x82, n >> 8, n & 255] : [0x83, n >> 16, (n >> 8) & 255, n & 255] }
function derSwapStrings (der: Uint8Array): Uint8Array | null {
  let i = 0
  const tlv = (): [number, number, number] | null => { // tag, start of value, length
    if (i + 2 > der.length) return null
    const tag = der[i++]
    let len = der[i++]
    if (len & 0x80) {
      const k = len & 0x7f
      if (k < 1 || k > 3 || i + k > der.length) return null
      len = 0
      for (let j = 0; j < k; j++) len = (len << 8) | der[i++]
    }
    const start = i
    if (start + len > der.length) return null
    return [tag, start, len]
  }
  const seq = tlv()
  if (!seq || seq[0] !== 0x30 || seq[1] + seq[2] !== der.length) return null
  const parts: Array<[number, number, number]> = []
  for (let k = 0; k < 4; k++) {
    const t = tlv()
    if (!t) return null
    parts.push(t)
    i = t[1] + t[2]
  }
  if (i !== der.length || parts[0][0] !== 2 || parts[1][0] !== 2 || parts[2][0] !== 4 || parts[3][0] !== 4) return null
  const enc = (t: [number, number, number]): number[] => [t[0], ...derLen(t[2]), ...der.subarray(t[1], t[1] + t[2])]
  const body = [...enc(parts[0]), ...enc(parts[1]), ...enc(parts[3]), ...enc(parts[2])]
  return Uint8Array.from([0x30, ...derLen(body.length), ...body])
}

class PrecomputedImpl implements PrecomputedPublicKey {
  readonly publicKey: PublicKey
  private readonly hex: string
  constructor (pub: PublicKey) {
    this.publicKey = pub
    this.hex = pub.toHex()
  }

  toHex (isCompressed = true): string { return isCompressed ? this.publicKey.toHex({ compressed: true }) : this.hex }
  toRawBytes (isCompressed = true): Uint8Array { return this.publicKey.toBytes({ compressed: isCompressed }) }
  get x (): bigint { return BigInt('0x' + this.hex.slice(2, 66)) }
  get y (): bigint { return BigInt('0x' + this.hex.slice(66)) }
}

function make (api: Api, flavor: Flavor): SmCrypto | SmCryptoV2 {
  const { engine } = api._internal
  const v2 = flavor === 'sm-crypto-v2'
  const hashDefault = !v2

  // Keys loaded from hex are kept in two small caches (most applications
  // use a handful of keys): loading a private key costs about as much as a
  // signature. Evicted keys are wiped at once; clearKeyCache() wipes all.
  const CACHE_MAX = 8
  interface PrivEntry { handle: KeyHandle, ownPub: string | null }
  interface PubEntry { handle: KeyHandle, uses: number }
  const privCache = new Map<string, PrivEntry>()
  const pubCache = new Map<string, PubEntry>()
  let lastPrivHex = ''
  let lastPriv: PrivEntry | null = null
  let lastPubHex = ''
  let lastPub: PubEntry | null = null

  function evict<T extends { handle: KeyHandle }> (cache: Map<string, T>): void {
    if (cache.size <= CACHE_MAX) return
    const [oldKey, old] = cache.entries().next().value as [string, T]
    cache.delete(oldKey)
    engine.keyFree(old.handle)
  }

  function privEntry (hex: unknown): PrivEntry {
    if (hex === lastPrivHex && lastPriv) return lastPriv
    if (typeof hex !== 'string') fail('ARG', 'private key must be a hex string')
    let e = privCache.get(hex)
    if (e) {
      privCache.delete(hex)
      privCache.set(hex, e)
    } else {
      const d = privBytes(hex)
      try {
        e = { handle: engine.privFromBytes(d), ownPub: null }
      } finally {
        d.fill(0)
      }
      privCache.set(hex, e)
      evict(privCache)
    }
    lastPrivHex = hex
    lastPriv = e
    return e
  }
  const privHandle = (hex: unknown): KeyHandle => privEntry(hex).handle

  function ownPublicHex (e: PrivEntry): string {
    if (e.ownPub === null) {
      const p = engine.privPub(e.handle)
      try { e.ownPub = toHex(engine.pubToBytes(p, false)) } finally { engine.keyFree(p) }
    }
    return e.ownPub
  }

  function pubEntry (hex: unknown): PubEntry {
    if (hex === lastPubHex && lastPub) {
      if (lastPub.uses < 3 && ++lastPub.uses === 3) engine.pubPrecompute(lastPub.handle)
      return lastPub
    }
    if (typeof hex !== 'string') fail('ARG', 'public key must be a hex string')
    let e = pubCache.get(hex)
    if (e) {
      pubCache.delete(hex)
      pubCache.set(hex, e)
    } else {
      e = { handle: engine.pubFromBytes(fromHex(hex, 'public key'), false), uses: 0 }
      pubCache.set(hex, e)
      evict(pubCache)
    }
    if (e.uses < 3 && ++e.uses === 3) engine.pubPrecompute(e.handle) // worth it for a key used again and again
    lastPubHex = hex
    lastPub = e
    return e
  }

  // A public key as sm-crypto takes it: hex, or a point object
  function pubHandle (pk: unknown): KeyHandle {
    if (typeof pk === 'string') return pubEntry(pk).handle
    if (pk instanceof PrecomputedImpl) return api._internal.handleOf(pk.publicKey)
    if (pk && typeof (pk as { toHex?: unknown }).toHex === 'function') return pubEntry((pk as { toHex (c: boolean): string }).toHex(false)).handle
    return fail('ARG', 'public key must be a hex string or a point')
  }

  function tryPub (pk: unknown): KeyHandle | null {
    try { return pubHandle(pk) } catch (e) { if (e instanceof FastSM2Error) return null; throw e }
  }

  function clearKeyCache (): void {
    for (const c of [privCache, pubCache] as Array<Map<string, { handle: KeyHandle }>>) {
      for (const e of c.values()) engine.keyFree(e.handle)
      c.clear()
    }
    lastPriv = lastPub = null
    lastPrivHex = lastPubHex = ''
  }

  const msgBytes = (msg: unknown): Uint8Array => typeof msg === 'string' ? utf8(msg) : bytes(msg, 'message')
  const idOf = (userId: unknown): Uint8Array | null => userId === undefined || userId === null ? null : utf8(String(userId))

  function keyPairOf (h: KeyHandle): KeyPair {
    const p = engine.privPub(h)
    try {
      const d = engine.privToBytes(h)
      const out = { privateKey: toHex(d), publicKey: toHex(engine.pubToBytes(p, false)) }
      d.fill(0)
      return out
    } finally {
      engine.keyFree(p)
    }
  }

  // d = x mod (n - 1) + 1, as sm-crypto 0.5.8 makes a key of a number
  function keyOfNumber (x: bigint): KeyHandle {
    const m = N - 1n
    const d = to32((((x % m) + m) % m) + 1n)
    try { return engine.privFromBytes(d) } finally { d.fill(0) }
  }

  function generateKeyPairHex (a?: unknown, b?: unknown, c?: unknown): KeyPair {
    void c
    let h: KeyHandle
    if (a === undefined || a === null || a === '' || a === 0) {
      h = engine.privGenerate()
    } else if (typeof a === 'number' && b && typeof (b as Rng).nextBytes === 'function') {
      // jsbn's BigInteger(bits, rng): (bits >> 3) + 1 bytes from rng, the
      // first masked to bits & 7 bits
      if (!Number.isSafeInteger(a) || a < 1 || a > 8192) fail('ARG', 'bits must be 1 to 8192')
      const arr: number[] = new Array((a >> 3) + 1).fill(0)
      ;(b as Rng).nextBytes(arr)
      const t = a & 7
      arr[0] = t > 0 ? arr[0] & ((1 << t) - 1) : 0
      const u8 = Uint8Array.from(arr, (v) => Number(v) & 255)
      arr.fill(0)
      h = keyOfNumber(bigOf(u8))
      u8.fill(0)
    } else if (typeof a === 'string' && !v2) {
      h = keyOfNumber(parseBigInt(a, b === undefined || b === null ? 10 : Number(b)))
    } else if (typeof a === 'string' || typeof a === 'number') {
      return fail('UNSUPPORTED', v2
        ? 'generateKeyPairHex(seed): sm-crypto-v2 1.15.1 makes the private key 1 of every seed'
        : 'generateKeyPairHex(bits, certainty): jsbn probable primes')
    } else {
      return fail('ARG', 'generateKeyPairHex takes (), (bits, rng) or (seed, radix)')
    }
    try { return keyPairOf(h) } finally { engine.keyFree(h) }
  }

  function getPoint (): Point {
    const kp = generateKeyPairHex()
    return { ...kp, k: BigInt('0x' + kp.privateKey), x1: BigInt('0x' + kp.publicKey.slice(2, 66)) }
  }

  function getPublicKeyFromPrivateKey (privateKey: unknown): string { return ownPublicHex(privEntry(privateKey)) }

  function compressPublicKeyHex (s: unknown): string {
    if (typeof s !== 'string' || s.length !== 130) fail('ARG', 'Invalid public key to compress')
    const odd = parseInt(s[129], 16) & 1
    if (Number.isNaN(odd)) fail('ARG', 'Invalid public key to compress')
    return (odd ? '03' : '02') + s.substr(2, 64)
  }

  function verifyPublicKey (publicKey: unknown): boolean { return typeof publicKey === 'string' && tryPub(publicKey) !== null }

  function comparePublicKeyHex (a: unknown, b: unknown): boolean {
    const ha = tryPub(a)
    if (ha === null) return false
    const A = toHex(engine.pubToBytes(ha, false))
    const hb = tryPub(b)
    if (hb === null) return false
    return A === toHex(engine.pubToBytes(hb, false))
  }

  function cipherFlags (cipherMode: unknown): number {
    if (cipherMode === undefined || cipherMode === null) return 1
    if (typeof cipherMode !== 'number') fail('ARG', 'cipherMode must be 0 or 1')
    return cipherMode === C1C2C3 ? 3 : 1
  }

  function doEncrypt (msg: unknown, publicKey: unknown, cipherMode: unknown = 1, options?: { asn1?: boolean }): string {
    const { asn1 } = opts(options)
    const flags = cipherFlags(cipherMode)
    const pub = pubHandle(publicKey)
    const m = msgBytes(msg)
    if (asn1) {
      const der = engine.encrypt(pub, m, 0)
      return toHex(flags === 3 ? derSwapStrings(der)! : der)
    }
    return toHex(engine.encrypt(pub, m, flags).subarray(1)) // no 04 prefix, as sm-crypto
  }

  function doDecrypt (encryptData: unknown, privateKey: unknown, cipherMode: unknown = 1, options?: { output?: 'string' | 'array', asn1?: boolean }): string | number[] | Uint8Array {
    const { output = 'string', asn1 = false } = opts(options)
    const flags = cipherFlags(cipherMode)
    const key = privHandle(privateKey)
    const ct = fromHex(encryptData, 'ciphertext')
    const attempt = (buf: Uint8Array, f: number): Uint8Array | null => {
      try { return engine.decrypt(key, buf, f) } catch (e) { if (e instanceof FastSM2Error) return null; throw e }
    }
    let msg: Uint8Array | null
    if (asn1) {
      const std = flags === 3 ? derSwapStrings(ct) : ct
      msg = std ? attempt(std, 0) : null
    } else {
      const with04 = new Uint8Array(ct.length + 1)
      with04[0] = 4
      with04.set(ct, 1)
      msg = attempt(with04, flags)
      with04.fill(0)
      // a ciphertext that kept its 04 prefix (Java, OpenSSL raw): the C3
      // check makes a false match impossible
      if (msg === null && ct[0] === 4) msg = attempt(ct, flags)
    }
    if (msg === null) return output === 'array' ? [] : ''
    if (output === 'array') {
      if (v2) return msg
      const arr = Array.from(msg)
      msg.fill(0)
      return arr
    }
    const s = fromUtf8(msg)
    msg.fill(0)
    return s
  }

  function doSignature (msg: unknown, privateKey: unknown, options?: SignOptions): string {
    const { pointPool, der, hash = hashDefault, publicKey, userId } = opts(options)
    const entry = privEntry(privateKey)
    const key = entry.handle
    const m = msgBytes(msg)
    let e: Uint8Array | null = null // the digest, unless the library hashes with the key's own Z_A
    if (!hash) {
      e = digestOfInteger(m)
    } else if (publicKey !== undefined && publicKey !== null && publicKey !== '') {
      // Z_A of the public key given (sm-crypto hashes that one, even if it
      // is not the key's own); the key's own: the library's cached Z_A
      const own = ownPublicHex(entry)
      if (typeof publicKey !== 'string' || (publicKey !== own && publicKey.toLowerCase() !== own)) {
        e = engine.sm3(concat([engine.computeZ(pubHandle(publicKey), idOf(userId)), m]))
      }
    }
    let sig: Uint8Array | null = null
    if (pointPool && Array.isArray(pointPool)) {
      if (e === null) e = engine.sm3(concat([engine.computeZ(pubHandle(ownPublicHex(entry)), idOf(userId)), m]))
      while (sig === null && pointPool.length) {
        const point = pointPool.pop() as PoolPoint
        const k = to32(kOf(point && point.k))
        try {
          sig = engine.signDigestWithNonce(key, e, k)
        } catch (err) {
          if (!(err instanceof FastSM2Error)) throw err // k out of range, r = 0 or r + k = n: the next point, as sm-crypto
        } finally {
          k.fill(0)
        }
      }
    }
    if (sig === null) sig = e === null ? engine.sign(key, idOf(userId), m) : engine.signDigest(key, e)
    return toHex(der ? engine.sigToDer(sig) : sig)
  }

  function doVerifySignature (msg: unknown, signHex: unknown, publicKey: unknown, options?: VerifyOptions): boolean {
    const { der, hash = hashDefault, userId } = opts(options)
    const pub = tryPub(publicKey)
    if (pub === null) return false
    let sig: Uint8Array
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

  function getZ (publicKey: unknown, userId?: unknown): Uint8Array {
    return engine.computeZ(pubHandle(publicKey), utf8(userId === undefined ? DEFAULT_ID : str(userId, 'userId')))
  }

  function getHash (hashHex: unknown, publicKey: unknown, userId?: unknown): string {
    const m = typeof hashHex === 'string' ? fromHex(hashHex, 'message') : bytes(hashHex, 'message')
    return toHex(engine.sm3(concat([getZ(publicKey, userId), m])))
  }

  function precomputePublicKey (publicKey: unknown, windowSize?: unknown): PrecomputedPublicKey {
    void windowSize // the library's tables have one size
    const p = api.PublicKey.fromHex(str(publicKey, 'public key'))
    return new PrecomputedImpl(p.precompute())
  }

  function ecdh (privateA: unknown, publicB: unknown, isCompressed = true): Uint8Array {
    // the private key: hex, bytes or a bigint (noble's PrivKey)
    let d: Uint8Array
    if (typeof privateA === 'bigint') d = to32(privateA)
    else if (typeof privateA === 'string') d = privBytes(privateA)
    else d = Uint8Array.from(bytes(privateA, 'private key'))
    let key: KeyHandle
    try { key = engine.privFromBytes(d) } finally { d.fill(0) }
    const peer = typeof publicB === 'string' ? fromHex(publicB, 'public key') : bytes(publicB, 'public key')
    const peerKey = engine.pubFromBytes(peer, false)
    try {
      const x = engine.ecdh(key, peer)
      // y's parity: fastsm2_ecdh gives x only. An encryption to the peer with
      // k = d makes (x2, y2) = [d]P and C3 = SM3(x2 || M || y2): of the two
      // points with this x, the one whose C3 matches is [d]P.
      const dk = engine.privToBytes(key)
      let ct: Uint8Array
      const M = new Uint8Array(32)
      try { ct = engine.encryptWithNonce(peerKey, M, 1, dk) } finally { dk.fill(0) }
      const even = engine.pubFromBytes(concat([Uint8Array.of(2), x]), false)
      let point: Uint8Array
      try { point = engine.pubToBytes(even, false) } finally { engine.keyFree(even) }
      const c3 = toHex(ct.subarray(65, 97))
      const evenMatches = toHex(engine.sm3(concat([x, M, point.subarray(33)]))) === c3
      ct.fill(0)
      if (!evenMatches) {
        const odd = engine.pubFromBytes(concat([Uint8Array.of(3), x]), false)
        try { point = engine.pubToBytes(odd, false) } finally { engine.keyFree(odd) }
      }
      if (!isCompressed) return point
      const out = concat([Uint8Array.of(evenMatches ? 2 : 3), x])
      point.fill(0)
      return out
    } finally {
      engine.keyFree(key)
      engine.keyFree(peerKey)
    }
  }

  function calculateSharedKey (keypairA: KeyPair, ephemeralKeypairA: KeyPair, publicKeyB: string, ephemeralPublicKeyB: string,
    sharedKeyLength: number, isRecipient = false, idA = DEFAULT_ID, idB = DEFAULT_ID): Uint8Array {
    if (!keypairA || !ephemeralKeypairA) fail('ARG', 'key pairs must be { privateKey, publicKey }')
    if (!Number.isSafeInteger(sharedKeyLength) || sharedKeyLength < 1) fail('LENGTH', 'sharedKeyLength must be a positive integer')
    const r = privBytes(ephemeralKeypairA.privateKey, 'ephemeral private key')
    try {
      return engine.keyExchange(isRecipient ? 1 : 0, privHandle(keypairA.privateKey), utf8(str(idA, 'idA')),
        pubHandle(publicKeyB), utf8(str(idB, 'idB')), r, fromHex(ephemeralPublicKeyB, 'ephemeral public key'), sharedKeyLength)
    } finally {
      r.fill(0)
    }
  }

  function sm3 (input: unknown, options?: { key?: unknown, mode?: string }): string {
    const data = typeof input === 'string' ? utf8(input) : bytes(input, 'input')
    if (options !== undefined && options !== null) {
      const { mode = 'hmac', key } = opts(options)
      if (mode !== 'hmac') fail('ARG', 'invalid mode')
      if (!key) fail('ARG', 'invalid key')
      const k = typeof key === 'string' ? fromHex(key.length & 1 ? '0' + key : key, 'key') : bytes(key, 'key')
      return toHex(engine.hmac(k, data))
    }
    return toHex(engine.sm3(data))
  }

  const input = (v: unknown, what: string): Uint8Array => typeof v === 'string' ? utf8(v) : bytes(v, what)

  function kdf (z: unknown, keylen: unknown, iv?: unknown): Uint8Array {
    if (!Number.isSafeInteger(keylen) || (keylen as number) < 0) fail('ARG', 'keylen must be a non-negative integer')
    const zb = input(z, 'z')
    const n = keylen as number
    if (iv === undefined || iv === null) return engine.kdf(zb, n)
    const ivb = input(iv, 'iv')
    const out = new Uint8Array(n)
    const ct = new Uint8Array(4)
    for (let i = 0, c = 1; i < n; i += 32, c++) {
      new DataView(ct.buffer).setUint32(0, c)
      const t = engine.sm3(concat([zb, ct, ivb]))
      out.set(t.subarray(0, Math.min(32, n - i)), i)
    }
    return out
  }

  function hkdf (ikm: unknown, salt: unknown, info: unknown, length: unknown): Uint8Array {
    if (!Number.isSafeInteger(length) || (length as number) < 0 || (length as number) > 255 * 32) fail('ARG', 'length must be 0 to 8160')
    const prk = engine.hmac(salt === undefined || salt === null ? new Uint8Array(32) : input(salt, 'salt'), input(ikm, 'ikm'))
    const inf = info === undefined || info === null ? new Uint8Array(0) : input(info, 'info')
    const n = length as number
    const out = new Uint8Array(n)
    let t: Uint8Array = new Uint8Array(0)
    for (let i = 0, c = 1; i < n; i += 32, c++) {
      t = engine.hmac(prk, concat([t, inf, Uint8Array.of(c)]))
      out.set(t.subarray(0, Math.min(32, n - i)), i)
    }
    prk.fill(0)
    t.fill(0)
    return out
  }

  const utf8ToHex = (s: unknown): string => toHex(utf8(str(s, 'input')))
  const arrayToHex = (arr: unknown): string => toHex(bytes(arr, 'array'))
  const arrayToUtf8 = (arr: unknown): string => fromUtf8(bytes(arr, 'array'))
  const hexToArray = (s: unknown): number[] | Uint8Array => {
    str(s, 'hex')
    const u = fromHex((s as string).length & 1 ? '0' + (s as string) : s, 'hex')
    return v2 ? Uint8Array.from(u) : Array.from(u)
  }
  const leftPad = (s: unknown, n: unknown): string => {
    if (!Number.isSafeInteger(n) || (n as number) < 0) fail('ARG', 'length must be a non-negative integer')
    return str(s, 'input').padStart(n as number, '0')
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
    getPoint,
    precomputePublicKey,
    calculateSharedKey,
    ecdh,
    initRNGPool: async (): Promise<void> => {},
    EmptyArray: new Uint8Array(0),
    utf8ToHex,
    arrayToHex,
    arrayToUtf8,
    hexToArray,
    leftPad,
    clearKeyCache
  }
  return {
    sm2: sm2 as unknown as Sm2 & Sm2V2,
    sm3: sm3 as Sm3Fn,
    sm4: makeSmCryptoSm4(api, flavor) as SmCryptoSm4 & SmCryptoV2Sm4,
    kdf: kdf as SmCrypto['kdf'],
    hkdf: hkdf as SmCrypto['hkdf'],
    FastSM2Error,
    engine: api.engine
  }
}

/** sm-crypto 0.5.x's API over a fastsm2 API object. */
export function makeSmCrypto (api: Api): SmCrypto { return make(api, 'sm-crypto') as SmCrypto }
/** sm-crypto-v2 1.15.x's API over a fastsm2 API object. */
export function makeSmCryptoV2 (api: Api): SmCryptoV2 { return make(api, 'sm-crypto-v2') as SmCryptoV2 }
