// SPDX-License-Identifier: Apache-2.0
// Browsers, mini-program runtimes, Deno, bundlers: the WebAssembly engine,
// loaded beside the package (top-level await: the exports are ready to
// use). The SIMD build where the engine validates SIMD (the scalar one if
// that fails to load); both URLs are written out for bundlers, which copy
// the files.
import { makeApi, type Api } from './api.js'
import { instantiate } from './wasm-engine.js'
import { hasSimd } from './wasm-select.js'
import type { Engine } from './engine.js'

async function load (): Promise<Engine> {
  if (hasSimd()) {
    try {
      return await instantiate(new URL('../../fastsm2-simd.wasm', import.meta.url))
    } catch (e) {} // not served: the scalar build
  }
  return instantiate(new URL('../../fastsm2.wasm', import.meta.url))
}

const api: Api = makeApi(await load())
export default api
export const {
  engine, backend, version, PrivateKey, PublicKey, FastSM2Error, ERROR_CODES, sm3, hmacSm3, kdf, sm4,
  signBatch, verifyBatch, signDigestBatch, verifyDigestBatch
} = api
export type * from './types.js'
export type PrivateKey = import('./api.js').PrivateKey
export type PublicKey = import('./api.js').PublicKey
export type FastSM2Error = import('./errors.js').FastSM2Error
