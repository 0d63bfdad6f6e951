// SPDX-License-Identifier: Apache-2.0
// Headless Chromium (Debian's chromium, driven by playwright-core) loads
// test/browser/page.html from a server on 127.0.0.1 and runs the suite on
// the WebAssembly engine; interop fixtures go both ways with sm-crypto and
// sm-crypto-v2 running here in Node. Exit 77 (skipped) with the reason when
// Chromium is missing and cannot be installed.
//   node test/browser/run.mjs            the tests
//   node test/browser/run.mjs --bench    prints the in-browser figures (JSON)
import http from 'node:http'
import { readFile, mkdtemp, rm, stat } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join, extname, normalize } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const js = new URL('../../', import.meta.url).pathname
const root = new URL('../../../', import.meta.url).pathname
const benchMode = process.argv.includes('--bench')
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'

if (!existsSync(CHROMIUM)) {
  try {
    execFileSync('bash', [join(root, 'tools/apt-install.sh'), 'js browser test', 'chromium'], { stdio: 'inherit' })
  } catch (e) {}
  if (!existsSync(CHROMIUM)) {
    console.log('browser test: SKIPPED: ' + CHROMIUM + ' is missing and `apt-get install chromium` failed')
    process.exit(77)
  }
}
const { chromium } = require('playwright-core')

// ---- fixtures from sm-crypto and sm-crypto-v2 ------------------------------
const refs = { 'sm-crypto': require('sm-crypto'), 'sm-crypto-v2': require('sm-crypto-v2') }
function makeFixtures () {
  const fx = { signatures: [], ciphertexts: [], requests: [] }
  for (const [from, ref] of Object.entries(refs)) {
    const kp = ref.sm2.generateKeyPairHex()
    for (const opt of [{ hash: true }, { hash: true, der: true }, { hash: true, userId: 'bob@example.com' }]) {
      const msg = '浏览器 message ' + from
      fx.signatures.push({ from, opt, msg, publicKey: kp.publicKey, sig: ref.sm2.doSignature(msg, kp.privateKey, opt) })
      fx.requests.push({ from, opt, msg, privateKey: kp.privateKey, publicKey: kp.publicKey })
    }
    for (const mode of [0, 1]) {
      const msg = 'login password ' + mode
      fx.ciphertexts.push({ from, mode, msg, privateKey: kp.privateKey, ct: ref.sm2.doEncrypt(msg, kp.publicKey, mode) })
    }
  }
  return fx
}
const fixtures = makeFixtures()

// ---- the server ---------------------------------------------------------------
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.txt': 'text/plain' }
const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1')
  try {
    let body, type
    if (url.pathname === '/vectors.txt') {
      body = await readFile(join(root, 'tests/vectors/gbt32918-examples.txt')); type = '.txt'
    } else if (url.pathname === '/sm4-vectors.txt') {
      body = await readFile(join(root, 'tests/vectors/sm4-examples.txt')); type = '.txt'
    } else if (url.pathname === '/fixtures.json') {
      body = JSON.stringify(fixtures); type = '.json'
    } else {
      let p = normalize(join(js, decodeURIComponent(url.pathname)))
      if (!p.startsWith(js)) throw new Error('outside')
      if (!existsSync(p) || (await stat(p)).isDirectory()) p += '.js' // bare ESM specifiers of @noble/*
      body = await readFile(p); type = extname(p)
    }
    res.writeHead(200, { 'content-type': TYPES[type] || 'application/octet-stream', 'cache-control': 'no-store' })
    res.end(body)
  } catch (e) {
    res.writeHead(404); res.end()
  }
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const base = 'http://127.0.0.1:' + server.address().port

