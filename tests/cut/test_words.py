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


#: Each phrase the charts and the reports say of the line, a cut's and a chess event's.
PHRASES = {
    "the_line": ("the cut", "the line under place 8"),
    "the_line_short": ("the cut", "the line"),
    "it": ("the cut", "it"),
    "cut_line": ("cut line", "line under place 8"),
    "the_cut_line": ("the cut line", "the line"),
    "line_title": ("The top-8 cut line", "The line under place 8"),
    "lines_heading": ("Cut lines against field size", "Place 8 against field size"),
    "cut_to": ("cut to the top 8", "line under place 8"),
    "top_size": ("cut to the top", "the top places:"),
    "dashed_line_note": ("dashed line: the cut", "dashed line: under place 8"),
    "fell": ("The top-8 cut fell", "Place 8 went"),
    "chance": ("cut", "top 8"),
    "unsized": ("top cut", "top places"),
}


@pytest.mark.parametrize("phrase", sorted(PHRASES))
def test_each_phrase_of_the_line_is_a_property_of_the_words(phrase: str) -> None:
    """The charts and the reports wrote about a dozen ``"the cut" if words.playoff else
    …`` phrases inline; each is now one property of ``CutWords``, read by them all."""
    cut, places = PHRASES[phrase]
    assert getattr(cut_words(sf.rules.MTG, 8), phrase) == cut
    assert getattr(cut_words(sf.rules.FIDE, 8), phrase) == places


def test_no_surface_words_the_line_inline() -> None:
    """No ``… if words.playoff else …`` left in the charts, the reports or the CLI: a
    phrase of the line is written once, in ``cut/_words.py``."""
    from pathlib import Path

    root = Path(sf.__file__).parent
    files = [root / "charts.py", *(root / "report").glob("*.py"),
             *(root / "cli").rglob("*.py")]
    inline = [f"{f.name}:{i}" for f in files
              for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
              if "playoff else" in line or "words.playoff" in line
              or ").playoff" in line]
    assert not inline, inline
