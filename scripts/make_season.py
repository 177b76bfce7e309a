"""Regenerate the bundled synthetic season in ``data/season/`` byte-for-byte.

Usage::

    .venv/bin/python scripts/make_season.py            # writes data/season/*.parquet
    .venv/bin/python scripts/make_season.py --out /tmp/season --scale 0.1

The season is two simulator runs (:func:`swissframe.simulate.simulate`): MTG events under
MTR Appendix E and Pokémon events under the 2026 two-phase table, each with sizes drawn
log-uniformly (a realistic mix of many small and a few large events). Every input is fixed
here (seeds, sizes, options), and the Parquet writer is given fixed settings, so the same
library versions produce identical bytes; ``--check`` verifies that against the stored
SHA-256 sums in ``data/season/SHA256SUMS``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from swissframe.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "data" / "season"


@dataclass(frozen=True)
class Part:
    """One simulator run of the season."""

    rules: str
    n_events: int
    min_players: int
    max_players: int
    seed: int


SEASON = (
    Part("mtg", 160, 16, 700, 20260101),
    Part("pokemon", 110, 16, 900, 20260102),
)


def sizes(lo: int, hi: int) -> list[int]:
    """Log-uniform event sizes between ``lo`` and ``hi`` (a list to draw from uniformly)."""
    return [round(float(x)) for x in np.geomspace(lo, hi, 400)]


def write(frame: pl.DataFrame, path: Path) -> None:
    """Deterministic Parquet: one chunk, fixed compression, fixed row-group size."""
    frame.rechunk().write_parquet(path, compression="zstd", compression_level=10,
                                  statistics=True, row_group_size=1 << 20)


def build(out_dir: Path, *, scale: float = 1.0) -> list[Path]:
    """Simulate the season and write ``{rules}_{results,players,events}.parquet``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for part in SEASON:
        sim = simulate(sizes(part.min_players, part.max_players), rules=part.rules,
                       seed=part.seed, n_events=max(1, round(part.n_events * scale)))
        for name, frame in (("results", sim.results), ("players", sim.players),
                            ("events", sim.events)):
            path = out_dir / f"{part.rules}_{name}.parquet"
            write(frame, path)
            paths.append(path)
    return paths


def digest(paths: list[Path]) -> str:
    """``sha256sum``-style lines for the files, sorted by name."""
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}"
             for p in sorted(paths, key=lambda p: p.name)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="fraction of the events to generate (default 1.0)")
    parser.add_argument("--check", action="store_true",
                        help="regenerate into --out and compare with data/season/SHA256SUMS")
    args = parser.parse_args(argv)
    paths = build(args.out, scale=args.scale)
    sums = digest(paths)
    if args.check:
        stored = (DEFAULT_OUT / "SHA256SUMS").read_text()
        if stored != sums:
            print("season differs from data/season/SHA256SUMS:\n" + sums, file=sys.stderr)
            return 1
        print("season matches data/season/SHA256SUMS")
        return 0
    (args.out / "SHA256SUMS").write_text(sums)
    total = sum(p.stat().st_size for p in paths)
    print(f"wrote {len(paths)} files, {total / 1e6:.2f} MB, to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
