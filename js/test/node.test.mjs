// SPDX-License-Identifier: Apache-2.0
// The suite (test/suite.mjs) on both engines in Node, with sm-crypto and
// sm-crypto-v2 for interop: node --test test/node.test.mjs
import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cases } from './suite.mjs'
import { compatCases } from './compat.mjs'
import { sm4Cases } from './sm4.mjs'

const require = createRequire(import.meta.url)
const { makeApi, makeSmCrypto, makeSmCryptoV2 } = require('../dist/cjs/lib.js')
const engines = require('../dist/cjs/node.js')
const vectors = readFileSync(new URL('../../tests/vectors/gbt32918-examples.txt', import.meta.url), 'utf8')
const refs = { 'sm-crypto': require('sm-crypto'), 'sm-crypto-v2': require('sm-crypto-v2') }
let sm4Vectors = null
try { sm4Vectors = readFileSync(new URL('../../tests/vectors/sm4-examples.txt', import.meta.url), 'utf8') } catch (e) {}

test('the addon loads here (a prebuild of this platform)', () => {
  if (!engines.addon()) throw engines.lastAddonError()
})

test('require("fastsm2") picks the addon, FASTSM2_JS_ENGINE=wasm the WebAssembly engine', () => {
  const api = require('../dist/cjs/index.js')
  if (api.engine !== (process.env.FASTSM2_JS_ENGINE === 'wasm' ? 'wasm' : 'addon')) throw new Error('engine ' + api.engine)
  const w = require('../dist/cjs/wasm.js')
  if (w.engine !== 'wasm' || w.backend !== 'w32') throw new Error('fastsm2/wasm: engine ' + w.engine + ', backend ' + w.backend + ' (want the w32 field)')
})

test('WebAssembly: the SIMD build where the engine has SIMD; scalar and SIMD give the same bytes', () => {
  const { hasSimd, pickWasm } = require('../dist/cjs/lib.js')
  if (!hasSimd()) throw new Error('Node 20 has WebAssembly SIMD')
  if (pickWasm(undefined) !== 'fastsm2-simd.wasm' || pickWasm('scalar') !== 'fastsm2.wasm') throw new Error('pickWasm')
  const out = {}
  for (const kind of ['scalar', 'simd']) {
    const e = engines.wasm(kind)
    const d = new Uint8Array(32).fill(7)
    const k = e.privFromBytes(d)
    const p = e.privPub(k)
    const big = new Uint8Array(100000).map((_, i) => i * 31)
    out[kind] = [e.sm3(big), e.hmac(d, big), e.kdf(big.subarray(0, 64), 1000), e.signDigestWithNonce(k, d, new Uint8Array(32).fill(9)),
      e.encryptWithNonce(p, big.subarray(0, 500), 1, new Uint8Array(32).fill(5)), e.pubToBytes(p, true), e.computeZ(p, null)]
      .map((u) => Buffer.from(u).toString('hex')).join(':')
    e.keyFree(k); e.keyFree(p)
  }
  if (out.scalar !== out.simd) throw new Error('the two builds differ')
  // the field and the table scans over many values: keys (kG), ECDH (kP),
  // signatures with given nonces, verifications (sG + tP), in both builds
  const s = engines.wasm('scalar'); const v = engines.wasm('simd')
  let x = 0x12345678
  const next = () => { const u = new Uint8Array(32); for (let i = 0; i < 32; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; u[i] = x & 255 } u[0] &= 0x7f; u[0] |= 1; return u }
  for (let i = 0; i < 150; i++) {
    const d = next(); const k = next(); const e = next()
    const r = [s, v].map((g) => {
      const h = g.privFromBytes(d); const p = g.privPub(h)
      const pb = g.pubToBytes(p, false)
      const sig = g.signDigestWithNonce(h, e, k)
      const ok = g.verifyDigest(p, e, sig)
      const dh = g.ecdh(h, pb)
      g.keyFree(h); g.keyFree(p)
      return Buffer.concat([pb, sig, dh, Buffer.of(ok)]).toString('hex')
    })
    if (r[0] !== r[1]) throw new Error('the scalar and SIMD builds differ for key ' + Buffer.from(d).toString('hex'))
    if (!r[0].endsWith('01')) throw new Error('a signature does not verify')
  }
})

