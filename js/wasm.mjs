// SPDX-License-Identifier: Apache-2.0
// Node, ES module: the same as wasm.js.
import api from './wasm.js'
export const { engine, backend, version, PrivateKey, PublicKey, FastSM2Error, sm3, hmacSm3, signBatch, verifyBatch, signDigestBatch, verifyDigestBatch } = api
export default api
