// SPDX-License-Identifier: Apache-2.0
// `make bench-js`: the same work, in one run, for the addon, WebAssembly in
// Node, WebAssembly in Chromium, sm-crypto and sm-crypto-v2. Node rows are
// operations per CPU second of this process (process.cpuUsage: robust to
// other load on the machine); the Chromium rows operations per CPU second
// of the page's main thread (DevTools' ThreadTime), sm-crypto and
// sm-crypto-v2 timed in the same page, the libraries taking turns. Prints a Markdown table and the
// ratios the issue sets as goals.
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import os from 'node:os'

const require = createRequire(import.meta.url)
const MS = Number(process.env.BENCH_MS || 1000)
const { makeApi, makeSmCrypto, makeSmCryptoV2 } = require('../dist/cjs/lib.js')
const engines = require('../dist/cjs/node.js')
const v1 = require('sm-crypto')
const v2 = require('sm-crypto-v2')

function cpu () { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 }
function timeOps (fn, ms) {
  const w = performance.now()
  while (performance.now() - w < ms / 3) fn() // warm up: the optimising tiers compile in the background
  let n = 0
  const w0 = performance.now(); const c0 = cpu()
  while (performance.now() - w0 < ms) { for (let i = 0; i < 4; i++) fn(); n += 4 }
  return n / Math.max(cpu() - c0, 1e-6)
}

const kp = v2.sm2.generateKeyPairHex()
const msg = 'x'.repeat(32)
const mb = new TextEncoder().encode(msg)
const big = new Uint8Array(1 << 20).fill(0x61)
const bigStr = 'a'.repeat(1 << 20)
const rows = {}

function modern (api) {
  const k = api.PrivateKey.fromHex(kp.privateKey)
  const p = api.PublicKey.fromHex(kp.publicKey).precompute()
  const sig = k.sign(mb); const ct = p.encrypt(mb)
  return { sign: () => k.sign(mb), verify: () => p.verify(mb, sig), enc: () => p.encrypt(mb), dec: () => k.decrypt(ct), keygen: () => api.PrivateKey.generate().destroy(), sm3: () => api.sm3(big) }
}
function compat (s, sm3, o = { hash: true }, pub = kp.publicKey) {
  const sig = s.doSignature(msg, kp.privateKey, o); const ct = s.doEncrypt(msg, pub)
  return { sign: () => s.doSignature(msg, kp.privateKey, o), verify: () => s.doVerifySignature(msg, sig, pub, o), enc: () => s.doEncrypt(msg, pub), dec: () => s.doDecrypt(ct, kp.privateKey), keygen: () => s.generateKeyPairHex(), sm3: () => sm3(bigStr) }
}

