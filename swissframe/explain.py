"""One player's tiebreakers, as a judge writes them (engine: :mod:`swissframe.engine.explain`)."""

from __future__ import annotations

from swissframe.engine.explain import (
    EXPLAIN_COLUMNS,
    explain,
)

__all__ = [
    "EXPLAIN_COLUMNS",
    "explain",
]
