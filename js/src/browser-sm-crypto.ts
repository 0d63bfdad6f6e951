// SPDX-License-Identifier: Apache-2.0
// Browsers: import { sm2, sm3, sm4 } from 'fastsm2/sm-crypto'
import api from './browser.js'
import { makeSmCrypto, type SmCrypto } from './smcrypto.js'

const m: SmCrypto = makeSmCrypto(api)
export default m
export const { sm2, sm3, sm4, kdf, hkdf, FastSM2Error } = m
export type FastSM2Error = import('./errors.js').FastSM2Error
export type { KeyPair, Point, PoolPoint, Rng, PrecomputedPublicKey, SignOptions, VerifyOptions, SmCrypto } from './smcrypto.js'
export type { Sm4Options, GCMResult } from './smcrypto-sm4.js'
