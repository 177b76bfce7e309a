"""Recommended numbers of rounds (public path; :mod:`swissframe.simulate.rounds`)."""

from __future__ import annotations

from swissframe.simulate.rounds import (
    ROUND_TABLES,
    ROUNDS_COLUMNS,
    RoundsRow,
    RoundsTable,
    recommended_rounds,
    rounds_table,
)

__all__ = [
    "ROUNDS_COLUMNS",
    "ROUND_TABLES",
    "RoundsRow",
    "RoundsTable",
    "recommended_rounds",
    "rounds_table",
]
