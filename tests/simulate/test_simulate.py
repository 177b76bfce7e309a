"""Pairing engine, pair_round, simulate, the CLI and the bundled-season script."""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import itertools
import sys
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swissframe.cli import main
from swissframe.cli.commands import simulate as cmd
from swissframe.errors import DataError, RulesetError, SchemaError
from swissframe.rounds import recommended_rounds
from swissframe.schema import from_matches, validate_results
from swissframe.simulate import SIM_RULES, IdPolicy, pair_round, simulate, with_rules
from swissframe.simulate._pairing import pair_arrays, repair_event
from tests.helpers import REPO_ROOT

ROOT = REPO_ROOT


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------

def _history(n: int, pairs: list[tuple[int, int]]) -> np.ndarray:
    opp = np.full((n, max(1, n)), -1, dtype=np.int64)
    fill = np.zeros(n, dtype=np.int64)
    for x, y in pairs:
        opp[x, fill[x]] = y
        opp[y, fill[y]] = x
        fill[x] += 1
        fill[y] += 1
    return opp


def _perfect_matching_exists(players: list[int], forbidden: set[frozenset[int]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        if frozenset((first, other)) not in forbidden and _perfect_matching_exists(
                rest[:k] + rest[k + 1:], forbidden):
            return True
    return False


def _min_rematches(players: list[int], forbidden: set[frozenset[int]]) -> int:
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(int(frozenset((first, o)) in forbidden)
               + _min_rematches(rest[:k] + rest[k + 1:], forbidden)
               for k, o in enumerate(rest))


@st.composite
def _events(draw: st.DrawFn, max_events: int = 4, max_size: int = 11,
            history: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[
                tuple[int, int]]]:
    sizes = draw(st.lists(st.integers(1, max_size), min_size=1, max_size=max_events))
    event = np.repeat(np.arange(len(sizes)), sizes).astype(np.int64)
    n = int(event.shape[0])
    points = np.asarray(draw(st.lists(st.sampled_from([0, 1, 3, 4, 6, 9]), min_size=n,
                                      max_size=n)), dtype=np.int64)
    had_bye = np.asarray(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    pairs: list[tuple[int, int]] = []
    if history:
        for e, size in enumerate(sizes):
            base = int(np.flatnonzero(event == e)[0])
            cand = list(itertools.combinations(range(base, base + size), 2))
            if cand:
                pairs += draw(st.lists(st.sampled_from(cand), unique=True,
                                       max_size=min(len(cand), 2 * size)))
    return event, points, had_bye, pairs


# --------------------------------------------------------------------------------------
# pairing invariants (property tests)
# --------------------------------------------------------------------------------------

@settings(deadline=None, max_examples=150)
@given(_events(), st.integers(0, 2**32 - 1))
def test_every_player_paired_exactly_once(data: tuple, seed: int) -> None:
    event, points, had_bye, pairs = data
    n = event.shape[0]
    a, b, bye = pair_arrays(event, np.arange(n), points, had_bye, _history(n, pairs),
                            rng=np.random.default_rng(seed))
    seen = np.concatenate([a, b, bye])
    assert sorted(seen.tolist()) == list(range(n))
    assert (event[a] == event[b]).all()
    counts = np.bincount(event)
    assert sorted(event[bye].tolist()) == np.flatnonzero(counts % 2).tolist()
    # the bye goes to the lowest-ranked eligible player: no earlier bye first, then points
    for y in bye.tolist():
        mates = np.flatnonzero(event == event[y])
        eligible = mates[~had_bye[mates]] if (~had_bye[mates]).any() else mates
        assert had_bye[y] == had_bye[eligible].all()
        assert points[y] == points[eligible].min()


@settings(deadline=None, max_examples=150)
@given(_events(max_size=15, history=False), st.integers(0, 2**32 - 1))
def test_pair_downs_only_from_odd_groups_to_adjacent_group(data: tuple, seed: int) -> None:
    event, points, had_bye, _ = data
    n = event.shape[0]
    a, b, bye = pair_arrays(event, np.arange(n), points, had_bye, _history(n, []),
                            rng=np.random.default_rng(seed))
    for e in np.unique(event).tolist():
        in_pairs = [(x, y) for x, y in zip(a.tolist(), b.tolist(), strict=True)
                    if event[x] == e]
        players = [p for pair in in_pairs for p in pair]
        groups = sorted({int(points[p]) for p in players}, reverse=True)
        level = {g: i for i, g in enumerate(groups)}
        crossing = [0] * len(groups)
        for x, y in in_pairs:
            gx, gy = sorted((level[int(points[x])], level[int(points[y])]))
            assert gy - gx <= 1, "pair-down skipped a group"
            if gy != gx:
                crossing[gx] += 1
        incoming = 0
        for i, g in enumerate(groups):
            size = sum(1 for p in players if points[p] == g)
            assert crossing[i] == (size + incoming) % 2, "pair-down from an even group"
            incoming = crossing[i]
        # the pairing bye never goes to a paired-down player: it is in the bottom group
        for y in bye[event[bye] == e].tolist():
            mates = np.flatnonzero(event == e)
            eligible = mates[~had_bye[mates]] if (~had_bye[mates]).any() else mates
            assert points[y] == points[eligible].min()


@settings(deadline=None, max_examples=200)
@given(_events(max_events=1, max_size=10), st.integers(0, 2**32 - 1))
def test_no_rematch_when_a_rematch_free_pairing_exists(data: tuple, seed: int) -> None:
    event, points, had_bye, pairs = data
    n = event.shape[0]
    a, b, bye = pair_arrays(event, np.arange(n), points, had_bye, _history(n, pairs),
                            rng=np.random.default_rng(seed))
    forbidden = {frozenset(p) for p in pairs}
    rest = sorted(set(range(n)) - set(bye.tolist()))
    got = sum(frozenset((x, y)) in forbidden for x, y in zip(a.tolist(), b.tolist(),
                                                              strict=True))
    if _perfect_matching_exists(rest, forbidden):
        assert got == 0
    else:
        assert got == _min_rematches(rest, forbidden)


@settings(deadline=None, max_examples=60)
@given(st.integers(10, 40).map(lambda k: 2 * k), st.integers(0, 2**32 - 1))
def test_window_repair_on_larger_events(n: int, seed: int) -> None:
    """Dense histories force the windowed search to grow; networkx is the oracle."""
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(seed)
    points = rng.integers(0, 3, n) * 3
    cand = list(itertools.combinations(range(n), 2))
    picked = rng.choice(len(cand), size=int(len(cand) * 0.3), replace=False)
    pairs = [cand[i] for i in picked.tolist()]
    forbidden = {frozenset(p) for p in pairs}
    a, b, _ = pair_arrays(np.zeros(n, dtype=np.int64), np.arange(n), points,
                          np.zeros(n, dtype=bool), _history(n, pairs), rng=rng)
    graph = nx.Graph()
    graph.add_edges_from(p for p in cand if frozenset(p) not in forbidden)
    best = len(nx.max_weight_matching(graph, maxcardinality=True))
    got = sum(frozenset((x, y)) in forbidden for x, y in zip(a.tolist(), b.tolist(),
                                                              strict=True))
    assert got == n // 2 - best


def test_repair_event_small_case() -> None:
    # 0-1 and 2-3 met before; 0-2 is fine, 1-3 is fine
    banned = {frozenset((0, 1)), frozenset((2, 3))}
    assert repair_event(4, lambda x, y: frozenset((x, y)) in banned).tolist() == [0, 2, 1, 3]


def test_pairing_is_reproducible() -> None:
    event = np.repeat(np.arange(3), [9, 10, 11])
    pts = np.tile([0, 3, 6], 10)
    hb = np.zeros(30, dtype=bool)
    first = pair_arrays(event, np.arange(30), pts, hb, _history(30, []),
                        rng=np.random.default_rng(5))
    again = pair_arrays(event, np.arange(30), pts, hb, _history(30, []),
                        rng=np.random.default_rng(5))
    for x, y in zip(first, again, strict=True):
        assert x.tolist() == y.tolist()


# --------------------------------------------------------------------------------------
# pair_round
# --------------------------------------------------------------------------------------

def _play(pairings: pl.DataFrame) -> pl.DataFrame:
    """Seat A (smaller id) wins every match 2-0; byes 2-0; absent rows 0-2."""
    matches = pairings.filter(pl.col("opponent_id").is_null()
                              | (pl.col("player_id") < pl.col("opponent_id")))
    return from_matches(matches.select(
        "event_id", "round", pl.col("player_id").alias("player_a"),
        pl.col("opponent_id").alias("player_b"),
        pl.when(pl.col("unplayed") == "absent").then(0).otherwise(2).alias("games_a"),
        pl.when(pl.col("unplayed") == "absent").then(2).otherwise(0).alias("games_b"),
        pl.lit(0).alias("games_drawn")))


ROSTER = pl.DataFrame({"event_id": ["e"] * 4, "player_id": ["a", "b", "c", "d"]})


@pytest.mark.parametrize(("change", "error", "said"), [
    (pl.col("player_id").replace("a", None), DataError, r"player None: an empty event_id"),
    (pl.col("player_id").replace("a", " "), DataError, r"player ' ': an empty event_id"),
    (pl.lit(None, pl.String).alias("event_id"), DataError, r"event None, player 'a'"),
    (pl.lit(1.0).alias("player_id"), SchemaError, r"player_id is Float64"),
    (pl.concat_list("player_id").alias("player_id"), SchemaError, r"player_id is List"),
    (pl.lit("yes").alias("dropped"), SchemaError, r"dropped is String"),
    (pl.lit("2").alias("enters_round"), SchemaError, r"enters_round is String"),
    (pl.lit(0).alias("enters_round"), DataError, r"enters_round 0 \(from 1\)"),
    (pl.lit(-1).alias("byes"), DataError, r"byes -1 \(from 0\)"),
    (pl.lit(-1).alias("dropped_after"), DataError, r"dropped_after -1 \(from 0\)"),
])
def test_pair_round_refuses_a_players_table_it_cannot_read(
        change: pl.Expr, error: type[Exception], said: str) -> None:
    """A players table's ids, flags and counts are checked (bad data 209): a null or blank
    id was paired as a player (its opponent's row read as a bye), a null event left every
    player unpaired (no row, no word), ``enters_round="2"`` or ``0`` was read, and a list
    id, a text flag or count ended in Polars' bare cast errors."""
    with pytest.raises(error, match=said):
        pair_round(None, ROSTER.with_columns(change))


def test_pair_round_reads_whole_number_ids_as_text() -> None:
    """Whole-number ids are ids, as everywhere they are read (bad data 209 kept them)."""
    out = pair_round(None, ROSTER.with_columns(pl.Series("player_id", [1, 2, 3, 4])))
    assert sorted(out["player_id"].to_list()) == ["1", "2", "3", "4"]


def test_pair_round_leaves_out_a_disqualified_player() -> None:
    """A player disqualified in the results (MTG IPG §1.1, Pokémon TRH §5.7.3: out of the
    event) was paired for the next round as if the flag were not there (bad data 210)."""
    res = simulate(8, 3, seed=4, id_policy=None).results
    flagged = res.with_columns(((pl.col("player_id") == "p001") & (pl.col("round") == 2))
                               .alias("disqualified"))
    nxt = pair_round(flagged)
    assert "p001" not in nxt["player_id"].to_list() + nxt["opponent_id"].to_list()
    assert nxt.height == 7
    assert nxt["unplayed"].to_list().count("pairing_bye") == 1
    # no flag: everyone paired
    assert pair_round(res.with_columns(pl.lit(False).alias("disqualified"))).height == 8


def test_pair_round_first_round_and_mirrors() -> None:
    roster = pl.DataFrame({"event_id": ["e"] * 7, "player_id": list("abcdefg")})
    r1 = pair_round(None, roster, seed=3)
    assert r1.height == 7
    assert r1["round"].unique().to_list() == [1]
    assert r1.filter(pl.col("opponent_id").is_null())["unplayed"].to_list() == ["pairing_bye"]
    played = r1.filter(pl.col("opponent_id").is_not_null())
    mirror = played.select("table", pl.col("player_id").alias("opponent_id"),
                           pl.col("opponent_id").alias("player_id"))
    assert played.select("table", "opponent_id", "player_id").sort("player_id").equals(
        mirror.select("table", "opponent_id", "player_id").sort("player_id"))
    assert sorted(played["table"].unique().to_list()) == [1, 2, 3]


def test_pair_round_many_events_later_rounds() -> None:
    roster = pl.DataFrame({"event_id": ["x"] * 9 + ["y"] * 6,
                           "player_id": [f"p{i}" for i in range(9)] + [f"q{i}" for i in
                                                                        range(6)]})
    results = None
    byes: dict[str, int] = {}
    for rnd in range(1, 5):
        pairing = pair_round(results, roster, seed=rnd)
        assert pairing["round"].unique().to_list() == [rnd]
        assert pairing.group_by("event_id").len().sort("event_id")["len"].to_list() == [9, 6]
        for p in pairing.filter(pl.col("unplayed") == "pairing_bye")["player_id"].to_list():
            byes[p] = byes.get(p, 0) + 1
        played = _play(pairing)
        results = played if results is None else pl.concat([results, played])
    assert max(byes.values()) == 1
    assert len(byes) == 4  # event x is odd: one bye per round, never twice
    validate_results(results)
    meet = results.filter(pl.col("opponent_id").is_not_null())
    assert meet.select("event_id", "player_id", "opponent_id").is_unique().all()


def test_pair_round_drops_late_entries_and_awarded_byes() -> None:
    roster = pl.DataFrame({
        "event_id": "e", "player_id": list("abcdefgh"),
        "dropped": [False, True, False, False, False, False, False, False],
        "enters_round": [1, 1, 2, 1, 1, 1, 1, 1],
        "byes": [0, 0, 0, 2, 0, 0, 0, 0],
    })
    r1 = pair_round(None, roster, seed=1)
    kinds = dict(zip(r1["player_id"], r1["unplayed"], strict=True))
    assert "b" not in kinds  # dropped: not paired
    assert kinds["c"] == "absent"  # late entry: a missed round (loss)
    assert kinds["d"] == "full_bye"  # awarded bye
    assert r1.filter(pl.col("opponent_id").is_not_null()).height == 4
    assert r1.filter(pl.col("unplayed") == "pairing_bye").height == 1  # 5 to pair: odd
    absent = with_rules(SIM_RULES["mtg"], late_entry="absent")
    assert "c" not in pair_round(None, roster, absent, seed=1)["player_id"].to_list()
    # dropped_after: last round played
    roster2 = roster.with_columns(pl.lit(False).alias("dropped"),
                                  pl.when(pl.col("player_id") == "a").then(1)
                                  .alias("dropped_after"))
    res = _play(pair_round(None, roster2, seed=2))
    r2 = pair_round(res, roster2, seed=2)
    assert "a" not in r2["player_id"].to_list()
    assert r2.filter(pl.col("player_id") == "c")["unplayed"].to_list() == [None]


def test_pair_round_uses_points_top_down() -> None:
    # after one round: winners a, c, e, g (3 points); the top table pairs two winners
    res = from_matches(pl.DataFrame({
        "event_id": "e", "round": 1, "player_a": list("aceg"), "player_b": list("bdfh"),
        "games_a": 2, "games_b": 0, "games_drawn": 0}))
    r2 = pair_round(res, seed=11)
    winners = set("aceg")
    for table in (1, 2):
        seats = set(r2.filter(pl.col("table") == table)["player_id"].to_list())
        assert seats <= winners
    round_one = {frozenset("ab"), frozenset("cd"), frozenset("ef"), frozenset("gh")}
    pairs = r2.select("player_id", "opponent_id").rows()
    assert len(pairs) == 8
    assert all(frozenset(r) not in round_one for r in pairs)


def test_pair_round_errors() -> None:
    with pytest.raises(DataError, match="nobody to pair"):
        pair_round(None)
    res = from_matches(pl.DataFrame({"event_id": "e", "round": 1, "player_a": ["a"],
                                     "player_b": ["b"], "games_a": 2, "games_b": 0,
                                     "games_drawn": 0}))
    with pytest.raises(DataError, match=r"event 'e': player 'b'.*Hint"):
        pair_round(res, pl.DataFrame({"event_id": "e", "player_id": ["a"]}))
    with pytest.raises(DataError, match="listed twice"):
        pair_round(None, pl.DataFrame({"event_id": "e", "player_id": ["a", "a"]}))
    with pytest.raises(RulesetError, match="Hint"):
        pair_round(None, pl.DataFrame({"player_id": ["a", "b"]}), rules="go")


def test_pair_round_2000_players_pairs_round_7_without_rematches() -> None:
    # (how fast: benchmarks/, not a timed assertion here)
    sim = simulate(2000, rounds=6, seed=4, awarded_bye_rate=0.0, late_rate=0.0)
    roster = sim.players.select("event_id", "player_id", "dropped_after")
    pairing = pair_round(sim.results, roster, seed=9)
    assert pairing["round"].unique().to_list() == [7]
    met = set(sim.results.filter(pl.col("opponent_id").is_not_null())
              .select("player_id", "opponent_id").rows())
    assert not met & set(pairing.filter(pl.col("opponent_id").is_not_null())
                         .select("player_id", "opponent_id").rows())


# --------------------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["mtg", "pokemon"])
def test_simulation_is_valid_sorted_and_sized(rules: str) -> None:
    sim = simulate(range(16, 300), rules=rules, seed=1, n_events=12)
    validate_results(sim.results).collect()
    res = sim.results
    assert res.equals(res.sort("event_id", "round", "player_id"))
    assert sim.events.height == 12
    assert sim.events["event_id"].to_list() == [f"{rules}-{i:04d}" for i in range(1, 13)]
    sizes = sim.players.group_by("event_id").len().sort("event_id")["len"]
    assert sizes.to_list() == sim.events["players"].to_list()
    assert all(16 <= s < 300 for s in sizes.to_list())
    # every round of every event is in the table, and nobody plays past the last round
    rounds = res.group_by("event_id").agg(pl.col("round").max()).sort("event_id")
    assert rounds["round"].to_list() == sim.events["swiss_rounds"].to_list()


def test_rounds_follow_the_table() -> None:
    sim = simulate([40, 130, 500], seed=2, n_events=9, awarded_bye_rate=0.0)
    expect = recommended_rounds(sim.events.select("event_id", "players"))
    assert sim.events["swiss_rounds"].to_list() == expect["swiss_rounds"].to_list()
    fixed = simulate(50, rounds=4, seed=2, n_events=2)
    assert fixed.events["swiss_rounds"].to_list() == [4, 4]
    tiny = simulate(6, seed=1)  # Appendix E: no Swiss for 5-8; the simulator plays 3
    assert tiny.events["swiss_rounds"].to_list() == [3]


def test_reproducible_and_seed_sensitive() -> None:
    one = simulate(range(20, 200), seed=42, n_events=6, rules="pokemon")
    two = simulate(range(20, 200), seed=42, n_events=6, rules="pokemon")
    assert one.results.equals(two.results)
    assert one.players.equals(two.players)
    assert one.events.equals(two.events)
    other = simulate(range(20, 200), seed=43, n_events=6, rules="pokemon")
    assert not one.results.equals(other.results)


def test_reproducible_fingerprint() -> None:
    """Pins the exact output of one seed: the same bytes on every platform and run.

    If this fails after a deliberate change to the simulator, update the digest and
    regenerate the bundled season (scripts/make_season.py).
    """
    sim = simulate(24, seed=123, n_events=2)
    assert sim.results.height == 230
    digest = hashlib.sha256(sim.results.write_csv().encode()).hexdigest()
    assert digest == "5bf45ddcb0eea6c25e6f7bd223d9a16b231f304318ed74bfa544086affa067bb"


def test_no_rematches_and_at_most_one_pairing_bye() -> None:
    sim = simulate(range(32, 400), seed=5, n_events=15, rules="mtg")
    res = sim.results
    met = res.filter(pl.col("opponent_id").is_not_null())
    assert met.select("event_id", "player_id", "opponent_id").is_unique().all()
    byes = res.filter(pl.col("unplayed") == "pairing_bye").group_by("event_id",
                                                                    "player_id").len()
    assert byes["len"].max() == 1


def test_drops_stop_rows_and_match_the_rate() -> None:
    sim = simulate(400, rounds=8, seed=6, n_events=10, drop_rate=0.05, drop_multiplier=1.0,
                   late_rate=0.0, awarded_bye_rate=0.0, id_policy=None)
    last = sim.results.group_by("event_id", "player_id").agg(pl.col("round").max())
    joined = sim.players.join(last, on=["event_id", "player_id"])
    dropped = joined.filter(pl.col("dropped_after").is_not_null())
    assert (dropped["round"] == dropped["dropped_after"]).all()
    stayed = joined.filter(pl.col("dropped_after").is_null())
    assert (stayed["round"] == 8).all()
    trials = joined.select(pl.col("dropped_after").fill_null(7).sum()).item()
    hazard = dropped.height / trials
    assert hazard == pytest.approx(0.05, abs=0.006)


def _drop_gap(multiplier: float) -> float:
    """Mean points of droppers minus their event's mean in the round they dropped."""
    sim = simulate(300, rounds=8, seed=8, n_events=10, drop_rate=0.03,
                   drop_multiplier=multiplier, id_policy=None)
    dropped = sim.players.filter(pl.col("dropped_after").is_not_null())
    pts = (sim.results.with_columns(
        ((pl.col("games_won") > pl.col("games_lost")).cast(pl.Int64) * 3
         + (pl.col("games_won") == pl.col("games_lost")).cast(pl.Int64))
        .cum_sum().over("event_id", "player_id", order_by="round").alias("pts")))
    at_drop = pts.join(dropped.select("event_id", "player_id", pl.col("dropped_after")
                                      .alias("round")), on=["event_id", "player_id", "round"])
    field = pts.group_by("event_id", "round").agg(pl.col("pts").mean().alias("field"))
    gap = at_drop.join(field, on=["event_id", "round"]).select(pl.col("pts") - pl.col("field"))
    return float(gap.to_series().mean())  # type: ignore[arg-type]


def test_out_of_contention_players_drop_more() -> None:
    flat, skewed = _drop_gap(1.0), _drop_gap(5.0)
    assert abs(flat) < 0.5
    assert skewed < flat - 0.5


def test_awarded_byes_late_entries_and_unfinished_rates() -> None:
    sim = simulate(1000, rounds=6, seed=9, n_events=6, awarded_bye_rate=0.1, late_rate=0.05,
                   unfinished_rate=0.1, id_policy=None, drop_rate=0.0)
    players = sim.players
    assert (players["awarded_byes"] > 0).mean() == pytest.approx(0.1 * 0.95, abs=0.015)
    assert (players["enters_round"] > 1).mean() == pytest.approx(0.05, abs=0.01)
    res = sim.results
    full = res.filter(pl.col("unplayed") == "full_bye").group_by("event_id", "player_id").agg(
        pl.col("round").max().alias("last"), pl.len().alias("n"))
    assert (full["last"] == full["n"]).all()  # awarded byes are rounds 1..k
    absent = res.filter(pl.col("unplayed") == "absent")
    assert (absent["games_lost"] == 2).all()
    assert absent["round"].max() <= 2
    played = res.filter(pl.col("opponent_id").is_not_null())
    drawn = (played["games_won"] == played["games_lost"]).mean()
    assert drawn == pytest.approx(0.1, abs=0.015)
    scores = set(played.select("games_won", "games_lost", "games_drawn").unique().rows())
    assert scores == {(2, 0, 0), (0, 2, 0), (2, 1, 0), (1, 2, 0), (1, 1, 0), (1, 1, 1)}


def test_skill_model_favours_the_stronger_player() -> None:
    sim = simulate(200, rounds=5, seed=10, n_events=4, skill=1.5, unfinished_rate=0.0)
    rating = sim.players.select("event_id", "player_id", "rating")
    played = (sim.results.filter(pl.col("opponent_id").is_not_null())
              .join(rating, on=["event_id", "player_id"])
              .join(rating.rename({"player_id": "opponent_id", "rating": "opp_rating"}),
                    on=["event_id", "opponent_id"]))
    stronger = played.filter(pl.col("rating") > pl.col("opp_rating") + 1.0)
    win_share = (stronger["games_won"] > stronger["games_lost"]).mean()
    assert win_share > 0.75


def test_a_huge_skill_is_refused_and_a_large_one_decides_quietly() -> None:
    """``skill=1e308`` made the ratings overflow (inf − inf: a NaN win chance, so every
    game went to one seat whatever the ratings), and any spread past ~350 logits printed
    NumPy's ``RuntimeWarning: overflow encountered in exp``; a spread above
    ``MAX_SKILL`` is now refused, naming the bound, and a large one lets the stronger
    player win every game without a warning (bad data 203)."""
    for skill in (1e308, 1e4, True):
        with pytest.raises(DataError, match=r"skill must be a number from 0 to 1,000"):
            simulate(8, rounds=3, skill=skill)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sim = simulate(64, rounds=4, seed=3, skill=1000, unfinished_rate=0.0,
                       id_policy=None)
    rating = sim.players.select("event_id", "player_id", "rating")
    played = (sim.results.filter(pl.col("opponent_id").is_not_null())
              .join(rating, on=["event_id", "player_id"])
              .join(rating.rename({"player_id": "opponent_id", "rating": "opp_rating"}),
                    on=["event_id", "opponent_id"]))
    assert ((played["games_won"] == 2) == (played["rating"] > played["opp_rating"])).all()


def _final_points(res: pl.DataFrame) -> pl.DataFrame:
    return res.group_by("event_id", "player_id").agg(
        ((pl.col("games_won") > pl.col("games_lost")).cast(pl.Int64) * 3
         + (pl.col("games_won") == pl.col("games_lost")).cast(pl.Int64)).sum().alias("pts"))


def test_intentional_draws_are_safe_and_last_round_only() -> None:
    sim = simulate(range(40, 200), seed=11, n_events=40,
                   id_policy=IdPolicy(mode="safe", rounds=1, rate=1.0))
    res = sim.results
    ids = res.filter(pl.col("games_drawn") == 3)
    assert ids.height > 0
    last = ids.join(sim.events.select("event_id", "swiss_rounds"), on="event_id")
    assert (last["round"] == last["swiss_rounds"]).all()
    assert ((ids["games_won"] == 0) & (ids["games_lost"] == 0)).all()
    final = _final_points(res).join(sim.events.select("event_id", "top_cut"), on="event_id")
    ranked = final.with_columns(
        (pl.col("pts").rank("max", descending=True).over("event_id")).alias("worst_place"))
    id_players = ranked.join(ids.select("event_id", "player_id"), on=["event_id", "player_id"])
    assert (id_players["worst_place"] <= id_players["top_cut"]).all()


def test_id_policy_none_and_likely() -> None:
    none = simulate(150, seed=12, n_events=20, id_policy="none")
    assert none.results.filter(pl.col("games_drawn") == 3).height == 0
    likely = simulate(150, seed=12, n_events=20, id_policy="likely")
    safe = simulate(150, seed=12, n_events=20, id_policy="safe")
    n_likely = likely.results.filter(pl.col("games_drawn") == 3).height
    n_safe = safe.results.filter(pl.col("games_drawn") == 3).height
    assert n_likely >= n_safe
    assert n_likely > 0


def test_pokemon_two_phase() -> None:
    sim = simulate(300, rules="pokemon", seed=13, n_events=4)
    ev = sim.events.row(0, named=True)
    assert (ev["swiss_rounds"], ev["phase1_rounds"], ev["phase2_threshold"]) == (11, 8, 16)
    res = sim.results
    assert set(res.filter(pl.col("round") <= 8)["stage"].unique()) == {"day1"}
    assert set(res.filter(pl.col("round") > 8)["stage"].unique()) == {"day2"}
    after_p1 = _final_points(res.filter(pl.col("round") <= 8))
    day2 = res.filter(pl.col("stage") == "day2").select("event_id", "player_id").unique()
    qualified = day2.join(after_p1, on=["event_id", "player_id"])
    assert (qualified["pts"] >= 16).all()
    # everyone on 16+ who did not drop plays phase 2
    kept = after_p1.filter(pl.col("pts") >= 16).join(
        sim.players.filter(pl.col("dropped_after").is_null() | (pl.col("dropped_after") > 8)),
        on=["event_id", "player_id"])
    assert kept.height == qualified.height


def test_progress_callback_and_mixed_sizes() -> None:
    seen: list[float] = []
    sim = simulate([32, 1500], seed=14, n_events=5, progress=seen.append)
    assert sum(seen) == pytest.approx(5)
    assert len(seen) >= 6  # one step per round
    assert set(sim.events["players"].to_list()) <= {32, 1500}


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"n_players": 1}, "at least 2 players"),
    ({"n_players": 10, "n_events": 0}, "n_events"),
    ({"n_players": 10, "drop_rate": 1.5}, "probability"),
    ({"n_players": []}, "empty"),
    ({"n_players": 10, "rounds": 0}, "rounds"),
    ({"n_players": 10, "id_policy": "sometimes"}, "id_policy"),
    # (a text or None reached int() / list(): bare ValueError, TypeError)
    ({"n_players": "abc"}, r"n_players must be an int or a sequence of ints, got 'abc'"),
    ({"n_players": None}, r"n_players must be an int or a sequence of ints, got None"),
    ({"n_players": [16, "x"]}, r"got \[16, 'x'\]"),
    # (refused before any array of n_events: a few extra digits ended in "out of memory")
    ({"n_players": range(8, 64), "n_events": 10**11},
     r"100,000,000,000 events of at least 8 players make at least 800,000,000,000 result "
     r"rows, more than a table holds \(4,294,967,295\)\. Hint: simulate fewer events"),
])
def test_simulate_errors(kwargs: dict, match: str) -> None:
    with pytest.raises(DataError, match=match):
        simulate(**kwargs)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 40), rounds=st.integers(1, 6), n_events=st.integers(1, 6),
       memory=st.integers(0, 200_000))
