# SPDX-License-Identifier: Apache-2.0
"""`python -m fastsm2.bench` runs and reports every figure (speed itself is
never asserted)."""
import json
import subprocess
import sys


def test_bench_runs():
    out = subprocess.run([sys.executable, "-m", "fastsm2.bench", "--seconds", "0.03", "--rounds", "1", "--batch",
                          "8", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    for case in ("c sign", "py sign raw", "c verify", "py verify raw", "batch sign_digest", "batch verify_digest"):
        assert res["ops_per_s"][case] > 0
    for ratio in ("py sign raw / c sign", "py verify raw / c verify", "batch sign_digest / py sign_digest"):
        assert res["ratios"][ratio] > 0
    assert res["mb_per_s"]["fastsm2 SM4-GCM 16 KiB"] > 0
    try:
        import cryptography  # noqa: F401
        assert res["ratios"]["fastsm2 SM4-GCM 16 KiB / cryptography SM4-GCM 16 KiB"] > 0
    except ImportError:
        pass
    try:
        import gmssl  # noqa: F401
        assert res["ratios"]["fastsm2 sign / gmssl sign"] > 0
    except ImportError:
        pass
    text = subprocess.run([sys.executable, "-m", "fastsm2.bench", "--seconds", "0.02", "--rounds", "1", "--batch",
                           "4", "--no-peers", "--no-speed"], stdout=subprocess.PIPE, universal_newlines=True,
                          timeout=300)
    assert text.returncode == 0 and "py sign raw / c sign" in text.stdout
    # measurements, not the project's targets
    assert "goal" not in text.stdout.lower() and "met" not in text.stdout.split()
    bad = subprocess.run([sys.executable, "-m", "fastsm2.bench", "--seconds", "0"], stderr=subprocess.PIPE)
    assert bad.returncode == 2
