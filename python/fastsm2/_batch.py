# SPDX-License-Identifier: Apache-2.0
"""Batch signing and verification (GB/T 32918.2 clauses 6.1 and 7.1 for
each item): one C call for the whole batch, the GIL released, spread over
all cores by the C library's threads, or run on a CUDA GPU.

GPU policy (the ``gpu`` argument):

* ``None`` (default): the ``FASTSM2_GPU`` environment variable decides:
  ``off``/``0`` never uses the GPU, ``on``/``1`` requires it, and unset or
  ``auto`` uses device 0 when :func:`fastsm2.gpu.device_count` is positive
  and the batch has at least :data:`GPU_MIN_BATCH` items, falling back to
  CPU threads if the GPU cannot be used;
* ``False``: CPU threads only;
* ``True``: the GPU, or :class:`UnsupportedError` when there is none;
* a :class:`fastsm2.gpu.GPU` object: that device, no fallback.

The automatic GPU context is made with ``FASTSM2_GPU_CONSTANT_TIME`` (no
memory access that depends on a secret); make your own
``fastsm2.gpu.GPU(constant_time=False)`` for the faster table lookups.
"""
import os
import threading
from builtins import id as _object_id
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import UnsupportedError, check_ok, raise_for
from ._keys import PrivateKey, PublicKey
from ._native import ffi, lib
from ._stream import sm3_many
from ._util import DEFAULT_ID, BytesLike, IdLike, as_bytes, as_id

__all__ = ["sign_digest_batch", "verify_digest_batch", "sign_batch", "verify_batch", "GPU_MIN_BATCH"]

#: In automatic mode, smaller batches stay on the CPU (a GPU launch costs more
#: than it saves for them).
GPU_MIN_BATCH = 1024

_OK = 1
_FALLBACK_CODES = (lib.FASTSM2_ERR_UNSUPPORTED, lib.FASTSM2_ERR_NO_MEMORY)

Keys = Union[PrivateKey, Sequence[PrivateKey]]
Pubs = Union[PublicKey, Sequence[PublicKey]]
Items = Union[BytesLike, Sequence[BytesLike]]


# ---- the calls, as module attributes so that tests can watch them -----------
def _device_count() -> int:
    return int(lib.fastsm2_gpu_device_count())


def _cpu_sign(sigs, keys, nkeys: int, digests: bytes, n: int, threads: int) -> int:
    return lib.fastsm2_sign_digest_batch(sigs, keys, nkeys, digests, n, threads)


def _cpu_verify(results, pubs, npubs: int, digests: bytes, sigs: bytes, n: int, threads: int) -> int:
    return lib.fastsm2_verify_digest_batch(results, pubs, npubs, digests, sigs, n, threads)


# ---- the automatic GPU context ------------------------------------------------
_auto_lock = threading.Lock()
_auto_gpu: Any = None  # a fastsm2.gpu.GPU, or False once making one failed


def _auto_device(require: bool):
    """The shared GPU context on device 0, made on first use; None when it
    cannot be made (UnsupportedError instead when require is true)."""
    global _auto_gpu
    from .gpu import GPU  # noqa: late import (gpu imports this module)

    with _auto_lock:
        if _auto_gpu is None or (_auto_gpu is False and require):
            try:
                _auto_gpu = GPU(0, constant_time=True)
            except UnsupportedError:
                if require:
                    raise
                _auto_gpu = False
            except Exception:
                if require:
                    raise
                _auto_gpu = False
        return _auto_gpu or None


def _gpu_mode(gpu: object) -> str:
    if gpu is True:
        return "require"
    if gpu is False:
        return "off"
    if gpu is not None:
        return "device"
    env = os.environ.get("FASTSM2_GPU", "auto").strip().lower()
    if env in ("0", "off", "no", "false", "cpu"):
        return "off"
    if env in ("1", "on", "yes", "true", "require", "gpu"):
        return "require"
    return "auto"


def _pick_device(gpu: object, n: int) -> Tuple[Any, str]:
    from .gpu import GPU

    mode = _gpu_mode(gpu)
    if mode == "device":
        if not isinstance(gpu, GPU):
            raise TypeError("gpu must be None, a bool or a fastsm2.gpu.GPU")
        return gpu, mode
    if mode == "off":
        return None, mode
    if mode == "require":
        if _device_count() <= 0:
            raise_for(lib.FASTSM2_ERR_UNSUPPORTED)
        return _auto_device(True), mode
    if n >= GPU_MIN_BATCH and _device_count() > 0:
        return _auto_device(False), mode
    return None, mode


def batch_backend(n: int, gpu: object = None) -> str:
    """Where a batch of n items would run: ``"gpu:<device name>"`` or
    ``"cpu"`` (makes the automatic GPU context if it would be used)."""
    dev, _ = _pick_device(gpu, n)
    return "gpu:" + dev.name if dev is not None else "cpu"