def test_a_simulation_past_the_machines_memory_is_refused_before_it_runs(
        players: int, rounds: int, n_events: int, memory: int) -> None:
    """Bad data 128: a simulation is refused up front exactly when its least result rows
    need more than the machine's memory; it was built until the out-of-memory killer
    ended the process (simulate(8, 3, n_events=10**8): ~220 GB), or a bare MemoryError."""
    from swissframe.simulate import _simulate as sim_mod

    need = players * rounds * n_events * sim_mod.SIM_ROW_BYTES
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sim_mod, "memory_bytes", lambda: memory)
        if need > memory:
            with pytest.raises(DataError, match=r"more than this machine's memory .*Hint: "
                               r"simulate fewer"):
                simulate(players, rounds, n_events=n_events, seed=1)
        else:
            sim = simulate(players, rounds, n_events=n_events, seed=1)
            assert sim.events.height == n_events


def test_a_simulation_that_runs_out_of_memory_says_so() -> None:
    from swissframe.simulate import _simulate as sim_mod

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sim_mod, "_simulate_batch", no_memory)
        with pytest.raises(DataError, match=r"2 events of 16 players in all need more memory "
                           r"than is free\. Hint: simulate fewer events"):
            simulate(8, 3, n_events=2)


def test_the_memory_bound_is_the_machines() -> None:
    from swissframe.errors import MAX_WHOLE, memory_bytes
    from swissframe.simulate import _simulate as sim_mod

    assert 2**20 < memory_bytes() <= MAX_WHOLE
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sim_mod, "memory_bytes", lambda: 2**34)
        with pytest.raises(DataError, match=r"2,400,000,000 result rows, at least 223\.5 GiB, "
                           r"more than this machine's memory \(16\.0 GiB\)"):
            simulate(8, 3, n_events=10**8)  # (below MAX_TABLE_ROWS: refused by memory alone)


