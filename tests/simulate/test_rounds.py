"""Round tables: every bracket boundary, input forms, bye weighting, errors."""

from __future__ import annotations

import itertools

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swissframe.errors import DataError, RulesetError
from swissframe.rounds import ROUND_TABLES, ROUNDS_COLUMNS, RoundsTable, recommended_rounds

# (players, swiss rounds, top cut) at both ends of every bracket, typed from rules.md §1.5
MTG = [
    (4, 0, 4), (5, 0, 8), (8, 0, 8), (9, 5, 4), (16, 5, 4), (17, 5, 8), (32, 5, 8),
    (33, 6, 8), (64, 6, 8), (65, 7, 8), (128, 7, 8), (129, 8, 8), (226, 8, 8), (227, 9, 8),
    (409, 9, 8), (410, 10, 8), (5000, 10, 8),
]
MTG_DRAFT = [(8, 0, 8), (9, 4, 8), (16, 4, 8), (17, 5, 8)]
# rules.md §2.4, variant #2 (League Challenge): no top cut
LEAGUE_CHALLENGE = [
    (4, 3), (8, 3), (9, 4), (16, 4), (17, 5), (32, 5), (33, 6), (64, 6), (65, 7), (128, 7),
    (129, 8), (256, 8), (257, 9), (512, 9), (513, 10), (3000, 10),
]
# variant #3 (League Cup): (players, swiss, single-elimination rounds)
LEAGUE_CUP = [
    (4, 3, 0), (8, 3, 0), (9, 4, 2), (12, 4, 2), (13, 5, 2), (20, 5, 2), (21, 5, 3),
    (32, 5, 3), (33, 6, 3), (64, 6, 3), (65, 7, 3), (128, 7, 3), (129, 8, 3), (226, 8, 3),
    (227, 9, 3), (409, 9, 3), (410, 10, 3), (2000, 10, 3),
]
# variants #1 and #4 (VG / GO single day): (players, swiss, single-elimination rounds)
VG_GO = [
    (4, 3, 0), (7, 3, 0), (8, 3, 1), (9, 4, 2), (16, 4, 2), (17, 5, 3), (32, 5, 3),
    (33, 6, 3), (64, 6, 3), (65, 7, 3), (128, 7, 3), (129, 8, 3), (226, 8, 3), (227, 8, 4),
    (256, 8, 4), (257, 9, 4), (409, 9, 4), (410, 9, 5), (512, 9, 5), (513, 10, 5),
    (4000, 10, 5),
]
# variant #5 (2026 two-phase): (players, total, phase 1, threshold, phase 2, top cut)
CHAMPIONSHIP = [
    (4, 3, 3, None, 0, 0), (8, 3, 3, None, 0, 0), (9, 4, 4, None, 0, 2),
    (16, 4, 4, None, 0, 2), (17, 6, 6, None, 0, 4), (32, 6, 6, None, 0, 4),
    (33, 7, 7, None, 0, 6), (64, 7, 7, None, 0, 6), (65, 9, 7, 13, 2, 8),
    (128, 9, 7, 13, 2, 8), (129, 10, 8, 16, 2, 8), (256, 10, 8, 16, 2, 8),
    (257, 11, 8, 16, 3, 8), (512, 11, 8, 16, 3, 8), (513, 12, 8, 16, 4, 8),
    (1024, 12, 8, 16, 4, 8), (1025, 13, 8, 16, 5, 8), (2048, 13, 8, 16, 5, 8),
    (2049, 14, 8, 16, 6, 8), (4096, 14, 8, 16, 6, 8), (4097, 15, 9, 19, 6, 8),
    (8192, 15, 9, 19, 6, 8),
]


def _lookup(table: str, counts: list[int]) -> pl.DataFrame:
    return recommended_rounds(counts, table)


def test_mtg_every_boundary() -> None:
    out = _lookup("mtg", [p for p, _, _ in MTG])
    assert out.select("players", "swiss_rounds", "top_cut").rows() == MTG
    assert out["elimination_rounds"].to_list() == [2, 3, 3, 2, 2] + [3] * 12
    assert out["cut_kind"].to_list()[:4] == ["single_elimination"] * 3 + ["top"]


def test_mtg_draft_playoff_row() -> None:
    out = _lookup("mtg_draft", [p for p, _, _ in MTG_DRAFT])
    assert out.select("players", "swiss_rounds", "top_cut").rows() == MTG_DRAFT


def test_pokemon_league_challenge_every_boundary() -> None:
    out = _lookup("pokemon_league_challenge", [p for p, _ in LEAGUE_CHALLENGE])
    assert out.select("players", "swiss_rounds").rows() == LEAGUE_CHALLENGE
    assert set(out["top_cut"].to_list()) == {0}


def test_pokemon_league_cup_every_boundary() -> None:
    out = _lookup("pokemon_league_cup", [p for p, _, _ in LEAGUE_CUP])
    assert out.select("players", "swiss_rounds", "elimination_rounds").rows() == LEAGUE_CUP
    assert out.filter(pl.col("players") == 12)["top_cut"].item() == 4
    assert out.filter(pl.col("players") == 21)["top_cut"].item() == 8


