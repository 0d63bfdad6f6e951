#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs Debian packages for the project's scripts (tools/, tests/harness/,
# bench/): as root, or through sudo; fails loudly when neither is possible.
#
# usage: tools/apt-install.sh WHO PACKAGE...   (WHO names the caller in messages)
set -euo pipefail
who=$1
shift
[ $# -gt 0 ] || exit 0
echo "$who: installing $*" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "$who: need root or sudo to install: $*" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@"
