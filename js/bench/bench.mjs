// SPDX-License-Identifier: Apache-2.0
// `make bench-js`: the same work, in one run, for the addon, WebAssembly in
// Node, WebAssembly in Chromium, sm-crypto and sm-crypto-v2. Node rows are
// operations per CPU second of this process (process.cpuUsage: robust to
// other load on the machine), the libraries taking turns in rounds of
// slices for each operation; the Chromium rows operations per CPU second of
// the page's main thread (DevTools' ThreadTime), sm-crypto and sm-crypto-v2
// timed in the same page, the same way. Every library gets the same
// arguments; the sm-crypto rows pass publicKey to doSignature (sm-crypto's
// own speed tip). Prints a Markdown table and the ratios the issues set as
// goals. BENCH_MS (default 1000) sets the time per operation, BENCH_OPS
// (comma-separated: sign, verify, enc, dec, keygen, sm3, sm4cbc, sm4gcm)
// the operations.
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import os from 'node:os'

const require = createRequire(import.meta.url)
const MS = Number(process.env.BENCH_MS || 1000)
const ROUNDS = 8
const { makeApi, makeSmCrypto, makeSmCryptoV2 } = require('../dist/cjs/lib.js')
const engines = require('../dist/cjs/node.js')
const v1 = require('sm-crypto')
const v2 = require('sm-crypto-v2')

function cpu () { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 }
// calls of fn for ms of wall time: [count, CPU seconds]
function slice (fn, ms) {
  let n = 0
  const w0 = performance.now(); const c0 = cpu()
  do { fn(); n++ } while (performance.now() - w0 < ms)
  return [n, cpu() - c0]
}

const kp = v2.sm2.generateKeyPairHex()
const msg = 'x'.repeat(32)
const mb = new TextEncoder().encode(msg)
const big = new Uint8Array(1 << 20).fill(0x61)
const bigStr = 'a'.repeat(1 << 20)
const SM4_LEN = 16384
const sm4Data = new Uint8Array(SM4_LEN).map((_, i) => i * 7)
const sm4Key = new Uint8Array(16).fill(0x11)
const sm4Iv = new Uint8Array(16).fill(0x22)
const sm4Iv12 = sm4Iv.subarray(0, 12)

function modern (api) {
  const k = api.PrivateKey.fromHex(kp.privateKey)
  const p = api.PublicKey.fromHex(kp.publicKey).precompute()
  const sig = k.sign(mb); const ct = p.encrypt(mb)
  const ops = { sign: () => k.sign(mb), verify: () => p.verify(mb, sig), enc: () => p.encrypt(mb), dec: () => k.decrypt(ct), keygen: () => api.PrivateKey.generate().destroy(), sm3: () => api.sm3(big) }
  try {
    const key = api.sm4.Key.fromBytes(sm4Key)
    api.sm4.gcmEncrypt(key, sm4Iv12, sm4Data)
    ops.sm4cbc = () => api.sm4.cbcEncrypt(key, sm4Iv, sm4Data)
    ops.sm4gcm = () => api.sm4.gcmEncrypt(key, sm4Iv12, sm4Data)
  } catch (e) {} // no SM4 in this build
  return ops
}
// the sm-crypto API: hex keys, publicKey passed to doSignature
function compat (m, o = { hash: true }, pub = kp.publicKey) {
  const s = m.sm2
  const so = { ...o, publicKey: kp.publicKey }
  const sig = s.doSignature(msg, kp.privateKey, so); const ct = s.doEncrypt(msg, pub)
  const ops = { sign: () => s.doSignature(msg, kp.privateKey, so), verify: () => s.doVerifySignature(msg, sig, pub, o), enc: () => s.doEncrypt(msg, pub), dec: () => s.doDecrypt(ct, kp.privateKey), keygen: () => s.generateKeyPairHex(), sm3: () => m.sm3(bigStr) }
  try {
    const cbc = { mode: 'cbc', iv: sm4Iv, output: 'array' }
    m.sm4.encrypt(sm4Data, sm4Key, cbc)
    ops.sm4cbc = () => m.sm4.encrypt(sm4Data, sm4Key, cbc)
    const gcm = { mode: 'gcm', iv: sm4Iv12, output: 'array', outputTag: true }
    m.sm4.encrypt(sm4Data, sm4Key, gcm)
    ops.sm4gcm = () => m.sm4.encrypt(sm4Data, sm4Key, gcm)
  } catch (e) {} // sm-crypto 0.5.8 has no GCM; no SM4 in this build
  return ops
}

