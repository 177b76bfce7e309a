"""``platform_values`` of this checkout against an older commit's, on the real events.

Usage (from the repository root)::

    git archive <commit> swissframe | tar -x -C /tmp/old
    .venv/bin/python scripts/compare_platform_values.py /tmp/old [--all-rulesets]

Reads every decklist-cache event of ``../shared`` (``read_decklist_cache``), gives each event
its platform ruleset (``assign_rulesets``), and computes ``platform_values`` with both
versions, the old one in a child process (``PYTHONPATH=<old>``, so the two packages never
share an interpreter). ``--all-rulesets`` also computes every event under every platform
ruleset (melee's options on CardsRealm's events and so on: more rows through each option).
Prints the rows compared and the differences: a value differs when the two are not both
null and not equal within ``TOLERANCE`` (float means computed two ways may differ in the
last bit), and separately the count of values not bit-for-bit equal.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
CORPUS = (ROOT.parent / "shared" / "data" / "realworld" / "fbettega_MTG_decklistcache"
          / "Tournaments")
TOLERANCE = 1e-12
VALUES = ("eval_round", "omwp", "gwp", "ogwp")


def compute(out: Path, *, all_rulesets: bool) -> None:
    """Every event's platform_values with the swissframe on ``sys.path``, to ``out``."""
    from swissframe.io.decklist import read_decklist_cache
    from swissframe.rules import platforms as P  # noqa: N812

    ev = read_decklist_cache(CORPUS)
    names = P.assign_rulesets(ev.events)
    by_name = P.rulesets_by_name()
    parts = []
    for (name,), ids in names.group_by("ruleset"):
        rs = by_name[str(name)]
        sub = ev.results.filter(pl.col("event_id").is_in(ids["event_id"].implode()))
        parts.append(P.platform_values(sub, rs).with_columns(run=pl.lit(f"own:{name}")))
    if all_rulesets:
        for name, rs in P.PLATFORMS.items():
            parts.append(P.platform_values(ev.results, rs).with_columns(run=pl.lit(f"all:{name}")))
    pl.concat(parts).write_parquet(out)


def main() -> int:
    """Compare; 0 when no value differs beyond TOLERANCE."""
    if len(sys.argv) >= 3 and sys.argv[1] == "--compute":
        compute(Path(sys.argv[2]), all_rulesets="--all-rulesets" in sys.argv)
        return 0
    old = Path(sys.argv[1]).resolve()
    flags = [a for a in sys.argv[2:] if a == "--all-rulesets"]
    with tempfile.TemporaryDirectory() as tmp:
        frames = {}
        for tag, path in (("old", str(old)), ("new", str(ROOT))):
            out = Path(tmp) / f"{tag}.parquet"
            env = {**os.environ, "PYTHONPATH": path}
            subprocess.run([sys.executable, __file__, "--compute", str(out), *flags],
                           check=True, env=env, cwd=tmp)
            frames[tag] = pl.read_parquet(out)
    key = ["run", "event_id", "player_id"]
    old_f, new_f = frames["old"], frames["new"]
    both = old_f.join(new_f, on=key, how="full", suffix="_new", coalesce=True)
    print(f"rows: old {old_f.height:,}, new {new_f.height:,}, joined {both.height:,}; "
          f"events {old_f['event_id'].n_unique():,}; runs {old_f['run'].n_unique()}")
    bad = 0
    for c in VALUES:
        a, b = pl.col(c), pl.col(f"{c}_new")
        differ = (a.is_null() != b.is_null()) | ((a - b).abs() > TOLERANCE)
        not_bits = (a.is_null() != b.is_null()) | (a != b)
        n_diff = both.select(differ.fill_null(value=False).sum()).item()
        n_bits = both.select(not_bits.fill_null(value=False).sum()).item()
        top = both.select((a - b).abs().max()).item()
        nonnull = both.select(a.is_not_null().sum()).item()
        print(f"{c}: {nonnull:,} non-null values; differ > {TOLERANCE:g}: {n_diff}; "
              f"not bit-equal: {n_bits}; largest |old - new|: {top}")
        if n_diff:
            print(both.filter(differ.fill_null(value=False)).select(*key, c, f"{c}_new").head(10))
        bad += n_diff
    # as published (rules.platforms.publish's rounding, engine._exact.to_decimals): rounded
    # to 6, 7, 8 decimals (melee.gg's eras, Manatraders' 3) or truncated to 3 (CardsRealm),
    # where a last-bit difference could cross a boundary
    from swissframe.engine._exact import to_decimals

    for c in ("omwp", "gwp", "ogwp"):
        a, b = pl.col(c), pl.col(f"{c}_new")
        cuts = {f"{mode} {d}": to_decimals(a, d, mode=mode) != to_decimals(b, d, mode=mode)
                for mode, ds in (("round", (3, 6, 7, 8)), ("truncate", (3,))) for d in ds}
        counts = {k: both.select(v.fill_null(value=False).sum()).item() for k, v in cuts.items()}
        print(f"{c} published differently: {counts}")
        bad += sum(counts.values())
    missing = both.filter(pl.col("eval_round").is_null() | pl.col("eval_round_new").is_null())
    print(f"rows in one version only: {missing.height}")
    return 1 if bad or missing.height else 0


if __name__ == "__main__":
    sys.exit(main())
