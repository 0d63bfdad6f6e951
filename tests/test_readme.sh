#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's examples run as written: every ```sh block (in one scratch
# directory, with build/ on PATH, stopping at the first failing command), and
# the C example, compiled as the README says, printing what the README says.
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
src=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$(dirname "$0")/shlib.sh"
work=$T

# sh blocks
awk '/^```sh$/{on=1; n++; next} /^```$/{on=0} on{print > (dir "/block" n ".sh")}' dir="$work" "$src/README.md"
nblocks=$(ls "$work"/block*.sh 2>/dev/null | wc -l)
[ "$nblocks" -ge 2 ] && ok || bad "expected at least 2 sh blocks in README.md, found $nblocks"
for b in $(ls "$work"/block*.sh | sort -V); do
  if (cd "$work" && PATH="$build:$PATH" bash -euo pipefail "$b" >"$b.out" 2>&1); then
    ok
  else
    bad "$(basename "$b") failed:"; cat "$b.out" >&2
  fi
done

# the C example
awk '/^```c$/{on=1; next} /^```$/{on=0} on{print}' "$src/README.md" > "$work/example.c"
[ -s "$work/example.c" ] && ok || bad "no C example in README.md"
cmd=$(grep -m1 '^cc -Iinclude example.c' "$src/README.md" || true)
[ -n "$cmd" ] && ok || bad "no build line for the C example"
# a sanitizer build of the library needs the sanitizer runtime at link time
san=""
grep -q '^FASTSM2_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
if (cd "$work" && cc $san -I"$src/include" example.c "$build/libfastsm2.a" -lpthread -o example && ./example > example.out); then
  ok
  for want in "valid: 1" "tampered: 0" "decrypt: FASTSM2_OK, message digest" "tampered: FASTSM2_ERR_DECRYPT"; do
    grep -qxF "$want" "$work/example.out" && ok || bad "example output lacks '$want'"
    grep -qF "\`$want\`" "$src/README.md" && ok || bad "README does not state '$want'"
  done
else
  bad "C example did not build or run"
fi

finish test_readme