const addonApi = makeApi(engines.addon())
const wasmApi = makeApi(engines.wasm())
const scalarApi = makeApi(engines.wasm('scalar'))
const scalarSm4 = (() => { const m = modern(scalarApi); return { sm4cbc: m.sm4cbc, sm4gcm: m.sm4gcm } })()
const libs = {
  'fastsm2 addon (modern API)': modern(addonApi),
  'fastsm2 addon (sm-crypto API)': compat(makeSmCrypto(addonApi)),
  'fastsm2 wasm in Node (modern API)': modern(wasmApi),
  'fastsm2 wasm in Node (sm-crypto API)': compat(makeSmCrypto(wasmApi)),
  'fastsm2 wasm scalar build in Node (modern API)': scalarSm4,
  'sm-crypto-v2 1.15.1': compat(v2),
  'sm-crypto-v2 1.15.1 (precomputed public key)': (() => { const c = compat(v2, { hash: true }, v2.sm2.precomputePublicKey(kp.publicKey)); return { verify: c.verify, enc: c.enc } })(),
  'sm-crypto 0.5.8': compat(v1)
}
// BENCH_OPS=sm4cbc,sm4gcm: only those operations (here and in Chromium)
const only = (op) => !process.env.BENCH_OPS || process.env.BENCH_OPS.split(',').includes(op)
const OPS = ['sign', 'verify', 'enc', 'dec', 'keygen', 'sm3', 'sm4cbc', 'sm4gcm'].filter(only)
const rows = {}
for (const name of Object.keys(libs)) rows[name] = {}
for (const op of OPS) {
  const names = Object.keys(libs).filter((n) => libs[n][op])
  const acc = Object.fromEntries(names.map((n) => [n, [0, 0]]))
  const slow = op === 'sm3' || op.startsWith('sm4')
  for (const n of names) slice(libs[n][op], MS / 10) // warm up: the optimising tiers compile in the background
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const [c, t] = slice(libs[n][op], (slow ? MS / 2 : MS) / ROUNDS)
      acc[n][0] += c; acc[n][1] += t
    }
  }
  for (const n of names) rows[n][op] = acc[n][0] / Math.max(acc[n][1], 1e-6) * (op === 'sm3' ? 1 : op.startsWith('sm4') ? SM4_LEN / 1e6 : 1)
  process.stderr.write('bench: ' + op + '\n')
}

