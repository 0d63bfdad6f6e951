// SPDX-License-Identifier: Apache-2.0
// fastsm2/lib: the building blocks, for an engine set up by hand (a
// WebAssembly module fetched from elsewhere, another random source) and
// for the tests: makeApi(engine), makeSmCrypto(api), instantiate(source).
export { makeApi } from './api.js'
export { makeSmCrypto, makeSmCryptoV2 } from './smcrypto.js'
export { instantiate, instantiateSync } from './wasm-engine.js'
export { hasSimd, pickWasm, WASM_SCALAR, WASM_SIMD } from './wasm-select.js'
export { FastSM2Error, ERROR_CODES } from './errors.js'
export type { Engine, KeyHandle } from './engine.js'
export type * from './types.js'
export type { PrivateKey, PublicKey } from './api.js'
export type { SmCrypto, SmCryptoV2 } from './smcrypto.js'
