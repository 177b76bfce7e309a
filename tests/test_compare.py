"""sf.compare on hand-worked events: the deciding criterion, its values, exact ties."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import swissframe as sf
from tests.helpers import DE_DECIDES, Opp, decisive, event_from_opponents

DATA = Path(__file__).resolve().parents[1] / "data" / "events"


def _two(p_games: tuple[tuple[int, int, int], ...], q_games: tuple[tuple[int, int, int], ...],
         q_first_opp: tuple[int, int, int] = (2, 1, 0)) -> pl.DataFrame:
    # P: beats a 2-1 player, beats a 1-2 player, loses to a 3-0 player:
    # OMW% = (2/3 + 1/3 + 1) / 3 = 2/3.  Q the same with its first opponent's record given.
    return event_from_opponents({
        "P": [Opp((2, 1, 0), "W", p_games[0]), Opp((1, 2, 0), "W", p_games[1]),
              Opp((3, 0, 0), "L", p_games[2])],
        "Q": [Opp(q_first_opp, "W", q_games[0]), Opp((1, 2, 0), "W", q_games[1]),
              Opp((3, 0, 0), "L", q_games[2])],
    })


def test_omw_decides_with_hand_worked_values() -> None:
    # Q's first opponent went 1-2: Q's OMW% = (1/3 + 1/3 + 1) / 3 = 5/9 = 55.56%.
    ev = _two(((2, 0, 0),) * 2 + ((0, 2, 0),), ((2, 0, 0),) * 2 + ((0, 2, 0),), (1, 2, 0))
    c = sf.compare(ev, "Q", "P")
    assert (c.criterion, c.ahead) == ("omwp", "P")
    assert c.value_a == pytest.approx(5 / 9)
    assert c.value_b == pytest.approx(2 / 3)
    assert c.margin == pytest.approx(2 / 3 - 5 / 9)
    assert "on OMW%: 66.67% vs 55.56%, level on match points (6)." in c.sentence
    assert c.sentence.startswith("P (")
    assert c.table["decided"].to_list() == [False, True, False, False]


def test_gw_decides_when_omw_is_exactly_equal() -> None:
    # Same opponents (OMW% 2/3 both); P won its games 2-0, 2-0, 0-2 (GW% 4/6), Q 2-1, 2-1,
    # 0-2 (GW% 4/8).
    ev = _two(((2, 0, 0), (2, 0, 0), (0, 2, 0)), ((2, 1, 0), (2, 1, 0), (0, 2, 0)))
    c = sf.compare(ev, "P", "Q")
    assert c.criterion == "gwp"
    assert c.label == "GW%"
    assert "on GW%: 66.67% vs 50.00%, level on match points (6), OMW% (66.67%)." in str(c)


def test_exact_tie_shares_a_rank() -> None:
    ev = _two(((2, 0, 0), (2, 0, 0), (0, 2, 0)), ((2, 0, 0), (2, 0, 0), (0, 2, 0)))
    c = sf.compare(ev, "P", "Q")
    assert c.tied
    assert c.criterion is None
    assert c.rank_a == c.rank_b
    assert "tied on every criterion of mtg" in c.sentence
    assert f"share {sf.compare(ev, 'Q', 'P').rank_a}" in c.sentence


def test_match_points_on_the_bundled_event() -> None:
    r = sf.read_results(DATA / "store-championship.csv")
    c = sf.compare(r, "Bob", "Alice")
    assert c.criterion == "match_points"
    assert c.sentence == "Alice (1st) beat Bob (2nd) on match points: 10 vs 9."


def test_the_ruleset_order_is_followed() -> None:
    # Under Pokemon the second key is OMW% and the third OOMW%; under mtg GW% comes third.
    ev = _two(((2, 0, 0), (2, 0, 0), (0, 2, 0)), ((2, 1, 0), (2, 1, 0), (0, 2, 0)))
    names = [c.name for c in sf.rules.get("pokemon").criteria]
    c = sf.compare(ev, "P", "Q", rules="pokemon")
    assert c.table["criterion"].to_list() == names
    assert c.criterion not in ("gwp", "match_points", "omwp")


def test_fab_criteria_and_lower_is_better() -> None:
    r = sf.read_results(DATA / "store-championship.csv")
    c = sf.compare(r, "Bob", "Alice", rules="fab")  # both 3 wins; CTB 3.890625 vs 3.5625
    assert (c.criterion, c.ahead) == ("ctb", "Alice")
    assert c.sentence == ("Alice (1st) beat Bob (2nd) on CTB: 3.89 vs 3.56, "
                          "level on match points (3).")
    low = sf.Ruleset(name="pml-first", points_win=1, points_draw=0, points_bye=1,
                     criteria=(sf.Criterion("match_points"),
                               sf.Criterion("pml", descending=False)))
    c = sf.compare(r, "Bob", "Alice", rules=low)  # PML: Alice 0, Bob 0.25
    assert (c.criterion, c.ahead) == ("pml", "Alice")
    assert "on PML (lower is better): 0 vs 0.25" in c.sentence
    assert c.margin == pytest.approx(0.25)


def test_unknown_player_suggests_a_name() -> None:
    r = sf.read_results(DATA / "store-championship.csv")
    with pytest.raises(sf.DataError, match="did you mean 'Alice'"):
        sf.compare(r, "Alcie", "Bob")
    with pytest.raises(sf.DataError, match="two different players"):
        sf.compare(r, "Bob", "Bob")


def test_several_events_need_an_event_id() -> None:
    r = sf.read_results(DATA)
    with pytest.raises(sf.DataError, match="event_id"):
        sf.compare(r, "Alice", "Bob")
    assert sf.compare(r, "Alice", "Bob", event_id="store-championship").ahead == "Alice"


def test_through_round() -> None:
    r = sf.read_results(DATA / "store-championship.csv")
    c = sf.compare(r, "Alice", "Chandra", through_round=1)
    assert c.rank_a == c.rank_b or c.criterion != "match_points"
    assert "<table>" in c._repr_html_()


def _f6() -> pl.DataFrame:
    # MTG-F6 (rules.md): X's opponents 1-2-0, 2-1-0, 3-0-0 (GW% 5/9); Y's 0-3-0, 2-1-0,
    # 3-0-0 (GW% 4/6). Floor 1/3: both OMW% = (1/3 + 2/3 + 1) / 3 = 2/3 exactly.
    # Floor 0.33: Y's floored opponent counts 0.33: (0.33 + 2/3 + 1) / 3 = 66.56%.
    return event_from_opponents({
        "X": [Opp((1, 2, 0), "W", (2, 1, 0)), Opp((2, 1, 0), "W", (2, 1, 0)),
              Opp((3, 0, 0), "L", (1, 2, 0))],
        "Y": [Opp((0, 3, 0), "W", (2, 0, 0)), Opp((2, 1, 0), "W", (2, 0, 0)),
              Opp((3, 0, 0), "L", (0, 2, 0))],
    })


def test_floor_flip_mtg_f6() -> None:
    c = sf.compare(_f6(), "X", "Y", rules="mtg")
    assert (c.criterion, c.ahead) == ("omwp", "X")
    assert "on OMW%: 66.67% vs 66.56%" in c.sentence
    c = sf.compare(_f6(), "X", "Y", rules="mtg-1/3")
    assert (c.criterion, c.ahead) == ("gwp", "Y")
    assert "on GW%: 66.67% vs 55.56%, level on match points (6), OMW% (66.67%)." in c.sentence


def test_equal_rationals_whose_floats_differ_do_not_decide() -> None:
    # OMW% of both is exactly 3/20 (opponents 1/10 and 2/10 vs 3/10 and 0; summed as floats
    # (0.1 + 0.2) / 2 != (0.3 + 0) / 2). Equality is decided by re-ranking exact prefixes of
    # the criteria, never by comparing floats, so OMW% must not decide; OGW% does.
    no_floor = dataclasses.replace(sf.rules.MTG, floor=Fraction(0), name="no-floor")
    ev = event_from_opponents({
        "X": [Opp((1, 9, 0), "L", (0, 2, 0)), Opp((2, 8, 0), "W", (2, 0, 0))],
        "Y": [Opp((3, 7, 0), "L", (1, 2, 0)), Opp((0, 10, 0), "W", (2, 1, 0))],
    })
    c = sf.compare(ev, "X", "Y", rules=no_floor)
    assert (c.criterion, c.ahead) == ("ogwp", "Y")
    omw = c.table.filter(pl.col("criterion") == "omwp")
    assert Fraction(omw["value_a"][0]).limit_denominator(1000) == Fraction(3, 20)
    assert not omw["decided"][0]


def test_a_path_for_the_results_is_named_with_how_to_read_it() -> None:
    """It ended in "AttributeError: 'str' object has no attribute 'columns'"."""
    with pytest.raises(sf.SchemaError, match=r"got a path \('results\.csv'\)\. Hint: read the "
                                             r"file first"):
        sf.compare("results.csv", "A", "B")  # type: ignore[arg-type]


def test_an_order_drawn_by_lot_is_flagged_whatever_its_name() -> None:
    """The comparison's ``lot`` column comes from the registry (``drawn_by_lot``), not from
    the column's name: a random order named "coin" is flagged as the default "random"."""
    from swissframe.rules import pokemon, random_order

    base = pokemon(name="pk-coin")
    coin = dataclasses.replace(base, criteria=(*base.criteria[:-1], random_order(name="coin")))
    res = sf.from_matches(pl.DataFrame({
        "round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
        "games_a": [1, 1], "games_b": [1, 1], "games_drawn": [1, 1]}))
    c = sf.compare(res, "A", "C", rules=coin)
    assert c.table.filter(pl.col("lot"))["criterion"].to_list() == ["coin"]
    # the sentence names the lot, not its seeded key's 16 digits ("on coin:
    # 827231122844449 vs 4278988853589654")
    assert c.criterion == "coin"
    assert ": the order drawn by lot, level on match points (1)" in c.sentence
    assert not any(str(int(v)) in c.sentence for v in (c.value_a, c.value_b)
                   if v is not None)
    # nor a margin: the stand-ins' difference (≈ 3.5e15 here) is no advantage
    assert c.margin is None
    assert c.table.filter(pl.col("lot"))["difference"].item() != 0  # (its sign: the order)


