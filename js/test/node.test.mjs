// SPDX-License-Identifier: Apache-2.0
// The suite (test/suite.mjs) on both engines in Node, with sm-crypto and
// sm-crypto-v2 for interop: node --test test/node.test.mjs
import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cases } from './suite.mjs'
import { compatCases } from './compat.mjs'

const require = createRequire(import.meta.url)
const { makeApi, makeSmCrypto, makeSmCryptoV2 } = require('../dist/cjs/lib.js')
const engines = require('../dist/cjs/node.js')
const vectors = readFileSync(new URL('../../tests/vectors/gbt32918-examples.txt', import.meta.url), 'utf8')
const refs = { 'sm-crypto': require('sm-crypto'), 'sm-crypto-v2': require('sm-crypto-v2') }

test('the addon loads here (a prebuild of this platform)', () => {
  if (!engines.addon()) throw engines.lastAddonError()
})

test('require("fastsm2") picks the addon, FASTSM2_JS_ENGINE=wasm the WebAssembly engine', () => {
  const api = require('../dist/cjs/index.js')
  if (api.engine !== (process.env.FASTSM2_JS_ENGINE === 'wasm' ? 'wasm' : 'addon')) throw new Error('engine ' + api.engine)
  if (require('../dist/cjs/wasm.js').engine !== 'wasm' || require('../dist/cjs/wasm.js').backend !== 'generic') throw new Error('wasm.js is not the generic WebAssembly build')
})

for (const name of ['addon', 'wasm']) {
  const engine = engines[name]()
  if (!engine) continue
  const api = makeApi(engine)
  const smc = makeSmCrypto(api)
  const smc2 = makeSmCryptoV2(api)
  for (const c of [...cases({ api, smc, vectors, refs }), ...compatCases({ api, v1: smc, v2: smc2, refs })]) {
    test(name + ': ' + c.name, async (t) => {
      const r = await c.fn()
      if (typeof r === 'string' && r.startsWith('skip: ')) t.skip(r.slice(6))
    })
  }
}
