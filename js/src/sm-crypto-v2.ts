// SPDX-License-Identifier: Apache-2.0
// require('fastsm2/sm-crypto-v2') in Node: sm-crypto-v2 1.15.x's API.
import api from './index.js'
import { makeSmCryptoV2, type SmCryptoV2 } from './smcrypto.js'

const m: SmCryptoV2 = makeSmCryptoV2(api)
export default m
export const { sm2, sm3, sm4, kdf, hkdf, FastSM2Error } = m
export type FastSM2Error = import('./errors.js').FastSM2Error
export type { KeyPair, Point, PoolPoint, Rng, PrecomputedPublicKey, SignOptions, VerifyOptions, SmCryptoV2 } from './smcrypto.js'
export type { Sm4Options, GCMResult } from './smcrypto-sm4.js'
