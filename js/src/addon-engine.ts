// SPDX-License-Identifier: Apache-2.0
// The Node-API addon (src/addon.c) as an Engine (engine.ts): the addon's
// functions, declared here so that the compiler checks this engine against
// the interface the WebAssembly engine implements too.
import type { Engine, KeyHandle } from './engine.js'

/** The functions src/addon.c defines (its init()). */
export interface NativeAddon {
  setErrorClass (cls: new (status: number, code: string, message?: string) => Error): void
  version (): string
  backend (): string
  errorName (status: number): string
  keyFree (h: KeyHandle): void
  keyShare (h: KeyHandle): KeyHandle
  privGenerate (): KeyHandle
  privFromBytes (d: Uint8Array): KeyHandle
  privParse (file: Uint8Array, password: Uint8Array | null): KeyHandle
  privToBytes (h: KeyHandle): Uint8Array
  privSerialize (h: KeyHandle, format: number): Uint8Array
  privPub (h: KeyHandle): KeyHandle
  pubFromBytes (data: Uint8Array, parse: boolean): KeyHandle
  pubToBytes (h: KeyHandle, compressed: boolean): Uint8Array
  pubSerialize (h: KeyHandle, format: number): Uint8Array
  pubPrecompute (h: KeyHandle): void
  computeZ (h: KeyHandle, id: Uint8Array | null): Uint8Array
  sign (h: KeyHandle, id: Uint8Array | null, msg: Uint8Array): Uint8Array
  signDigest (h: KeyHandle, e: Uint8Array): Uint8Array
  signDigestWithNonce (h: KeyHandle, e: Uint8Array, k: Uint8Array): Uint8Array
  verify (h: KeyHandle, id: Uint8Array | null, msg: Uint8Array, sig: Uint8Array): number
  verifyDigest (h: KeyHandle, e: Uint8Array, sig: Uint8Array): number
  encrypt (h: KeyHandle, msg: Uint8Array, flags: number): Uint8Array
  encryptWithNonce (h: KeyHandle, msg: Uint8Array, flags: number, k: Uint8Array): Uint8Array
  decrypt (h: KeyHandle, ct: Uint8Array, flags: number): Uint8Array
  ecdh (h: KeyHandle, peer: Uint8Array): Uint8Array
  keyExchange (role: number, h: KeyHandle, id: Uint8Array | null, peer: KeyHandle, peerId: Uint8Array | null,
    r: Uint8Array, peerR: Uint8Array, klen: number): Uint8Array
  sigToDer (sig: Uint8Array): Uint8Array
  sigFromDer (der: Uint8Array): Uint8Array
  signDigestBatch (h: KeyHandle, digests: Uint8Array): Promise<Uint8Array>
  verifyDigestBatch (h: KeyHandle, digests: Uint8Array, sigs: Uint8Array): Promise<Uint8Array>
  sm3 (data: Uint8Array): Uint8Array
  hmac (key: Uint8Array, data: Uint8Array): Uint8Array
  kdf (z: Uint8Array, outlen: number): Uint8Array
  sm4Backend (): string
  sm4Key (raw: Uint8Array): KeyHandle
  sm4Ecb (h: KeyHandle, enc: boolean, data: Uint8Array): Uint8Array
  sm4Cbc (h: KeyHandle, enc: boolean, padding: number, iv: Uint8Array, data: Uint8Array): Uint8Array
  sm4Ctr (h: KeyHandle, iv: Uint8Array, data: Uint8Array): Uint8Array
  sm4AeadEncrypt (ccm: boolean, h: KeyHandle, iv: Uint8Array, aad: Uint8Array, data: Uint8Array, taglen: number): Uint8Array
  sm4AeadDecrypt (ccm: boolean, h: KeyHandle, iv: Uint8Array, aad: Uint8Array, data: Uint8Array, tag: Uint8Array): Uint8Array
  sm4Xts (h1: KeyHandle, h2: KeyHandle, standard: number, enc: boolean, tweak: Uint8Array, data: Uint8Array): Uint8Array
  sm4StreamInit (mode: number, enc: boolean, padding: number, h: KeyHandle, iv: Uint8Array | null): KeyHandle
  sm4StreamUpdate (ctx: KeyHandle, data: Uint8Array): Uint8Array
  sm4StreamFinal (ctx: KeyHandle): Uint8Array
  sm4GcmInit (enc: boolean, h: KeyHandle, iv: Uint8Array): KeyHandle
  sm4GcmAad (ctx: KeyHandle, aad: Uint8Array): void
  sm4GcmUpdate (ctx: KeyHandle, data: Uint8Array): Uint8Array
  sm4GcmFinal (ctx: KeyHandle, tagOrLength: number | Uint8Array): Uint8Array | undefined
}

/** The addon's functions are the engine's, bound once; keys are freed by
 *  the addon's own finalizers (track does nothing). */
export function addonEngine (native: NativeAddon, file: string): Engine & { readonly file: string } {
  const n = native
  return {
    name: 'addon',
    file,
    batchChunk: 65536,
    version: n.version,
    backend: n.backend,
    errorName: n.errorName,
    track () {},
    keyFree: n.keyFree,
    keyShare: n.keyShare,
    privGenerate: n.privGenerate,
    privFromBytes: n.privFromBytes,
    privParse: n.privParse,
    privToBytes: n.privToBytes,
    privSerialize: n.privSerialize,
    privPub: n.privPub,
    pubFromBytes: n.pubFromBytes,
    pubToBytes: n.pubToBytes,
    pubSerialize: n.pubSerialize,
    pubPrecompute: n.pubPrecompute,
    computeZ: n.computeZ,
    sign: n.sign,
    signDigest: n.signDigest,
    signDigestWithNonce: n.signDigestWithNonce,
    verify: n.verify,
    verifyDigest: n.verifyDigest,
    encrypt: n.encrypt,
    encryptWithNonce: n.encryptWithNonce,
    decrypt: n.decrypt,
    ecdh: n.ecdh,
    keyExchange: n.keyExchange,
    sigToDer: n.sigToDer,
    sigFromDer: n.sigFromDer,
    signDigestBatch: n.signDigestBatch,
    verifyDigestBatch: n.verifyDigestBatch,
    sm3: n.sm3,
    hmac: n.hmac,
    kdf: n.kdf,
    sm4Backend: n.sm4Backend,
    sm4Key: n.sm4Key,
    sm4Ecb: n.sm4Ecb,
    sm4Cbc: n.sm4Cbc,
    sm4Ctr: n.sm4Ctr,
    sm4AeadEncrypt: n.sm4AeadEncrypt,
    sm4AeadDecrypt: n.sm4AeadDecrypt,
    sm4Xts: n.sm4Xts,
    sm4StreamInit: n.sm4StreamInit,
    sm4StreamUpdate: n.sm4StreamUpdate,
    sm4StreamFinal: n.sm4StreamFinal,
    sm4GcmInit: n.sm4GcmInit,
    sm4GcmAad: n.sm4GcmAad,
    sm4GcmUpdate: n.sm4GcmUpdate,
    sm4GcmFinal: n.sm4GcmFinal
  }
}
