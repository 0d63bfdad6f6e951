// SPDX-License-Identifier: Apache-2.0
// require('fastsm2') / import 'fastsm2' in Node: the addon where one fits
// this platform, else WebAssembly (node.ts).
import { makeApi, type Api } from './api.js'
import { best } from './node.js'

const api: Api = makeApi(best())
export default api
export const {
  engine, backend, version, PrivateKey, PublicKey, FastSM2Error, ERROR_CODES, sm3, hmacSm3, kdf, sm4,
  signBatch, verifyBatch, signDigestBatch, verifyDigestBatch
} = api
export type * from './types.js'
export type PrivateKey = import('./api.js').PrivateKey
export type PublicKey = import('./api.js').PublicKey
export type FastSM2Error = import('./errors.js').FastSM2Error
