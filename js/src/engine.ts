// SPDX-License-Identifier: Apache-2.0
// The engine interface: what lib's APIs (api.ts, sm4.ts, smcrypto.ts) need
// from the C library, implemented by the Node-API addon (addon-engine.ts)
// and by the WebAssembly build (wasm-engine.ts). Every call is a call of
// include/fastsm2.h; the engines differ in how bytes reach C memory.
//
// Conventions: inputs and outputs are Uint8Array; an engine throws a
// FastSM2Error for a negative status, except verify*, which return the
// status (1 for a valid signature); ids are null for the key's own ID.

/** An engine's handle of a key in C memory: an SM2 private or public key,
 *  an SM4 key, an SM4 or SM4-GCM streaming context (opaque). */
export interface KeyHandle { readonly __fastsm2Key: unique symbol }

/** fastsm2_encrypt/decrypt flags: FASTSM2_CT_RAW = 1, FASTSM2_CT_C1C2C3 = 2. */
export type CiphertextFlags = number

export interface Engine {
  readonly name: 'addon' | 'wasm'
  /** Items per engine call of a batch (api.ts splits batches). */
  readonly batchChunk: number
  version (): string
  backend (): string
  /** fastsm2_error_name. */
  errorName (status: number): string

  // ---- keys (the last handle of a key wipes and frees it) -----------------
  /** The key dies with owner when the garbage collector takes owner. */
  track (owner: object, h: KeyHandle): void
  keyFree (h: KeyHandle): void
  /** A second handle of the same key, for a batch while it runs. */
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

  // ---- SM2 -----------------------------------------------------------------
  computeZ (h: KeyHandle, id: Uint8Array | null): Uint8Array
  sign (h: KeyHandle, id: Uint8Array | null, msg: Uint8Array): Uint8Array
  signDigest (h: KeyHandle, e: Uint8Array): Uint8Array
  /** fastsm2_sign_digest_with_nonce: sm-crypto's pointPool gives k. */
  signDigestWithNonce (h: KeyHandle, e: Uint8Array, k: Uint8Array): Uint8Array
  verify (h: KeyHandle, id: Uint8Array | null, msg: Uint8Array, sig: Uint8Array): number
  verifyDigest (h: KeyHandle, e: Uint8Array, sig: Uint8Array): number
  encrypt (h: KeyHandle, msg: Uint8Array, flags: CiphertextFlags): Uint8Array
  /** fastsm2_encrypt_with_nonce. */
  encryptWithNonce (h: KeyHandle, msg: Uint8Array, flags: CiphertextFlags, k: Uint8Array): Uint8Array
  decrypt (h: KeyHandle, ct: Uint8Array, flags: CiphertextFlags): Uint8Array
  /** fastsm2_ecdh: x of [d]P. */
  ecdh (h: KeyHandle, peer: Uint8Array): Uint8Array
  /** GB/T 32918.3 with a given ephemeral r: the key K (klen bytes), then S_B / S_A:
   *  fastsm2_kx_init, _start_with_nonce, _compute, _confirmation. */
  keyExchange (role: number, h: KeyHandle, id: Uint8Array | null, peer: KeyHandle, peerId: Uint8Array | null,
    r: Uint8Array, peerR: Uint8Array, klen: number): Uint8Array
  sigToDer (sig: Uint8Array): Uint8Array
  sigFromDer (der: Uint8Array): Uint8Array
  signDigestBatch (h: KeyHandle, digests: Uint8Array): Promise<Uint8Array>
  /** One byte per item: 1 valid, 0 not. */
  verifyDigestBatch (h: KeyHandle, digests: Uint8Array, sigs: Uint8Array): Promise<Uint8Array>

  // ---- SM4 (GB/T 32907): keys and contexts are KeyHandles too ---------------
  /** fastsm2_sm4_backend_name. */
  sm4Backend (): string
  /** fastsm2_sm4_key_init of 16 bytes. */
  sm4Key (raw: Uint8Array): KeyHandle
  sm4Ecb (h: KeyHandle, enc: boolean, data: Uint8Array): Uint8Array
  /** padding: FASTSM2_SM4_PAD_NONE (0) or _PKCS7 (1). */
  sm4Cbc (h: KeyHandle, enc: boolean, padding: number, iv: Uint8Array, data: Uint8Array): Uint8Array
  sm4Ctr (h: KeyHandle, iv: Uint8Array, data: Uint8Array): Uint8Array
  /** GCM (ccm false) or CCM: ciphertext || tag (taglen bytes). */
  sm4AeadEncrypt (ccm: boolean, h: KeyHandle, iv: Uint8Array, aad: Uint8Array, data: Uint8Array, taglen: number): Uint8Array
  /** The plaintext, only if tag matches (FASTSM2_ERR_TAG otherwise). */
  sm4AeadDecrypt (ccm: boolean, h: KeyHandle, iv: Uint8Array, aad: Uint8Array, data: Uint8Array, tag: Uint8Array): Uint8Array
  /** standard: FASTSM2_SM4_XTS_GB (0) or _IEEE (1). */
  sm4Xts (h1: KeyHandle, h2: KeyHandle, standard: number, enc: boolean, tweak: Uint8Array, data: Uint8Array): Uint8Array
  /** fastsm2_sm4_init: mode FASTSM2_SM4_ECB (1) ... _CFB (5). */
  sm4StreamInit (mode: number, enc: boolean, padding: number, h: KeyHandle, iv: Uint8Array | null): KeyHandle
  sm4StreamUpdate (ctx: KeyHandle, data: Uint8Array): Uint8Array
  sm4StreamFinal (ctx: KeyHandle): Uint8Array
  sm4GcmInit (enc: boolean, h: KeyHandle, iv: Uint8Array): KeyHandle
  sm4GcmAad (ctx: KeyHandle, aad: Uint8Array): void
  sm4GcmUpdate (ctx: KeyHandle, data: Uint8Array): Uint8Array
  /** Encrypting (a tag length): the tag; decrypting (the tag): nothing, or FASTSM2_ERR_TAG. */
  sm4GcmFinal (ctx: KeyHandle, tagOrLength: number | Uint8Array): Uint8Array | undefined

  // ---- SM3 -----------------------------------------------------------------
  sm3 (data: Uint8Array): Uint8Array
  hmac (key: Uint8Array, data: Uint8Array): Uint8Array
  /** fastsm2_kdf: SM3(Z || ct) blocks, outlen bytes. */
  kdf (z: Uint8Array, outlen: number): Uint8Array
}
