"""The surfaces' words for the top of an event (``swissframe.cut._words``)."""

from __future__ import annotations

import dataclasses

import pytest

import swissframe as sf
from swissframe.cut._words import cut_words


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
