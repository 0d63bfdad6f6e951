// SPDX-License-Identifier: Apache-2.0
// Runs in Chromium (test/browser/run.mjs drives it): ?mode=test runs the
// suite of test/suite.mjs on the WebAssembly engine, then the interop
// fixtures that Node made with sm-crypto and sm-crypto-v2; ?mode=first
// measures instantiation plus the first encryption; ?mode=bench times
// fastsm2 (WebAssembly), sm-crypto and sm-crypto-v2 in this page.
const q = new URLSearchParams(location.search)
const mode = q.get('mode') || 'test'
const out = document.getElementById('out')

// sm-crypto (its dist scripts: globals) and sm-crypto-v2 (ES module) in this page
async function references () {
  const v2 = await import('/node_modules/sm-crypto-v2/dist/index.mjs')
  return { 'sm-crypto': { sm2: globalThis.sm2, sm3: globalThis.sm3, sm4: globalThis.sm4 }, 'sm-crypto-v2': { sm2: v2.sm2, sm3: v2.sm3, sm4: v2.sm4, kdf: v2.kdf, hkdf: v2.hkdf } }
}

async function runTests () {
  const { cases } = await import('../suite.mjs')
  const { compatCases } = await import('../compat.mjs')
  const { sm4Cases } = await import('../sm4.mjs')
  const api = (await import('../../dist/esm/browser.js')).default
  const smc = (await import('../../dist/esm/browser-sm-crypto.js')).default
  const smc2 = (await import('../../dist/esm/browser-sm-crypto-v2.js')).default
  const vectors = await (await fetch('/vectors.txt')).text()
  const refs = await references()
  const sm4Response = await fetch('/sm4-vectors.txt')
  const sm4 = sm4Response.ok ? sm4Cases({ api, v1: smc, v2: smc2, refs, vectors: await sm4Response.text() }) : [{ name: 'sm4', fn: () => 'skip: no tests/vectors/sm4-examples.txt' }]
  const results = []
  for (const c of [...cases({ api, smc, vectors, refs }), ...compatCases({ api, v1: smc, v2: smc2, refs }), ...sm4]) {
    try { const r = await c.fn(); results.push({ name: c.name, ok: true, skip: typeof r === 'string' ? r : undefined }) } catch (e) { results.push({ name: c.name, ok: false, error: String(e && e.stack || e) }) }
  }
  // interop: Node's fixtures in, ours out
  const fx = await (await fetch('/fixtures.json')).json()
  const checks = []
  for (const f of fx.signatures) checks.push({ what: 'verify ' + f.from + ' ' + JSON.stringify(f.opt), ok: smc.sm2.doVerifySignature(f.msg, f.sig, f.publicKey, f.opt) })
  for (const f of fx.ciphertexts) checks.push({ what: 'decrypt ' + f.from + ' mode ' + f.mode, ok: smc.sm2.doDecrypt(f.ct, f.privateKey, f.mode, f.opt) === f.msg })
  const produced = { signatures: [], ciphertexts: [], keys: [] }
  for (const f of fx.requests) {
    produced.signatures.push({ ...f, sig: smc.sm2.doSignature(f.msg, f.privateKey, f.opt) })
    for (const m of [0, 1]) produced.ciphertexts.push({ ...f, mode: m, ct: smc.sm2.doEncrypt(f.msg, f.publicKey, m) })
  }
  const kp = smc.sm2.generateKeyPairHex()
  produced.keys.push({ ...kp, compressed: smc.sm2.compressPublicKeyHex(kp.publicKey), sm3: smc.sm3('abc'), hmac: smc.sm3('abc', { key: '0011' }) })
  return { engine: api.engine, backend: api.backend, sm4Backend: api.sm4.backend, results, checks, produced, userAgent: navigator.userAgent }
}

async function firstEncryption () {
  const t0 = performance.now()
  const api = (await import('../../dist/esm/browser.js')).default
  const t1 = performance.now()
  const pub = api.PublicKey.fromHex(q.get('pub'))
  const ct = pub.encrypt(new TextEncoder().encode('password123'))
  const t2 = performance.now()
  return { instantiateMs: t1 - t0, firstEncryptMs: t2 - t1, totalMs: t2 - t0, ctLength: ct.length }
}