test('WebAssembly SM4: the SIMD build runs the wasm-simd table, the scalar build generic; both give the same bytes and the standard\'s example', () => {
  const s = makeApi(engines.wasm('scalar')); const v = makeApi(engines.wasm('simd'))
  if (v.sm4.backend !== 'wasm-simd') throw new Error('the SIMD build\'s SM4 table is ' + v.sm4.backend + ', want wasm-simd')
  if (s.sm4.backend !== 'generic') throw new Error('the scalar build\'s SM4 table is ' + s.sm4.backend + ', want generic')
  // GB/T 32907-2016 appendix A, example 1 (key = plaintext), one block and 1,000,000 times
  const hex = (u) => Buffer.from(u).toString('hex')
  const k0 = Buffer.from('0123456789abcdeffedcba9876543210', 'hex')
  for (const api of [s, v]) {
    if (hex(api.sm4.ecbEncrypt(k0, k0, { padding: 'none' })) !== '681edf34d206965e86b3e94f536e4246') throw new Error(api.sm4.backend + ': GB/T 32907 A.1')
  }
  let x = 0x9e3779b9
  const rnd = (n) => { const u = new Uint8Array(n); for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; u[i] = x & 255 } return u }
  // every block count to 70 (the 4-block passes, the one-block chains and
  // the tails) through every mode, and CTR across the 32-bit wrap
  for (let n = 0; n <= 70; n++) {
    const key = rnd(16); const key2 = rnd(16); const iv = rnd(16); const d = rnd(16 * n); const aad = rnd(n)
    const wrap = Uint8Array.from(iv); wrap.set([0xff, 0xff, 0xff, 0xfe], 12)
    const run = (api) => [
      api.sm4.ecbEncrypt(key, d, { padding: 'none' }), api.sm4.ecbDecrypt(key, d, { padding: 'none' }),
      api.sm4.cbcEncrypt(key, iv, d), api.sm4.cbcDecrypt(key, iv, d, { padding: 'none' }),
      api.sm4.ctr(key, iv, d), api.sm4.ctr(key, wrap, d), api.sm4.gcmEncrypt(key, iv.subarray(0, 12), d, { aad }),
      api.sm4.ccmEncrypt(key, iv.subarray(0, 12), d, { aad }),
      ...(n ? [api.sm4.xtsEncrypt(key, key2, iv, d), api.sm4.xtsDecrypt(key, key2, iv, d, { standard: 'ieee' })] : [])
    ].map(hex).join(':')
    const a = run(s); const b = run(v)
    if (a !== b) throw new Error('the scalar and SIMD builds\' SM4 differ at ' + n + ' blocks')
  }
})

for (const name of ['addon', 'wasm']) {
  const engine = engines[name]()
  if (!engine) continue
  const api = makeApi(engine)
  const smc = makeSmCrypto(api)
  const smc2 = makeSmCryptoV2(api)
  const sm4 = sm4Vectors ? sm4Cases({ api, v1: smc, v2: smc2, refs, vectors: sm4Vectors }) : [{ name: 'sm4', fn: () => 'skip: no tests/vectors/sm4-examples.txt (the C library\'s SM4 is not in this tree)' }]
  for (const c of [...cases({ api, smc, vectors, refs }), ...compatCases({ api, v1: smc, v2: smc2, refs }), ...sm4]) {
    test(name + ': ' + c.name, async (t) => {
      const r = await c.fn()
      if (typeof r === 'string' && r.startsWith('skip: ')) t.skip(r.slice(6))
    })
  }
}

// the SM4 cases (the standards' vectors, interop with sm-crypto and
// sm-crypto-v2) on the scalar WebAssembly build too: the loop above runs
// the SIMD one (its wasm-simd SM4 table)
if (sm4Vectors) {
  const api = makeApi(engines.wasm('scalar'))
  for (const c of sm4Cases({ api, v1: makeSmCrypto(api), v2: makeSmCryptoV2(api), refs, vectors: sm4Vectors })) {
    test('wasm (scalar build): ' + c.name, async (t) => {
      const r = await c.fn()
      if (typeof r === 'string' && r.startsWith('skip: ')) t.skip(r.slice(6))
    })
  }
}

test('the sm-crypto modules precompute a public key on its third use, and sign with the key\'s own Z_A when given its own public key', () => {
  const api = makeApi(engines.addon() || engines.wasm())
  const calls = { pubPrecompute: 0, computeZ: 0 }
  const engine = new Proxy(api._internal.engine, {
    get (target, prop) {
      const v = target[prop]
      if (prop in calls) return (...a) => { calls[prop]++; return v.apply(target, a) }
      return v
    }
  })
  for (const make of [makeSmCrypto, makeSmCryptoV2]) {
    calls.pubPrecompute = calls.computeZ = 0
    const smc = make({ ...api, _internal: { ...api._internal, engine } })
    const kp = smc.sm2.generateKeyPairHex()
    const sig = smc.sm2.doSignature('m', kp.privateKey, { hash: true, publicKey: kp.publicKey })
    for (let i = 0; i < 5; i++) if (!smc.sm2.doVerifySignature('m', sig, kp.publicKey, { hash: true })) throw new Error('verify')
    if (calls.pubPrecompute !== 1) throw new Error('pubPrecompute called ' + calls.pubPrecompute + ' times for 5 verifications with one key')
    for (let i = 0; i < 3; i++) smc.sm2.doSignature('m', kp.privateKey, { hash: true, publicKey: kp.publicKey.toUpperCase() })
    if (calls.computeZ !== 0) throw new Error('Z_A computed ' + calls.computeZ + ' times for the key\'s own public key')
  }
})
