// SPDX-License-Identifier: Apache-2.0
'use strict'
// sm-crypto's API over fastsm2 (Node, CommonJS): const { sm2, sm3 } = require('fastsm2/sm-crypto')
const { makeSmCrypto } = require('./dist/cjs/smcrypto.js')
module.exports = makeSmCrypto(require('./index.js'))
