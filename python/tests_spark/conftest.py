# SPDX-License-Identifier: Apache-2.0
"""A real Spark session in local[2] for fastsm2.spark's tests (make
test-spark, tests/harness/test-spark.sh), and the seed of the random rows.

The workers run the Python of this process (PYSPARK_PYTHON), where the
fastsm2 wheel is installed. Arrow batches are kept small so that every task
sees several of them (the key cache across batches is exercised)."""
import os
import random
import sys
from pathlib import Path

import pytest

REPO = Path(os.environ.get("FASTSM2_SOURCE") or Path(__file__).resolve().parents[2])


def _seed() -> int:
    s = os.environ.get("FS2T_SEED")
    if s:
        return int(s, 0)
    return random.SystemRandom().getrandbits(64)


SEED = _seed()


def pytest_report_header(config):
    return "FS2T_SEED=0x%016x (replay: make test-spark FS2T_SEED=0x%016x)" % (SEED, SEED)


@pytest.fixture
def rng(request):
    """A random.Random per test, from FS2T_SEED and the test's name."""
    return random.Random("%d/%s" % (SEED, request.node.name))


@pytest.fixture(scope="session")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("fastsm2-test-spark")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.sql.execution.arrow.maxRecordsPerBatch", "4096")
               .config("spark.driver.memory", "2g")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