async function bench () {
  const api = (await import('../../dist/esm/browser.js')).default
  const smc = (await import('../../dist/esm/browser-sm-crypto.js')).default
  const v2 = await import('/node_modules/sm-crypto-v2/dist/index.mjs')
  const v1 = { sm2: globalThis.sm2, sm3: globalThis.sm3, sm4: globalThis.sm4 }
  const kp = v2.sm2.generateKeyPairHex()
  const msg = 'x'.repeat(32)
  const mb = new TextEncoder().encode(msg)
  const SM4_LEN = 16384
  const sm4Data = new Uint8Array(SM4_LEN).map((_, i) => i * 7)
  const sm4Key = new Uint8Array(16).fill(0x11)
  const sm4Iv = new Uint8Array(16).fill(0x22)
  const sm4Iv12 = sm4Iv.subarray(0, 12)
  // the same work as bench/bench.mjs: the sm-crypto API with publicKey passed to doSignature
  const compat = (m) => {
    const s = m.sm2; const o = { hash: true }; const so = { hash: true, publicKey: kp.publicKey }
    const sig = s.doSignature(msg, kp.privateKey, so); const ct = s.doEncrypt(msg, kp.publicKey)
    const ops = { sign: () => s.doSignature(msg, kp.privateKey, so), verify: () => s.doVerifySignature(msg, sig, kp.publicKey, o), enc: () => s.doEncrypt(msg, kp.publicKey), dec: () => s.doDecrypt(ct, kp.privateKey), keygen: () => s.generateKeyPairHex() }
    try {
      const cbc = { mode: 'cbc', iv: sm4Iv, output: 'array' }
      m.sm4.encrypt(sm4Data, sm4Key, cbc)
      ops.sm4cbc = () => m.sm4.encrypt(sm4Data, sm4Key, cbc)
      const gcm = { mode: 'gcm', iv: sm4Iv12, output: 'array', outputTag: true }
      m.sm4.encrypt(sm4Data, sm4Key, gcm)
      ops.sm4gcm = () => m.sm4.encrypt(sm4Data, sm4Key, gcm)
    } catch (e) {}
    return ops
  }
  const libs = {
    'fastsm2 wasm (modern API)': (() => {
      const k = api.PrivateKey.fromHex(kp.privateKey); const p = api.PublicKey.fromHex(kp.publicKey).precompute()
      const sig = k.sign(mb); const ct = p.encrypt(mb)
      const ops = { sign: () => k.sign(mb), verify: () => p.verify(mb, sig), enc: () => p.encrypt(mb), dec: () => k.decrypt(ct), keygen: () => api.PrivateKey.generate().destroy() }
      try {
        const key = api.sm4.Key.fromBytes(sm4Key)
        api.sm4.gcmEncrypt(key, sm4Iv12, sm4Data)
        ops.sm4cbc = () => api.sm4.cbcEncrypt(key, sm4Iv, sm4Data)
        ops.sm4gcm = () => api.sm4.gcmEncrypt(key, sm4Iv12, sm4Data)
      } catch (e) {}
      return ops
    })(),
    'fastsm2 wasm (sm-crypto API)': compat(smc),
    // SM4 of the scalar build (the portable bitsliced C) beside the SIMD one
    'fastsm2 wasm scalar build (modern API)': await (async () => {
      const { instantiate, makeApi } = await import('../../dist/esm/lib.js')
      const s = makeApi(await instantiate(new URL('../../fastsm2.wasm', import.meta.url)))
      const key = s.sm4.Key.fromBytes(sm4Key)
      return { sm4cbc: () => s.sm4.cbcEncrypt(key, sm4Iv, sm4Data), sm4gcm: () => s.sm4.gcmEncrypt(key, sm4Iv12, sm4Data) }
    })(),
    'sm-crypto-v2': compat(v2),
    'sm-crypto': compat(v1)
  }
  // run.mjs drives the timing: it calls __slice(lib, op, ms) in turns and
  // reads the page's main-thread CPU time around each call (DevTools
  // Performance.getMetrics ThreadTime), so that load from elsewhere on the
  // machine does not enter the figures.
  window.__slice = (name, op, ms) => {
    const fn = libs[name][op]
    if (!fn) return 0
    const t0 = performance.now()
    let n = 0
    do { fn(); n++ } while (performance.now() - t0 < ms)
    return n
  }
  const ops = ['sign', 'verify', 'enc', 'dec', 'keygen', 'sm4cbc', 'sm4gcm']
  const has = Object.fromEntries(Object.keys(libs).map((n) => [n, ops.filter((op) => libs[n][op])]))
  return { libs: Object.keys(libs), ops, has, scale: { sm4cbc: SM4_LEN / 1e6, sm4gcm: SM4_LEN / 1e6 }, userAgent: navigator.userAgent, backend: api.backend }
}

// Verifications right after the page loads, in rounds of 100: what a
// user's first measurement sees while the engine's optimising compiler
// has not yet compiled the hot functions (per CPU second of rounds).
async function cold () {
  const api = (await import('../../dist/esm/browser.js')).default
  const smc = (await import('../../dist/esm/browser-sm-crypto.js')).default
  const kp = smc.sm2.generateKeyPairHex()
  const msg = 'x'.repeat(32)
  const sig = smc.sm2.doSignature(msg, kp.privateKey)
  const rounds = []
  for (let r = 0; r < Number(q.get('rounds') || 20); r++) {
    const t0 = performance.now()
    for (let i = 0; i < 100; i++) smc.sm2.doVerifySignature(msg, sig, kp.publicKey)
    rounds.push(100 / ((performance.now() - t0) / 1000))
  }
  return { rounds, backend: api.backend }
}

// The module alone compiled and instantiated (no JavaScript of ours): the
// floor under firstEncryption on this machine.
async function bare () {
  const t0 = performance.now()
  const noop = () => 0
  await WebAssembly.instantiateStreaming(fetch('../../fastsm2.wasm'), {
    env: { getentropy: noop, emscripten_notify_memory_growth: noop, __call_sighandler: noop },
    wasi_snapshot_preview1: { environ_sizes_get: noop, environ_get: noop }
  })
  return { bareMs: performance.now() - t0 }
}

const run = mode === 'test' ? runTests : mode === 'first' ? firstEncryption : mode === 'bare' ? bare : mode === 'cold' ? cold : bench
run().then((r) => { window.__result = r; out.textContent = 'done' }, (e) => { window.__result = { error: String(e && e.stack || e) }; out.textContent = 'error' })
