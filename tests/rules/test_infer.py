"""``rules="auto"``: the rulesets a table's ``ruleset`` column names (``rules/_infer.py``)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import swissframe as sf
from tests.helpers import Opp, event_from_opponents


def _event() -> pl.DataFrame:
    return event_from_opponents({"T": [Opp((1, 1, 0), "W"), Opp((1, 1, 0), "L")]})


@pytest.mark.parametrize("column", [
    pl.lit(["mtg"]), pl.struct(pl.lit("mtg").alias("name")), pl.lit(b"mtg"),
    pl.lit(1).cast(pl.Duration)])
def test_a_ruleset_column_of_no_text_form_is_named(column: pl.Expr, tmp_path: Path) -> None:
    """Class 115: a ``ruleset`` column of lists, structs, bytes or objects was cast to text
    by every reading of ``rules="auto"`` (``standings``, ``validate``, ``report``, a
    Parquet file's read) and ended in Polars' bare error ("cannot cast List type")."""
    df = _event().with_columns(column.alias("ruleset"))
    for call in (lambda: sf.standings(df, rules="auto"), lambda: sf.validate(df),
                 lambda: sf.standings_by_round(df, rules="auto")):
        with pytest.raises(sf.SchemaError, match=r"the ruleset column is \w+.*names each row's "
                           r"ruleset as text.*Hint: cast it to text"):
            call()
    path = tmp_path / "r.parquet"
    df.write_parquet(path)
    with pytest.raises(sf.ImportFormatError, match=rf"{path}: the ruleset column is"):
        sf.read(path)


def test_a_ruleset_column_of_objects_is_named() -> None:
    df = _event()
    df = df.with_columns(pl.Series("ruleset", [object()] * df.height, dtype=pl.Object))
    with pytest.raises(sf.SchemaError, match=r"the ruleset column is Object"):
        sf.standings(df, rules="auto")


def test_a_ruleset_column_of_text_is_read() -> None:
    df = _event()
    for column in (pl.lit("mtg"), pl.lit("mtg").cast(pl.Categorical), pl.lit(None)):
        assert sf.standings(df.with_columns(column.alias("ruleset")), rules="auto").equals(
            sf.standings(df))
