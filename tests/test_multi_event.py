"""Many events in one call equal each event alone (the core rule: every computation is
keyed by ``event_id``).

Hypothesis draws a few small Swiss events with awkward shapes — one round only, two
players, odd counts (byes, an unopposed loss), drops, late entrants, intentional draws
(0-0-3) in round 1 and in the final round, event names that sort in different orders,
the same player ids in every event — and checks, for each public function that takes
many events, that the stacked call gives each event exactly what the call on that event
alone gives (same rows, same values, bit for bit), and that an event refused alone is
refused the same way stacked, never another event's failure.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from tests.cut.test_cut import _long, _pairs
from tests.helpers import reachable
from tests.test_fuzz import mutate

Row = tuple[str, int, str, str | None, int, int, int]

#: Names whose orders differ: bytes ("A" < "Z" < "_x" < "a10" < "a9" < "b" < "é"),
#: numbers ("9" < "10"), case-folded, by length.
NAMES = ("b", "A", "a10", "a9", "Z", "é", "_x", "10", "9", " e")
SCORES = ((2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (0, 0, 3), (1, 1, 1), (1, 1, 0))
ID = (0, 0, 3)
RULESETS = ("mtg", "pokemon", "fide", "fab")

#: ``SWISSFRAME_MULTI_EXAMPLES=500`` explores further (random, not the fixed examples).
_EXAMPLES = int(os.environ.get("SWISSFRAME_MULTI_EXAMPLES", "0"))
PROPS = settings(max_examples=_EXAMPLES or 25, deadline=None, derandomize=not _EXAMPLES,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def event_rows(draw: st.DrawFn, name: str) -> list[Row]:
    """One valid event: 2-8 players named p0…, 1-4 rounds, random pairings of the active
    players (a bye or, rarely, an unopposed loss for the odd one), late entrants, drops,
    and an intentional draw forced into round 1 and / or the final round."""
    n = draw(st.integers(2, 8))
    rounds = draw(st.integers(1, 4))
    players = [f"p{i}" for i in range(n)]
    # the first two play from round 1; the others may enter late (or after the last round)
    join = {p: 1 if i < 2 else draw(st.sampled_from((1, 1, 1, 2, 3))) for i, p in
            enumerate(players)}
    id_first, id_final = draw(st.booleans()), draw(st.booleans())
    dropped: set[str] = set()
    rows: list[Row] = []
    for rnd in range(1, rounds + 1):
        active = [p for p in players if join[p] <= rnd and p not in dropped]
        order = draw(st.permutations(active))
        for i in range(0, len(order) - 1, 2):
            forced = (rnd == 1 and id_first) or (rnd == rounds and id_final)
            g = ID if forced and i == 0 else draw(st.sampled_from(SCORES))
            rows.append((name, rnd, order[i], order[i + 1], *g))
        if len(order) % 2:
            g = draw(st.sampled_from(((2, 0, 0), (2, 0, 0), (0, 2, 0))))
            rows.append((name, rnd, order[-1], None, *g))
        if len(active) > 2 and draw(st.integers(0, 3)) == 0:
            dropped.add(draw(st.sampled_from(active)))
    return rows


@st.composite
def many_events(draw: st.DrawFn, min_events: int = 2, max_events: int = 4) -> pl.DataFrame:
    """2-4 events with distinct names, their rows in the drawn event order."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=min_events,
                          max_size=max_events, unique=True))
    return _long([r for name in names for r in draw(event_rows(name))])


def _events(df: pl.DataFrame) -> list[str]:
    return df["event_id"].unique(maintain_order=True).to_list()


def _one(df: pl.DataFrame, ev: str | None) -> pl.DataFrame:
    return df.filter(pl.col("event_id").eq_missing(ev))  # (a broken row's may be null)


