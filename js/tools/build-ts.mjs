// SPDX-License-Identifier: Apache-2.0
// src/*.ts -> dist/cjs (CommonJS, Node), dist/esm (ES modules, browsers and
// bundlers) and dist/types (the declarations), with the TypeScript of
// package-lock.json (npm ci).
import { rmSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const js = join(dirname(fileURLToPath(import.meta.url)), '..')
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
rmSync(join(js, 'dist'), { recursive: true, force: true })
for (const p of ['tsconfig.json', 'tsconfig.esm.json']) execFileSync(process.execPath, [tsc, '-p', join(js, p)], { stdio: 'inherit' })
writeFileSync(join(js, 'dist', 'cjs', 'package.json'), '{ "type": "commonjs" }\n')
writeFileSync(join(js, 'dist', 'esm', 'package.json'), '{ "type": "module" }\n')
