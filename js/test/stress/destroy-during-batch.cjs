// SPDX-License-Identifier: Apache-2.0
// A key destroyed while a batch that holds it runs (issue 41): the batch
// still signs (verifies) with the whole key, and nothing crashes. Run as a
// child process by test/stress.test.mjs (a crash is an exit status there).
//   node test/stress/destroy-during-batch.cjs addon|wasm
'use strict'
const assert = require('node:assert')
const engineName = process.argv[2]
const engines = require('../../dist/cjs/node.js')
const { makeApi } = require('../../dist/cjs/lib.js')
const engine = engines[engineName]()
if (!engine) { console.log('skip: no ' + engineName + ' engine'); process.exit(77) }
const api = makeApi(engine)

async function round (n) {
  const key = api.PrivateKey.generate()
  const pubBytes = key.publicKey.toBytes()
  const digests = new Uint8Array(32 * n)
  for (let i = 0; i < digests.length; i++) digests[i] = (i * 13 + n) & 255
  const p = api.signDigestBatch(key, digests)
  key.destroy()
  const sigs = await p
  const pub = api.PublicKey.fromBytes(pubBytes)
  assert.strictEqual(sigs.length, n)
  for (let i = 0; i < n; i++) assert.ok(pub.verifyDigest(digests.subarray(32 * i, 32 * i + 32), sigs[i]), 'signature ' + i + ' of ' + n)
  // the public key destroyed during a verification batch
  const v = api.verifyDigestBatch(pub, digests, sigs)
  pub.destroy()
  const res = await v
  assert.ok(res.length === n && res.every((x) => x === true), 'verified after destroy')
}

;(async () => {
  let n = 0
  for (let i = 0; i < 300; i++) { await round(1 + (i & 7)); n++ }
  for (let i = 0; i < 5; i++) { await round(engineName === 'wasm' ? 100 : 1000); n++ }
  // several batches in flight on one key, destroyed after the first starts
  const key = api.PrivateKey.generate()
  const pub = api.PublicKey.fromBytes(key.publicKey.toBytes())
  const d = new Uint8Array(32 * 64).fill(3)
  const ps = [api.signDigestBatch(key, d)]
  key.destroy()
  // a destroyed key is refused from now on, with a named error
  let refused = null
  try { await api.signDigestBatch(key, d) } catch (e) { refused = e }
  assert.ok(refused && refused.code === 'FASTSM2_ERR_ARG', 'destroyed key refused: ' + (refused && refused.code))
  for (const sigs of await Promise.all(ps)) assert.ok(sigs.every((s) => pub.verifyDigest(d.subarray(0, 32), s)))
  console.log('ok: ' + n + ' rounds of destroy-during-batch on ' + engineName)
})().catch((e) => { console.error(e); process.exit(1) })
