# SPDX-License-Identifier: Apache-2.0
"""``python -m fastsm2.bench``: fastsm2 from Python, side by side in one run.

Figures (ops/s, best of R alternating rounds, and their ratios):

* Python-level single-thread sign/verify against the same C calls timed
  in C inside this process (``fs2py_time_*``, the same library binary), and
  against ``fastsm2-speed`` (the CMake-built C benchmark) when found;
* batch sign/verify of digests on all cores against single-thread calls;
* the pure-Python ``gmssl`` package and ``gmalglib`` when installed;
* SM4-GCM (``fastsm2.SM4GCM``) on 16 KiB and 1 KiB messages against
  pyca/cryptography's SM4-GCM and SM4-CTR (its OpenSSL's SM4) and its
  AES-128-GCM, in MB/s, when cryptography is installed.

It reports what it measured, on this machine, in this run; nothing here
is a target, and the test suite never asserts a speed.
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import fastsm2
from fastsm2._native import ffi, lib

MSG = b"\x5a" * 32


def _rate(fn: Callable[[int], object], seconds: float) -> float:
    """ops/s of fn(n) (which does n operations), run for about `seconds`."""
    n = 1
    while True:
        t0 = time.perf_counter()
        fn(n)
        dt = time.perf_counter() - t0
        if dt >= seconds or n >= 1 << 30:
            return n / dt
        n = max(n * 2, int(n * seconds / max(dt, 1e-6) * 1.1))


def _c_rate(timer: Callable[[int], float], seconds: float) -> float:
    """As _rate for an in-C timing helper that returns elapsed seconds."""
    n = 1
    while True:
        dt = timer(n)
        if dt < 0:
            raise RuntimeError("C timing loop failed")
        if dt >= seconds or n >= 1 << 30:
            return n / dt
        n = max(n * 2, int(n * seconds / max(dt, 1e-6) * 1.1))


def _loop(f: Callable[[], object]) -> Callable[[int], None]:
    def run(n: int) -> None:
        for _ in range(n):
            f()
    return run


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _speed_binary() -> Optional[str]:
    cands = [os.environ.get("FASTSM2_SPEED", "")]
    here = Path.cwd()
    for base in (here, *here.parents):
        cands += [str(base / "build-python" / "cmake" / "fastsm2-speed"), str(base / "build" / "fastsm2-speed")]
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return shutil.which("fastsm2-speed")


def _peers(seconds: float) -> Dict[str, Dict[str, Callable[[int], None]]]:
    peers: Dict[str, Dict[str, Callable[[int], None]]] = {}
    key = fastsm2.PrivateKey.generate()
    try:
        from gmssl import sm2 as gsm2

        g = gsm2.CryptSM2(private_key=key.to_hex(), public_key=key.public_key.to_bytes()[1:].hex())
        k_hex = fastsm2.PrivateKey.generate().to_hex()  # gmssl wants the caller's k
        gsig = g.sign_with_sm3(MSG, k_hex)
        peers["gmssl"] = {"sign": _loop(lambda: g.sign_with_sm3(MSG, k_hex)),
                          "verify": _loop(lambda: g.verify_with_sm3(gsig, MSG))}
    except ImportError:
        pass
    try:
        import gmalglib

        sm = gmalglib.sm2.SM2(sk=key.to_bytes())
        msig = sm.sign(MSG)
        peers["gmalglib"] = {"sign": _loop(lambda: sm.sign(MSG)), "verify": _loop(lambda: sm.verify(MSG, msig))}
    except ImportError:
        pass
    return peers


def _sm4_cases(per: float, peers: bool) -> Dict[str, Any]:
    """name -> (bytes per operation, case): fastsm2's SM4-GCM, and
    cryptography's SM4-GCM, SM4-CTR and AES-128-GCM on the same sizes."""
    out: Dict[str, Any] = {}
    key, nonce, iv = bytes(range(16)), bytes(12), bytes(16)
    for size, label in ((16384, "16 KiB"), (1024, "1 KiB")):
        data = b"\x5a" * size
        g = fastsm2.SM4GCM(key)
        out["fastsm2 SM4-GCM %s" % label] = (size, lambda g=g, d=data: _rate(_loop(lambda: g.encrypt(nonce, d, None)),
                                                                           per))
        if not peers:
            continue
        try:
            from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM

            def pyca_gcm(d=data):
                e = Cipher(algorithms.SM4(key), modes.GCM(nonce)).encryptor()
                return e.update(d) + e.finalize() + e.tag

            def pyca_ctr(d=data):
                e = Cipher(algorithms.SM4(key), modes.CTR(iv)).encryptor()
                return e.update(d) + e.finalize()

            aes = AESGCM(key)
            pyca_gcm()
            out["cryptography SM4-GCM %s" % label] = (size, lambda f=pyca_gcm: _rate(_loop(f), per))
            out["cryptography SM4-CTR %s" % label] = (size, lambda f=pyca_ctr: _rate(_loop(f), per))
            out["cryptography AES-128-GCM %s" % label] = (size, lambda d=data: _rate(
                _loop(lambda: aes.encrypt(nonce, d, None)), per))
        except Exception:  # no cryptography, or no SM4 in its OpenSSL
            pass
    return out