def test_direct_encounter_reads_as_a_count_of_tied_players_not_a_score() -> None:
    """FIDE direct encounter's column counts the tied players it ranks below the player
    (C.07 Art. 6): "on direct encounter: 1 vs 0" read as a 1-0 game score. The sentence and
    the table say what the number counts, from the criterion (``Criterion.unit``)."""
    res = decisive(DE_DECIDES)
    c = sf.compare(res, "P1", "P5", rules="fide")
    assert (c.criterion, c.ahead, c.value_a, c.value_b) == ("direct_encounter", "P1", 1, 0)
    assert (c.label, c.unit) == ("direct encounter", "tied players ranked below")
    assert c.sentence.startswith(
        "P1 (3rd) beat P5 (4th) on direct encounter (tied players ranked below): 1 vs 0, "
        "level on points (2), Buchholz cut-1 (11.5), Buchholz (13), Sonneborn-Berger (5).")
    units = dict(c.table.select("criterion", "unit").iter_rows())
    assert units == {"match_points": "", "bh_c1": "", "bh": "", "sb": "",
                     "direct_encounter": "tied players ranked below", "win": ""}
    assert ">direct encounter (tied players ranked below)<" in c._repr_html_()
    # level before the criterion that decided: the count is named with its value; a
    # ruleset ranking by DE right after points (a three-way cycle: no one ranked) says it
    # too, for it reads the criterion, not the game
    early = dataclasses.replace(sf.rules.FIDE, name="de-first", criteria=(
        sf.rules.POINTS, sf.rules.Criterion("direct_encounter"), sf.rules.Criterion("sb")))
    c = sf.compare(res, "P1", "P3", rules=early)
    assert c.criterion == "sb"
    assert ("on Sonneborn-Berger: 5 vs 3.5, level on points (2), direct encounter (tied "
            "players ranked below: 0).") in c.sentence
    # the reading in points (method="points") says points
    points = dataclasses.replace(sf.rules.FIDE, name="de-points", criteria=(
        *sf.rules.FIDE.criteria[:4],
        sf.rules.Criterion("direct_encounter", params=(("method", "points"),))))
    c = sf.compare(res, "P1", "P5", rules=points)
    assert "on direct encounter (points against the tied players): 1 vs 0" in c.sentence


@pytest.mark.parametrize("column", [
    lambda df: pl.concat_list("event_id"),
    lambda df: pl.Series([object()] * df.height, dtype=pl.Object),
])
def test_an_event_id_column_of_no_text_form_is_named(column: object) -> None:
    """Class 116: ``compare`` read the event ids before the boundary checked them: a list
    or object column ended in Polars' bare error ("cannot cast List type", "`arg_unique`
    operation not supported for dtype `object`"); it is the boundary's error now."""
    df = event_from_opponents({"T": [Opp((1, 1, 0), "W"), Opp((1, 1, 0), "L")]})
    value = column(df)  # type: ignore[operator]
    bad = df.with_columns(value.alias("event_id"))
    with pytest.raises(sf.SchemaError, match=r"event_id is (List\(String\)|Object), expected a "
                       r"string type"):
        sf.compare(bad, "T", str(df["opponent_id"].drop_nulls()[0]))
