"""Reference-software checks (public path; :mod:`swissframe.verify.reference`)."""

from __future__ import annotations

from swissframe.verify.reference import (
    EARNED_BYE_READINGS,
    FIDE_2026_START,
    NOT_IMPLEMENTED,
    REFERENCE_COLUMNS,
    TOM_COLUMNS,
    TRF_COLUMNS,
    fide_tiebreaks,
    read_held_values,
    read_tiebreakserver_table,
    rule_set_for_date,
    summarize_reference,
    verify_tom,
    verify_trf,
)

__all__ = [
    "EARNED_BYE_READINGS",
    "FIDE_2026_START",
    "NOT_IMPLEMENTED",
    "REFERENCE_COLUMNS",
    "TOM_COLUMNS",
    "TRF_COLUMNS",
    "fide_tiebreaks",
    "read_held_values",
    "read_tiebreakserver_table",
    "rule_set_for_date",
    "summarize_reference",
    "verify_tom",
    "verify_trf",
]
