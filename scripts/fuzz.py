"""Opt-in larger fuzz run: tests/test_fuzz.py with a bigger hypothesis budget.

Usage::

    .venv/bin/python scripts/fuzz.py --examples 2000 [--timeout 60] [-k tom]

Prints how many generated cases each property ran and the total; exits with pytest's status.
A failure prints hypothesis' minimal falsifying example (add it to the suite as a test, or as
an ``xfail(strict=True)`` test when the bug is in a module you do not own).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=1000, help="examples per property")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per example")
    p.add_argument("-k", default=None, help="pytest -k expression (a subset of properties)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        counts_file = Path(tmp) / "counts.json"
        env = dict(os.environ, SWISSFRAME_FUZZ_EXAMPLES=str(args.examples),
                   SWISSFRAME_FUZZ_TIMEOUT=str(args.timeout),
                   SWISSFRAME_FUZZ_COUNT_FILE=str(counts_file))
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               str(ROOT / "tests" / "test_fuzz.py"), "--hypothesis-show-statistics"]
        if args.k:
            cmd += ["-k", args.k]
        t0 = time.perf_counter()
        status = subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode
        elapsed = time.perf_counter() - t0
        counts = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    print(f"\nfuzz run: {args.examples} examples per property, {elapsed:.0f} s, "
          f"pytest exit status {status}")
    for name, n in sorted(counts.items()):
        print(f"  {name:<22} {n:>8,} cases")
    print(f"  {'total':<22} {sum(counts.values()):>8,} cases")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
