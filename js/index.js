// SPDX-License-Identifier: Apache-2.0
'use strict'
// Node, CommonJS: the addon where one fits this platform, else WebAssembly.
const { makeApi } = require('./dist/cjs/api.js')
module.exports = makeApi(require('./node/engine.js').best())
