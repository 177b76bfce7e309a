"""Tests for swissframe.cut._status internals: the range pass (linear, by step functions)
equals the pairwise definition it replaced."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe.cut import _status
from swissframe.cut._round import outcome_table, prepare_round, ranges_by_seat
from tests.cut.test_cut import CARD_PRESETS, random_event


def lex_ge(a: list[str], b: list[str]) -> pl.Expr:
    """``a ≥ b`` lexicographically over paired columns (True when empty: an exact tie);
    the order the range pass's tuple ranks stand for."""
    expr: pl.Expr = pl.lit(value=True)
    for x, y in reversed(list(zip(a, b, strict=True))):
        expr = (pl.col(x) > pl.col(y)) | ((pl.col(x) == pl.col(y)) & expr)
    return expr


def range_pass_pairwise(seats: pl.DataFrame, cand: pl.DataFrame, names: list[str]
                        ) -> pl.DataFrame:
    """The reference: every candidate joined with every seat row of the units at its
    points (the implementation before the step functions; quadratic in a points group)."""
    touching = (seats.join(cand.select("event_id", pl.col("P").alias("_cp")).unique(),
                           on="event_id")
                .filter(pl.col("P") == pl.col("_cp")).select("event_id", "_cp", "unit")
                .unique())
    cols = ["event_id", "unit", "k", "player_id", "P",
            *(f"_lo{i}" for i in names), *(f"_hi{i}" for i in names)]
    rows = (seats.select(cols).rename({"player_id": "_x", "P": "_xp"})
            .join(touching, on=["event_id", "unit"]))
    pcols = ["event_id", "player_id", pl.col("unit").alias("_up"), pl.col("k").alias("_pk"),
             pl.col("P").alias("_cp"),
             *(pl.col(f"_lo{i}").alias(f"_plo{i}") for i in names),
             *(pl.col(f"_hi{i}").alias(f"_phi{i}") for i in names)]
    j = cand.select(pcols).join(rows, on=["event_id", "_cp"])
    j = j.filter((pl.col("unit") != pl.col("_up"))
                 | ((pl.col("_x") != pl.col("player_id")) & (pl.col("k") == pl.col("_pk"))))
    at = pl.col("_xp") == pl.col("_cp")
    gt = pl.col("_xp") > pl.col("_cp")
    poss = gt | (at & lex_ge([f"_hi{i}" for i in names], [f"_plo{i}" for i in names]))
    cert = gt | (at & lex_ge([f"_lo{i}" for i in names], [f"_phi{i}" for i in names]))
    return (j.group_by("event_id", "player_id", "_pk", "unit", "k")
            .agg(poss=poss.sum(), cert=cert.sum())
            .group_by("event_id", "player_id", "_pk", "unit")
            .agg(poss=pl.col("poss").max(), cert=pl.col("cert").min())
            .group_by("event_id", "player_id", "_pk")
            .agg(t_poss=pl.col("poss").sum(), t_cert=pl.col("cert").sum())
            .rename({"_pk": "k"}))


def _both(seats: pl.DataFrame, cand: pl.DataFrame, names: list[str]
          ) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    key = ["event_id", "player_id", "k"]
    ids = cand.select(key)

    def rows(df: pl.DataFrame) -> list[tuple[object, ...]]:
        return (ids.join(df, on=key, how="left")
                .select(*key, *(pl.col(c).fill_null(0).cast(pl.Int64)
                                for c in ("t_poss", "t_cert")))
                .sort(key).rows())

    return rows(_status._range_pass(seats, cand, names)), rows(
        range_pass_pairwise(seats, cand, names))


def _seats(seeds: list[int], rules: str, **kw: object) -> tuple[pl.DataFrame, list[str]]:
    made = [random_event(s, f"e{s}", **kw) for s in seeds]  # type: ignore[arg-type]
    res = pl.concat([r for r, _ in made])
    pairs = pl.concat([p for _, p in made])
    rs = sf.rules.get(rules)
    rf = prepare_round(res, pairs, rs, outcome_table())
    return _status._status_rows(ranges_by_seat(rf), rs)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(CARD_PRESETS),
       n_players=st.integers(3, 14), rounds=st.integers(1, 4), events=st.integers(1, 3))
