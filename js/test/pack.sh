#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# npm pack -> install the tarball in an empty directory -> run the README's
# example there, three ways: with the prebuilt addon; with the addon built
# from the C sources in the package (FASTSM2_BUILD_FROM_SOURCE=1, as on a
# platform without a prebuild); with FASTSM2_JS_ENGINE=wasm. ES module
# imports of every entry point, and a TypeScript program compiled against
# the package's generated declarations (the TypeScript of our
# devDependencies). No registry is needed: the package has no runtime
# dependencies.
set -euo pipefail
js=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/fastsm2-pack.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$js"
tgz=$(npm pack --silent --pack-destination "$work" | tail -1)
size=$(stat -c %s "$work/$tgz")
echo "pack: $tgz ($size bytes)"
tar -tzf "$work/$tgz" > "$work/list"
grep -qx package/fastsm2.wasm "$work/list" || { echo "pack: no fastsm2.wasm"; exit 1; }
grep -qx package/prebuilds/linux-x64/fastsm2.napi.node "$work/list" || { echo "pack: no linux-x64 prebuild"; exit 1; }
grep -q '^package/test/' "$work/list" && { echo "pack: tests in the package"; exit 1; }
for f in dist/cjs/index.js dist/esm/browser.js dist/types/index.d.ts dist/types/sm-crypto-v2.d.ts src/addon.c csrc/include/fastsm2.h; do
  grep -qx "package/$f" "$work/list" || { echo "pack: no $f"; exit 1; }
done
grep -q '^package/src/.*\.ts$' "$work/list" && { echo "pack: TypeScript sources in the package"; exit 1; }
# the README's example, as a user copies it
awk '/^```js$/{f=1;next} /^```$/{f=0} f' README.md > "$work/example.js"
want=$'true\nhello SM2\nsecret'
run() { # DIR ENGINE [env...]
  local d=$1 eng=$2
  shift 2
  mkdir -p "$d"
  (cd "$d" && echo '{"name":"empty","version":"1.0.0"}' > package.json &&
    env "$@" npm install --no-audit --no-fund --offline "$work/$tgz" >/dev/null)
  cp "$work/example.js" "$d/"
  got=$(cd "$d" && env "$@" node example.js)
  [ "$got" = "$want" ] || { echo "pack: the README example printed:"; echo "$got"; exit 1; }
  used=$(cd "$d" && env "$@" node -e 'const f=require("fastsm2"); console.log(f.engine)')
  [ "$used" = "$eng" ] || { echo "pack: engine $used, expected $eng"; exit 1; }
  # ES module and the sm-crypto module through the package's exports
  (cd "$d" && env "$@" node --input-type=module -e "
    import { PrivateKey, engine } from 'fastsm2'; import { sm2, sm3 } from 'fastsm2/sm-crypto'
    import v2 from 'fastsm2/sm-crypto-v2'; import { makeApi } from 'fastsm2/lib'; import fastsm2 from 'fastsm2'
    const k = PrivateKey.generate(); if (!k.publicKey.verify(Uint8Array.of(1), k.sign(Uint8Array.of(1)))) process.exit(1)
    if (sm3('abc') !== '66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0') process.exit(1)
    if (typeof v2.sm2.ecdh !== 'function' || typeof makeApi !== 'function' || fastsm2.PrivateKey !== PrivateKey) process.exit(1)")
  echo "pack: README example OK in an empty directory, engine $eng $*"
}
# TypeScript against the generated declarations: what must compile does,
# what must not does not (@ts-expect-error fails the build if it compiles)
typecheck() { # DIR
  cat > "$1/consumer.ts" <<'TS'
import { PrivateKey, PublicKey, FastSM2Error, ERROR_CODES, type SignatureFormat, type FastSM2ErrorCode } from 'fastsm2'
import { sm2, sm3 } from 'fastsm2/sm-crypto'
import v2 from 'fastsm2/sm-crypto-v2'
import type { Engine } from 'fastsm2/lib'
const k: PrivateKey = PrivateKey.generate()
const p: PublicKey = k.publicKey
const f: SignatureFormat = 'der'
const sig: Uint8Array = k.sign(new Uint8Array(1), { format: f })
const ok: boolean = p.verify(new Uint8Array(1), sig, { format: f })
try { PublicKey.fromHex('00') } catch (e) { if (e instanceof FastSM2Error) { const c: FastSM2ErrorCode = e.code; console.log(c, ERROR_CODES[c]) } }
const kp: { privateKey: string, publicKey: string } = sm2.generateKeyPairHex()
const h: string = sm3('abc')
const arr: Uint8Array = v2.sm2.hexToArray('00')
const list: number[] = sm2.hexToArray('00')
const eng: Engine['name'] = 'wasm'
// @ts-expect-error: the modern API takes bytes, not strings
k.sign('text')
// @ts-expect-error: sm-crypto-v2's hexToArray is a Uint8Array
const wrong: number[] = v2.sm2.hexToArray('00')
console.log(ok, kp, h, arr, list, eng, wrong)
TS
  echo '{ "compilerOptions": { "noEmit": true, "strict": true, "target": "es2020", "lib": ["es2021", "dom"], "module": "nodenext",
    "moduleResolution": "nodenext", "types": [] }, "files": ["consumer.ts"] }' > "$1/tsconfig.json"
  (cd "$1" && node "$js/node_modules/typescript/bin/tsc" -p .) || { echo "pack: the TypeScript program does not compile"; exit 1; }
  echo "pack: TypeScript compiles against the package's declarations"
}
run "$work/prebuilt" addon
typecheck "$work/prebuilt"
run "$work/wasm" wasm FASTSM2_JS_ENGINE=wasm
run "$work/from-source" addon FASTSM2_BUILD_FROM_SOURCE=1
[ -f "$work/from-source/node_modules/fastsm2/build/Release/fastsm2.node" ] || { echo "pack: no addon built from source"; exit 1; }
echo "pack: all checks passed"
