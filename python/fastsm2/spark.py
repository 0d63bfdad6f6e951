# SPDX-License-Identifier: Apache-2.0
"""SM2 verification and signing (GB/T 32918.2 clauses 6.1 and 7.1), SM3
(GB/T 32905 clause 5) and SM4 encryption (GB/T 32907) over the columns of
an Apache Spark DataFrame.

Install with ``pip install fastsm2[spark]`` (PySpark with pandas and
pyarrow). Each function adds columns through ``DataFrame.mapInPandas``:
Spark hands every Python worker Arrow batches of rows
(``spark.sql.execution.arrow.maxRecordsPerBatch``, 10,000 by default), and
the worker makes one batch call of the C library per batch (per distinct key
within it), with the GIL released. Nothing here starts threads of its own
or schedules anything: the cluster's cores are Spark's.

* :func:`verify` adds ``valid`` (boolean, never null) and ``reason`` (null
  when valid, otherwise what failed, e.g. ``"key: FASTSM2_ERR_POINT"``). A
  malformed key, signature, ID or digest never fails the job.
* :func:`sign` adds a signature column, all rows signed with one private key
  held by the executors (see its notes on how the key gets there).
* :func:`sm3` adds the SM3 digest of a column.
* :func:`sm4_encrypt`, :func:`sm4_decrypt` and :func:`try_sm4_decrypt`
  are Column functions with the conventions of Spark's ``aes_encrypt``,
  ``aes_decrypt`` and ``try_aes_decrypt`` (GCM by default, IV first, tag
  last), SM4 in place of AES.

:func:`verify_frame`, :func:`sign_frame` and :func:`sm3_frame` do the same
on one pandas DataFrame; they are what the Spark workers run, and need
pandas but not PySpark.

Public keys that repeat (the common case: few signers, many rows) are parsed
once per batch, and kept in a per-thread cache of the last
:data:`KEY_CACHE_SIZE` distinct keys, across the batches and tasks that a
Python worker process runs (Spark reuses its workers). A key that verifies
more than twice gets its tables of multiples (``fastsm2_pubkey_precompute``,
include/fastsm2.h), once; rows of one key go to the C library as one batch
over that single key object, so every later row and batch reuses them.
"""
import threading
from collections import OrderedDict
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from ._batch import sign_batch, sign_digest_batch, verify_batch, verify_digest_batch
from ._errors import FastSM2Error, error_for_code
from ._keys import CURVE_ORDER, PrivateKey, PublicKey
from ._native import ffi, lib
from ._stream import sm3_many
from ._util import DEFAULT_ID, IdLike, as_id

__all__ = ["verify", "sign", "sm3", "verify_frame", "sign_frame", "sm3_frame", "REASONS", "KEY_CACHE_SIZE",
           "sm4_encrypt", "sm4_decrypt", "try_sm4_decrypt", "sm4_encrypt_values", "sm4_decrypt_values"]

#: Distinct public keys kept parsed (with their tables, about 2.3 KB each)
#: per thread of a worker process.
KEY_CACHE_SIZE = 4096

#: Keys longer than this (no SPKI PEM comes close) are parsed but not kept.
_KEY_CACHE_MAX_LEN = 4096

#: A group of rows under one (key, ID) of at least this size gets a batch
#: call of its own over the single key object; smaller groups share one call
#: with a key per row.
_GROUP_MIN = 4

#: What the ``reason`` column can hold (``<field>: <what>``), in the order
#: the checks run: the first failure of a row is its reason. ``<C name>`` is
#: the error the single-call API raises for the same input
#: (``PublicKey.load``, ``verify_or_raise``, ``verify_digest_or_raise``).
REASONS = (
    "key: null",
    "key: <C name>            PublicKey.load(key) fails (FASTSM2_ERR_PEM, _DER, _KEY_FORMAT, _POINT, _LENGTH)",
    "message: null",
    "digest: null",
    "digest: FASTSM2_ERR_LENGTH  not 32 bytes",
    "signature: null",
    "signature: FASTSM2_ERR_DER     not strict DER (raw=False)",
    "signature: FASTSM2_ERR_LENGTH  not 64 bytes (raw=True)",
    "id: FASTSM2_ERR_ID         longer than 8191 bytes",
    "signature: FASTSM2_ERR_SIG_RANGE      r or s not in [1, n-1], or r + s = n",
    "signature: FASTSM2_ERR_BAD_SIGNATURE  well-formed, does not verify",
)

_N = CURVE_ORDER
_MAX_ID = int(lib.FASTSM2_MAX_ID_LEN)


