"""Standings of one event or many (engine: :mod:`swissframe.engine.standings`)."""

from __future__ import annotations

from swissframe.engine.standings import (
    STANDINGS_COLUMNS,
    standings,
    standings_by_round,
)

__all__ = [
    "STANDINGS_COLUMNS",
    "standings",
    "standings_by_round",
]