@pytest.mark.parametrize("table", ["pokemon_vg", "pokemon_go"])
def test_pokemon_vg_go_every_boundary(table: str) -> None:
    out = _lookup(table, [p for p, _, _ in VG_GO])
    assert out.select("players", "swiss_rounds", "elimination_rounds").rows() == VG_GO
    # single-elimination rounds and playoff size agree: 2**rounds players
    assert (out["top_cut"] == (2 ** out["elimination_rounds"]).cast(pl.Int64)
            .replace(1, 0)).all()


@pytest.mark.parametrize("table", ["pokemon", "pokemon_championship"])
def test_pokemon_two_phase_every_boundary(table: str) -> None:
    out = _lookup(table, [row[0] for row in CHAMPIONSHIP])
    got = out.select("players", "swiss_rounds", "phase1_rounds", "phase2_threshold",
                     "phase2_rounds", "top_cut").rows()
    assert got == CHAMPIONSHIP
    assert (out["phase1_rounds"] + out["phase2_rounds"] == out["swiss_rounds"]).all()
    kinds = out["cut_kind"].to_list()
    assert kinds[:2] == ["none", "none"]
    assert set(kinds[2:]) == {"asymmetrical"}


#: Flesh and Blood TRP Appendix A.2, single day (rules.md §3.3): (players, rounds, play-off)
FAB = [(2, 3, 0), (8, 3, 0), (9, 5, 4), (16, 5, 4), (17, 5, 8), (32, 5, 8), (33, 6, 8),
       (64, 6, 8), (65, 7, 8), (128, 7, 8), (129, 8, 8), (224, 8, 8), (225, 9, 8),
       (384, 9, 8), (385, 10, 8), (736, 10, 8)]
#: Disney Lorcana Tournament Rules (3 Oct 2023; rules.md §3.2), Core Constructed
LORCANA = [(8, 0, 8), (9, 5, 4), (16, 5, 4), (17, 5, 8), (32, 5, 8), (33, 6, 8), (64, 6, 8),
           (65, 7, 8), (128, 7, 8), (129, 8, 8), (226, 8, 8)]


def test_fab_every_boundary() -> None:
    out = _lookup("fab", [p for p, _, _ in FAB])
    assert out.select("players", "swiss_rounds", "top_cut").rows() == FAB
    draft = _lookup("fab_draft", [9, 16, 17])
    assert draft.select("swiss_rounds", "top_cut").rows() == [(4, 8), (4, 8), (5, 8)]
    # the current table differs from the older MTG-copied one above 128 players (§7 item 10)
    assert _lookup("fab", [225, 410])["swiss_rounds"].to_list() == [9, 10]
    assert _lookup("mtg", [225, 410])["swiss_rounds"].to_list() == [8, 10]
    with pytest.raises(DataError, match="above the largest bracket"):
        recommended_rounds(737, "fab")


def test_fab_team_every_boundary() -> None:
    out = _lookup("fab_team", [2, 16, 17, 32, 33, 64, 65, 128, 129, 224, 225, 384, 385, 736])
    assert out["swiss_rounds"].to_list() == [5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11]
    assert set(out["top_cut"].to_list()) == {4}


def test_lorcana_every_boundary() -> None:
    out = _lookup("lorcana", [p for p, _, _ in LORCANA])
    assert out.select("players", "swiss_rounds", "top_cut").rows() == LORCANA
    assert out["cut_kind"].to_list()[0] == "single_elimination"
    assert out["elimination_rounds"].to_list()[0] == 3
    draft = _lookup("lorcana_draft", [9, 16])
    assert draft.select("swiss_rounds", "top_cut").rows() == [(4, 8), (4, 8)]
    with pytest.raises(DataError, match="below the smallest bracket"):
        recommended_rounds(7, "lorcana")
    with pytest.raises(DataError, match="above the largest bracket"):
        recommended_rounds(227, "lorcana")


def test_pokemon_above_last_bracket_is_an_error() -> None:
    with pytest.raises(DataError, match="above the largest bracket"):
        recommended_rounds({"worlds": 8193}, "pokemon")


@pytest.mark.parametrize(("table", "count"), [("mtg", 3), ("pokemon", 3), ("pokemon_go", 0)])
def test_below_first_bracket_is_an_error(table: str, count: int) -> None:
    with pytest.raises(DataError, match=r"event 'e1'.*Hint"):
        recommended_rounds({"e1": count}, table)


def test_unknown_table() -> None:
    with pytest.raises(RulesetError, match="unknown rounds table 'chess'"):
        recommended_rounds(20, "chess")


