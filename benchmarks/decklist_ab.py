"""The decklist importer, old code against new: the same four tables, and the CPU of each.

The old code is a copy of the package exported from a commit::

    mkdir -p /tmp/old && git archive <commit> swissframe | tar -x -C /tmp/old
    PYTHONPATH=$PWD .venv/bin/python benchmarks/decklist_ab.py /tmp/old --same --cpu 4

``--same`` reads the corpus (``shared/data/realworld/fbettega_MTG_decklistcache``, or
``--root``) with each code in a fresh process, with the pool and with ``workers=1``, and
compares the four tables (``DataFrame.equals`` and the schema): exit status 1 when one
differs. ``--cpu N`` reads it N times with each code, old and new alternated, each read in a
fresh process, and prints the wall time, the calling process's CPU (``process_time``: the
assembly, with Polars' threads) and the workers' (``RUSAGE_CHILDREN``) of each read and
their medians. The machine is shared: read the CPU, not the wall.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = next((d / "shared/data/realworld/fbettega_MTG_decklistcache" for d in ROOT.parents
               if (d / "shared/data/realworld/fbettega_MTG_decklistcache").is_dir()),
              ROOT.parent / "shared/data/realworld/fbettega_MTG_decklistcache")
TABLES = ("results", "published", "events", "report")

#: One read in a fresh process: its times as JSON, and its tables as Parquet when asked.
_CHILD = """
import json, os, resource, sys, time
from pathlib import Path
import swissframe as sf
root, workers, out = sys.argv[1], sys.argv[2], sys.argv[3]
t, c = time.perf_counter(), time.process_time()
ev = sf.read_decklist_cache(root, workers=None if workers == "pool" else int(workers))
wall, cpu = time.perf_counter() - t, time.process_time() - c
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
if out != "-":
    for name in ("results", "published", "events", "report"):
        getattr(ev, name).write_parquet(Path(out) / f"{name}.parquet")
print(json.dumps({"wall": wall, "parent": cpu, "workers": kids.ru_utime + kids.ru_stime,
                  "file": sf.__file__, "load": os.getloadavg()[0]}))
"""


def _read(code: Path, root: Path, workers: str, out: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), workers, out], env=env,
                          cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, check=True)
    got: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(got["file"]).startswith(str(code)):
        raise SystemExit(f"{code}: imported {got['file']} instead")
    return got


def same(old: Path, new: Path, root: Path) -> bool:
    """The four tables of both codes, with the pool and with one process, compared."""
    import polars as pl

    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for workers in ("pool", "1"):
            dirs = []
            for tag, code in (("old", old), ("new", new)):
                d = Path(tmp) / f"{tag}-{workers}"
                d.mkdir()
                _read(code, root, workers, str(d))
                dirs.append(d)
            for name in TABLES:
                a, b = (pl.read_parquet(d / f"{name}.parquet") for d in dirs)
                equal = a.schema == b.schema and a.equals(b)
                ok &= equal
                print(f"workers={workers} {name}: {a.height:,} rows, "
                      f"{'identical' if equal else 'DIFFERENT'}")
    return ok


def cpu(old: Path, new: Path, root: Path, rounds: int) -> None:
    """``rounds`` reads with each code, alternated, each in a fresh process."""
    seen: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(rounds):
        for tag, code in (("old", old), ("new", new)):
            got = _read(code, root, "pool", "-")
            seen[tag].append(got)
            print(f"{tag} wall {got['wall']:.2f} s, parent {got['parent']:.2f} s, workers "
                  f"{got['workers']:.2f} s CPU (load {got['load']:.1f})", flush=True)
    for tag, runs in seen.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("wall", "parent", "workers")}
        print(f"{tag} median: wall {med['wall']:.2f} s, parent {med['parent']:.2f} s, "
              f"workers {med['workers']:.2f} s, CPU {med['parent'] + med['workers']:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="a folder holding the old code's swissframe/")
    ap.add_argument("--root", type=Path, default=CORPUS, help="the decklist files read")
    ap.add_argument("--same", action="store_true", help="compare the four tables")
    ap.add_argument("--cpu", type=int, default=0, metavar="N", help="N reads with each code")
    args = ap.parse_args()
    os.environ.setdefault("POLARS_MAX_THREADS", "2")
    if args.same and not same(args.old.resolve(), ROOT, args.root):
        raise SystemExit(1)
    if args.cpu:
        cpu(args.old.resolve(), ROOT, args.root, args.cpu)


if __name__ == "__main__":
    main()
