// SPDX-License-Identifier: Apache-2.0
// lib/*.mjs (the one source of the JavaScript layer) -> dist/cjs/*.js for
// require(). The sources keep to two forms this converter knows:
// `import { a, b } from './x.mjs'` and one `export { a, b }` at the end.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist', 'cjs')
mkdirSync(out, { recursive: true })
for (const f of readdirSync(join(root, 'lib')).filter((f) => f.endsWith('.mjs'))) {
  let s = readFileSync(join(root, 'lib', f), 'utf8')
  s = s.replace(/^import \{([^}]*)\} from '\.\/([\w-]+)\.mjs'$/gm, "const {$1} = require('./$2.js')")
  s = s.replace(/^export \{([^}]*)\}$/gm, 'module.exports = {$1}')
  if (/^\s*(import|export)\b/m.test(s)) throw new Error(f + ': an import/export form tools/build-cjs.mjs does not convert')
  writeFileSync(join(out, f.replace(/\.mjs$/, '.js')), "'use strict'\n// Generated from lib/" + f + ' by tools/build-cjs.mjs; do not edit.\n' + s)
}
writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n')

// dist/fastsm2.browser.mjs: the same modules as one ES module, which
// browser.mjs and browser-sm-crypto.mjs import: one request instead of a
// chain of imports before the .wasm can be fetched.
const order = ['errors', 'bytes', 'api', 'smcrypto', 'wasm-engine']
let bundle = '// Generated from lib/*.mjs by tools/build-cjs.mjs; do not edit.\n'
for (const m of order) {
  let s = readFileSync(join(root, 'lib', m + '.mjs'), 'utf8')
  s = s.replace(/^\/\/ SPDX-License-Identifier: Apache-2.0\n/, '')
  s = s.replace(/^import \{[^}]*\} from '\.\/[\w-]+\.mjs'$/gm, '')
  s = s.replace(/^export \{[^}]*\}$/gm, '')
  bundle += '\n// ---- lib/' + m + '.mjs\n' + s
}
bundle += '\nexport { FastSM2Error, makeApi, makeSmCrypto, instantiate }\n'
writeFileSync(join(root, 'dist', 'fastsm2.browser.mjs'), '// SPDX-License-Identifier: Apache-2.0\n' + bundle)