def test_too_small_for_the_round_table_names_the_event() -> None:
    with pytest.raises(DataError, match=r"event 'mtg-0001' has 3 players.*Hint: pass rounds"):
        simulate(3)
    assert simulate(3, rounds=2, seed=1).events["swiss_rounds"].to_list() == [2]


def test_unknown_rules() -> None:
    with pytest.raises(RulesetError, match="no simulation rules"):
        simulate(10, rules="chess")


# --------------------------------------------------------------------------------------
# CLI and the bundled season
# --------------------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="swissframe")
    cmd.add_parser(parser.add_subparsers(dest="command"))
    return parser


def test_cli_writes_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "season.parquet"
    args = _parser().parse_args(["simulate", "--players", "200", "--events", "10", "--rules",
                                 "pokemon", "-o", str(out), "--players-output",
                                 str(tmp_path / "players.csv")])
    assert args.func(args) == 0
    res = pl.read_parquet(out)
    validate_results(res)
    assert res["event_id"].n_unique() == 10
    assert pl.read_csv(tmp_path / "players.csv").height == 2000
    err = capsys.readouterr().err
    assert "simulating" not in err  # bars only on a terminal (tests/cli/test_terminal.py)
    assert "wrote" in err


def test_cli_an_output_that_cannot_be_written_is_found_before_the_simulation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """Bad data 130: --players-output under a file was found after the simulation, and
    left -o written beside the error (exit 2, one output of three)."""
    (tmp_path / "afile").write_text("x")

    def not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("simulated before the outputs were checked")

    monkeypatch.setattr(cmd, "simulate", not_run)
    assert main(["simulate", "--players", "8", "--rounds", "3", "-o", str(tmp_path / "s.csv"),
                 "--players-output", str(tmp_path / "afile" / "p.csv")]) == 2
    assert "afile' is a file, not a folder" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_cli_a_failed_write_of_one_output_leaves_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    real = cmd._write

    def events_fail(frame: pl.DataFrame, path: Path, tmp: Path) -> None:
        if path.name == "e.csv":
            raise OSError(28, "No space left on device")
        real(frame, path, tmp)

    monkeypatch.setattr(cmd, "_write", events_fail)
    (tmp_path / "s.csv").write_text("kept")
    assert main(["simulate", "--players", "8", "--rounds", "3", "-o", str(tmp_path / "s.csv"),
                 "--players-output", str(tmp_path / "p.csv"),
                 "--events-output", str(tmp_path / "e.csv")]) == 2
    assert "No space left" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv"]
    assert (tmp_path / "s.csv").read_text() == "kept"