def run(seconds: float = 1.0, rounds: int = 3, batch: int = 4096, threads: int = 0, peers: bool = True,
        speed: bool = True) -> dict:
    """Measure and return the figures (see the module docs)."""
    key = fastsm2.PrivateKey.generate()
    pub = key.public_key
    raw_sig = key.sign(MSG, raw=True)
    der_sig = key.sign(MSG)
    e = pub.message_digest(MSG)
    digests = b"".join(fastsm2.sm3_digest(i.to_bytes(4, "big")) for i in range(batch))
    bsigs = b"".join(fastsm2.sign_digest_batch(key, digests, raw=True, gpu=False))
    assert all(fastsm2.verify_digest_batch(pub, digests, bsigs, raw=True, gpu=False))
    per = seconds / rounds

    cases: Dict[str, Callable[[], float]] = {
        "c sign": lambda: _c_rate(lambda n: lib.fs2py_time_sign(key._k, MSG, len(MSG), n), per),
        "py sign raw": lambda: _rate(_loop(lambda: key.sign(MSG, raw=True)), per),
        "py sign der": lambda: _rate(_loop(lambda: key.sign(MSG)), per),
        "c verify": lambda: _c_rate(lambda n: lib.fs2py_time_verify(pub._used(), MSG, len(MSG), raw_sig, n), per),
        "py verify raw": lambda: _rate(_loop(lambda: pub.verify(MSG, raw_sig, raw=True)), per),
        "py verify der": lambda: _rate(_loop(lambda: pub.verify(MSG, der_sig)), per),
        "py sign_digest": lambda: _rate(_loop(lambda: key.sign_digest(e, raw=True)), per),
        "batch sign_digest": lambda: _rate(lambda n: [fastsm2.sign_digest_batch(
            key, digests, raw=True, threads=threads, gpu=False) for _ in range(n)], per) * batch,
        "py verify_digest": lambda: _rate(_loop(lambda: pub.verify_digest(e, raw_sig, raw=True)), per),
        "batch verify_digest": lambda: _rate(lambda n: [fastsm2.verify_digest_batch(
            pub, digests, bsigs, raw=True, threads=threads, gpu=False) for _ in range(n)], per) * batch,
    }
    mb: Dict[str, float] = {}  # case -> bytes per operation, for the MB/s rows
    sm4_cases = _sm4_cases(per, peers)
    for name, (nbytes, case) in sm4_cases.items():
        cases[name] = case
        mb[name] = nbytes
    peer_fns = _peers(per) if peers else {}
    for name, ops in peer_fns.items():
        for op, fn in ops.items():
            cases["%s %s" % (name, op)] = (lambda f=fn: _rate(f, per))  # type: ignore[misc]
    best: Dict[str, float] = {}
    for _ in range(rounds):  # alternate, keep each case's best round
        for name, case in cases.items():
            best[name] = max(best.get(name, 0.0), case())

    res: Dict[str, Any] = {"fastsm2_version": fastsm2.__version__, "backend": fastsm2.backend(), "cores": _cores(),
           "python": platform.python_version(), "batch": batch, "threads": threads or _cores(),
           "gpu_devices": fastsm2.gpu.device_count(), "seconds": seconds, "rounds": rounds,
           "ops_per_s": {k: v for k, v in best.items() if k not in mb},
           "mb_per_s": {k: best[k] * mb[k] / 1e6 for k in mb}, "ratios": {}, "speed_binary": None,
           "sm4_backend": fastsm2.ciphers.backend()}
    r: Dict[str, float] = res["ratios"]
    r["py sign raw / c sign"] = best["py sign raw"] / best["c sign"]
    r["py sign der / c sign"] = best["py sign der"] / best["c sign"]
    r["py verify raw / c verify"] = best["py verify raw"] / best["c verify"]
    r["py verify der / c verify"] = best["py verify der"] / best["c verify"]
    r["batch sign_digest / py sign_digest"] = best["batch sign_digest"] / best["py sign_digest"]
    r["batch verify_digest / py verify_digest"] = best["batch verify_digest"] / best["py verify_digest"]
    for size in ("16 KiB", "1 KiB"):
        ours = "fastsm2 SM4-GCM %s" % size
        for peer in ("cryptography SM4-GCM", "cryptography SM4-CTR", "cryptography AES-128-GCM"):
            if "%s %s" % (peer, size) in best:
                r["%s / %s %s" % (ours, peer, size)] = best[ours] / best["%s %s" % (peer, size)]
    for name in peer_fns:
        r["fastsm2 sign / %s sign" % name] = best["py sign der"] / best["%s sign" % name]
        r["fastsm2 verify / %s verify" % name] = best["py verify der"] / best["%s verify" % name]

    binary = _speed_binary() if speed else None
    if binary:
        try:
            out = subprocess.run([binary, "--ops", "sign,verify", "--seconds", "%g" % max(per, 0.05), "--json"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120, check=True)
            rows = json.loads(out.stdout.decode())["results"]
            c = {row["op"]: row["value"] for row in rows if row["impl"] == "fastsm2"}
            res["speed_binary"] = {"path": binary, "sign": c["sign"], "verify": c["verify"]}
            r["py sign raw / fastsm2-speed sign"] = best["py sign raw"] / c["sign"]
            r["py verify raw / fastsm2-speed verify"] = best["py verify raw"] / c["verify"]
        except (OSError, subprocess.SubprocessError, ValueError, KeyError):
            res["speed_binary"] = None
    return res


def report(res: dict) -> str:
    lines = ["fastsm2 %s from Python %s, backend %s, %d cores, batch of %d on %d threads, GPUs: %d" % (
        res["fastsm2_version"], res["python"], res["backend"], res["cores"], res["batch"], res["threads"],
        res["gpu_devices"]),
        "one run: best of %d alternating rounds, %.2f s per case in all; ops/s" % (res["rounds"], res["seconds"]), ""]
    for name, v in res["ops_per_s"].items():
        lines.append("  %-22s %12.1f" % (name, v))
    if res.get("mb_per_s"):
        lines.append("  SM4 (backend %s), MB/s:" % res.get("sm4_backend", "?"))
        for name, v in res["mb_per_s"].items():
            lines.append("  %-30s %10.1f" % (name, v))
    if res["speed_binary"]:
        sb = res["speed_binary"]
        lines.append("  %-22s %12.1f   (%s)" % ("fastsm2-speed sign", sb["sign"], sb["path"]))
        lines.append("  %-22s %12.1f" % ("fastsm2-speed verify", sb["verify"]))
    lines += ["", "ratios (same run):"]
    for name, v in res["ratios"].items():
        note = ""
        if name.startswith("batch"):
            note = "   (%d threads on %d cores)" % (res["threads"], res["cores"])
        lines.append("  %-60s %8.2fx%s" % (name, v, note))
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fastsm2.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="timed seconds per case, over all rounds")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (best kept)")
    ap.add_argument("--batch", type=int, default=4096, help="items per batch call")
    ap.add_argument("--threads", type=int, default=0, help="batch threads (0 = all cores)")
    ap.add_argument("--no-peers", action="store_true", help="skip gmssl and gmalglib")
    ap.add_argument("--no-speed", action="store_true", help="skip the fastsm2-speed C benchmark")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    a = ap.parse_args(argv)
    if a.seconds <= 0 or a.rounds < 1 or a.batch < 1 or a.threads < 0:
        ap.error("--seconds, --rounds and --batch must be positive, --threads >= 0")
    res = run(a.seconds, a.rounds, a.batch, a.threads, peers=not a.no_peers, speed=not a.no_speed)
    print(json.dumps(res, indent=1) if a.json else report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