def _outcome(fn: Callable[[], Any]) -> Any:
    """The value, or the library's refusal (its class and message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    except sf.SwissframeError as exc:
        return exc


def _frames_equal(stacked: pl.DataFrame, alone: pl.DataFrame, ev: str,
                  by: list[str] | None = None) -> None:
    """Rows of ``ev`` in the stacked result equal the result alone, bit for bit."""
    got = _one(stacked, ev) if "event_id" in stacked.columns else stacked
    if by is not None:
        got, alone = got.sort(by, maintain_order=True), alone.sort(by, maintain_order=True)
    assert_frame_equal(got, alone, check_exact=True, check_row_order=by is not None)


def check_stacked(df: pl.DataFrame, call: Callable[[pl.DataFrame], Any],
                  compare: Callable[[Any, Any, str], None]) -> None:
    """``call`` on every event at once equals ``call`` on each event alone; an event
    refused alone makes the stacked call refuse it the same way (the same error class,
    naming that event), and an event no call refuses never fails a stacked call."""
    stacked = _outcome(lambda: call(df))
    alone = {ev: _outcome(lambda ev=ev: call(_one(df, ev))) for ev in _events(df)}
    refused = {ev: a for ev, a in alone.items() if isinstance(a, Exception)}
    if isinstance(stacked, Exception):
        assert refused, f"the stacked call failed, no event alone does: {stacked!r}"
        # the refusal of an event refused alone: its class, its message or its name
        assert any(type(stacked) is type(a) and (str(a) == str(stacked)
                                                 or repr(ev) in str(stacked))
                   for ev, a in refused.items()), (stacked, refused)
        return
    assert not refused, f"refused alone, not stacked: {refused}"
    for ev, a in alone.items():
        compare(stacked, a, ev)


# ------------------------------------------------------------------------ the generator


@PROPS
@given(df=many_events())
def test_generated_events_are_valid(df: pl.DataFrame) -> None:
    assert sf.validate(df).errors.height == 0
    assert set(df["player_id"].unique()) <= {f"p{i}" for i in range(8)}


# ------------------------------------------------------------------------ standings


@PROPS
@given(df=many_events(), rules=st.sampled_from(RULESETS), data=st.data())
def test_standings(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    last = int(df["round"].max())  # type: ignore[arg-type]
    through = data.draw(st.sampled_from([None, 1, last]))
    # (an event alone past its last round is refused, as every input whose events all end
    # before the round; stacked with a longer one, it gets its final standings: what the
    # event alone gives at its last round)
    check_stacked(df, lambda d: sf.standings(d, rules, through_round=reachable(d, through)),
                  _frames_equal)


@PROPS
@given(df=many_events(), rules=st.sampled_from(RULESETS))
def test_standings_by_round(df: pl.DataFrame, rules: str) -> None:
    check_stacked(df, lambda d: sf.standings_by_round(d, rules), _frames_equal)


# ------------------------------------------------------------------------ cut analyses


def _split(df: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each event's rounds before its last (the results) and its last round's pairings."""
    last = pl.col("round") == pl.col("round").max().over("event_id")
    pairs = df.filter(last).select("event_id", "round", "player_id", "opponent_id")
    return df.filter(~last), pairs


def check_cut(df: pl.DataFrame, call: Callable[[pl.DataFrame, pl.DataFrame], Any],
              compare: Callable[[Any, Any, str], None], *, paired: bool = True) -> None:
    """:func:`check_stacked` of ``call(results, pairings)`` on every event's last round,
    on all the events (an event of one round has no results: refused alone) and on those
    with earlier rounds (only those when the call reads no pairings: without them an
    event of one round is not in the input)."""
    def on(d: pl.DataFrame) -> Any:
        return call(*_split(d))

    if paired:
        check_stacked(df, on, compare)
    several = df.filter(pl.col("round").max().over("event_id") > 1)
    if several.height:
        check_stacked(several, on, compare)


@PROPS
@given(df=many_events(), rules=st.sampled_from(RULESETS), top=st.sampled_from([1, 2, 4, 8]),
       how=st.sampled_from(["enumerate", "simulate", "ranges"]))
def test_cut_status(df: pl.DataFrame, rules: str, top: int, how: str) -> None:
    kw = {"enumerate": {}, "simulate": {"exact_limit": 0, "n_sims": 30, "batch": 7},
          "ranges": {"exact_limit": 0, "n_sims": 0}}[how]
    check_cut(df, lambda r, p: sf.cut_status(r, p, top, rules, **kw), _frames_equal)


