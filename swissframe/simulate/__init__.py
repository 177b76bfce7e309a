"""Synthetic Swiss events: pairing engine, round tables, and many events at once."""

from __future__ import annotations

from swissframe.simulate._simulate import (
    SIM_RULES,
    IdPolicy,
    SimRules,
    Simulation,
    pair_round,
    simulate,
    with_rules,
)
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
    "SIM_RULES",
    "IdPolicy",
    "RoundsRow",
    "RoundsTable",
    "SimRules",
    "Simulation",
    "pair_round",
    "recommended_rounds",
    "rounds_table",
    "simulate",
    "with_rules",
]