const addonApi = makeApi(engines.addon())
const wasmApi = makeApi(engines.wasm())
const libs = {
  'fastsm2 addon (modern API)': modern(addonApi),
  'fastsm2 addon (sm-crypto API)': compat(makeSmCrypto(addonApi).sm2, makeSmCrypto(addonApi).sm3),
  'fastsm2 wasm in Node (modern API)': modern(wasmApi),
  'fastsm2 wasm in Node (sm-crypto API)': compat(makeSmCrypto(wasmApi).sm2, makeSmCrypto(wasmApi).sm3),
  'sm-crypto-v2 1.15.1': compat(v2.sm2, v2.sm3),
  'sm-crypto-v2 1.15.1 (precomputed public key)': (() => { const pre = v2.sm2.precomputePublicKey(kp.publicKey); const c = compat(v2.sm2, v2.sm3, { hash: true }, pre); return { verify: c.verify, enc: c.enc } })(),
  'sm-crypto 0.5.8': compat(v1.sm2, v1.sm3)
}
for (const [name, ops] of Object.entries(libs)) {
  rows[name] = {}
  for (const [op, fn] of Object.entries(ops)) {
    const slow = name.startsWith('sm-crypto 0') || op === 'sm3'
    rows[name][op] = timeOps(fn, slow ? MS / 2 : MS)
    if (op === 'sm3') rows[name][op] = rows[name][op] // calls of 1 MiB each = MB/s
  }
  process.stderr.write('bench: ' + name + '\n')
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
const cols = [['sign', 'sign'], ['verify', 'verify'], ['enc', 'encrypt-32'], ['dec', 'decrypt-32'], ['keygen', 'keygen'], ['sm3', 'SM3 MB/s']]
console.log('| ops per second | ' + cols.map((c) => c[1]).join(' | ') + ' |')
console.log('|---|' + cols.map(() => '---:').join('|') + '|')
for (const [name, r] of Object.entries(rows)) console.log('| ' + name + ' | ' + cols.map(([k]) => fmt(r[k])).join(' | ') + ' |')

const ratio = (a, b, op) => rows[a] && rows[b] && rows[a][op] / rows[b][op]
const wasmSize = statSync(new URL('../fastsm2.wasm', import.meta.url)).size
const goals = [
  ['addon sign / sm-crypto-v2 sign (Node)', ratio('fastsm2 addon (modern API)', 'sm-crypto-v2 1.15.1', 'sign'), 40],
  ['addon verify / sm-crypto-v2 verify (Node)', ratio('fastsm2 addon (modern API)', 'sm-crypto-v2 1.15.1', 'verify'), 50],
  ['addon sign / sm-crypto-v2 sign, both through the sm-crypto API', ratio('fastsm2 addon (sm-crypto API)', 'sm-crypto-v2 1.15.1', 'sign'), 40],
  ['addon verify / sm-crypto-v2 verify, both through the sm-crypto API', ratio('fastsm2 addon (sm-crypto API)', 'sm-crypto-v2 1.15.1', 'verify'), 50],
  ['wasm sign / sm-crypto-v2 sign (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sign'), 5],
  ['wasm encrypt-32 / sm-crypto-v2 encrypt-32 (Chromium)', ratio('fastsm2 wasm (modern API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'enc'), 5],
  ['wasm sign / sm-crypto-v2, sm-crypto API (Chromium)', ratio('fastsm2 wasm (sm-crypto API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'sign'), 5],
  ['wasm encrypt-32 / sm-crypto-v2, sm-crypto API (Chromium)', ratio('fastsm2 wasm (sm-crypto API) [Chromium]', 'sm-crypto-v2 [Chromium]', 'enc'), 5]
]
console.log('\n| goal | measured | bound | met |\n|---|---:|---:|---|')
for (const [what, v, bound] of goals) console.log('| ' + what + ' | ' + (v ? v.toFixed(1) + 'x' : 'n/a') + ' | >= ' + bound + 'x | ' + (v ? (v >= bound ? 'yes' : 'NO') : 'n/a') + ' |')
console.log('| fastsm2.wasm size | ' + (wasmSize / 1024).toFixed(1) + ' KB | <= 400 KB | ' + (wasmSize <= 409600 ? 'yes' : 'NO') + ' |')
if (browser) {
  const t = browser.first.map((f) => f.totalMs).sort((a, b) => a - b)
  const med = (k) => browser.first.map((f) => f[k]).sort((a, b) => a - b)[browser.first.length >> 1]
  console.log('| instantiation + first encryption, Chromium (median of ' + t.length + ' fresh pages; min-max) | ' + t[t.length >> 1].toFixed(1) + ' ms (' + t[0].toFixed(1) + '-' + t[t.length - 1].toFixed(1) + '; import + instantiate ' + med('instantiateMs').toFixed(1) + ', first encryption ' + med('firstEncryptMs').toFixed(1) + '; the .wasm alone, instantiateStreaming: ' + med('bareMs').toFixed(1) + ') | <= 50 ms | ' + (t[t.length >> 1] <= 50 ? 'yes' : 'NO') + ' |')
}
console.log('\nNode ' + process.version + ', ' + (browser ? browser.bench.userAgent.match(/HeadlessChrome\/[\d.]+/)[0] : 'no Chromium') + ', ' + os.cpus()[0].model + ', ' + os.cpus().length + ' CPUs shared with other work (load average ' + os.loadavg().map((x) => x.toFixed(1)).join(' ') + ')')
