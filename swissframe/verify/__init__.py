"""Verification against what organisers' software published.

:mod:`swissframe.verify.published` compares recomputed tiebreakers and order with the
values and positions published by platforms (melee.gg, Topdeck, CardsRealm, Manatraders);
:mod:`swissframe.verify.reference` checks TOM placings and FIDE reference software.
"""

from __future__ import annotations

from swissframe.verify.published import (
    ORDER_KEYS,
    UNROUNDED_TOLERANCE,
    VERIFY_COLUMNS,
    matching_rounds,
    order,
    summarize,
    verify,
)
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
    "ORDER_KEYS",
    "REFERENCE_COLUMNS",
    "TOM_COLUMNS",
    "TRF_COLUMNS",
    "UNROUNDED_TOLERANCE",
    "VERIFY_COLUMNS",
    "fide_tiebreaks",
    "matching_rounds",
    "order",
    "read_held_values",
    "read_tiebreakserver_table",
    "rule_set_for_date",
    "summarize",
    "summarize_reference",
    "verify",
    "verify_tom",
    "verify_trf",
]
