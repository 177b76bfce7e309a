"""Tests for swissframe.engine._record: the one place a round's points, the record, the own
rates' floors and caps, and the exact scales are decided; per-event exactness (issue 16
classes 1-2: long events, huge game counts)."""

from __future__ import annotations

import dataclasses
import random
import warnings
from fractions import Fraction
from unittest import mock

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe.engine._record import (
    LONG_ROUNDS,
    _lcm_bits_table,
    row_points,
    scale_groups,
)
from swissframe.errors import ExactnessWarning, ValidationError
from swissframe.schema import MAX_GAMES, validate_results
from tests.engine.test_standings import random_events

SCORES = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (1, 1, 1), (0, 0, 3)]


def swiss_event(ev: str, rounds: int, players: int, seed: int) -> pl.DataFrame:
    """Random pairings every round (an odd player out gets the bye), random game scores."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    rows = []
    for r in range(1, rounds + 1):
        rng.shuffle(ids)
        for i in range(0, players - 1, 2):
            a, b = ids[i], ids[i + 1]
            gw, gl, gd = rng.choice(SCORES)
            rows += [(ev, r, a, b, gw, gl, gd), (ev, r, b, a, gl, gw, gd)]
        if players % 2:
            rows.append((ev, r, ids[-1], None, 2, 0, 0))
    return pl.DataFrame(rows, schema={"event_id": pl.String, "round": pl.Int64,
                                      "player_id": pl.String, "opponent_id": pl.String,
                                      "games_won": pl.Int64, "games_lost": pl.Int64,
                                      "games_drawn": pl.Int64}, orient="row")


def test_row_points_game_points_and_sweep() -> None:
    """melee.gg two-game matches: 2-0 = 3 + 3 + 1, 2-1 = 6, 1-1 = 3; a bye 2-0 too."""
    df = pl.DataFrame({"w": [2, 2, 1, 0, 2], "l": [0, 1, 1, 2, 0],
                       "bye": [False, False, False, False, True]})
    pts = df.select(row_points(sf.rules.MELEE_TWO_GAME, pl.col("w"), pl.col("l"), pl.lit(0),
                               bye=pl.col("bye")).alias("p"))["p"].to_list()
    assert pts == [7, 6, 3, 0, 7]
    mtg = df.select(row_points(sf.rules.MTG, pl.col("w"), pl.col("l"), pl.lit(0),
                               bye=pl.col("bye")).alias("p"))["p"].to_list()
    assert mtg == [3, 3, 1, 0, 3]


def test_lcm_bits_table() -> None:
    import math

    table = _lcm_bits_table(60)
    for n in (1, 2, 7, 16, 45, 60):
        assert table[n] == pytest.approx(math.log2(math.lcm(*range(1, n + 1))))


def test_normal_events_share_one_pass() -> None:
    rows = validate_results(pl.concat([swiss_event(f"e{i}", 6, 9, i) for i in range(5)]))
    assert scale_groups(rows.collect(), sf.rules.MTG) is None


def _with_games(res: pl.DataFrame, player: str, rnd: int, games: int) -> pl.DataFrame:
    """``player`` wins round ``rnd`` by ``games`` games to 0 (both seats of the match)."""
    opp = res.filter((pl.col("round") == rnd) & (pl.col("player_id") == player))["opponent_id"]
    me = (pl.col("round") == rnd) & (pl.col("player_id") == player)
    them = (pl.col("round") == rnd) & (pl.col("player_id") == opp[0])
    return res.with_columns(
        games_won=pl.when(me).then(pl.lit(games, dtype=pl.Int64))
        .when(them).then(0).otherwise("games_won"),
        games_lost=pl.when(them).then(pl.lit(games, dtype=pl.Int64))
        .when(me).then(0).otherwise("games_lost"),
        games_drawn=pl.when(me | them).then(0).otherwise("games_drawn"))


def _alone(events: list[pl.DataFrame], rules: str) -> pl.DataFrame:
    return pl.concat([sf.standings(e, rules) for e in events])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), n_normal=st.integers(1, 3),
       long_rounds=st.sampled_from([LONG_ROUNDS + 5, 85, 95]),
       rules=st.sampled_from(["mtg", "mtg-1/3", "pokemon"]))
def test_long_event_touches_no_other_event(seed: int, n_normal: int, long_rounds: int,
                                           rules: str) -> None:
    """One long event in a call (80+ rounds overflowed Int128: an OverflowError at ~90,
    exact ties off for every event at ~80): every other event's values and ranks equal
    those computed alone, bit for bit; the long event still computes, and a fallback, if
    any, is reported naming it."""
    rng = random.Random(seed)
    normal = [swiss_event(f"n{i}", rng.randint(2, 7), rng.randint(3, 10), seed + i)
              for i in range(n_normal)]
    long_ev = swiss_event("long", long_rounds, 6, seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        both = sf.standings(pl.concat([*normal, long_ev]), rules)
    for w in caught:
        if issubclass(w.category, ExactnessWarning):
            assert "'long'" in str(w.message)
    got = both.filter(pl.col("event_id") != "long")
    assert got.equals(_alone(normal, rules))
    assert both.filter(pl.col("event_id") == "long").height == 6


def test_many_long_events_falling_back_warn_once() -> None:
    """Each event computed alone that fell back to rounded values warned on its own line:
    an archive of long events printed one line per event. Several now give one warning
    that counts and names them and quotes the first; one event keeps its own messages."""
    long_events = [swiss_event(f"long{i}", 95, 6, i) for i in range(7)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = sf.standings(pl.concat(long_events))
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, ExactnessWarning)]
    assert len(fallbacks) == 1
    assert fallbacks[0].startswith("7 events ('long0', 'long1', 'long2', 'long3', 'long4', "
                                   "…) rank some ties on rounded values; the first, event "
                                   "'long0': exact tie detection for ")
    assert got.height == 7 * 6
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sf.standings(long_events[0])
    alone = [str(w.message) for w in caught if issubclass(w.category, ExactnessWarning)]
    assert alone
    assert all(m.startswith("event 'long0': exact tie detection") for m in alone)


def test_long_event_by_round_and_order() -> None:
    normal = [swiss_event("a", 4, 6, 1), swiss_event("z", 3, 5, 2)]
    long_ev = swiss_event("m", 95, 4, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExactnessWarning)
        both = sf.standings_by_round(pl.concat([normal[0], long_ev, normal[1]]))
    assert both["event_id"].unique(maintain_order=True).to_list() == ["a", "m", "z"]
    for ev in normal:
        name = ev["event_id"][0]
        assert both.filter(pl.col("event_id") == name).equals(sf.standings_by_round(ev))


@pytest.mark.parametrize("games", [2**31, 2**61, 2**62, 2**63 - 1])
def test_huge_game_counts_rejected_at_the_boundary(games: int) -> None:
    """2**61-2**63 game counts overflowed (OverflowError / InvalidOperationError) or gave a
    null GW% silently; now a ValidationError naming the event, round and player."""
    res = _with_games(swiss_event("big-games", 2, 4, 0), "p1", 2, games)
    with pytest.raises(ValidationError, match=r"'big-games', round 2, player 'p1'.*: game"):
        sf.standings(res)
    with pytest.raises(ValidationError, match="outside 0"):
        sf.standings_by_round(res)


def test_largest_game_count_still_computes() -> None:
    res = _with_games(swiss_event("g", 2, 4, 0), "p1", 2, MAX_GAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExactnessWarning)
        out = sf.standings(res)
    gwp = out.filter(pl.col("player_id") == "p1")["gwp"].item()
    assert gwp is not None
    assert gwp > 0.99
    opp = out.filter(pl.col("player_id") != "p1")["ogwp"]
    assert opp.null_count() == 0


def test_mean_float_is_scale_free() -> None:
    """The float of a mean depends on its value only (the exact scale grows with the other
    events of a call): 1/3 at scale 3 and at scale 3·10**20 is the same float."""
    from swissframe.engine._exact import ratio_float

    df = pl.DataFrame({"n": [1, 10**20, 2, 7], "d": [3, 3 * 10**20, 6, 7]},
                      schema={"n": pl.Int128, "d": pl.Int128})
    got = df.select(ratio_float(pl.col("n"), pl.col("d"), 70))["n"].to_list()
    assert got == [1 / 3, 1 / 3, 1 / 3, 1.0]
    assert float(Fraction(2, 3)) == df.select(
        ratio_float(pl.col("n") * 2, pl.col("d"), 70))["n"][0]


@pytest.mark.parametrize(("rules", "shift"), [
    ("mtg", "sparse"), ("pokemon", "sparse"), ("mtg", "offset"), ("pokemon", "offset"),
    ("fab", "offset")])  # (FaB with a span of 10**9: test_a_huge_round_span_is_long_for_ctb)
def test_round_numbers_alone_make_no_event_long(rules: str, shift: str) -> None:
    """An event whose rounds are numbered 1 and 10**9 (or from 1001) has two rounds: it was
    taken for a long event by its largest round number and computed on its own, one call
    per event (1,000 such events: 3.5 s of standings, 17 s by round, instead of 0.03 and
    0.2 s). Its rounds are now the rounds its players played — the span of the numbers
    only for a ruleset whose scale grows with it (FaB's CTB: an offset numbering is the
    same span) — and every value equals the event numbered from 1."""
    from swissframe.engine._record import scale_groups
    from swissframe.engine.tiebreakers import spans_rounds
    from swissframe.rules import get

    events = [swiss_event(f"e{i}", 3, 6, i) for i in range(6)]

    def renumbered(ev: pl.DataFrame, i: int) -> pl.DataFrame:
        if i % 2 == 0:
            return ev
        r = pl.col("round")
        return ev.with_columns(round=pl.when(r == 3).then(10**9).otherwise(r)
                               if shift == "sparse" else r + 1000)

    moved = pl.concat([renumbered(ev, i) for i, ev in enumerate(events)])
    plain = pl.concat(events)
    rs = get(rules)
    groups = scale_groups(sf.schema.validate_results(moved).collect(), rs,
                          span=spans_rounds(rs))
    # one computation for every event: no split, or one group with no event alone
    assert groups is None or (len(groups) == 1 and not groups[0][1]
                              and groups[0][0].len() == len(events))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no exactness fallback)
        got, want = sf.standings(moved, rules), sf.standings(plain, rules)
    assert got.equals(want)


def test_a_huge_round_span_is_long_for_ctb() -> None:
    """FaB's CTB weighs a round by 4**(rounds to the last): an event whose rounds are
    numbered 1, 2 and 10**9 is computed on its own (its numbers span more than an exact
    scale of numbers holds), and the other events are what they are alone. It played three
    rounds, so its CTB is exact and equals the event numbered 1, 2, 3 (the span read from
    the numbers themselves gave a fallback to rounded values and other CTBs)."""
    from swissframe.engine._record import scale_groups
    from swissframe.rules import get

    events = [swiss_event(f"e{i}", 3, 6, i) for i in range(3)]
    r = pl.col("round")
    far = events[1].with_columns(round=pl.when(r == 3).then(10**9).otherwise(r))
    both = pl.concat([events[0], far, events[2]])
    groups = scale_groups(validate_results(both).collect(), get("fab"), span=True)
    assert groups is not None
    assert [(g.to_list(), alone) for g, alone in groups if alone] == [(["e1"], True)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ExactnessWarning)
        got = sf.standings(both, "fab")
    assert got.filter(pl.col("event_id") != "e1").equals(
        _alone([events[0], events[2]], "fab"))
    assert got.filter(pl.col("event_id") == "e1").equals(_alone([events[1]], "fab"))


# ------------------------------------------------------------ a bye's games (MTR Appendix C)

_WON_BYES = st.sampled_from([(1, 0, 0), (2, 0, 0), (2, 1, 0), (3, 0, 0), (1, 0, 1)])


def _byes_recorded(res: pl.DataFrame, games: tuple[int, int, int]) -> pl.DataFrame:
    """``res`` with every bye row (an unpaired win) recording ``games``."""
    bye = pl.col("opponent_id").is_null() & (pl.col("games_won") > pl.col("games_lost"))
    return res.with_columns(*(pl.when(bye).then(pl.lit(g, dtype=pl.Int64)).otherwise(
        pl.col(c)).alias(c) for c, g in zip(("games_won", "games_lost", "games_drawn"),
                                            games, strict=True)))


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(res=random_events(), games=_WON_BYES, packed=st.booleans())
def test_an_mtg_bye_counts_2_0_whatever_its_row_records(
        res: pl.DataFrame, games: tuple[int, int, int], packed: bool) -> None:
    """MTR Appendix C "Byes": a bye is a 2-0 win (6 game points) — whatever games its row
    records, the MTG standings are those of the byes written 2-0-0, on every path (one
    event and many, the packed record, standings by round on running sums and on repeated
    rows); a ruleset counting the recorded games (``bye_games=None``, the platforms')
    reads the row as written."""
    from swissframe.engine import _exact as ex_mod
    from swissframe.engine.standings import _by_round

    odd, two = _byes_recorded(res, games), _byes_recorded(res, (2, 0, 0))
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0 if packed else ex_mod.PACK_MIN_ROWS):
        assert_frame_equal(sf.standings(odd, "mtg"), sf.standings(two, "mtg"))
        for ev in res["event_id"].unique().to_list():
            one = pl.col("event_id") == ev
            assert_frame_equal(sf.standings(odd.filter(one), "mtg"),
                               sf.standings(two.filter(one), "mtg"))
    for cumulative in (True, False):
        assert_frame_equal(_by_round(odd, "mtg", (), cumulative=cumulative),
                           _by_round(two, "mtg", (), cumulative=cumulative))


def test_a_bye_beyond_the_recorded_game_counts_keeps_the_packed_record_exact() -> None:
    """Best-of-one results (every count 0 or 1) with byes written 1-0-0: the bulk record
    packs its sums in widths from the counts validation measured (at most 1), and MTG
    counts each bye as 2-0, beyond them; the widths take the bye's games into account
    (``_record.game_range``), so the packed record is the plain one. A ruleset counting
    the recorded games (``bye_games=None``, the platforms') reads the row as written."""
    from swissframe.engine import _exact as ex_mod

    rows = []
    for e in range(3):
        for rnd in (1, 2):
            rows += [(f"e{e}", rnd, "A", "B", 1, 0), (f"e{e}", rnd, "C", "D", 0, 1),
                     (f"e{e}", rnd, "E", None, 1, 0)]
        rows += [(f"e{e}", 3, "A", "E", 1, 0), (f"e{e}", 3, "C", "D", 1, 0),
                 (f"e{e}", 3, "B", None, 1, 0)]
    res = sf.from_matches(pl.DataFrame(rows, orient="row", schema={
        "event_id": pl.String, "round": pl.Int64, "player_a": pl.String,
        "player_b": pl.String, "games_a": pl.Int64, "games_b": pl.Int64}).with_columns(
        games_drawn=pl.lit(0, dtype=pl.Int64)))
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        packed = sf.standings(res, "mtg")
    plain = sf.standings(res, "mtg")
    assert_frame_equal(packed, plain)

    def gwp(table: pl.DataFrame) -> list[float]:
        return table.filter(pl.col("player_id") == "E")["gwp"].to_list()

    # E: two byes as 2-0 and a 0-1 loss: 4 games won of 5, 12 game points of 15 (E's 4
    # games won exceed what three rounds of counts up to 1 can sum to: the packed width)
    assert gwp(plain) == pytest.approx([0.8] * 3)
    # counted as written (1-0-0): 2 games won of 3, 6 game points of 9
    recorded = dataclasses.replace(sf.rules.MTG, name="mtg-recorded-byes", bye_games=None)
    assert gwp(sf.standings(res, recorded)) == pytest.approx([2 / 3] * 3)


@pytest.mark.parametrize("rounds", [60, 1000])
@pytest.mark.parametrize("rules", sorted(sf.rules.PRESETS))
def test_a_mean_of_rounded_means_computes(rules: str, rounds: int) -> None:
    """A mean that fell back to rounded values cached the scale it would have needed, not
    the one its values have: a mean over it (OOMW%, which ``explain`` computes for every
    ruleset) or Yu-Gi-Oh!'s per-mille digits ended in an ``OverflowError`` (``yugioh``
    standings from ~60 rounds, ``pokemon`` and every ``explain`` from ~1,000). Every preset
    now ranks and explains such an event, its digits read from the rounded values."""
    ev = swiss_event("long", rounds, 6, rounds)
    if sf.rules.get(rules).snapshot == "stage":
        ev = ev.with_columns(stage=pl.lit("day1"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExactnessWarning)
        st = sf.standings(ev, rules)
        ex = sf.explain(ev, "p0", rules)
    assert st.height == 6
    assert ex["result"][-1] == "average"
    if "ygo_tiebreaker" in st.columns:
        number = pl.col("ygo_tiebreaker") // (1000 if "ddd" in rules else 1)
        digits = st.select(
            (number // 1000 % 1000).alias("omw"), (number % 1000).alias("oomw"),
            (pl.col("omwp") * 1000 + 1e-9).floor().cast(pl.Int64).alias("omw_float"),
            (pl.col("oomwp") * 1000 + 1e-9).floor().cast(pl.Int64).alias("oomw_float"))
        assert digits["omw"].to_list() == digits["omw_float"].to_list()
        assert digits["oomw"].to_list() == digits["oomw_float"].to_list()


def _long_event(players: int = 20, rounds: int = 1000) -> pl.DataFrame:
    """``players`` paired by the circle method in each of ``rounds`` rounds, the scores
    varied: scales past Int128, so every rate falls back to rounded values."""
    scores = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (1, 1, 1)]
    rows = []
    for r in range(1, rounds + 1):
        ring = [0, *(1 + (i + r) % (players - 1) for i in range(players - 1))]
        for i in range(players // 2):
            a, b = f"p{ring[i]}", f"p{ring[players - 1 - i]}"
            g = scores[(7 * i + 3 * r) % 5]
            rows += [("long", r, a, b, *g), ("long", r, b, a, g[1], g[0], g[2])]
    return pl.DataFrame(rows, orient="row", schema=[
        "event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
        "games_drawn"])


def fallback_messages(run: object) -> list[str]:
    """The ExactnessWarnings ``run()`` gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()  # type: ignore[operator]
    return [str(w.message) for w in caught if issubclass(w.category, ExactnessWarning)]


@pytest.mark.parametrize("call", ["standings", "by_round", "explain", "explain_pokemon"])
def test_every_fallback_warning_names_its_event_and_no_internal_column(call: str) -> None:
    """A long event's fallbacks to rounded values are said of the event, with the names a
    reader knows: a probe of the scales (``scale_groups``) said "game-win rates" of no event
    before the event's own warning, and ``explain`` named no event and its own columns
    (``_omw_e``, ``_ogw_e``, ``_oomw_e``, ``_omwp_inner``) (bad data 208)."""
    res = _long_event()
    run = {"standings": lambda: sf.standings(res, "mtg"),
           "by_round": lambda: sf.standings_by_round(res, "mtg"),
           "explain": lambda: sf.explain(res, "p1", "mtg"),
           "explain_pokemon": lambda: sf.explain(res, "p1", "pokemon")}[call]
    said = fallback_messages(run)
    assert said
    for text in said:
        assert text.startswith("event 'long': "), text
        assert " _" not in text, text
