#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# PLACEHOLDER until this part lands.
echo "tools/test-gpu.sh: not built yet"
