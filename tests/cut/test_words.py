"""The surfaces' words for the top of an event (``swissframe.cut._words``)."""

from __future__ import annotations

import dataclasses

import polars as pl
import pytest

import swissframe as sf
from swissframe.cut._words import cut_words, the_top


def test_the_words_follow_the_rulesets_playoff_field_not_its_name() -> None:
    """Whether an event cuts is the ruleset's ``playoff`` field (data), so a custom chess
    ruleset named anything keeps the places' words, and a custom card-game ruleset named
    ``fide-like`` keeps the cut's (it was a list of name prefixes)."""
    club = dataclasses.replace(sf.rules.FIDE, name="club-rapid")
    assert cut_words(club, 8).name == "the top 8 places"
    cards = dataclasses.replace(sf.rules.MTG, name="fide-like")
    assert cut_words(cards, 8).name == "the top-8 cut"
    assert [r.name for r in sf.rules.PRESETS.values() if not r.playoff] == [
        "fide", "fide-2026", "fide-2009"]


def test_the_playoff_field_takes_only_a_flag() -> None:
    with pytest.raises(sf.RulesetError, match="playoff"):
        dataclasses.replace(sf.rules.FIDE, playoff="no")  # type: ignore[arg-type]


def test_no_cut_is_said_where_neither_the_user_nor_the_file_gives_one() -> None:
    """A card game's event without playoff rows and without ``top`` shows its top 8 places
    (a report said "the top-8 cut fell at 6 points" of a prerelease with no playoff); its
    own playoff, or the user's top, is a cut; chess has places and no note."""
    swiss = pl.DataFrame({"phase": ["swiss"] * 4, "player_id": ["A", "B", "C", "D"]})
    cut = swiss.vstack(pl.DataFrame({"phase": ["playoff"] * 2, "player_id": ["A", "B"]}))
    n, rules, note = the_top(swiss, None, sf.rules.MTG)
    assert (n, cut_words(rules, n).name, note) == (
        8, "the top 8 places", "no playoff in the file; showing the top 8 places")
    assert rules.criteria == sf.rules.MTG.criteria  # (the words change, not the ranking)
    n, rules, note = the_top(cut, None, sf.rules.MTG)
    assert (n, cut_words(rules, n).name, note) == (2, "the top-2 cut", None)
    n, rules, note = the_top(swiss, 8, sf.rules.POKEMON)
    assert (n, cut_words(rules, n).name, note) == (8, "the top-8 cut", None)
    assert the_top(swiss, None, sf.rules.FIDE)[2] is None