# ---- packing ---------------------------------------------------------------------
def _pack(items: Items, size: int, what: str) -> Tuple[bytes, int]:
    if isinstance(items, (bytes, bytearray, memoryview)):
        b = as_bytes(items, what)
        if len(b) % size:
            raise ValueError("%s buffer length %d is not a multiple of %d" % (what, len(b), size))
        return b, len(b) // size
    if isinstance(items, str):
        raise TypeError("%s must be bytes-like or a sequence of bytes-like items" % what)
    parts = [as_bytes(x, what) for x in items]
    for p in parts:
        if len(p) != size:
            raise ValueError("each %s must be %d bytes, not %d" % (what, size, len(p)))
    return b"".join(parts), len(parts)


def _key_list(keys: Any, n: int, cls: type, arg: str, noun: str) -> List[Any]:
    """keys as a list of n objects of class cls (keys not one of them)."""
    if isinstance(keys, (str, bytes, bytearray, memoryview)):
        raise TypeError("%s must be a %s or a sequence of %s" % (arg, cls.__name__, cls.__name__))
    ks = list(keys)
    if len(ks) != n:
        raise ValueError("need 1 %s or one per item (%d), got %d" % (noun, n, len(ks)))
    for k in ks:
        if not isinstance(k, cls):
            raise TypeError("%s must be %s objects, not %s" % (arg, cls.__name__, type(k).__name__))
    return ks


def _pack_privkeys(keys: Keys, n: int):
    if isinstance(keys, PrivateKey):
        return keys._k, 1, None
    arr = ffi.new("fastsm2_privkey[]", n)
    for i, k in enumerate(_key_list(keys, n, PrivateKey, "keys", "key")):
        arr[i] = k._k[0]
    return arr, n, arr


def _pack_pubkeys(pubs: Pubs, n: int):
    if isinstance(pubs, PublicKey):
        return pubs._p, 1
    arr = ffi.new("fastsm2_pubkey[]", n)
    for i, p in enumerate(_key_list(pubs, n, PublicKey, "pubs", "public key")):
        p._copy_to(arr + i)
    return arr, n


def _pack_sigs(sigs: Items, n: int, raw: bool) -> Tuple[bytes, List[int]]:
    """n raw signatures, and the indexes of those that did not decode (a
    zero signature stands in for them: r = 0 never verifies)."""
    bad: List[int] = []
    if raw:
        b, m = _pack(sigs, 64, "signature") if isinstance(sigs, (bytes, bytearray, memoryview)) else (None, 0)
        if b is None:
            parts = []
            for i, s in enumerate(sigs):
                s = as_bytes(s, "signature")
                if len(s) != 64:
                    bad.append(i)
                    s = bytes(64)
                parts.append(s)
            b, m = b"".join(parts), len(parts)
    else:
        if isinstance(sigs, (bytes, bytearray, memoryview, str)):
            raise TypeError("DER signatures must be a sequence of bytes-like items")
        out = ffi.new("unsigned char[64]")
        parts = []
        for i, s in enumerate(sigs):
            s = as_bytes(s, "signature")
            if lib.fastsm2_sig_from_der(out, s, len(s)) == _OK:
                parts.append(ffi.buffer(out, 64)[:])
            else:
                bad.append(i)
                parts.append(bytes(64))
        b, m = b"".join(parts), len(parts)
    if m != n:
        raise ValueError("got %d signatures for %d digests" % (m, n))
    return b, bad


def _split(buf: bytes, size: int, n: int) -> List[bytes]:
    return [buf[i * size:(i + 1) * size] for i in range(n)]


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return 0
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 0:
        raise ValueError("threads must be a non-negative int (0 = all cores)")
    return min(threads, 1024)  # the C library uses at most 256


# ---- the public calls --------------------------------------------------------
def sign_digest_batch(keys: Keys, digests: Items, *, raw: bool = False, threads: Optional[int] = None,
                      gpu: object = None) -> List[bytes]:
    """Sign n 32-byte digests (GB/T 32918.2 6.1 A3-A7 each, a fresh k each).

    keys: one PrivateKey for all, or one per digest. digests: a sequence of
    32-byte items or one buffer of n*32 bytes. Returns n signatures, DER or
    64-byte r || s (raw=True). threads: None/0 = all cores. gpu: see the
    module docs. The GIL is released for the whole batch."""
    d, n = _pack(digests, 32, "digest")
    if n == 0:
        return []
    karr, nkeys, copy = _pack_privkeys(keys, n)
    nthreads = _threads(threads)
    sigs = ffi.new("unsigned char[]", 64 * n)
    try:
        ret = _device_or_cpu(gpu, n, lambda dev: dev._sign(sigs, karr, nkeys, d, n),
                             lambda: _cpu_sign(sigs, karr, nkeys, d, n, nthreads))
    finally:
        if copy is not None:
            for i in range(n):
                lib.fastsm2_privkey_clear(copy + i)
    check_ok(ret)
    out = _split(ffi.buffer(sigs)[:], 64, n)
    if raw:
        return out
    return [_der(s) for s in out]


