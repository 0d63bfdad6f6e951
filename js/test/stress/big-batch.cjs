// SPDX-License-Identifier: Apache-2.0
// A batch of 1,000,000 items (issue 41: above ~120,000 a RangeError), in
// bounded memory: the work goes to the engine in chunks, so what the batch
// allocates besides its input and output stays small.
//   node --expose-gc test/stress/big-batch.cjs addon|wasm
'use strict'
const assert = require('node:assert')
const engineName = process.argv[2]
const engines = require('../../dist/cjs/node.js')
const { makeApi } = require('../../dist/cjs/lib.js')
const engine = engines[engineName]()
if (!engine) { console.log('skip: no ' + engineName + ' engine'); process.exit(77) }
const api = makeApi(engine)
const N = 1000000
const MB = 1 << 20
const mem = () => { if (global.gc) global.gc(); const m = process.memoryUsage(); return m.rss }

;(async () => {
  const key = api.PrivateKey.generate()
  const pub = key.publicKey
  const e = new Uint8Array(32).fill(0x5a)
  const sig = key.signDigest(e)
  // a million digests as an array (the form that overflowed the stack),
  // all views of one buffer
  const flat = new Uint8Array(32 * N)
  for (let i = 0; i < N; i++) flat.set(e, 32 * i)
  const digests = Array.from({ length: N }, (_, i) => flat.subarray(32 * i, 32 * i + 32))
  // the addon verifies all of them; WebAssembly (a hundred times slower,
  // one thread) 100 of them, the others have r = 0, refused before any
  // curve arithmetic
  const every = engineName === 'wasm' ? 10000 : 1
  const zero = new Uint8Array(64)
  const valid = (i) => i % every === 0 && i % 1000 !== 7
  const sigsIn = Array.from({ length: N }, (_, i) => (valid(i) ? sig : zero))
  const before = mem()
  let peak = before
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 5)
  const res = await api.verifyDigestBatch(pub, digests, sigsIn)
  clearInterval(timer)
  assert.strictEqual(res.length, N)
  let bad = 0
  for (let i = 0; i < N; i++) if (res[i] !== valid(i)) bad++
  assert.strictEqual(bad, 0, 'verification results')
  // the results (an array of N booleans: 8 MB) and chunk buffers: not a copy of all signatures per call
  const growth = (peak - before) / MB
  console.log('verify ' + N + ': peak rss growth ' + growth.toFixed(0) + ' MB')
  assert.ok(growth < 96, 'memory during a batch of ' + N + ': ' + growth.toFixed(0) + ' MB')
  if (engineName === 'addon') {
    // and a million signatures, the packed form in and out
    const b2 = mem()
    let p2 = b2
    const t2 = setInterval(() => { p2 = Math.max(p2, process.memoryUsage().rss) }, 5)
    const out = await api.signDigestBatch(key, flat, { packed: true })
    clearInterval(t2)
    assert.ok(out instanceof Uint8Array && out.length === 64 * N, 'packed signatures')
    for (let i = 0; i < N; i += 9973) assert.ok(pub.verifyDigest(e, out.subarray(64 * i, 64 * i + 64)), 'signature ' + i)
    const g2 = (p2 - b2) / MB
    console.log('sign ' + N + ' (packed): peak rss growth ' + g2.toFixed(0) + ' MB (output 61 MB)')
    assert.ok(g2 < 64 + 48, 'memory during a packed batch of ' + N + ': ' + g2.toFixed(0) + ' MB')
  }
  console.log('ok: batches of ' + N + ' on ' + engineName)
})().catch((e) => { console.error(e); process.exit(1) })
