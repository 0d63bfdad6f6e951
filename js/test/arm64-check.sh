#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The linux-arm64 prebuild, checked without an arm64 Node: an AArch64 ELF
# shared object; exports the Node-API entry point; every symbol it needs is
# a napi_* function (Node provides those) or a glibc one. The C library it
# links is the one tools/test-aarch64.sh tests under qemu-aarch64.
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
echo "arm64-check: $f: AArch64 shared object, exports: $exported; imports napi_* and glibc only"