def test_cli_quiet_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.parquet"
    args = _parser().parse_args(["simulate", "--players", "32-64", "--events", "3", "-o",
                                 str(out), "--quiet"])
    assert cmd.run(args) == 0
    assert capsys.readouterr().err == ""
    # errors go through the CLI contract (one line, exit status 2)
    assert main(["simulate", "--players", "1", "-o", str(out), "--quiet"]) == 2
    assert "Hint" in capsys.readouterr().err
    assert main(["simulate", "--players", "8", "-o", str(tmp_path / "x.txt")]) == 2
    with pytest.raises(SystemExit):
        _parser().parse_args(["simulate", "--players", "many", "-o", "x.parquet"])


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_season",
                                                  ROOT / "scripts" / "make_season.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_season"] = module
    spec.loader.exec_module(module)
    return module


def test_make_season_is_byte_for_byte_stable(tmp_path: Path) -> None:
    script = _load_script()
    first = script.build(tmp_path / "a", scale=0.05)
    second = script.build(tmp_path / "b", scale=0.05)
    assert [p.name for p in first] == [p.name for p in second]
    for x, y in zip(first, second, strict=True):
        assert hashlib.sha256(x.read_bytes()).digest() == hashlib.sha256(
            y.read_bytes()).digest()


def test_bundled_season_is_valid_and_matches_its_checksums() -> None:
    season = ROOT / "data" / "season"
    files = sorted(season.glob("*.parquet"))
    assert {p.name for p in files} == {f"{g}_{t}.parquet" for g in ("mtg", "pokemon")
                                       for t in ("results", "players", "events")}
    assert sum(p.stat().st_size for p in files) < 5_000_000
    script = _load_script()
    assert script.digest(files) == (season / "SHA256SUMS").read_text()
    for game in ("mtg", "pokemon"):
        validate_results(pl.read_parquet(season / f"{game}_results.parquet"))


