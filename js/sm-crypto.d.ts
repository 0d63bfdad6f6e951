// SPDX-License-Identifier: Apache-2.0
// Types of fastsm2/sm-crypto: sm-crypto's API (hex strings, UTF-8 strings).
import { FastSM2Error } from './index'

export interface KeyPair { privateKey: string, publicKey: string }
type Bytes = string | number[] | Uint8Array

export declare const sm2: {
  generateKeyPairHex (): KeyPair
  /** cipherMode 1 = C1C3C2 (default), 0 = C1C2C3; hex without the 04 prefix; asn1: GM/T 0009 DER (mode 1). */
  doEncrypt (msg: Bytes, publicKey: string, cipherMode?: 0 | 1, options?: { asn1?: boolean }): string
  /** '' (or [] with output: 'array') when the ciphertext does not decrypt. */
  doDecrypt (encryptData: string, privateKey: string, cipherMode?: 0 | 1, options?: { output?: 'string', asn1?: boolean }): string
  doDecrypt (encryptData: string, privateKey: string, cipherMode: 0 | 1, options: { output: 'array', asn1?: boolean }): number[]
  /** hash defaults to true (sm-crypto 0.5.8): e = SM3(Z_A || msg). */
  doSignature (msg: Bytes, privateKey: string, options?: { der?: boolean, hash?: boolean, publicKey?: string, userId?: string }): string
  doVerifySignature (msg: Bytes, signHex: string, publicKey: string, options?: { der?: boolean, hash?: boolean, userId?: string }): boolean
  getPublicKeyFromPrivateKey (privateKey: string): string
  compressPublicKeyHex (publicKey: string): string
  verifyPublicKey (publicKey: string): boolean
  comparePublicKeyHex (a: string, b: string): boolean
  getHash (hashHex: string | Uint8Array, publicKey: string, userId?: string): string
  getZ (publicKey: string, userId?: string): Uint8Array
  utf8ToHex (s: string): string
  arrayToHex (a: number[]): string
  arrayToUtf8 (a: number[] | Uint8Array): string
  hexToArray (s: string): number[]
  leftPad (s: string, n: number): string
  /** Wipe the keys kept from earlier calls (at most 8 private and 8 public). */
  clearKeyCache (): void
}
/** SM3 hex digest; with { key } HMAC-SM3 (key hex or bytes). */
export declare function sm3 (input: Bytes, options?: { key: string | number[] | Uint8Array, mode?: 'hmac' }): string
export { FastSM2Error }
declare const m: { sm2: typeof sm2, sm3: typeof sm3, FastSM2Error: typeof FastSM2Error }
export default m