def _device_or_cpu(gpu: object, n: int, on_device: Callable[[Any], int], on_cpu: Callable[[], int]) -> int:
    """The status of a batch run on the device _pick_device chooses, or on
    the CPU: when it chooses none, or in "auto" mode when the device cannot
    run it (_FALLBACK_CODES)."""
    dev, mode = _pick_device(gpu, n)
    if dev is not None:
        ret = on_device(dev)
        if not (ret != _OK and mode == "auto" and ret in _FALLBACK_CODES):
            return ret
    return on_cpu()


def _der(raw64: bytes) -> bytes:
    o = ffi.new("unsigned char[72]")
    olen = ffi.new("size_t *", 72)
    lib.fastsm2_sig_to_der(o, olen, raw64)
    return ffi.buffer(o, olen[0])[:]


def verify_digest_batch(pubs: Pubs, digests: Items, sigs: Items, *, raw: bool = False,
                        threads: Optional[int] = None, gpu: object = None) -> List[bool]:
    """Verify n (digest, signature) pairs (GB/T 32918.2 7.1 B3-B7 each).

    pubs: one PublicKey for all, or one per item. sigs: DER (a sequence), or
    64-byte r || s with raw=True (a sequence, or one buffer of n*64 bytes).
    Returns n bools; a malformed signature is False."""
    d, n = _pack(digests, 32, "digest")
    s, bad = _pack_sigs(sigs, n, raw)
    if n == 0:
        return []
    parr, npubs = _pack_pubkeys(pubs, n)
    nthreads = _threads(threads)
    results = ffi.new("int[]", n)
    ret = _device_or_cpu(gpu, n, lambda dev: dev._verify(results, parr, npubs, d, s, n),
                         lambda: _cpu_verify(results, parr, npubs, d, s, n, nthreads))
    check_ok(ret)
    out = [r == 1 for r in results]
    for i in bad:
        out[i] = False
    return out


def _digests_of(pubs: List[PublicKey], msgs: Sequence[BytesLike], id: IdLike) -> bytes:
    """e_i = SM3(Z_i || msg_i) (GB/T 32918.2 6.1 A1-A2), Z computed once per
    distinct key object, the hashes in one multi-buffer SM3 call."""
    if isinstance(msgs, (bytes, bytearray, memoryview, str)):
        raise TypeError("msgs must be a sequence of bytes-like messages")
    ident = as_id(id)
    msgs = list(msgs)
    if len(pubs) not in (1, len(msgs)):
        raise ValueError("need 1 key or one per message (%d), got %d" % (len(msgs), len(pubs)))
    zs: Dict[int, bytes] = {}
    cat = []
    for i, m in enumerate(msgs):
        pub = pubs[0] if len(pubs) == 1 else pubs[i]
        z = zs.get(_object_id(pub))
        if z is None:
            z = zs[_object_id(pub)] = pub.z(ident)
        cat.append(z + as_bytes(m, "msg"))
    return b"".join(sm3_many(cat))


def sign_batch(keys: Keys, msgs: Sequence[BytesLike], *, id: IdLike = DEFAULT_ID, raw: bool = False,
               threads: Optional[int] = None, gpu: object = None) -> List[bytes]:
    """Sign n messages (GB/T 32918.2 6.1 each) with one key or one key per
    message and the signer ID `id`: e = SM3(Z_A || msg) is computed here,
    then :func:`sign_digest_batch` signs. Same output as key.sign()."""
    ks = [keys] if isinstance(keys, PrivateKey) else list(keys)
    for k in ks:
        if not isinstance(k, PrivateKey):
            raise TypeError("keys must be PrivateKey objects, not %s" % type(k).__name__)
    d = _digests_of([k.public_key for k in ks], msgs, id)
    return sign_digest_batch(keys if isinstance(keys, PrivateKey) else ks, d, raw=raw, threads=threads, gpu=gpu)


def verify_batch(pubs: Pubs, msgs: Sequence[BytesLike], sigs: Items, *, id: IdLike = DEFAULT_ID,
                 raw: bool = False, threads: Optional[int] = None, gpu: object = None) -> List[bool]:
    """Verify n (message, signature) pairs (GB/T 32918.2 7.1 each) with the
    signer ID `id`. Same results as pub.verify() item by item."""
    ps = [pubs] if isinstance(pubs, PublicKey) else list(pubs)
    for p in ps:
        if not isinstance(p, PublicKey):
            raise TypeError("pubs must be PublicKey objects, not %s" % type(p).__name__)
    d = _digests_of(ps, msgs, id)
    return verify_digest_batch(pubs if isinstance(pubs, PublicKey) else ps, d, sigs, raw=raw, threads=threads,
                               gpu=gpu)