@pytest.mark.slow
def test_make_season_regenerates_the_bundled_bytes(tmp_path: Path) -> None:
    script = _load_script()
    paths = script.build(tmp_path)
    assert script.digest(paths) == (ROOT / "data" / "season" / "SHA256SUMS").read_text()


@pytest.mark.slow
def test_ten_thousand_events_are_simulated() -> None:
    # (how fast: benchmarks/, not a timed assertion here)
    sizes = [round(float(x)) for x in np.geomspace(32, 1500, 400)]
    sim = simulate(sizes, seed=1, n_events=10_000)
    assert sim.events.height == 10_000
    assert sim.results["event_id"].n_unique() == 10_000


@pytest.mark.parametrize("rules", ["mtg", "pokemon"])
def test_simulated_events_run_through_the_standings_engine(rules: str) -> None:
    from swissframe.standings import standings

    sim = simulate(range(20, 120), rules=rules, seed=21, n_events=4)
    table = standings(sim.results, rules)
    per_event = table.group_by("event_id").len().sort("event_id")["len"].to_list()
    assert per_event == sim.events.sort("event_id")["players"].to_list()
    mine = _final_points(sim.results)
    both = table.join(mine, on=["event_id", "player_id"])
    assert (both["match_points"] == both["pts"]).all()
    # a simulator rules object can also come from the engine's ruleset
    from swissframe import rules as presets

    assert simulate(16, rules=presets.get(rules), seed=1).events["rules"].item() == rules


