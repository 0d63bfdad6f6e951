// SPDX-License-Identifier: Apache-2.0
// require('fastsm2/wasm') in Node: the WebAssembly engine, whatever else loads.
import { makeApi, type Api } from './api.js'
import { wasm } from './node.js'

const api: Api = makeApi(wasm())
export default api
export const {
  engine, backend, version, PrivateKey, PublicKey, FastSM2Error, ERROR_CODES, sm3, hmacSm3, kdf, sm4,
  signBatch, verifyBatch, signDigestBatch, verifyDigestBatch
} = api
export type * from './types.js'
export type PrivateKey = import('./api.js').PrivateKey
export type PublicKey = import('./api.js').PublicKey
export type FastSM2Error = import('./errors.js').FastSM2Error