# ---- values of a pandas column -----------------------------------------------------
def _is_null(v: object) -> bool:
    # Arrow gives None for a null; a pandas frame made by hand may hold NaN.
    return v is None or type(v) is float


def _as_data(v: Any) -> Optional[bytes]:
    """A message, ID or signature cell as bytes (text as UTF-8); None for
    anything else."""
    if type(v) is bytes:
        return v
    if isinstance(v, bytes):
        return v
    if isinstance(v, (bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, str):
        return v.encode("utf-8")
    return None


def _error_name(e: BaseException) -> str:
    if isinstance(e, FastSM2Error):
        return e.name
    return "FASTSM2_ERR_ARG"


# ---- public keys, parsed once per worker thread ------------------------------------------
class _KeyCache:
    """key bytes -> PublicKey, or the C name of the error that parsing
    gave; least recently used first out."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.d: "OrderedDict[bytes, Union[PublicKey, str]]" = OrderedDict()
        self.uses: Dict[bytes, int] = {}

    def get(self, kb: bytes) -> Union[PublicKey, str]:
        hit = self.d.get(kb)
        if hit is not None:
            self.d.move_to_end(kb)
            return hit
        try:
            got: Union[PublicKey, str] = PublicKey.load(kb)
        except (FastSM2Error, ValueError, TypeError) as e:
            got = _error_name(e)
        if len(kb) <= _KEY_CACHE_MAX_LEN and self.size > 0:
            self.d[kb] = got
            if len(self.d) > self.size:
                old, _ = self.d.popitem(last=False)
                self.uses.pop(old, None)
        return got

    def used(self, kb: bytes, pk: PublicKey, rows: int) -> None:
        """Count a key's rows; once it has verified more than twice (in this
        batch or since it was cached), make its tables."""
        before = self.uses.get(kb, 0)
        if before > 2:
            return
        total = before + rows
        if kb in self.d:
            self.uses[kb] = total
        if total > 2:
            _precompute(pk)


def _precompute(pk: PublicKey) -> None:
    """The key's tables of multiples (fastsm2_pubkey_precompute): every
    later verification with it, and every copy of it made afterwards, uses
    them."""
    ret = lib.fastsm2_pubkey_precompute(pk._p)
    if ret != 1:
        raise error_for_code(ret)


_local = threading.local()


def _key_cache() -> _KeyCache:
    c = getattr(_local, "keys", None)
    if c is None or c.size != KEY_CACHE_SIZE:
        c = _local.keys = _KeyCache(KEY_CACHE_SIZE)
    return c


def _key_bytes(v: Any) -> Optional[bytes]:
    if isinstance(v, str):  # PEM text
        try:
            return v.encode("ascii")
        except UnicodeEncodeError:
            return None
    return _as_data(v)


# ---- signatures ------------------------------------------------------------------------------
def _range_ok(sig: bytes) -> bool:
    r = int.from_bytes(sig[:32], "big")
    s = int.from_bytes(sig[32:], "big")
    return 0 < r < _N and 0 < s < _N and (r + s) != _N


class _SigDecoder:
    def __init__(self, raw: bool) -> None:
        self.raw = raw
        self.out = ffi.new("unsigned char[64]")

    def __call__(self, v: Any) -> Union[bytes, str]:
        """64 bytes r || s, or the reason it is not one."""
        s = _as_data(v) if not isinstance(v, str) else None
        if s is None:
            return "FASTSM2_ERR_ARG"
        if self.raw:
            return s if len(s) == 64 else "FASTSM2_ERR_LENGTH"
        ret = lib.fastsm2_sig_from_der(self.out, s, len(s))
        if ret != 1:
            return ffi.string(lib.fastsm2_error_name(ret)).decode()
        return ffi.buffer(self.out, 64)[:]


def _input_column(msg_col: Optional[str], digest_col: Optional[str],
                  id_col: Optional[str] = None) -> Optional[str]:
    """msg_col, "msg" when neither it nor digest_col is given; raises
    ValueError for both, or an ID column with digests."""
    if msg_col is None and digest_col is None:
        msg_col = "msg"
    if (msg_col is None) == (digest_col is None):
        raise ValueError("give msg_col or digest_col, not both")
    if digest_col is not None and id_col is not None:
        raise ValueError("id_col applies to messages: a digest already includes Z_A")
    return msg_col


# ---- one pandas batch --------------------------------------------------------------------------
def _check_columns(pdf: Any, new: List[str]) -> None:
    for c in new:
        if c in pdf.columns:
            raise ValueError("the frame already has a column %r" % c)


def verify_frame(pdf: Any, key_col: str = "key", sig_col: str = "sig", msg_col: Optional[str] = None,
                 digest_col: Optional[str] = None, id_col: Optional[str] = None, *, id: IdLike = DEFAULT_ID,
                 raw: bool = False, valid_col: str = "valid", reason_col: str = "reason", threads: int = 1,
                 gpu: object = False) -> Any:
    """Verify every row of a pandas DataFrame; return it with ``valid_col``
    (bool) and ``reason_col`` (None, or one of :data:`REASONS`) added.

    key_col: SPKI DER or a SEC1 point (bytes), or SPKI PEM (text).
    msg_col (the message; text is UTF-8) or digest_col (e = SM3(Z_A || M),
    32 bytes): exactly one; msg_col defaults to "msg". id_col: the signer ID
    of each row (bytes, or text as UTF-8); None, or a null in it, means
    ``id`` (the default ID 1234567812345678 unless given); only with
    msg_col. sig_col: strict DER, or 64-byte r || s with raw=True.
    threads and gpu: as for :func:`fastsm2.verify_digest_batch`.

    Row i's ``valid`` equals ``PublicKey.load(key).verify(msg, sig, id=...,
    raw=raw)`` (``verify_digest`` for digests); a row whose input fails to
    parse is False with the reason, never an exception."""
    msg_col = _input_column(msg_col, digest_col, id_col)
    _check_columns(pdf, [valid_col, reason_col])
    default_id = as_id(id)
    if not 0 < len(default_id) <= _MAX_ID:
        raise ValueError("id must be 1 to %d bytes" % _MAX_ID)

    n = len(pdf)
    keys = pdf[key_col].tolist()
    sigs = pdf[sig_col].tolist()
    data_col = msg_col if msg_col is not None else digest_col
    data = pdf[data_col].tolist()
    data_what = "message" if msg_col is not None else "digest"
    ids = pdf[id_col].tolist() if id_col is not None else None

    valid = [False] * n
    reason: List[Optional[str]] = [None] * n
    cache = _key_cache()
    decode = _SigDecoder(raw)
    pubs: Dict[bytes, PublicKey] = {}
    groups: Dict[Tuple[bytes, bytes], List[int]] = {}
    raws: List[bytes] = [b""] * n
    items: List[bytes] = [b""] * n
    kbs: List[bytes] = [b""] * n
    idents: List[bytes] = [b""] * n

    # Each row's checks, in the order of REASONS.
    for i in range(n):
        kv = keys[i]
        if _is_null(kv):
            reason[i] = "key: null"
            continue
        kb = _key_bytes(kv)
        pk = cache.get(kb) if kb is not None else "FASTSM2_ERR_PEM"
        if isinstance(pk, str):
            reason[i] = "key: " + pk
            continue
        assert kb is not None
        pubs[kb] = pk
        dv = data[i]
        if _is_null(dv):
            reason[i] = data_what + ": null"
            continue
        d = _as_data(dv) if msg_col is not None else (_as_data(dv) if not isinstance(dv, str) else None)
        if d is None or (digest_col is not None and len(d) != 32):
            reason[i] = data_what + (": FASTSM2_ERR_LENGTH" if d is not None else ": FASTSM2_ERR_ARG")
            continue
        sv = sigs[i]
        if _is_null(sv):
            reason[i] = "signature: null"
            continue
        s = decode(sv)
        if isinstance(s, str):
            reason[i] = "signature: " + s
            continue
        ident = default_id
        if ids is not None and not _is_null(ids[i]):
            got = _as_data(ids[i])
            if got is None or len(got) > _MAX_ID:
                reason[i] = "id: FASTSM2_ERR_ID"
                continue
            ident = got
        items[i] = d
        raws[i] = s
        kbs[i] = kb
        idents[i] = ident
        groups.setdefault((kb, ident), []).append(i)

    # Tables for the keys that verify more than twice, before any copy of
    # them is made; then the batch calls: one per (key, ID) that has
    # _GROUP_MIN rows or more, one for all the other rows with a key per row.
    counts: Dict[bytes, int] = {}
    for (kb, _), rows in groups.items():
        counts[kb] = counts.get(kb, 0) + len(rows)
    for kb, c in counts.items():
        cache.used(kb, pubs[kb], c)
    rest: List[int] = []
    for (kb, ident), rows in groups.items():
        if len(rows) < _GROUP_MIN:
            rest.extend(rows)
            continue
        pk = pubs[kb]
        s_blob = b"".join([raws[i] for i in rows])
        if msg_col is not None:
            res = verify_batch(pk, [items[i] for i in rows], s_blob, id=ident, raw=True, threads=threads, gpu=gpu)
        else:
            res = verify_digest_batch(pk, b"".join([items[i] for i in rows]), s_blob, raw=True, threads=threads,
                                      gpu=gpu)
        for i, ok in zip(rows, res):
            valid[i] = ok
    if rest:
        rest.sort()
        row_keys = [pubs[kbs[i]] for i in rest]
        if msg_col is not None:
            zs: Dict[Tuple[bytes, bytes], bytes] = {}
            cat = []
            for i, pk in zip(rest, row_keys):
                zk = (kbs[i], idents[i])
                z = zs.get(zk)
                if z is None:
                    z = zs[zk] = pk.z(idents[i])
                cat.append(z + items[i])
            digests = b"".join(sm3_many(cat))
        else:
            digests = b"".join([items[i] for i in rest])
        res = verify_digest_batch(row_keys, digests, b"".join([raws[i] for i in rest]), raw=True, threads=threads,
                                  gpu=gpu)
        for i, ok in zip(rest, res):
            valid[i] = ok
    for rows in groups.values():
        for i in rows:
            if not valid[i]:
                reason[i] = ("signature: FASTSM2_ERR_BAD_SIGNATURE" if _range_ok(raws[i]) else
                             "signature: FASTSM2_ERR_SIG_RANGE")
    return pdf.assign(**{valid_col: valid, reason_col: reason})


def sign_frame(pdf: Any, key: PrivateKey, msg_col: Optional[str] = None, digest_col: Optional[str] = None, *,
               id: IdLike = DEFAULT_ID, raw: bool = False, sig_col: str = "sig", threads: int = 1,
               gpu: object = False) -> Any:
    """Sign every row of a pandas DataFrame with one key; return it with
    ``sig_col`` added: DER (or 64-byte r || s with raw=True) of
    ``key.sign(msg, id=id)`` (msg_col, text as UTF-8; the default) or of
    ``key.sign_digest(digest)`` (digest_col). A fresh k per signature. A
    row whose message is null (or whose digest is null or not 32 bytes) gets
    a null signature."""
    if not isinstance(key, PrivateKey):
        raise TypeError("key must be a fastsm2.PrivateKey")
    msg_col = _input_column(msg_col, digest_col)
    _check_columns(pdf, [sig_col])
    col = pdf[msg_col if msg_col is not None else digest_col].tolist()
    rows: List[int] = []
    items: List[bytes] = []
    for i, v in enumerate(col):
        d = None if _is_null(v) else _as_data(v)
        if d is None or (digest_col is not None and (len(d) != 32 or isinstance(v, str))):
            continue
        rows.append(i)
        items.append(d)
    out: List[Optional[bytes]] = [None] * len(col)
    if items:
        if msg_col is not None:
            sigs = sign_batch(key, items, id=id, raw=raw, threads=threads, gpu=gpu)
        else:
            sigs = sign_digest_batch(key, b"".join(items), raw=raw, threads=threads, gpu=gpu)
        for i, s in zip(rows, sigs):
            out[i] = s
    return pdf.assign(**{sig_col: out})


def sm3_frame(pdf: Any, col: str = "msg", *, out_col: str = "sm3") -> Any:
    """Return the pandas DataFrame with ``out_col`` added: the 32-byte SM3
    digest of ``col`` (bytes, or text as UTF-8), null for a null."""
    _check_columns(pdf, [out_col])
    vals = pdf[col].tolist()
    rows = [i for i, v in enumerate(vals) if not _is_null(v) and _as_data(v) is not None]
    out: List[Optional[bytes]] = [None] * len(vals)
    for i, h in zip(rows, sm3_many([_as_data(vals[i]) or b"" for i in rows])):
        out[i] = h
    return pdf.assign(**{out_col: out})


# ---- Spark -------------------------------------------------------------------------------------
def _task_threads(threads: Optional[int]) -> int:
    """The C library's threads for a task: as given, or the cores Spark gave
    the task (spark.task.cpus, 1 by default): Spark runs one task per core
    already."""
    if threads is not None:
        return threads
    try:
        from pyspark import TaskContext

        tc = TaskContext.get()
        if tc is not None:
            return max(1, int(tc.cpus()))
    except Exception:  # an old PySpark without TaskContext.cpus()
        pass
    return 1


def _schema_with(df: Any, fields: List[Tuple[str, Any, bool]]) -> Any:
    from pyspark.sql.types import StructField, StructType

    names = set(df.columns)
    for name, _, _ in fields:
        if name in names:
            raise ValueError("the DataFrame already has a column %r" % name)
    return StructType(list(df.schema.fields) + [StructField(n, t, nullable) for n, t, nullable in fields])


def _need_column(df: Any, name: str, kinds: Tuple[str, ...]) -> None:
    from pyspark.sql.types import BinaryType, StringType

    types = {"binary": BinaryType, "string": StringType}
    if name not in df.columns:
        raise ValueError("no column %r in the DataFrame" % name)
    dt = df.schema[name].dataType
    if not any(isinstance(dt, types[k]) for k in kinds):
        raise TypeError("column %r must be %s, not %s" % (name, " or ".join(kinds), dt.simpleString()))


def verify(df: Any, key_col: str = "key", sig_col: str = "sig", msg_col: Optional[str] = None,
           digest_col: Optional[str] = None, id_col: Optional[str] = None, *, id: IdLike = DEFAULT_ID,
           raw: bool = False, valid_col: str = "valid", reason_col: str = "reason", threads: Optional[int] = None,
           gpu: object = False) -> Any:
    """A Spark DataFrame with ``valid_col`` (boolean, not null) and
    ``reason_col`` (string, null when valid) added to ``df``'s columns: the
    verification of each row, as :func:`verify_frame` describes.

    Column types: key_col binary (SPKI DER, SEC1 point) or string (PEM);
    sig_col binary; msg_col binary or string; digest_col binary; id_col
    binary or string. threads: the C library's threads per task (default:
    the task's cores, spark.task.cpus). gpu: False (default) or as for
    :func:`fastsm2.verify_digest_batch` on executors with a CUDA device.
    Lazy, like every DataFrame transformation."""
    from pyspark.sql.types import BooleanType, StringType

    msg_col = _input_column(msg_col, digest_col, id_col)
    _need_column(df, key_col, ("binary", "string"))
    _need_column(df, sig_col, ("binary",))
    if msg_col is not None:
        _need_column(df, msg_col, ("binary", "string"))
    else:
        _need_column(df, str(digest_col), ("binary",))
    if id_col is not None:
        _need_column(df, id_col, ("binary", "string"))
    ident = as_id(id)
    if not 0 < len(ident) <= _MAX_ID:
        raise ValueError("id must be 1 to %d bytes" % _MAX_ID)
    schema = _schema_with(df, [(valid_col, BooleanType(), False), (reason_col, StringType(), True)])

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        nthreads = _task_threads(threads)
        for pdf in batches:
            yield verify_frame(pdf, key_col, sig_col, msg_col, digest_col, id_col, id=ident, raw=raw,
                               valid_col=valid_col, reason_col=reason_col, threads=nthreads, gpu=gpu)

    return df.mapInPandas(run, schema)


def sign(df: Any, key: Union[PrivateKey, bytes, str, None] = None, *, key_file: Optional[str] = None,
         msg_col: Optional[str] = None, digest_col: Optional[str] = None, id: IdLike = DEFAULT_ID,
         raw: bool = False, sig_col: str = "sig", threads: Optional[int] = None, gpu: object = False) -> Any:
    """A Spark DataFrame with ``sig_col`` (binary) added: each row's message
    (msg_col, default "msg"; binary or string) or digest (digest_col)
    signed with one private key, as :func:`sign_frame` describes.

    How the key reaches the executors, one of:

    * ``key`` (a PrivateKey, or its PEM/DER): serialized here as PKCS#8 DER
      into the task's Python function, which Spark ships to every executor
      with the tasks. The key is then a plain byte string in the driver,
      in each task's serialized closure (over the network, and on the disk
      of any node that spills it), in the executor JVMs and in every Python
      worker that runs a task: anyone who can read those processes, that
      traffic or those disks has the key. Turn on spark.authenticate,
      spark.network.crypto.enabled and spark.io.encryption.enabled, and sign
      only on a cluster you would give the key to.
    * ``key_file``: a path that exists on every executor (a mounted secret,
      say): each task reads and parses it, signs its batches and wipes its
      PrivateKey at the end. The key never passes through Spark; Python's
      copy of the file's bytes is not wiped (Python cannot).
    """
    from pyspark.sql.types import BinaryType

    if (key is None) == (key_file is None):
        raise ValueError("give key or key_file, not both")
    msg_col = _input_column(msg_col, digest_col)
    if msg_col is not None:
        _need_column(df, msg_col, ("binary", "string"))
    else:
        _need_column(df, str(digest_col), ("binary",))
    ident = as_id(id)
    if not 0 < len(ident) <= _MAX_ID:
        raise ValueError("id must be 1 to %d bytes" % _MAX_ID)
    blob: Optional[bytes] = None
    if isinstance(key, PrivateKey):
        blob = key.to_der()
    elif key is not None:
        parsed = PrivateKey.load(key)
        blob = parsed.to_der()
        parsed.clear()
    path = key_file
    schema = _schema_with(df, [(sig_col, BinaryType(), True)])

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        if blob is not None:
            k = PrivateKey.from_der(blob)
        else:
            with open(str(path), "rb") as f:
                k = PrivateKey.load(f.read())
        try:
            nthreads = _task_threads(threads)
            for pdf in batches:
                yield sign_frame(pdf, k, msg_col, digest_col, id=ident, raw=raw, sig_col=sig_col, threads=nthreads,
                                 gpu=gpu)
        finally:
            k.clear()

    return df.mapInPandas(run, schema)


def sm3(df: Any, col: str = "msg", *, out_col: str = "sm3") -> Any:
    """A Spark DataFrame with ``out_col`` (binary, 32 bytes; null for a
    null) added: SM3 (GB/T 32905) of ``col`` (binary, or string as UTF-8),
    many rows per multi-buffer call."""
    from pyspark.sql.types import BinaryType

    _need_column(df, col, ("binary", "string"))
    schema = _schema_with(df, [(out_col, BinaryType(), True)])

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        for pdf in batches:
            yield sm3_frame(pdf, col, out_col=out_col)

    return df.mapInPandas(run, schema)


# ---- SM4: sm4_encrypt / sm4_decrypt, as Spark's aes_encrypt / aes_decrypt ------------------------
#: SM4 keys are 16 bytes (GB/T 32907).
SM4_KEY_SIZE = 16
#: (IV length, tag length) by mode: the layout of Spark's aes_encrypt.
_SM4_MODES = {"ECB": (0, 0), "CBC": (16, 0), "GCM": (12, 16)}


def _sm4_mode(mode: Optional[str], padding: Optional[str], fn: str) -> str:
    """The mode for Spark's rules (ExpressionImplUtils.CipherMode): ECB
    and CBC with PKCS (or DEFAULT) padding, GCM with NONE (or DEFAULT);
    names in any case."""
    m = "GCM" if mode is None else mode
    p = "DEFAULT" if padding is None else padding
    if not isinstance(m, str) or not isinstance(p, str):
        raise TypeError("%s: mode and padding are strings" % fn)
    mu, pu = m.upper(), p.upper()
    if (mu in ("ECB", "CBC") and pu in ("PKCS", "DEFAULT")) or (mu == "GCM" and pu in ("NONE", "DEFAULT")):
        return mu
    raise ValueError("[UNSUPPORTED_FEATURE.SM4_MODE] The feature is not supported: SM4-%s with the padding %s by "
                     "the `%s` function." % (m, p, fn))


def _sm4_bin(v: Any, what: str, fn: str) -> Optional[bytes]:
    """A BINARY or STRING (UTF-8) cell as bytes; None for null."""
    if _is_null(v):
        return None
    b = _as_data(v)
    if b is None:
        raise TypeError("%s: %s must be binary or string, not %s" % (fn, what, type(v).__name__))
    return b


def _sm4_keys(fn: str):
    """key bytes -> expanded key, for one batch; the keys are wiped after."""
    from . import _sm4

    cache: Dict[bytes, Any] = {}

    def get(kb: bytes):
        k = cache.get(kb)
        if k is None:
            if len(kb) != SM4_KEY_SIZE:
                # the key's length only, never its bytes
                raise ValueError("[INVALID_PARAMETER_VALUE.SM4_KEY_LENGTH] The value of parameter(s) `key` in `%s` "
                                 "is invalid: expects a binary value with 16 bytes, but got %d bytes." % (fn, len(kb)))
            k = cache[kb] = _sm4.Key(kb)
        return k

    def clear() -> None:
        for k in cache.values():
            k.clear()
        cache.clear()

    return get, clear


def sm4_encrypt_values(inputs: Any, keys: Any, mode: Optional[str] = None, padding: Optional[str] = None,
                       ivs: Any = None, aads: Any = None) -> List[Optional[bytes]]:
    """The values :func:`sm4_encrypt` gives, for sequences of cells (lists,
    pandas Series); ``keys``, ``ivs`` and ``aads`` a sequence of the same
    length, or one value for every row (None: none given). A null in any
    given argument gives null; errors raise as in :func:`sm4_encrypt`."""
    import os

    from . import _sm4

    fn = "sm4_encrypt"
    m = _sm4_mode(mode, padding, fn)
    ivlen, _ = _SM4_MODES[m]
    n = len(inputs)
    keys_, ivs_, aads_ = (_per_row(x, n) for x in (keys, ivs, aads))
    get, clear = _sm4_keys(fn)
    out: List[Optional[bytes]] = [None] * n
    rnd = os.urandom(ivlen * n) if ivlen else b""
    try:
        for i in range(n):
            data = _sm4_bin(inputs[i], "input", fn)
            kb = _sm4_bin(keys_[i], "key", fn)
            iv = b"" if ivs is None else _sm4_bin(ivs_[i], "iv", fn)
            aad = b"" if aads is None else _sm4_bin(aads_[i], "aad", fn)
            if data is None or kb is None or iv is None or aad is None:
                continue
            key = get(kb)
            if iv:
                if m == "ECB":
                    raise ValueError("[UNSUPPORTED_FEATURE.SM4_MODE_IV] The feature is not supported: SM4-ECB with "
                                     "an initialization vector (IV) by the `%s` function." % fn)
                if len(iv) != ivlen:
                    raise ValueError("[INVALID_PARAMETER_VALUE.SM4_IV_LENGTH] The value of parameter(s) `iv` in `%s` "
                                     "is invalid: SM4-%s expects a %d-byte IV, but got %d bytes."
                                     % (fn, m, ivlen, len(iv)))
            else:
                iv = rnd[i * ivlen:(i + 1) * ivlen]
            if aad and m != "GCM":
                raise ValueError("[UNSUPPORTED_FEATURE.SM4_MODE_AAD] The feature is not supported: SM4-%s with "
                                 "additional authenticated data (AAD) by the `%s` function." % (m, fn))
            if m == "GCM":
                out[i] = iv + _sm4.gcm_encrypt(key, iv, data, aad)
            elif m == "CBC":
                out[i] = iv + _sm4.cbc_encrypt(key, iv, data, True)
            else:
                out[i] = _sm4.ecb(key, data, True, True)
    finally:
        clear()
    return out


def sm4_decrypt_values(inputs: Any, keys: Any, mode: Optional[str] = None, padding: Optional[str] = None,
                       aads: Any = None, *, try_: bool = False) -> List[Optional[bytes]]:
    """The values :func:`sm4_decrypt` gives (``try_=True``:
    :func:`try_sm4_decrypt`), for sequences of cells as
    :func:`sm4_encrypt_values`."""
    from . import _sm4

    fn = "try_sm4_decrypt" if try_ else "sm4_decrypt"
    m = _sm4_mode(mode, padding, fn)
    ivlen, taglen = _SM4_MODES[m]
    n = len(inputs)
    keys_, aads_ = (_per_row(x, n) for x in (keys, aads))
    get, clear = _sm4_keys(fn)
    out: List[Optional[bytes]] = [None] * n
    try:
        for i in range(n):
            try:
                data = _sm4_bin(inputs[i], "input", fn)
                kb = _sm4_bin(keys_[i], "key", fn)
                aad = b"" if aads is None else _sm4_bin(aads_[i], "aad", fn)
                if data is None or kb is None or aad is None:
                    continue
                key = get(kb)
                if aad and m != "GCM":
                    raise ValueError("[UNSUPPORTED_FEATURE.SM4_MODE_AAD] The feature is not supported: SM4-%s with "
                                     "additional authenticated data (AAD) by the `%s` function." % (m, fn))
                try:
                    if len(data) < ivlen + taglen:
                        raise error_for_code(lib.FASTSM2_ERR_LENGTH)
                    if m == "GCM":
                        out[i] = _sm4.gcm_decrypt(key, data[:ivlen], data[ivlen:], aad)
                    elif m == "CBC":
                        out[i] = _sm4.cbc_decrypt(key, data[:ivlen], data[ivlen:], True)
                    else:
                        out[i] = _sm4.ecb(key, data, False, True)
                except FastSM2Error as e:
                    raise ValueError("[INVALID_PARAMETER_VALUE.SM4_CRYPTO_ERROR] The value of parameter(s) `expr`, "
                                     "`key` in `%s` is invalid: detail message: %s" % (fn, e)) from None
            except (ValueError, TypeError):
                if not try_:
                    raise
                out[i] = None
    finally:
        clear()
    return out


def _per_row(x: Any, n: int) -> Any:
    """A sequence of n cells, or one value repeated."""
    if x is None or isinstance(x, (bytes, bytearray, memoryview, str)):
        return [x] * n
    return x


def _column(c: Any) -> Any:
    """A Column from a Column or a column name (PySpark's ColumnOrName)."""
    from pyspark.sql import Column
    from pyspark.sql.functions import col

    if isinstance(c, Column):
        return c
    if isinstance(c, str):
        return col(c)
    raise TypeError("expected a Column or a column name, not %s" % type(c).__name__)


def _sm4_udf(rows_fn: Any, nargs: int) -> Any:
    """A pandas UDF (binary) over nargs (2 to 4) columns calling
    rows_fn(*lists). pandas_udf reads its kind from the type hints: one
    pd.Series per argument."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    def run(*cols: "pd.Series") -> "pd.Series":
        return pd.Series(rows_fn(*[c.tolist() for c in cols]), dtype=object)

    def f2(a: pd.Series, b: pd.Series) -> pd.Series:
        return run(a, b)

    def f3(a: pd.Series, b: pd.Series, c: pd.Series) -> pd.Series:
        return run(a, b, c)

    def f4(a: pd.Series, b: pd.Series, c: pd.Series, d: pd.Series) -> pd.Series:
        return run(a, b, c, d)

    return pandas_udf({2: f2, 3: f3, 4: f4}[nargs], "binary")  # type: ignore[call-overload]


def sm4_encrypt(input: Any, key: Any, mode: Optional[str] = None, padding: Optional[str] = None, iv: Any = None,
                aad: Any = None) -> Any:
    """SM4 encryption of a column, as Spark's ``aes_encrypt(input, key[,
    mode[, padding[, iv[, aad]]]])`` with SM4 (GB/T 32907) for AES: a
    Column (binary) to use in ``select`` / ``withColumn``.

    input, key, iv, aad: Columns or column names (binary, or string as its
    UTF-8 bytes), as PySpark's ``aes_encrypt``; mode and padding: strings,
    in any case: ``"GCM"`` (the default; padding ``"NONE"`` or
    ``"DEFAULT"``), ``"CBC"`` or ``"ECB"`` (padding ``"PKCS"`` or
    ``"DEFAULT"``, PKCS#7). The key is 16 bytes.

    The output, byte for byte Spark's layout: GCM: the 12-byte IV, the
    ciphertext, the 16-byte tag; CBC: the 16-byte IV, then the ciphertext;
    ECB: the ciphertext. Without iv (or an empty one) each row gets a
    random IV; aad is authenticated by GCM only (an empty one is none).
    A null in any argument gives null. A key not of 16 bytes, an IV of the
    wrong length, an IV with ECB or an AAD with ECB or CBC fail the task
    (ValueError, named as Spark's errors with SM4 in place of AES); the
    message never holds the key."""
    fn = "sm4_encrypt"
    _sm4_mode(mode, padding, fn)
    cols = [_column(input), _column(key)]
    has_iv, has_aad = iv is not None, aad is not None
    if has_iv:
        cols.append(_column(iv))
    if has_aad:
        cols.append(_column(aad))

    def rows(inputs: List[Any], keys: List[Any], *rest: List[Any]) -> List[Optional[bytes]]:
        r = list(rest)
        ivs = r.pop(0) if has_iv else None
        aads = r.pop(0) if has_aad else None
        return sm4_encrypt_values(inputs, keys, mode, padding, ivs, aads)

    return _sm4_udf(rows, len(cols))(*cols)


def sm4_decrypt(input: Any, key: Any, mode: Optional[str] = None, padding: Optional[str] = None,
                aad: Any = None) -> Any:
    """SM4 decryption of a column, as Spark's ``aes_decrypt(input, key[,
    mode[, padding[, aad]]])``: the layout :func:`sm4_encrypt` writes (the
    IV read from the front). A tampered row, a wrong key, a wrong AAD (the
    GCM tag fails), bad CBC/ECB padding, or a key not of 16 bytes FAIL THE
    TASK with a ValueError, as ``aes_decrypt`` does
    (``[INVALID_PARAMETER_VALUE.SM4_CRYPTO_ERROR]``); :func:`try_sm4_decrypt`
    gives null instead, as ``try_aes_decrypt``. A null argument gives
    null."""
    return _sm4_decrypt(input, key, mode, padding, aad, False)


def try_sm4_decrypt(input: Any, key: Any, mode: Optional[str] = None, padding: Optional[str] = None,
                    aad: Any = None) -> Any:
    """As :func:`sm4_decrypt`, with null for a row that does not decrypt
    (Spark's ``try_aes_decrypt``)."""
    return _sm4_decrypt(input, key, mode, padding, aad, True)


def _sm4_decrypt(input: Any, key: Any, mode: Optional[str], padding: Optional[str], aad: Any, try_: bool) -> Any:
    _sm4_mode(mode, padding, "try_sm4_decrypt" if try_ else "sm4_decrypt")
    cols = [_column(input), _column(key)]
    has_aad = aad is not None
    if has_aad:
        cols.append(_column(aad))

    def rows(inputs: List[Any], keys: List[Any], *rest: List[Any]) -> List[Optional[bytes]]:
        return sm4_decrypt_values(inputs, keys, mode, padding, rest[0] if has_aad else None, try_=try_)

    return _sm4_udf(rows, len(cols))(*cols)
