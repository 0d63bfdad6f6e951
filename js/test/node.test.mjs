// SPDX-License-Identifier: Apache-2.0
// The suite (test/suite.mjs) on both engines in Node, with sm-crypto and
// sm-crypto-v2 for interop: node --test test/node.test.mjs
import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cases } from './suite.mjs'

const require = createRequire(import.meta.url)
const { makeApi } = require('../dist/cjs/api.js')
const { makeSmCrypto } = require('../dist/cjs/smcrypto.js')
const engines = require('../node/engine.js')
const vectors = readFileSync(new URL('../../tests/vectors/gbt32918-examples.txt', import.meta.url), 'utf8')
const refs = { 'sm-crypto': require('sm-crypto'), 'sm-crypto-v2': require('sm-crypto-v2') }

test('the addon loads here (a prebuild of this platform)', () => {
  if (!engines.addon()) throw engines.addonError()
})

test('require("fastsm2") picks the addon, FASTSM2_JS_ENGINE=wasm the WebAssembly engine', () => {
  const api = require('../index.js')
  if (api.engine !== (process.env.FASTSM2_JS_ENGINE === 'wasm' ? 'wasm' : 'addon')) throw new Error('engine ' + api.engine)
  if (require('../wasm.js').engine !== 'wasm' || require('../wasm.js').backend !== 'generic') throw new Error('wasm.js is not the generic WebAssembly build')
})

for (const name of ['addon', 'wasm']) {
  const engine = engines[name]()
  if (!engine) continue
  const api = makeApi(engine)
  const smc = makeSmCrypto(api)
  for (const c of cases({ api, smc, vectors, refs })) {
    test(name + ': ' + c.name, async (t) => {
      const r = await c.fn()
      if (typeof r === 'string' && r.startsWith('skip: ')) t.skip(r.slice(6))
    })
  }
}