def test_pairing_brackets_points_or_record() -> None:
    pts = np.array([7, 7, 6])
    wins = np.array([2, 1, 2])
    assert SIM_RULES["mtg"].pairing_key(pts, wins).tolist() == [7, 7, 6]
    key = SIM_RULES["pokemon"].pairing_key(pts, wins)
    assert key[0] > key[1] > key[2]  # 2-1-1 above 1-0-4 (same points), both above 6 points


def test_pair_round_match_form() -> None:
    roster = pl.DataFrame({"event_id": ["e"] * 5, "player_id": list("abcde")})
    long = pair_round(None, roster, seed=2)
    match = pair_round(None, roster, seed=2, form="match")
    assert match.columns == ["event_id", "round", "table", "player_a", "player_b", "unplayed"]
    assert match.height == 3
    assert match["table"].to_list() == [1, 2, None]
    pairs = {frozenset(r) for r in match.drop_nulls("player_b")
             .select("player_a", "player_b").rows()}
    assert pairs == {frozenset(r) for r in long.drop_nulls("opponent_id")
                     .select("player_id", "opponent_id").rows()}


def test_id_rate_is_the_share_of_eligible_pairs_that_draw() -> None:
    # IDs only happen in the last round, after the pairing: every earlier draw of the
    # random stream is identical, so rate=0.5 picks a subset of the rate=1.0 draws
    def ids(rate: float) -> set[tuple[str, str]]:
        sim = simulate(range(40, 400), seed=31, n_events=60,
                       id_policy=IdPolicy(mode="likely", rounds=1, rate=rate))
        rows = sim.results.filter(pl.col("games_drawn") == 3)
        return set(rows.select("event_id", "player_id").rows())

    every, half = ids(1.0), ids(0.5)
    assert half <= every
    assert len(every) > 100
    assert len(half) / len(every) == pytest.approx(0.5, abs=0.1)


