// SPDX-License-Identifier: Apache-2.0
'use strict'
// npm install: when no prebuilt addon loads here (another platform, another
// C library), build one from the C sources the package carries (csrc/)
// into build/Release/fastsm2.node with the C compiler ($CC or cc) and the
// Node-API headers of this Node. If that is not possible the package still
// works: the WebAssembly engine is used (slower). Never fails the install.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const js = path.join(__dirname, '..')
const say = (m) => console.log('fastsm2: ' + m)

function prebuildLoads () {
  try {
    const e = require('../dist/cjs/node.js')
    return e.addon() !== null
  } catch (e) {
    return false
  }
}

function headers () {
  const cands = [process.env.NODE_API_HEADERS, path.join(path.dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node', '/usr/local/include/node']
  return cands.find((d) => d && fs.existsSync(path.join(d, 'node_api.h')))
}

function sources (dir) {
  const out = []
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) out.push(...sources(p))
    else if (e.name.endsWith('.c')) out.push(p)
  }
  return out
}

function build () {
  const csrc = path.join(js, 'csrc')
  if (!fs.existsSync(csrc)) return say('no C sources in this copy of the package; using WebAssembly')
  const inc = headers()
  if (!inc) return say('no Node-API headers found (set NODE_API_HEADERS); using WebAssembly')
  const cc = process.env.CC || 'cc'
  const tmp = path.join(js, 'build', 'from-source')
  fs.mkdirSync(tmp, { recursive: true })
  const flags = ['-std=gnu11', '-O2', '-fPIC', '-fvisibility=hidden', '-I' + path.join(csrc, 'include'), '-I' + path.join(csrc, 'src'), '-I' + path.join(csrc, 'generated')]
  const ecSource = path.join(csrc, 'src', 'ec', 'ec_backend.c')
  const objs = []
  const compile = (src, extra, name) => {
    const o = path.join(tmp, name + '.o')
    execFileSync(cc, [...flags, ...extra, '-c', src, '-o', o], { stdio: 'inherit' })
    objs.push(o)
  }
  let i = 0
  for (const src of [...sources(path.join(csrc, 'src')), path.join(csrc, 'generated', 'ecmult_tables.c')]) {
    if (src !== ecSource) compile(src, [], 'u' + i++)
  }
  // the EC backend once per line of src/ec/variants.txt, with its macros
  for (const line of fs.readFileSync(path.join(csrc, 'src', 'ec', 'variants.txt'), 'utf8').split('\n')) {
    if (!/^[a-z]/.test(line)) continue
    const [name, ...macros] = line.trim().split(/\s+/)
    compile(ecSource, macros.map((m) => '-D' + m), 'ec_' + name)
  }
  compile(path.join(js, 'src', 'addon.c'), ['-I' + inc, '-DNODE_GYP_MODULE_NAME=fastsm2'], 'addon')
  const out = path.join(js, 'build', 'Release', 'fastsm2.node')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  const ldflags = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared', '-lpthread']
  execFileSync(cc, [...objs, ...ldflags, '-o', out], { stdio: 'inherit' })
  fs.rmSync(tmp, { recursive: true, force: true })
  say('built ' + out)
}

if (process.env.FASTSM2_BUILD_FROM_SOURCE !== '1' && prebuildLoads()) process.exit(0)
try {
  build()
} catch (e) {
  say('building the addon from source failed (' + e.message + '); using WebAssembly')
}
