"""The benchmarks' plain-Python peers (``benchmarks/python_peer.py``) compute what
``sf.standings`` computes: a Pokémon or FIDE row of ``benchmarks/run.py`` times the same
work on both sides. Nothing here is timed (how fast: ``benchmarks/README.md``)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType

import polars as pl
import pytest

import swissframe as sf
from tests.helpers import REPO_ROOT


def _load(name: str) -> ModuleType:
    """A module of ``benchmarks/`` (not a package: loaded from its file)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


GEN = _load("gen")
PEER = _load("python_peer")

#: (players, Swiss rounds, seed) of ``gen.one_event``: the 64-player event of the
#: pokemon-64 / fide-64 rows, and small events with rematches where head-to-head (6, 5, 6;
#: 6, 9, 5) and direct encounter (6, 5, 6; 10, 7, 17; 12, 7, 9) separate players.
EVENTS = [(64, 6, 1), (6, 5, 6), (6, 9, 5), (10, 7, 17), (12, 7, 9)]


def _compare(ours: pl.DataFrame, peer: pl.DataFrame) -> None:
    """Every column of ``ours`` but ``random`` equal (floats within 1e-12); where the peer
    leaves k players on one rank r (only the random order separates them), ours gives them
    r … r + k − 1."""
    cols = [c for c in ours.columns if c not in ("random", "rank")]
    a = ours.sort("player_id")
    b = peer.sort("player_id")
    assert a["player_id"].to_list() == b["player_id"].to_list()
    for c in cols:
        if a[c].dtype == pl.Float64:
            same = (a[c].is_null() & b[c].is_null()) | ((a[c] - b[c]).abs() <= 1e-12)
            assert same.fill_null(value=False).all(), c
        else:
            assert a[c].to_list() == b[c].to_list(), c
    if "random" not in ours.columns:
        assert a["rank"].to_list() == b["rank"].to_list()
        return
    blocks = (pl.DataFrame({"ours": a["rank"], "peer": b["rank"]}).group_by("peer")
              .agg(pl.col("ours").sort()))
    for peer_rank, got in blocks.iter_rows():
        assert got == list(range(peer_rank, peer_rank + len(got)))


@pytest.mark.parametrize(("players", "rounds", "seed"), EVENTS)
@pytest.mark.parametrize("rules", ["pokemon", "fide"])
def test_peer_equals_standings(rules: str, players: int, rounds: int, seed: int) -> None:
    peer: Callable[[pl.DataFrame], pl.DataFrame] = (
        PEER.standings_python_pokemon if rules == "pokemon" else PEER.standings_python_fide)
    ev = GEN.one_event(players, rounds, seed=seed)
    _compare(sf.standings(ev, rules), peer(ev))


def test_cases_reach_the_group_criteria() -> None:
    """The small events do exercise head-to-head and direct encounter (not all zeros)."""
    ev = GEN.one_event(6, 5, seed=6)
    assert (PEER.standings_python_pokemon(ev)["head_to_head"] != 0).any()
    assert (PEER.standings_python_fide(ev)["direct_encounter"] != 0).any()


SEASON = _load("season_files")


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_season_files_hold_the_generated_events(seed: int, tmp_path: pytest.TempPathFactory
                                                ) -> None:
    """The ``tom`` and ``trf`` rows' files (``season_files.py``) hold the events they are
    written from: read back, every match has its result and every bye its point, and the
    TRF's declared points are what its blocks give (no reader note or warning)."""
    import warnings
    from pathlib import Path

    from polars.testing import assert_frame_equal

    ev = GEN.one_event(20, 5, seed=seed, drop_rate=0.3)
    no = {p: str(k + 1) for k, p in enumerate(sorted(ev["player_id"].unique(),
                                                     key=lambda p: int(p[1:])))}
    expected = (ev.select(pl.col("round"), pl.col("player_id").replace_strict(no),
                          pl.col("opponent_id").replace_strict(no, default=None),
                          (pl.col("games_won") > pl.col("games_lost")).alias("won"))
                .sort("round", "player_id"))
    folder = Path(str(tmp_path))
    (folder / "e.tdf").write_text(SEASON.tom_text(ev, "e"), encoding="utf-8")
    (folder / "e.trf").write_text(SEASON.trf_text(ev, "e"), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tom = sf.read_tom(folder / "e.tdf").results
        trf = sf.read_trf(folder / "e.trf").results.filter(pl.col("unplayed").ne_missing("absent"))
    for got in (tom, trf):
        assert_frame_equal(got.select("round", "player_id", "opponent_id",
                                      (pl.col("games_won") > pl.col("games_lost")).alias("won")
                                      ).sort("round", "player_id"), expected)
