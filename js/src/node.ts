// SPDX-License-Identifier: Apache-2.0
// Node: the engines, and the package's entry points for Node (CommonJS;
// the ES module entries re-export these, so that both forms share one
// FastSM2Error class and one set of key caches).
//
// The addon is looked for the way node-gyp-build looks for it: a build from
// source (build/Release/fastsm2.node, made by npm install where no prebuild
// loads), then prebuilds/<platform>-<arch>/*.node. Without one that loads,
// the WebAssembly module is the engine. FASTSM2_JS_ENGINE=wasm forces it.
import fs from 'node:fs'
import path from 'node:path'
import { webcrypto } from 'node:crypto'
import { FastSM2Error } from './errors.js'
import { addonEngine, type NativeAddon } from './addon-engine.js'
import { instantiateSync, type WasmEngine } from './wasm-engine.js'
import { pickWasm } from './wasm-select.js'
import type { Engine } from './engine.js'

// dist/cjs/node.js -> the package's root
const root = path.join(__dirname, '..', '..')

function addonCandidates (): string[] {
  const out = [path.join(root, 'build', 'Release', 'fastsm2.node')]
  const dir = path.join(root, 'prebuilds', process.platform + '-' + process.arch)
  try {
    for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.node')) out.push(path.join(dir, f))
  } catch (e) {}
  return out
}

let addonCached: Engine | null = null
let addonError: Error | null = null

/** The Node-API addon's engine, or null where none loads here. */
export function addon (): Engine | null {
  if (addonCached || addonError) return addonCached
  for (const file of addonCandidates()) {
    if (!fs.existsSync(file)) continue
    try {
      const native = require(file) as NativeAddon
      native.setErrorClass(FastSM2Error)
      addonCached = addonEngine(native, file)
      return addonCached
    } catch (e) {
      addonError = e as Error // a prebuild for another C library, say: try the next
    }
  }
  if (!addonError) addonError = new Error('no addon for ' + process.platform + '-' + process.arch)
  return null
}

const wasmCached: Partial<Record<'simd' | 'scalar', WasmEngine>> = {}

/** The WebAssembly engine: the SIMD build where this engine has SIMD, else
 *  the scalar one (FASTSM2_WASM=scalar or simd forces one). */
export function wasm (which: 'simd' | 'scalar' | 'best' = 'best'): WasmEngine {
  const file = pickWasm(which === 'best' ? process.env.FASTSM2_WASM : which, (f) => fs.existsSync(path.join(root, f)))
  const kind = file.includes('simd') ? 'simd' : 'scalar'
  let e = wasmCached[kind]
  if (!e) {
    e = instantiateSync(fs.readFileSync(path.join(root, file)), (u8) => { webcrypto.getRandomValues(u8) })
    wasmCached[kind] = e
  }
  return e
}

/** The addon where one loads, else WebAssembly; FASTSM2_JS_ENGINE=wasm forces WebAssembly. */
export function best (): Engine {
  if (process.env.FASTSM2_JS_ENGINE === 'wasm') return wasm()
  return addon() || wasm()
}

export function lastAddonError (): Error | null { return addonError }
