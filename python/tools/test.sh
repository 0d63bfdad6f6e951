#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# PLACEHOLDER until this part lands.
echo "python/tools/test.sh: not built yet"
