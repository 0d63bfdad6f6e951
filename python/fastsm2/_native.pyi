# SPDX-License-Identifier: Apache-2.0
# The cffi extension built by _build_ffi.py: the C API of include/fastsm2.h.
from typing import Any

ffi: Any
lib: Any
