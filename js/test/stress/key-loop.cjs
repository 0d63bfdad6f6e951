// SPDX-License-Identifier: Apache-2.0
// Keys made and destroyed in a synchronous loop (issue 41: 110,000 keys
// grew the addon's process to 850 MB, their memory freed only by the
// garbage collector's deferred finalizers): destroy() frees the key's
// memory at once, so the loop runs in bounded memory.
//   node --expose-gc test/stress/key-loop.cjs addon|wasm [N]
'use strict'
const assert = require('node:assert')
const engineName = process.argv[2]
const N = Number(process.argv[3] || 110000)
const engines = require('../../dist/cjs/node.js')
const { makeApi } = require('../../dist/cjs/lib.js')
const engine = engines[engineName]()
if (!engine) { console.log('skip: no ' + engineName + ' engine'); process.exit(77) }
const api = makeApi(engine)
const MB = 1 << 20
const rss = () => process.memoryUsage().rss

const m = Uint8Array.of(1, 2, 3)
for (let i = 0; i < 2000; i++) api.PrivateKey.generate().destroy() // warm up
if (global.gc) global.gc()
const before = rss()
let peak = before
for (let i = 0; i < N; i++) {
  const k = api.PrivateKey.generate()
  const p = api.PublicKey.fromBytes(k.publicKey.toBytes())
  if (i % 1000 === 0) {
    assert.ok(p.precompute().verify(m, k.sign(m)), 'key ' + i)
    peak = Math.max(peak, rss())
  }
  p.destroy()
  k.destroy()
}
peak = Math.max(peak, rss())
const growth = (peak - before) / MB
console.log(N + ' keys made and destroyed: peak rss growth ' + growth.toFixed(0) + ' MB')
// what stays until the garbage collector runs: small JavaScript objects
assert.ok(growth < 100, 'memory of a synchronous key loop: ' + growth.toFixed(0) + ' MB for ' + N + ' keys')
console.log('ok: key loop on ' + engineName)