@PROPS
@given(df=many_events(), top=st.sampled_from([1, 2, 4]))
def test_id_advice(df: pl.DataFrame, top: int) -> None:
    check_cut(df, lambda r, p: sf.id_advice(r, p, top), _frames_equal)


@PROPS
@given(df=many_events(), rules=st.sampled_from(RULESETS), paired=st.booleans(),
       by_score=st.booleans())
def test_next_round_ranges(df: pl.DataFrame, rules: str, paired: bool, by_score: bool) -> None:
    check_cut(df, lambda r, p: sf.next_round_ranges(r, p if paired else None, rules,
                                                    by_score=by_score), _frames_equal,
              paired=paired)


# ------------------------------------------------------------------------ intentional draws


@PROPS
@given(df=many_events(), source=st.sampled_from(["mtg", "wer", "topdeck"]))
def test_detect_intentional_draws(df: pl.DataFrame, source: str) -> None:
    check_stacked(df, lambda d: sf.detect_intentional_draws(d, source),
                  lambda s, a, ev: _frames_equal(s, a, ev, by=["round", "player_id"]))


def _report_equal(stacked: sf.cut.IdReport, alone: sf.cut.IdReport, ev: str) -> None:
    _frames_equal(stacked.events, alone.events, ev)
    _frames_equal(stacked.draws, alone.draws, ev)


@PROPS
@given(df=many_events(), top=st.sampled_from([1, 2, 4, 8]), n_sims=st.sampled_from([0, 8]),
       rules=st.sampled_from(["mtg", "pokemon"]))
def test_id_report(df: pl.DataFrame, top: int, n_sims: int, rules: str) -> None:
    check_stacked(df, lambda d: sf.id_report(d, top, rules, n_sims=n_sims), _report_equal)


# ------------------------------------------------------------------------ other analyses


@PROPS
@given(df=many_events(), top=st.sampled_from([1, 2, 4, 8]),
       rulesets=st.sampled_from([None, ["mtg", "pokemon", "fab", "fide"], ["fab", "mtg"]]))
def test_sensitivity(df: pl.DataFrame, top: int, rulesets: list[str] | None) -> None:
    check_stacked(df, lambda d: sf.sensitivity(d, rulesets, top), _frames_equal)


@PROPS
@given(df=many_events())
def test_to_matches(df: pl.DataFrame) -> None:
    check_stacked(df, sf.to_matches, _frames_equal)


def _players(df: pl.DataFrame, ev: str) -> list[str]:
    return _one(df, ev)["player_id"].unique().sort().to_list()


