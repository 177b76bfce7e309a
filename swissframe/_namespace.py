"""The ``.swiss`` Polars namespace, registered when :mod:`swissframe` is imported.

>>> import polars as pl, swissframe as sf
>>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
>>> results = sf.from_matches(m)
>>> results.swiss.standings("mtg").select("player_id", "rank").head(2).rows()
[('A', 1), ('C', 2)]
>>> results.lazy().swiss.standings("mtg").height
4

Every method is the function of the same name with the frame as its first argument
(``df.swiss.standings(rules)`` is ``sf.standings(df, rules)``); a LazyFrame is read in the same
way, and the results are DataFrames, as the functions return them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

if TYPE_CHECKING:
    from swissframe.compare import Comparison
    from swissframe.rules import Ruleset
    from swissframe.validate import ValidationReport

__all__ = ["SwissFrame", "SwissLazyFrame"]


class _Swiss:
    """The methods shared by the DataFrame and LazyFrame namespaces."""

    def __init__(self, frame: pl.DataFrame | pl.LazyFrame) -> None:
        self._frame = frame

    def standings(self, rules: str | Ruleset = "mtg", *, through_round: int | None = None,
                  keys: Sequence[str] = ()) -> pl.DataFrame:
        """:func:`swissframe.standings` of this results table."""
        from swissframe.engine.standings import standings

        return standings(self._frame, rules, through_round=through_round, keys=keys)

    def standings_by_round(self, rules: str | Ruleset = "mtg", **kwargs: Any) -> pl.DataFrame:
        """:func:`swissframe.standings_by_round` of this results table."""
        from swissframe.engine.standings import standings_by_round

        out = standings_by_round(self._frame, rules, **kwargs)
        return out.collect() if isinstance(out, pl.LazyFrame) else out

    def explain(self, player_id: str, rules: str | Ruleset = "mtg", **kwargs: Any
                ) -> pl.DataFrame:
        """:func:`swissframe.explain`: how one player's tiebreakers were formed."""
        from swissframe.engine.explain import explain

        return explain(self._frame, player_id, rules, **kwargs)

    def compare(self, a: str, b: str, *, rules: str | Ruleset = "mtg", **kwargs: Any
                ) -> Comparison:
        """:func:`swissframe.compare`: the criterion that separated two players."""
        from swissframe.compare import compare

        return compare(self._frame, a, b, rules=rules, **kwargs)

    def validate(self, **kwargs: Any) -> ValidationReport:
        """:func:`swissframe.validate`: every problem of this results table."""
        from swissframe.validate import validate

        return validate(self._frame, **kwargs)

    def sensitivity(self, rulesets: Any = None, **kwargs: Any) -> pl.DataFrame:
        """:func:`swissframe.sensitivity` across ``rulesets`` (the first is the baseline)."""
        from swissframe.sensitivity import sensitivity

        return sensitivity(self._frame, rulesets, **kwargs)


@pl.api.register_dataframe_namespace("swiss")
class SwissFrame(_Swiss):
    """``df.swiss``: swissframe on a results DataFrame."""


@pl.api.register_lazyframe_namespace("swiss")
class SwissLazyFrame(_Swiss):
    """``lf.swiss``: swissframe on a results LazyFrame (the results are DataFrames)."""
