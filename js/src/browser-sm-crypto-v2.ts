// SPDX-License-Identifier: Apache-2.0
// Browsers: import { sm2, sm3, sm4, kdf, hkdf } from 'fastsm2/sm-crypto-v2'
import api from './browser.js'
import { makeSmCryptoV2, type SmCryptoV2 } from './smcrypto.js'

const m: SmCryptoV2 = makeSmCryptoV2(api)
export default m
export const { sm2, sm3, sm4, kdf, hkdf, FastSM2Error } = m
export type FastSM2Error = import('./errors.js').FastSM2Error
export type { KeyPair, Point, PoolPoint, Rng, PrecomputedPublicKey, SignOptions, VerifyOptions, SmCryptoV2 } from './smcrypto.js'
export type { Sm4Options, GCMResult } from './smcrypto-sm4.js'
