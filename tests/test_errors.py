"""swissframe.errors: the "did you mean" of every hint (``nearest``, ``did_you_mean``)."""

from __future__ import annotations

import unicodedata

from swissframe.errors import did_you_mean, nearest

NFC = unicodedata.normalize("NFC", "Zoë")
NFD = unicodedata.normalize("NFD", "Zoë")


def test_nearest_compares_one_unicode_form() -> None:
    """'Zoë' typed as one letter and an id written 'Zoe' + U+0308 (a macOS export) look
    the same but were too far apart for the fuzzy match: no "did you mean" at all (bad
    data 205). Compared in NFC, returned as spelled."""
    assert nearest(NFC, [NFD, "Bob"]) == [NFD]
    assert nearest(NFD, ["bob", NFC]) == [NFC]
    assert nearest("zoë", [NFD], fold_case=True) == [NFD]
    # every spelling of one folded name, as spelled (the last one alone was kept)
    assert nearest("bob", ["Bob", "BOB", "Alice"], fold_case=True) == ["Bob", "BOB"]


def test_did_you_mean_spells_out_a_look_alike() -> None:
    """A suggestion that reads as the value is shown with its characters, which tell the
    two apart (bad data 205)."""
    assert did_you_mean(NFC, [NFD], "x") == f"did you mean '{NFD}' (Zoe\\u0308: another " \
        "Unicode form)?"
    assert did_you_mean("Bobb", ["Bob"], "x") == "did you mean 'Bob'?"
    assert did_you_mean("Q", ["Bob"], "check the spelling.") == "check the spelling."


def test_a_column_named_twice_is_refused() -> None:
    """keys=['k', 'k'] ended in Polars' bare DuplicateError (bad data 248: every `keys=`,
    `by=` and chart `tiebreakers=` reads names through check_names)."""
    import polars as pl
    import pytest

    import swissframe as sf
    from tests.helpers import REPO_ROOT

    res = sf.read_results(REPO_ROOT / "data" / "events" / "store-championship.csv")
    with pytest.raises(sf.DataError, match=r"^keys names the column 'k' twice \(\['k', 'k'\]\)"):
        sf.standings(res.with_columns(k=pl.lit("a")), keys=["k", "k"])
