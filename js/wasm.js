// SPDX-License-Identifier: Apache-2.0
'use strict'
// Node, CommonJS: the WebAssembly engine whatever the platform.
const { makeApi } = require('./dist/cjs/api.js')
module.exports = makeApi(require('./node/engine.js').wasm())
