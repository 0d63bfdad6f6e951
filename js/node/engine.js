// SPDX-License-Identifier: Apache-2.0
'use strict'
// Node: the engines. The addon is looked for the way node-gyp-build looks
// for it: a build from source (build/Release/fastsm2.node, made by npm
// install where no prebuild loads), then prebuilds/<platform>-<arch>/*.node. Without one that loads,
// the WebAssembly module is the engine. FASTSM2_JS_ENGINE=wasm forces it.
const fs = require('node:fs')
const path = require('node:path')
const { webcrypto } = require('node:crypto')
const { FastSM2Error } = require('../dist/cjs/errors.js')
const { instantiateSync } = require('../dist/cjs/wasm-engine.js')

const root = path.join(__dirname, '..')

function addonCandidates () {
  const out = [path.join(root, 'build', 'Release', 'fastsm2.node')]
  const dir = path.join(root, 'prebuilds', process.platform + '-' + process.arch)
  try {
    for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.node')) out.push(path.join(dir, f))
  } catch (e) {}
  return out
}

let addonEngine
let addonError
function addon () {
  if (addonEngine || addonError) return addonEngine
  for (const file of addonCandidates()) {
    if (!fs.existsSync(file)) continue
    try {
      const a = require(file)
      a.setErrorClass(FastSM2Error)
      addonEngine = Object.assign({ name: 'addon', file }, a)
      return addonEngine
    } catch (e) {
      addonError = e // a prebuild for another C library, say: try the next
    }
  }
  if (!addonError) addonError = new Error('no addon for ' + process.platform + '-' + process.arch)
  return null
}

let wasmEngine
function wasm () {
  if (!wasmEngine) {
    const bytes = fs.readFileSync(path.join(root, 'fastsm2.wasm'))
    wasmEngine = instantiateSync(bytes, (u8) => webcrypto.getRandomValues(u8))
  }
  return wasmEngine
}

function best () {
  if (process.env.FASTSM2_JS_ENGINE === 'wasm') return wasm()
  return addon() || wasm()
}

module.exports = { addon, wasm, best, addonError: () => addonError }
