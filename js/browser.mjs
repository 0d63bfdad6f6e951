// SPDX-License-Identifier: Apache-2.0
// Browsers, mini-program runtimes, Deno, bundlers: the WebAssembly engine,
// loaded beside this file (top-level await: the exports are ready to use).
// (dist/fastsm2.browser.mjs is lib/*.mjs in one file: tools/build-cjs.mjs)
import { makeApi, instantiate } from './dist/fastsm2.browser.mjs'

const api = makeApi(await instantiate(new URL('./fastsm2.wasm', import.meta.url)))
export const { engine, backend, version, PrivateKey, PublicKey, FastSM2Error, sm3, hmacSm3, signBatch, verifyBatch, signDigestBatch, verifyDigestBatch } = api
export default api
