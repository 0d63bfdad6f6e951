// SPDX-License-Identifier: Apache-2.0
// The addon in worker_threads (issue 41): several workers load it, each
// throws 2,000 errors and exits (one is terminated in the middle of a
// batch) while the main thread keeps calling; afterwards the main thread's
// errors are still FastSM2Errors and every call works. Run as a child
// process by test/stress.test.mjs (a V8 fatal error is an exit status).
//   node --expose-gc test/stress/workers.cjs [WORKERS]
'use strict'
const assert = require('node:assert')
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads')
const path = require('node:path')
const index = path.join(__dirname, '..', '..', 'dist', 'cjs', 'index.js')

function throwMany (f, n) {
  let named = 0
  for (let i = 0; i < n; i++) {
    try {
      f.PublicKey.fromBytes(new Uint8Array(65))
    } catch (e) {
      if (e instanceof f.FastSM2Error && e.code === 'FASTSM2_ERR_POINT' && e.status === -8) named++
    }
  }
  return named
}

if (!isMainThread) {
  const f = require(index)
  if (f.engine !== 'addon') { parentPort.postMessage({ skip: 'engine ' + f.engine }); process.exit(0) }
  const named = throwMany(f, 2000)
  const k = f.PrivateKey.generate()
  const m = Uint8Array.of(1, 2, 3)
  const ok = k.publicKey.verify(m, k.sign(m))
  if (workerData.hang) {
    // terminated by the main thread while this batch runs
    f.signDigestBatch(k, new Uint8Array(32 * 20000)).then(() => {}, () => {})
    parentPort.postMessage({ named, ok, started: true })
  } else {
    f.signDigestBatch(k, new Uint8Array(32 * 50)).then((sigs) => {
      parentPort.postMessage({ named, ok, batch: sigs.length })
      process.exit(0)
    })
  }
} else {
  const f = require(index)
  if (f.engine !== 'addon') { console.log('skip: no addon'); process.exit(77) }
  const nworkers = Number(process.argv[2] || 6)
  const key = f.PrivateKey.generate()
  const msg = new TextEncoder().encode('main thread')
  let mainCalls = 0
  let busy = true
  const spin = () => {
    if (!busy) return
    for (let i = 0; i < 20; i++) {
      assert.ok(key.publicKey.verify(msg, key.sign(msg)))
      try { f.PublicKey.fromBytes(new Uint8Array(65)); assert.fail('no error') } catch (e) { assert.ok(e instanceof f.FastSM2Error, 'main thread error class while workers run') }
      mainCalls++
    }
    setImmediate(spin)
  }
  setImmediate(spin)
  const runOne = (i) => new Promise((resolve, reject) => {
    const hang = i === 0
    const w = new Worker(__filename, { workerData: { hang } })
    w.on('message', (m) => {
      if (m.skip) return
      assert.strictEqual(m.named, 2000, 'worker ' + i + ': FastSM2Error instances')
      assert.ok(m.ok, 'worker ' + i + ' signs')
      if (hang) w.terminate()
      else assert.strictEqual(m.batch, 50)
    })
    w.on('error', reject)
    w.on('exit', () => resolve())
  })
  ;(async () => {
    for (let round = 0; round < 2; round++) await Promise.all(Array.from({ length: nworkers }, (_, i) => runOne(i)))
    busy = false
    if (global.gc) global.gc()
    // what issue 41 saw crash: the main thread's errors after the workers left
    assert.strictEqual(throwMany(f, 2000), 2000, 'main thread: FastSM2Error instances after the workers exited')
    let err
    try { f.PublicKey.fromBytes(new Uint8Array(65)) } catch (e) { err = e }
    assert.ok(err instanceof f.FastSM2Error && err instanceof Error && err.code === 'FASTSM2_ERR_POINT')
    const sigs = await f.signDigestBatch(key, new Uint8Array(32 * 100).fill(9))
    assert.ok(sigs.every((s) => key.publicKey.verifyDigest(new Uint8Array(32).fill(9), s)))
    if (global.gc) global.gc()
    console.log('ok: ' + 2 * nworkers + ' workers, ' + mainCalls + ' main-thread rounds meanwhile')
  })().catch((e) => { console.error(e); process.exit(1) })
}