// Chromium: its own run of the page (test/browser/run.mjs --bench)
let browser = null
try {
  const out = execFileSync(process.execPath, [new URL('../test/browser/run.mjs', import.meta.url).pathname, '--bench'], { env: { ...process.env, BENCH_MS: String(MS) }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  browser = JSON.parse(out.trim().split('\n').pop())
} catch (e) {
  process.stderr.write('bench: no Chromium figures (' + (e.status === 77 ? 'Chromium missing' : e.message) + ')\n')
}
if (browser) for (const [name, r] of Object.entries(browser.bench.rows)) rows[name + ' [Chromium]'] = r

const fmt = (v) => v === undefined ? '' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)
const cols = [['sign', 'sign'], ['verify', 'verify'], ['enc', 'encrypt-32'], ['dec', 'decrypt-32'], ['keygen', 'keygen'], ['sm3', 'SM3 MB/s'], ['sm4cbc', 'SM4-CBC MB/s'], ['sm4gcm', 'SM4-GCM MB/s']]
console.log('| per CPU second | ' + cols.map((c) => c[1]).join(' | ') + ' |')
console.log('|---|' + cols.map(() => '---:').join('|') + '|')
for (const [name, r] of Object.entries(rows)) console.log('| ' + name + ' | ' + cols.map(([k]) => fmt(r[k])).join(' | ') + ' |')

const ratio = (a, b, op) => rows[a] && rows[b] && rows[a][op] / rows[b][op]
const V2 = 'sm-crypto-v2 1.15.1'
const wasmSize = statSync(new URL('../fastsm2.wasm', import.meta.url)).size
const simdSize = statSync(new URL('../fastsm2-simd.wasm', import.meta.url)).size
const goals = [
  ['addon sign / sm-crypto-v2, both through the sm-crypto API, publicKey passed (Node)', ratio('fastsm2 addon (sm-crypto API)', V2, 'sign'), 40],
  ['addon verify / sm-crypto-v2, both through the sm-crypto API (Node)', ratio('fastsm2 addon (sm-crypto API)', V2, 'verify'), 80],
  ['addon SM4-GCM (modern API; the sm-crypto API has no GCM) / sm-crypto-v2 SM4-GCM, 16 KiB (Node)', ratio('fastsm2 addon (modern API)', V2, 'sm4gcm'), 20],
  ['wasm sign / sm-crypto-v2, sm-crypto API, publicKey passed (Chromium)', ratio('fastsm2 wasm (sm-crypto API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sign'), 8],
  ['wasm verify / sm-crypto-v2, sm-crypto API (Chromium)', ratio('fastsm2 wasm (sm-crypto API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'verify'), 10],
  ['wasm SM4-CBC / sm-crypto-v2 SM4-CBC, 16 KiB (Chromium)', ratio('fastsm2 wasm (sm-crypto API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sm4cbc'), 5],
  ['addon sign / sm-crypto-v2, modern API (Node)', ratio('fastsm2 addon (modern API)', V2, 'sign'), null],
  ['addon verify / sm-crypto-v2 with its precomputed public key (Node)', ratio('fastsm2 addon (sm-crypto API)', V2 + ' (precomputed public key)', 'verify'), null],
  ['wasm sign / sm-crypto-v2, modern API (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sign'), null],
  ['wasm verify / sm-crypto-v2, modern API (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'verify'), null],
  ['wasm SM4-GCM (modern API) / sm-crypto-v2 SM4-GCM (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sm4gcm'), null],
  ['wasm SM4-CBC, modern API (Uint8Array out, as sm-crypto-v2\'s) / sm-crypto-v2 SM4-CBC (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sm4cbc'), null],
  ['wasm SM4-CBC, SIMD build / scalar build, modern API (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'fastsm2 wasm scalar build (modern API) [Chromium]', 'sm4cbc'), null],
  ['wasm SM4-GCM, SIMD build / scalar build, modern API (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'fastsm2 wasm scalar build (modern API) [Chromium]', 'sm4gcm'), null],
  ['wasm SM4-CBC, modern API / sm-crypto-v2 SM4-CBC, 16 KiB (Node)', ratio('fastsm2 wasm in Node (modern API)', V2, 'sm4cbc'), null],
  ['wasm SM4-CBC, SIMD build / scalar build, modern API (Node)', ratio('fastsm2 wasm in Node (modern API)', 'fastsm2 wasm scalar build in Node (modern API)', 'sm4cbc'), null],
  ['wasm SM4-GCM, SIMD build / scalar build, modern API (Node)', ratio('fastsm2 wasm in Node (modern API)', 'fastsm2 wasm scalar build in Node (modern API)', 'sm4gcm'), null]
]
console.log('\n| goal | measured | bound | met |\n|---|---:|---:|---|')
for (const [what, v, bound] of goals) {
  console.log('| ' + what + ' | ' + (v ? v.toFixed(1) + 'x' : 'n/a') + ' | ' + (bound ? '>= ' + bound + 'x' : '') + ' | ' + (!bound ? '' : v ? (v >= bound ? 'yes' : 'NO') : 'n/a') + ' |')
}
console.log('| fastsm2.wasm, fastsm2-simd.wasm size | ' + (wasmSize / 1024).toFixed(1) + ' KB, ' + (simdSize / 1024).toFixed(1) + ' KB | <= 420 KB | ' + (Math.max(wasmSize, simdSize) <= 430080 ? 'yes' : 'NO') + ' |')
if (browser) {
  const t = browser.first.map((f) => f.totalMs).sort((a, b) => a - b)
  const med = (k) => browser.first.map((f) => f[k]).sort((a, b) => a - b)[browser.first.length >> 1]
  console.log('| instantiation + first encryption, Chromium (median of ' + t.length + ' fresh pages; min-max) | ' + t[t.length >> 1].toFixed(1) + ' ms (' + t[0].toFixed(1) + '-' + t[t.length - 1].toFixed(1) + '; import + instantiate ' + med('instantiateMs').toFixed(1) + ', first encryption ' + med('firstEncryptMs').toFixed(1) + '; the .wasm alone, instantiateStreaming: ' + med('bareMs').toFixed(1) + ') | <= 50 ms | ' + (t[t.length >> 1] <= 50 ? 'yes' : 'NO') + ' |')
}
console.log('\nNode ' + process.version + ', ' + (browser ? browser.bench.userAgent.match(/HeadlessChrome\/[\d.]+/)[0] : 'no Chromium') + ', ' + addonApi.backend + ' addon backend, ' + wasmApi.backend + ' WebAssembly backend (SM4: ' + wasmApi.sm4.backend + ' in the SIMD build, ' + scalarApi.sm4.backend + ' in the scalar one), ' + os.cpus()[0].model + ', ' + os.cpus().length + ' CPUs (load average ' + os.loadavg().map((x) => x.toFixed(1)).join(' ') + ')')
