# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: the standard's vectors, the fastsm2 CLI, openssl, gmssl.

Tools that a test needs are found from the environment that
python/tools/test.sh sets (FASTSM2_CLI, FASTSM2_SPEED, FASTSM2_SOURCE);
the standard's vectors are the repository's tests/vectors; when FASTSM2_TEST_STRICT=1 a missing one fails the test
instead of skipping it."""
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(os.environ.get("FASTSM2_SOURCE") or Path(__file__).resolve().parents[2])


def missing(what: str) -> None:
    """Skip (or, in strict mode, fail) a test whose tool is missing."""
    if os.environ.get("FASTSM2_TEST_STRICT") == "1":
        pytest.fail("required for this test but missing: " + what)
    pytest.skip("missing: " + what)


def _vectors_file() -> Path:
    path = REPO / "tests" / "vectors" / "gbt32918-examples.txt"
    if not path.is_file():
        missing(f"the standard's vectors ({path})")
    return path


def parse_vectors(text: str):
    """{section: [(key, value), ...]} from the 'key = value' vectors file."""
    out, sec = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            sec = line[1:-1]
            out[sec] = []
            continue
        k, _, v = line.partition("=")
        out[sec].append((k.strip(), v.strip()))
    return out


@pytest.fixture(scope="session")
def vectors():
    return parse_vectors(_vectors_file().read_text())


def section(vectors, name):
    """One section as a dict (last value of a repeated key wins)."""
    return dict(vectors[name])


@pytest.fixture(scope="session")
def cli():
    """Path of the fastsm2 command-line tool."""
    cands = [os.environ.get("FASTSM2_CLI", "")]
    cands += [str(REPO / d / "fastsm2") for d in ("build-python/cmake", "build")]
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    missing("the fastsm2 CLI (set FASTSM2_CLI)")


@pytest.fixture(scope="session")
def openssl():
    path = shutil.which("openssl")
    if not path:
        missing("the openssl command line")
    return path


@pytest.fixture(scope="session")
def gmssl_sm2():
    try:
        from gmssl import sm2  # noqa
    except ImportError:
        missing("the gmssl package (pip install gmssl)")
    return sm2
