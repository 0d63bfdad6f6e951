// SPDX-License-Identifier: Apache-2.0
// The types every entry point of the modern API exports beside its values
// (PrivateKey, PublicKey and FastSM2Error are declared in each entry point,
// as types of the same names as its values).
export type {
  PrivateKeyConstructor, PublicKeyConstructor, SignatureFormat, CiphertextFormat, SignerId, BatchOptions, Api
} from './api.js'
export type { FastSM2ErrorCode } from './errors.js'
export type {
  Sm4, Sm4Key, Sm4KeyConstructor, Sm4KeyInput, Sm4Cipher, Sm4GcmEncryptor, Sm4GcmDecryptor, Sm4Padding, Sm4StreamMode, AeadOptions
} from './sm4.js'
