// SPDX-License-Identifier: Apache-2.0
// Types of the modern API (fastsm2, fastsm2/wasm).

/** 'raw': r || s, 64 bytes (default); 'der': GM/T 0009 SEQUENCE { r, s }. */
export type SignatureFormat = 'raw' | 'der'
/** 'c1c3c2': 04||x||y||C3||C2 (default, GB/T 32918.4-2016); 'c1c2c3': 04||x||y||C2||C3;
 *  'der': GM/T 0009 SEQUENCE { x, y, C3, C2 } (OpenSSL, GmSSL). */
export type CiphertextFormat = 'c1c3c2' | 'c1c2c3' | 'der'
/** A signer ID; absent: "1234567812345678". */
export type SignerId = string | Uint8Array

export declare class FastSM2Error extends Error {
  readonly name: 'FastSM2Error'
  /** The C library's status name, e.g. 'FASTSM2_ERR_POINT'. */
  readonly code: string
  /** Its number (negative). */
  readonly status: number
}

export declare class PublicKey {
  private constructor ()
  /** SEC1: 04||x||y (65 bytes) or 02/03||x (33). */
  static fromBytes (sec1: Uint8Array): PublicKey
  static fromHex (hex: string): PublicKey
  /** SPKI, PEM or DER (a bare SEC1 point is read too). */
  static fromPem (pem: string | Uint8Array): PublicKey
  static fromDer (der: Uint8Array): PublicKey
  toBytes (opts?: { compressed?: boolean }): Uint8Array
  toHex (opts?: { compressed?: boolean }): string
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
  destroy (): void
}

export declare class PrivateKey {
  private constructor ()
  static generate (): PrivateKey
  /** d, 32 bytes big-endian, in [1, n-2]. */
  static fromBytes (d: Uint8Array): PrivateKey
  static fromHex (hex: string): PrivateKey
  /** PKCS#8 or SEC1, PEM or DER; encrypted PKCS#8 with a password. */
  static fromPem (pem: string | Uint8Array, opts?: { password?: string | Uint8Array }): PrivateKey
  static fromDer (der: Uint8Array, opts?: { password?: string | Uint8Array }): PrivateKey
  toBytes (): Uint8Array
  toHex (): string
  toPem (opts?: { format?: 'pkcs8' | 'sec1' }): string
  toDer (opts?: { format?: 'pkcs8' | 'sec1' }): Uint8Array
  readonly publicKey: PublicKey
  sign (msg: Uint8Array, opts?: { id?: SignerId, format?: SignatureFormat }): Uint8Array
  signDigest (e: Uint8Array, opts?: { format?: SignatureFormat }): Uint8Array
  decrypt (ct: Uint8Array, opts?: { format?: CiphertextFormat }): Uint8Array
  /** Wipe the key now (else when it is garbage-collected). */
  destroy (): void
}

/** 'addon' (Node-API) or 'wasm'. */
export declare const engine: 'addon' | 'wasm'
/** The C library's backend, e.g. 'avx2', 'armv8', 'generic' (WebAssembly). */
export declare const backend: string
export declare const version: string
export declare function sm3 (data: Uint8Array): Uint8Array
export declare function hmacSm3 (key: Uint8Array, data: Uint8Array): Uint8Array
/** Many operations; with the addon on a worker thread over all cores. */
export declare function signBatch (key: PrivateKey, msgs: Uint8Array[], opts?: { id?: SignerId, format?: SignatureFormat }): Promise<Uint8Array[]>
export declare function verifyBatch (key: PublicKey, msgs: Uint8Array[], sigs: Uint8Array[], opts?: { id?: SignerId, format?: SignatureFormat }): Promise<boolean[]>
export declare function signDigestBatch (key: PrivateKey, digests: Uint8Array[] | Uint8Array, opts?: { format?: SignatureFormat, packed?: false }): Promise<Uint8Array[]>
/** { packed: true }: one Uint8Array of n raw signatures (64 bytes each). */
export declare function signDigestBatch (key: PrivateKey, digests: Uint8Array[] | Uint8Array, opts: { format?: 'raw', packed: true }): Promise<Uint8Array>
export declare function verifyDigestBatch (key: PublicKey, digests: Uint8Array[] | Uint8Array, sigs: Uint8Array[] | Uint8Array, opts?: { format?: SignatureFormat }): Promise<boolean[]>

declare const api: {
  engine: typeof engine, backend: string, version: string, PrivateKey: typeof PrivateKey, PublicKey: typeof PublicKey,
  FastSM2Error: typeof FastSM2Error, sm3: typeof sm3, hmacSm3: typeof hmacSm3, signBatch: typeof signBatch,
  verifyBatch: typeof verifyBatch, signDigestBatch: typeof signDigestBatch, verifyDigestBatch: typeof verifyDigestBatch
}
export default api