@PROPS
@given(df=many_events(), rules=st.sampled_from(RULESETS), data=st.data())
def test_explain(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    for ev in _events(df):
        player = data.draw(st.sampled_from(_players(df, ev)))
        through = data.draw(st.sampled_from([None, 1]))
        stacked = _outcome(lambda ev=ev, p=player, t=through: sf.explain(
            df, p, rules, event_id=ev, through_round=t))
        alone = _outcome(lambda ev=ev, p=player, t=through: sf.explain(
            _one(df, ev), p, rules, through_round=t))
        if isinstance(alone, Exception):
            assert type(stacked) is type(alone), (stacked, alone)
            continue
        assert_frame_equal(stacked, alone, check_exact=True)


@PROPS
@given(df=many_events(), rules=st.sampled_from(RULESETS), data=st.data())
def test_compare(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    for ev in _events(df):
        a, b = data.draw(st.lists(st.sampled_from(_players(df, ev)), min_size=2, max_size=2,
                                  unique=True))
        through = data.draw(st.sampled_from([None, 1]))
        stacked = _outcome(lambda ev=ev, a=a, b=b, t=through: sf.compare(
            df, a, b, rules=rules, event_id=ev, through_round=t))
        alone = _outcome(lambda ev=ev, a=a, b=b, t=through: sf.compare(
            _one(df, ev), a, b, rules=rules, through_round=t))
        if isinstance(alone, Exception):
            assert type(stacked) is type(alone), (stacked, alone)
            continue
        assert_frame_equal(stacked.table, alone.table, check_exact=True)
        assert stacked.sentence == alone.sentence
        assert (stacked.rank_a, stacked.rank_b, stacked.criterion, stacked.margin) == \
            (alone.rank_a, alone.rank_b, alone.criterion, alone.margin)


# ------------------------------------------------------------------------ problems


def _problems_equal(stacked: pl.DataFrame, alone: pl.DataFrame, ev: str) -> None:
    """Problems of ``ev`` stacked and alone, the rows they name numbered from any table
    ('row 3: null in round': the input's own row, wherever its event starts)."""
    def unnumbered(problems: pl.DataFrame) -> pl.DataFrame:
        return problems.with_columns(pl.col("detail").str.replace_all(r"\brow \d+", "row #"))

    _frames_equal(unnumbered(stacked), unnumbered(alone), ev, by=list(alone.columns))


@PROPS
@given(df=many_events(), data=st.data())
def test_find_problems(df: pl.DataFrame, data: st.DataObject) -> None:
    broken = mutate(mutate(df, data), data)
    check_stacked(broken, sf.find_problems, _problems_equal)


#: Kinds that compare events with each other (one event repeats another): not per event.
ACROSS_EVENTS = ("duplicate_event",)


@PROPS
@given(df=many_events(), data=st.data(), rules=st.sampled_from(["mtg", "fide"]))
def test_validate(df: pl.DataFrame, data: st.DataObject, rules: str) -> None:
    broken = mutate(mutate(df, data), data)

    def problems(d: pl.DataFrame) -> pl.DataFrame:
        rep = sf.validate(d, rules=rules)
        return rep.problems.filter(~pl.col("kind").is_in(ACROSS_EVENTS))

    check_stacked(broken, problems, _problems_equal)


@PROPS
@given(df=many_events(), data=st.data(), rules=st.sampled_from(RULESETS))
def test_a_broken_event_is_refused_alone_and_stacked(df: pl.DataFrame, data: st.DataObject,
                                                     rules: str) -> None:
    broken = mutate(df, data)
    check_stacked(broken, lambda d: sf.standings(d, rules), _frames_equal)


def test_a_long_event_leaves_the_others_exact() -> None:
    """The cut analyses took one exact scale for the whole call: an event of 80 rounds
    overflowed it, every event fell back to rounded values, and the warning named none.
    The events are now analysed in groups that stay exact (cut/_round.per_exact_group),
    the long one alone, its warning naming it."""
    short = _long([("a", 1, "p0", "p1", 2, 0, 0), ("a", 1, "p2", "p3", 2, 1, 0),
                   ("a", 2, "p0", "p2", 2, 1, 0), ("a", 2, "p1", "p3", 1, 2, 0)])
    long = _long([("long", r, f"p{i}", f"p{i + 1}", 2, r % 3, 0)
                  for r in range(1, 80) for i in (0, 2, 4)])
    pairs = pl.concat([_pairs("a", 3, [("p0", "p1"), ("p2", "p3")]),
                       _pairs("long", 80, [("p0", "p1"), ("p2", "p3"), ("p4", "p5")])])
    both = pl.concat([short, long])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stacked = sf.next_round_ranges(both, pairs)
        status = sf.cut_status(both, pairs, top=2)
    said = [str(w.message) for w in caught if issubclass(w.category, sf.errors.ExactnessWarning)]
    assert said
    assert all("event 'long'" in m for m in said)
    _frames_equal(stacked, sf.next_round_ranges(short, _one(pairs, "a")), "a")
    _frames_equal(status, sf.cut_status(short, _one(pairs, "a"), top=2), "a")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = sf.next_round_ranges(long, _one(pairs, "long"))
        _frames_equal(stacked, alone, "long")
        _frames_equal(status, sf.cut_status(long, _one(pairs, "long"), top=2), "long")
    assert stacked["event_id"].unique(maintain_order=True).to_list() == ["a", "long"]
