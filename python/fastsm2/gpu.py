# SPDX-License-Identifier: Apache-2.0
"""The CUDA GPU API of the C library (batches of GB/T 32918.1/.2
operations on one device).

A package built from source compiles the library without CUDA: then
:func:`device_count` is 0, :class:`GPU` raises
:class:`fastsm2.UnsupportedError`, and the batch calls of the package run
on CPU threads. To use a GPU, build libfastsm2 with CUDA (CMake) and
install the package with ``FASTSM2_PY_LINK=/path/to/libfastsm2.so`` set;
batch calls then use device 0 automatically for large batches (see
:mod:`fastsm2` ``sign_digest_batch``'s ``gpu`` argument and the
``FASTSM2_GPU`` environment variable).
"""
import threading
from typing import List

from ._errors import check_ok, raise_for
from ._native import ffi, lib
from ._util import BytesLike, as_bytes

__all__ = ["device_count", "GPU"]


def device_count() -> int:
    """Number of usable CUDA devices; 0 without CUDA or without a device."""
    return int(lib.fastsm2_gpu_device_count())


class GPU:
    """A context on one CUDA device: its tables, streams and buffers.

    constant_time=True (the default) asks for full-scan table selection (no
    memory access depends on a secret; slower). Calls on one context are
    serialized by a lock. Close with :meth:`close` or a ``with`` block."""

    def __init__(self, device: int = 0, constant_time: bool = True) -> None:
        if not isinstance(device, int) or isinstance(device, bool):
            raise TypeError("device must be an int")
        if not 0 <= device < 1 << 31:
            raise ValueError("device must be a CUDA device index >= 0")
        self._lock = threading.Lock()
        self._ctx = ffi.NULL
        pp = ffi.new("fastsm2_gpu **")
        flags = lib.FASTSM2_GPU_CONSTANT_TIME if constant_time else 0
        check_ok(lib.fastsm2_gpu_new(pp, device, flags))
        self._ctx = pp[0]
        self.device = device
        self.constant_time = bool(constant_time)

    @property
    def name(self) -> str:
        """The device's name, e.g. "NVIDIA H100 80GB HBM3"."""
        return ffi.string(lib.fastsm2_gpu_device_name(self._ctx)).decode("utf-8", "replace")

    def close(self) -> None:
        """Free the context (device buffers that held secrets are wiped)."""
        with self._lock:
            if self._ctx != ffi.NULL:
                lib.fastsm2_gpu_free(self._ctx)
                self._ctx = ffi.NULL

    def __del__(self) -> None:
        ctx = getattr(self, "_ctx", None)
        if ctx is not None and ctx != ffi.NULL and lib is not None:
            lib.fastsm2_gpu_free(ctx)
            self._ctx = ffi.NULL

    def __enter__(self) -> "GPU":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _live(self):
        if self._ctx == ffi.NULL:
            raise ValueError("GPU context is closed")
        return self._ctx

    # Raw calls used by fastsm2's batch functions (status codes, no raise).
    def _sign(self, sigs, keys, nkeys: int, digests: bytes, n: int) -> int:
        with self._lock:
            return lib.fastsm2_gpu_sign_digest_batch(self._live(), sigs, keys, nkeys, digests, n)

    def _verify(self, results, pubs, npubs: int, digests: bytes, sigs: bytes, n: int) -> int:
        with self._lock:
            return lib.fastsm2_gpu_verify_digest_batch(self._live(), results, pubs, npubs, digests, sigs, n)

    def sign_digest_batch(self, keys, digests, *, raw: bool = False) -> List[bytes]:
        """:func:`fastsm2.sign_digest_batch` on this device."""
        from ._batch import sign_digest_batch

        return sign_digest_batch(keys, digests, raw=raw, gpu=self)

    def verify_digest_batch(self, pubs, digests, sigs, *, raw: bool = False) -> List[bool]:
        """:func:`fastsm2.verify_digest_batch` on this device."""
        from ._batch import verify_digest_batch

        return verify_digest_batch(pubs, digests, sigs, raw=raw, gpu=self)

    def keygen_batch(self, privs: BytesLike) -> List[bytes]:
        """Public keys P = dG (65-byte SEC1 points) of n private scalars given
        as one buffer of n*32 bytes big-endian, each d in [1, n-2]."""
        d = as_bytes(privs, "privs")
        if len(d) % 32:
            raise ValueError("privs length must be a multiple of 32")
        n = len(d) // 32
        if n == 0:
            return []
        out = ffi.new("unsigned char[]", 65 * n)
        with self._lock:
            ret = lib.fastsm2_gpu_keygen_batch(self._live(), out, d, n)
        if ret != 1:
            raise_for(ret)
        buf = ffi.buffer(out)[:]
        return [buf[i * 65:(i + 1) * 65] for i in range(n)]

    def __repr__(self) -> str:
        return "<fastsm2.gpu.GPU %d %r>" % (self.device, self.name)


