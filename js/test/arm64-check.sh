#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The linux-arm64 prebuild, checked without an arm64 Node: an AArch64 ELF
# shared object; exports the Node-API entry point; every symbol it needs is
# a napi_* function (Node provides those) or a glibc one; and, under
# qemu-aarch64, test/napi-host.c (a minimal Node-API host, cross-compiled)
# loads it with dlopen and checks the GB/T 32905 / 32918 examples through
# its functions, on qemu's default CPU (SM3 instructions: backend
# armv8-sm3) and on a Cortex-A72 (backend armv8). The rest of the C
# library is what tests/harness/test-aarch64.sh tests under qemu-aarch64.
set -euo pipefail
cd "$(dirname "$0")/.."
f=prebuilds/linux-arm64/fastsm2.napi.node
[ -f "$f" ] || { echo "arm64-check: $f not built"; exit 1; }
re=aarch64-linux-gnu-readelf
command -v $re >/dev/null || re=readelf
$re -h "$f" | grep -q 'Machine:.*AArch64' || { echo "arm64-check: $f is not AArch64"; exit 1; }
$re -h "$f" | grep -q 'Type:.*DYN' || { echo "arm64-check: $f is not a shared object"; exit 1; }
$re -W --dyn-syms "$f" | awk '$7!="UND" && $5=="GLOBAL" {print $8}' | grep -qx napi_register_module_v1 ||
  { echo "arm64-check: no napi_register_module_v1"; exit 1; }
bad=$($re -W --dyn-syms "$f" | awk '$7=="UND" && $8!="" {print $8}' | grep -v -E '^napi_|@GLIBC_|^_ITM_|^__gmon_start__$' || true)
[ -z "$bad" ] || { echo "arm64-check: unexpected imports: $bad"; exit 1; }
exported=$($re -W --dyn-syms "$f" | awk '$7!="UND" && $5=="GLOBAL" {print $8}' | sort | tr '\n' ' ')
host=$(mktemp /tmp/napi-host-arm64.XXXXXX)
trap 'rm -f "$host"' EXIT
aarch64-linux-gnu-gcc -O1 -Wall -Wextra -Werror -rdynamic -o "$host" test/napi-host.c -ldl
command -v qemu-aarch64 >/dev/null || bash ../tools/apt-install.sh "js arm64 check" qemu-user
for cpu in max cortex-a72; do
  out=$(QEMU_CPU=$cpu qemu-aarch64 -L /usr/aarch64-linux-gnu "$host" "$f") || { echo "$out"; echo "arm64-check: FAIL under qemu -cpu $cpu"; exit 1; }
  echo "$out" | sed "s/^/  qemu -cpu $cpu: /"
done
echo "$out" | grep -q '^backend: armv8$' || { echo "arm64-check: cortex-a72 did not select the armv8 backend"; exit 1; }
echo "arm64-check: $f: AArch64 shared object, exports: $exported; imports napi_* and glibc only"