def test_fallback_without_networkx(monkeypatch: pytest.MonkeyPatch) -> None:
    from swissframe.simulate import _pairing

    banned = {frozenset((0, 1)), frozenset((0, 2)), frozenset((0, 3)), frozenset((2, 3))}
    monkeypatch.setitem(sys.modules, "networkx", None)  # import now raises ImportError
    out = _pairing._fallback(4, lambda x, y: frozenset((x, y)) in banned)
    assert sorted(out) == [0, 1, 2, 3]
    assert out[:2] == [0, 1]  # 0 has played everyone: greedy takes the first free player


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 24), st.integers(1, 6), st.floats(0.0, 1.0), st.integers(0, 2**16))
def test_events_table_says_the_rounds_played(players: int, rounds: int, drop: float,
                                             seed: int) -> None:
    """``swiss_rounds`` is the rounds each event played (its results' last round) and
    ``rounds_planned`` those asked for: with every player dropped early, the table said
    the rounds asked (5) of an event whose results end in round 1."""
    sim = simulate(players, rounds=rounds, seed=seed, n_events=2, drop_rate=drop)
    last = (sim.results.group_by("event_id").agg(last=pl.col("round").max())
            .join(sim.events, on="event_id"))
    assert (last["last"] == last["swiss_rounds"]).all()
    assert (last["rounds_planned"] == rounds).all()
    assert (last["swiss_rounds"] <= last["rounds_planned"]).all()
    short = sim.short_events
    assert short.height == int((last["swiss_rounds"] < rounds).sum())
    assert ("played fewer rounds than planned" in repr(sim)) == (short.height > 0)