# (a player without opponents, whose own rate is null: its bound's null value filled into
# an Int64 exact column was a null)
@example(seed=3, rules="one-piece", n_players=5, rounds=1, events=3)
def test_range_pass_equals_pairwise(seed: int, rules: str, n_players: int, rounds: int,
                                    events: int) -> None:
    """Every seat row as a candidate (not only the undecided ones): the same counts."""
    seats, names = _seats([seed + i for i in range(events)], rules, players=n_players,
                          rounds=rounds, drop=0.15)
    new, ref = _both(seats, seats, names)
    assert new == ref


def test_range_pass_equals_pairwise_undecided_and_no_criteria() -> None:
    """The candidates cut_status passes (the undecided after points), and a ruleset ranked
    by points alone (no bound tuple: every level seat counts)."""
    seats, names = _seats(list(range(30)), "mtg", players=16, rounds=3)
    undecided = (_status._points_pass(seats)
                 .filter(_status._status(pl.col("ge_total"), pl.col("gt_total"), 4)
                         == "possible"))
    assert undecided.height
    new, ref = _both(seats, undecided, names)
    assert new == ref
    new, ref = _both(seats, seats, [])
    assert new == ref


def test_a_chess_table_ends_in_a_win_a_loss_or_a_draw_each_one_in_three() -> None:
    """The cut's probabilities weigh a chess table's three results equally (the FIDE
    presets' ``match_outcomes``), not the card games' five game scores, where a win had 2
    chances in 5 and a draw (the 0-0-3 intentional draw) 1."""
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
                      "games_a": [1, 1], "games_b": [0, 0], "games_drawn": [0, 0]})
    pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
                          "opponent_id": ["C", "A", "D", "B"]})
    res = sf.from_matches(m)

    def a_draws_and_makes_it(rules: str) -> float:
        st = sf.cut.cut_status(res, pairs, top=1, rules=rules)
        row = st.filter((pl.col("player_id") == "A") & (pl.col("outcome") == "draw"))
        assert row["exact"].item()
        return float(row["probability"].item())

    # A and C draw (1½ each); A is first when its opponents' points beat C's (B + C over
    # D + A): when B beats D, one of the other table's results
    assert a_draws_and_makes_it("fide") == pytest.approx(1 / 3)
    assert a_draws_and_makes_it("mtg") == pytest.approx(2 / 5)  # (2-0 and 2-1 of five)


def test_a_one_piece_table_ends_in_a_win_or_a_loss() -> None:
    """One Piece's Swiss matches are one game with no draw (an undecided game is a double
    loss; rules.md §3.4): the cut weighs a win and a loss, one in two, and offers no draw
    (the best-of-three space gave a 'draw' row, the 0-0-3 intentional draw)."""
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
                      "games_a": [1, 1], "games_b": [0, 0], "games_drawn": [0, 0]})
    pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
                          "opponent_id": ["C", "A", "D", "B"]})
    st = sf.cut.cut_status(sf.from_matches(m), pairs, top=1, rules="one-piece")
    a = st.filter(pl.col("player_id") == "A")
    assert a.select("outcome", "status").rows() == [("win", "guaranteed"),
                                                    ("loss", "eliminated")]
    assert sf.rules.ONE_PIECE.match_outcomes == ((1, 0, 0), (0, 1, 0))


def test_a_bye_in_a_scenario_is_the_outcome_space_s_win_or_the_ruleset_s() -> None:
    """A bye in the analysed round has no row to read its games from: the ruleset's
    ``bye_games`` (MTR 2-0), else the outcome space's most decisive win — a chess bye is
    1-0, not the card games' 2-0 it was for every game."""
    from swissframe.cut._round import _bye_games, outcome_table

    assert _bye_games(sf.rules.FIDE, outcome_table(sf.rules.FIDE.match_outcomes)) == (1, 0, 0)
    assert _bye_games(sf.rules.MTG, outcome_table(((1, 0, 0), (0, 1, 0)))) == (2, 0, 0)
    assert _bye_games(sf.rules.POKEMON, outcome_table()) == (2, 0, 0)
    assert _bye_games(sf.rules.POKEMON, outcome_table(((0, 0, 3),))) == (1, 0, 0)