const profile = await mkdtemp(join(tmpdir(), 'fastsm2-chromium-'))
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync']
})
let failed = 0
try {
  const open = async (query) => {
    const page = await ctx.newPage()
    page.on('pageerror', (e) => console.log('page error: ' + e))
    await page.goto(base + '/test/browser/page.html?' + query)
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 300000 })
    const r = await page.evaluate(() => window.__result)
    await page.close()
    if (r.error) throw new Error('in the page: ' + r.error)
    return r
  }
  if (benchMode) {
    const pub = refs['sm-crypto-v2'].sm2.generateKeyPairHex().publicKey
    const firsts = []
    await open('mode=first&pub=' + pub) // not counted: the browser's own first page
    for (let i = 0; i < 5; i++) {
      const f = await open('mode=first&pub=' + pub)
      f.bareMs = (await open('mode=bare')).bareMs // the same conditions, the module alone
      firsts.push(f)
    }
    // the libraries take turns in slices, several rounds per operation;
    // each slice is timed by the page's main-thread CPU time
    const ms = Number(process.env.BENCH_MS || 1000)
    const page = await ctx.newPage()
    await page.goto(base + '/test/browser/page.html?mode=bench')
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 300000 })
    const setup = await page.evaluate(() => window.__result)
    if (setup.error) throw new Error('in the page: ' + setup.error)
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Performance.enable')
    const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value
    const slice = (name, op, t) => page.evaluate(([a, b, c]) => window.__slice(a, b, c), [name, op, t])
    const rows = {}
    for (const name of setup.libs) rows[name] = {}
    const only = (op) => !process.env.BENCH_OPS || process.env.BENCH_OPS.split(',').includes(op)
    for (const op of setup.ops.filter(only)) {
      const names = setup.libs.filter((n) => setup.has[n].includes(op))
      const acc = {}
      const slow = op.startsWith('sm4')
      for (const name of names) { acc[name] = { n: 0, t: 0 }; await slice(name, op, ms / 10) } // warm up
      for (let round = 0; round < 8; round++) {
        for (const name of names) {
          const t0 = await threadTime()
          const n = await slice(name, op, (slow ? ms / 2 : ms) / 8)
          const t1 = await threadTime()
          acc[name].n += n
          acc[name].t += t1 - t0
        }
      }
      for (const name of names) rows[name][op] = acc[name].n / acc[name].t * (setup.scale[op] || 1)
    }
    await page.close()
    console.log(JSON.stringify({ first: firsts, bench: { rows, userAgent: setup.userAgent } }))
  } else {
    const r = await open('mode=test')
    console.log('browser: ' + r.userAgent + '; engine ' + r.engine + ', backend ' + r.backend + ', SM4 ' + r.sm4Backend)
    // Chromium has WebAssembly SIMD: the SIMD build and its SM4 table
    if (r.sm4Backend !== 'wasm-simd') { failed++; console.log('FAIL the page\'s SM4 table is ' + r.sm4Backend + ', want wasm-simd (fastsm2-simd.wasm)') }
    for (const c of r.results) {
      console.log((c.ok ? (c.skip ? 'SKIP ' : 'ok   ') : 'FAIL ') + c.name + (c.skip ? ' (' + c.skip + ')' : '') + (c.ok ? '' : '\n' + c.error))
      if (!c.ok) failed++
    }
    for (const c of r.checks) { if (!c.ok) { failed++; console.log('FAIL interop in the browser: ' + c.what) } }
    console.log('interop: ' + r.checks.length + ' fixtures of sm-crypto / sm-crypto-v2 checked in the browser')
    // what the browser made, checked here with both references
    let n = 0
    for (const [name, ref] of Object.entries(refs)) {
      for (const s of r.produced.signatures) {
        n++
        if (!ref.sm2.doVerifySignature(s.msg, s.sig, s.publicKey, s.opt)) { failed++; console.log('FAIL ' + name + ' rejects a browser signature ' + JSON.stringify(s.opt)) }
      }
      for (const c of r.produced.ciphertexts) {
        n++
        if (ref.sm2.doDecrypt(c.ct, c.privateKey, c.mode) !== c.msg) { failed++; console.log('FAIL ' + name + ' cannot decrypt a browser ciphertext, mode ' + c.mode) }
      }
      for (const k of r.produced.keys) {
        n++
        if (ref.sm2.getPublicKeyFromPrivateKey(k.privateKey) !== k.publicKey || ref.sm2.compressPublicKeyHex(k.publicKey) !== k.compressed ||
          refs['sm-crypto'].sm3('abc') !== k.sm3 || refs['sm-crypto'].sm3('abc', { key: '0011' }) !== k.hmac) { failed++; console.log('FAIL key/sm3 from the browser differs for ' + name) }
      }
    }
    console.log('interop: ' + n + ' browser outputs checked with sm-crypto and sm-crypto-v2')
    const skipped = r.results.filter((c) => c.skip).length
    console.log(failed ? 'browser test: ' + failed + ' FAILED' : 'browser test: ' + (r.results.length - skipped) + ' cases passed, ' + skipped + ' skipped')
  }
} finally {
  await ctx.close()
  server.close()
  await rm(profile, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