def test_cli_says_when_fewer_rounds_were_played(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.parquet"
    ev = tmp_path / "ev.csv"
    assert main(["simulate", "--players", "16", "--events", "2", "--rounds", "5",
                 "--drop-rate", "1", "-o", str(out), "--events-output", str(ev),
                 "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "swissframe: warning: every event played only 1 round of the 5 planned: every " \
           "player had dropped by then (--drop-rate 1)" in err
    assert pl.read_csv(ev)["swiss_rounds"].to_list() == [1, 1]
    assert main(["simulate", "--players", "16", "--rounds", "3", "--drop-rate", "0",
                 "-o", str(out), "--quiet"]) == 0
    assert capsys.readouterr().err == ""  # every round played: nothing to say


def test_a_large_event_is_refused_by_the_rounds_its_table_gives() -> None:
    """Bad data 181: without ``rounds`` the memory check counted one row a player, so
    ``simulate(100_000_000)`` (10 GB at that count, under the machine's memory) was
    simulated for the table's ten rounds until the out-of-memory killer ended it. The
    rows now count the table's rounds, at the model's fastest drops."""
    from swissframe.simulate import _simulate as sim_mod

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sim_mod, "memory_bytes", lambda: 2**33)  # (8 GiB: the old count passed)
        assert 20_000_000 * sim_mod.SIM_ROW_BYTES < 2**33
        with pytest.raises(DataError, match=r"^1 event of 20,000,000 players in all \(10 "
                           r"rounds or more each\) make at least 121,\d{3},\d{3} result rows, "
                           r"at least 11\.3 GiB, more than this machine's memory \(8\.0 GiB\)"):
            simulate(20_000_000)
        # (the rounds given: as before, a row a round)
        with pytest.raises(DataError, match=r"at least 100,000,000 result rows"):
            simulate(20_000_000, rounds=5)
        assert simulate(64, seed=1).events.height == 1  # (a usual size passes)


def test_event_sizes_of_numpy_or_polars_are_their_numbers() -> None:
    """A NumPy array or a Series of sizes was "n_players must be an int or a sequence of
    ints" (bad data 242)."""
    import numpy as np

    import swissframe as sf

    want = sf.simulate([8, 10], n_events=2, seed=1).results
    assert sf.simulate(np.array([8, 10]), n_events=2, seed=1).results.equals(want)
    assert sf.simulate(pl.Series([8, 10]), n_events=2, seed=1).results.equals(want)


def test_simulation_rules_are_found_in_any_case_and_spelling() -> None:
    """"MTG" and "Pokémon" were "no simulation rules for 'MTG'" (bad data 247)."""
    import swissframe as sf

    assert sf.simulate(8, rules="MTG", seed=1).results.equals(sf.simulate(8, seed=1).results)
    assert sf.simulate(8, rules="Pokémon", seed=1).results.equals(
        sf.simulate(8, rules="pokemon", seed=1).results)
