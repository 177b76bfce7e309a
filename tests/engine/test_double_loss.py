"""Double losses: both seats of a match lose (the ``double_loss`` flag of the contract).

Fixtures worked by hand from the rules texts (shared rules.md §3.4 OP-F2, §3.5, §2.2;
decisions in docs/rules-decisions.md).
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
import pytest

import swissframe as sf
from swissframe.errors import ValidationError

SCHEMA = {"event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
          "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
          "games_drawn": pl.Int64, "double_loss": pl.Boolean}


def table(matches: list[tuple[int, str, str, tuple[int, int, int], tuple[int, int, int] | None]]
          ) -> pl.DataFrame:
    """(round, a, b, a's games, b's games for a double loss / None for a normal match)."""
    rows = []
    for rnd, a, b, ga, gb in matches:
        dl = gb is not None
        mirror = gb if gb is not None else (ga[1], ga[0], ga[2])
        rows.append(("e", rnd, a, b, *ga, dl))
        rows.append(("e", rnd, b, a, *mirror, dl))
    return pl.DataFrame(rows, orient="row", schema=SCHEMA)


def values(st: pl.DataFrame, col: str) -> dict[str, object]:
    return dict(zip(st["player_id"], st[col], strict=True))


def test_swu_unresolved_match_is_a_loss_for_both() -> None:
    # SWU (rules.md §3.5): a match ending without a winner is 0 match wins for both. A and
    # B reach time at 1-1 (games as played, 1-1 each); C beats D 2-0; round 2 A beats C
    # 2-1, B beats D 2-0. Match wins A 1, B 1, C 1, D 0; MW% (win 3 of 3 per round):
    # A, B, C 3/6 = 1/2, D 0 → 33.33%. OMW%: A = (B ½ + C ½)/2 = ½; B = (A ½ + D 0.3333)/2.
    # GW% (game 3, drawn game 1): A 3 won, 2 lost = 9/15 = 0.6; B 3-1 = 9/12 = 0.75.
    res = table([(1, "A", "B", (1, 1, 0), (1, 1, 0)), (1, "C", "D", (2, 0, 0), None),
                 (2, "A", "C", (2, 1, 0), None), (2, "B", "D", (2, 0, 0), None)])
    st = sf.standings(res, "swu")
    assert values(st, "match_wins") == {"A": 1, "B": 1, "C": 1, "D": 0}
    assert values(st, "match_points") == {"A": 3, "B": 3, "C": 3, "D": 0}
    assert (values(st, "losses")["A"], values(st, "draws")["A"]) == (1, 0)
    omw = values(st, "omwp")
    assert omw["A"] == pytest.approx(0.5)
    assert omw["B"] == pytest.approx((0.5 + 0.3333) / 2)
    assert values(st, "gwp")["A"] == pytest.approx(0.6)
    assert values(st, "gwp")["B"] == pytest.approx(0.75)
    # the same games without the flag are a drawn match (1 point each)
    drawn = sf.standings(res.drop("double_loss"), "swu")
    assert values(drawn, "match_points")["A"] == 4


def test_one_piece_op_f2_double_loss() -> None:
    # OP-F2: two players who double-lose their only match are both 0-1, win rate 0 → 0.33
    # when used as opponents. Bo1 with no game won: each seat records the game as lost.
    res = table([(1, "A", "B", (0, 1, 0), (0, 1, 0)), (1, "C", "D", (1, 0, 0), None)])
    st = sf.standings(res, "one-piece")
    assert values(st, "match_points") == {"A": 0, "B": 0, "C": 3, "D": 0}
    assert values(st, "losses") == {"A": 1, "B": 1, "C": 0, "D": 1}
    assert values(st, "omwp")["A"] == pytest.approx(0.33)
    assert values(st, "omwp")["B"] == pytest.approx(0.33)


def test_pokemon_double_game_loss_in_a_best_of_one_match() -> None:
    # A double game loss in a best-of-one Swiss match ends it with a loss for both (TOM
    # outcome 10). Round 1 A/B double loss, C beats D; round 2 A beats C, B beats D.
    # Win % (TRH §5.3.3.1, floor 25%): A, B, C 1/2, D 0 → 25%. Each double loser has the
    # other as an opponent: OMW% A = (B ½ + C ½)/2 = 50%, B = (A ½ + D ¼)/2 = 37.5%
    # (as unopposed losses they would have had C's ½ and D's ¼ alone).
    res = table([(1, "A", "B", (0, 1, 0), (0, 1, 0)), (1, "C", "D", (1, 0, 0), None),
                 (2, "A", "C", (1, 0, 0), None), (2, "B", "D", (1, 0, 0), None)])
    st = sf.standings(res, "pokemon")
    assert values(st, "match_points") == {"A": 3, "B": 3, "C": 3, "D": 0}
    assert values(st, "omwp") == {"A": 0.5, "B": 0.375, "C": 0.375, "D": 0.5}


def test_mtg_double_match_loss_and_game_points() -> None:
    # MTG: both players receive a match loss (0-2 each as recorded): 0 match points each,
    # MW% 0 → 0.33, GW% 0/6 → 0.33; a double game loss that ends nothing is not recorded
    # (the IPG: simultaneous game losses do not change the match score), so it needs no
    # flag. melee two-game scoring: a double loss scores no game points either.
    res = table([(1, "A", "B", (0, 2, 0), (0, 2, 0)), (1, "C", "D", (2, 1, 0), None)])
    st = sf.standings(res, "mtg")
    assert values(st, "match_points") == {"A": 0, "B": 0, "C": 3, "D": 0}
    assert values(st, "mwp")["A"] == pytest.approx(0.33)
    assert values(st, "gwp")["A"] == pytest.approx(0.33)
    assert values(st, "omwp")["A"] == pytest.approx(0.33)
    two = table([(1, "A", "B", (1, 1, 0), (1, 1, 0)), (1, "C", "D", (2, 0, 0), None)])
    st2 = sf.standings(two, "melee-two-game")
    assert values(st2, "match_points") == {"A": 0, "B": 0, "C": 7, "D": 0}


def test_double_loss_exact_and_by_round() -> None:
    res = table([(1, "A", "B", (0, 1, 0), (0, 1, 0)), (1, "C", "D", (1, 0, 0), None),
                 (2, "A", "C", (1, 0, 0), None), (2, "B", "D", (1, 0, 0), None)])
    by = sf.standings_by_round(res, "mtg")
    one = sf.standings(res.filter(pl.col("round") == 1), "mtg")
    r1 = by.filter(pl.col("round") == 1).drop("round").select(one.columns)
    assert r1.sort("player_id").equals(one.sort("player_id"))
    assert Fraction(values(one, "match_points")["A"]) == 0


def test_contract_validates_the_flag_on_both_seats() -> None:
    ok = table([(1, "A", "B", (0, 1, 0), (0, 1, 0))])
    sf.validate_results(ok).collect()
    # 0-1 / 0-1 without the flag: still a contradiction
    with pytest.raises(ValidationError, match="mirror_mismatch"):
        sf.validate_results(ok.drop("double_loss")).collect()
    one_sided = ok.with_columns(double_loss=pl.col("player_id") == "A")
    problems = sf.find_problems(one_sided)
    assert "double_loss_mismatch" in problems["kind"].to_list()
    with pytest.raises(ValidationError, match="double_loss=True on both seats"):
        sf.validate_results(one_sided).collect()
    report = sf.validate(one_sided, best_of=None)
    assert "double_loss_mismatch" in report.problems["kind"].to_list()
    assert sf.validate(ok, best_of=None).problems.filter(
        pl.col("severity") == "error").height == 0
    with pytest.raises(sf.SchemaError, match="double_loss is String, expected Boolean"):
        sf.validate_results(ok.with_columns(pl.col("double_loss").cast(pl.String))).collect()


@pytest.mark.parametrize("games", [(2, 0, 0), (0, 2, 0), (0, 1, 0)])
def test_a_double_loss_with_no_opponent_is_refused(games: tuple[int, int, int]) -> None:
    """Bad data 233: a double loss is a match both players lost, so two seats. Flagged on
    a row with no opponent (a bye, an unopposed loss), it was read as a loss without a word
    from validate: C's 2-0 bye scored 0 points."""
    rows = table([(1, "A", "B", (2, 0, 0), None)]).vstack(pl.DataFrame(
        [("e", 1, "C", None, *games, True)], orient="row", schema=SCHEMA))
    problems = sf.find_problems(rows)
    assert problems.filter(pl.col("kind") == "double_loss_mismatch")["player_id"].to_list() \
        == ["C"]
    assert "with no opponent" in problems["detail"].to_list()[0]
    with pytest.raises(ValidationError, match="double_loss_mismatch"):
        sf.standings(rows, "mtg")
    report = sf.validate(rows, rules="mtg")
    assert report.problems.filter(pl.col("severity") == "error")["kind"].to_list() == [
        "double_loss_mismatch"]
    # without the flag the bye is a bye
    fine = sf.standings(rows.with_columns(double_loss=pl.lit(value=False)), "mtg")
    assert values(fine, "match_points")["C"] == (3 if games[0] > games[1] else 0)


def test_to_matches_keeps_the_flag() -> None:
    res = table([(1, "A", "B", (0, 1, 0), (0, 1, 0)), (1, "C", "D", (1, 0, 0), None)])
    m = sf.to_matches(res)
    assert m.select("player_a", "double_loss").rows() == [("A", True), ("C", False)]
