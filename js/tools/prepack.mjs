// SPDX-License-Identifier: Apache-2.0
// npm pack: build what the package ships when it is missing or older than
// its sources (tools/build.sh: the addon, the WebAssembly modules, dist/;
// from a fresh clone this is the whole build, a few minutes), then copy
// what a build from source at install needs into csrc/ (the C library's
// src/ and header, and the base-point tables the CMake build generated
// with tools/gen_tables.py).
import { cpSync, rmSync, existsSync, mkdirSync, statSync, readdirSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'

const js = join(dirname(fileURLToPath(import.meta.url)), '..')
const root = join(js, '..')
const outputs = ['fastsm2.wasm', 'fastsm2-simd.wasm', 'dist/cjs/index.js', 'dist/esm/browser.js', 'dist/types/index.d.ts',
  'prebuilds/linux-x64/fastsm2.napi.node']
const tables = 'build/native/generated/ecmult_tables.c' // made once by the CMake build

function newest (p) {
  const st = statSync(p)
  if (!st.isDirectory()) return st.mtimeMs
  let m = 0
  for (const e of readdirSync(p)) m = Math.max(m, newest(join(p, e)))
  return m
}

const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'include')), newest(join(js, 'src')),
  newest(join(js, 'tools', 'build.sh')), newest(join(js, 'package-lock.json')))
const stale = outputs.filter((f) => !existsSync(join(js, f)) || statSync(join(js, f)).mtimeMs < sources)
if (!existsSync(join(js, tables))) stale.push(tables)
if (stale.length) {
  console.error('prepack: building (' + stale.join(', ') + ' missing or older than the sources): tools/build.sh')
  execFileSync('bash', [join(js, 'tools', 'build.sh')], { stdio: ['ignore', 2, 'inherit'] })
}
rmSync(join(js, 'csrc'), { recursive: true, force: true })
mkdirSync(join(js, 'csrc', 'include'), { recursive: true })
cpSync(join(root, 'src'), join(js, 'csrc', 'src'), { recursive: true, filter: (p) => !/\.(cu|cuh|o)$/.test(p) })
cpSync(join(root, 'include', 'fastsm2.h'), join(js, 'csrc', 'include', 'fastsm2.h'))
cpSync(join(js, 'build', 'native', 'generated'), join(js, 'csrc', 'generated'), { recursive: true })