def test_awarded_byes_count_as_2_4_8_players() -> None:
    # 8 players, one with a 1-round bye: counts as 9 -> 5 rounds, Top 4 (Appendix E)
    roster = pl.DataFrame({"event_id": ["a"] * 8, "player_id": list("abcdefgh"),
                           "byes": [1, 0, 0, 0, 0, 0, 0, 0]})
    out = recommended_rounds(roster)
    assert out.select("players", "effective_players", "swiss_rounds", "top_cut").row(0) == (
        8, 9, 5, 4)
    # 3-round bye counts as 8: 26 plain + one 3-bye player = 34 -> 6 rounds
    big = pl.DataFrame({"event_id": "b", "player_id": [str(i) for i in range(27)],
                        "byes": [3] + [0] * 26})
    assert recommended_rounds(big).select("effective_players", "swiss_rounds").row(0) == (
        34, 6)
    # 2-round byes: 4 each; 120 plain + 2 x 4 = 128 -> 7 rounds; one more bye-2 -> 132 -> 8
    rows = {"event_id": "c", "player_id": [str(i) for i in range(122)],
            "byes": [2, 2] + [0] * 120}
    assert recommended_rounds(pl.DataFrame(rows))["swiss_rounds"].item() == 7
    rows2 = {"event_id": "c", "player_id": [str(i) for i in range(123)],
             "byes": [2, 2, 2] + [0] * 120}
    assert recommended_rounds(pl.DataFrame(rows2))["swiss_rounds"].item() == 8


def test_byes_ignored_by_pokemon_tables() -> None:
    roster = pl.DataFrame({"event_id": "a", "player_id": list("abcdefgh"), "byes": [3] * 8})
    assert recommended_rounds(roster, "pokemon_league_cup")["effective_players"].item() == 8


def test_bad_byes() -> None:
    roster = pl.DataFrame({"event_id": "x", "player_id": ["a", "b"], "byes": [0, 4]})
    with pytest.raises(DataError, match=r"event 'x'.*awarded byes must be 0-3"):
        recommended_rounds(roster)


def test_input_forms_agree() -> None:
    by_list = recommended_rounds([20, 300])
    by_map = recommended_rounds({"0": 20, "1": 300})
    by_frame = recommended_rounds(pl.DataFrame({"event_id": ["0", "1"], "players": [20, 300]}))
    assert by_list.equals(by_map)
    assert by_list.equals(by_frame)
    assert by_list.columns == list(ROUNDS_COLUMNS)
    assert recommended_rounds(40)["event_id"].to_list() == ["event"]
    # order of events is kept even though the lookup sorts internally
    assert recommended_rounds({"z": 500, "a": 10})["event_id"].to_list() == ["z", "a"]


def test_bad_input_type() -> None:
    with pytest.raises(DataError, match="Hint"):
        recommended_rounds(3.5)
    with pytest.raises(DataError, match="Hint"):
        recommended_rounds(pl.DataFrame({"x": [1]}))


def test_custom_table() -> None:
    tiny = RoundsTable("tiny", "test", (ROUND_TABLES["mtg"].rows[-1],))
    assert recommended_rounds(500, tiny)["swiss_rounds"].item() == 10


@pytest.mark.parametrize("name", sorted(ROUND_TABLES))
def test_tables_are_contiguous_and_monotone(name: str) -> None:
    rows = ROUND_TABLES[name].rows
    for prev, nxt in itertools.pairwise(rows):
        assert prev.max_players is not None
        assert nxt.min_players == prev.max_players + 1
        assert nxt.swiss_rounds >= prev.swiss_rounds
    for row in rows:
        assert row.max_players is None or row.max_players >= row.min_players


@settings(deadline=None, max_examples=50)
@given(st.lists(st.integers(min_value=4, max_value=8192), min_size=1, max_size=30))
def test_lookup_is_monotone(counts: list[int]) -> None:
    out = recommended_rounds(sorted(counts), "pokemon")
    assert out["swiss_rounds"].is_sorted()
    assert out["players"].to_list() == sorted(counts)


def test_attendance_of_numpy_or_polars_is_its_numbers() -> None:
    """A NumPy array, a Series or NumPy integers were "cannot read attendance from
    ndarray" (bad data 242)."""
    import numpy as np

    import swissframe as sf

    want = sf.recommended_rounds([8, 64])
    assert sf.recommended_rounds(np.array([8, 64])).equals(want)
    assert sf.recommended_rounds(pl.Series([8, 64])).equals(want)
    assert sf.recommended_rounds([np.int64(8), np.int32(64)]).equals(want)
    assert sf.recommended_rounds(np.int64(64)).equals(sf.recommended_rounds(64))
    with pytest.raises(sf.DataError, match="attendance counts must be whole numbers"):
        sf.recommended_rounds(np.array([8.5]))


def test_a_rounds_table_is_found_in_any_case_and_spelling() -> None:
    """"MTG" and "Pokémon" were "unknown rounds table" (bad data 247, as a ruleset's
    name); a name near one gets a did-you-mean."""
    import swissframe as sf

    assert sf.recommended_rounds(64, rules="MTG").equals(sf.recommended_rounds(64))
    assert sf.recommended_rounds(64, rules="Pokémon").equals(
        sf.recommended_rounds(64, rules="pokemon"))
    assert sf.recommended_rounds(64, rules="mtg-draft").equals(
        sf.recommended_rounds(64, rules="mtg_draft"))
    with pytest.raises(RulesetError, match=r"unknown rounds table 'lorcan'\. Hint: did you "
                                           r"mean 'lorcana'"):
        sf.recommended_rounds(8, rules="lorcan")
