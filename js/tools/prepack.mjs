// SPDX-License-Identifier: Apache-2.0
// npm pack: copy what a build from source needs into csrc/ (the C library's
// src/ and header, and the base-point tables the CMake build generated with
// tools/gen_tables.py), and refuse to pack without the built engines.
import { cpSync, rmSync, existsSync, mkdirSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const js = join(dirname(fileURLToPath(import.meta.url)), '..')
const root = join(js, '..')
for (const f of ['fastsm2.wasm', 'dist/cjs/api.js', 'prebuilds/linux-x64/fastsm2.napi.node', 'build/native/generated/ecmult_tables.c']) {
  if (!existsSync(join(js, f))) throw new Error('prepack: ' + f + ' missing: run js/tools/build.sh first')
}
rmSync(join(js, 'csrc'), { recursive: true, force: true })
mkdirSync(join(js, 'csrc', 'include'), { recursive: true })
cpSync(join(root, 'src'), join(js, 'csrc', 'src'), { recursive: true, filter: (p) => !/\.(cu|cuh|o)$/.test(p) })
cpSync(join(root, 'include', 'fastsm2.h'), join(js, 'csrc', 'include', 'fastsm2.h'))
cpSync(join(js, 'build', 'native', 'generated'), join(js, 'csrc', 'generated'), { recursive: true })
