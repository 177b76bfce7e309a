"""Cut and intentional-draw analysis: next-round ranges, cut status, ID advice and reports.

Each analysis stacks the outcomes or scenarios it needs as a key column and runs the
engine over them (``_round`` prepares the analysed round, ``_scenarios`` holds the fast
scenario model).
"""

from __future__ import annotations

from swissframe.cut._analysis import (
    ID_SCORES,
    IdReport,
    cut_status,
    detect_intentional_draws,
    id_advice,
    id_report,
    next_round_ranges,
    status_summary,
)

__all__ = [
    "ID_SCORES",
    "IdReport",
    "cut_status",
    "detect_intentional_draws",
    "id_advice",
    "id_report",
    "next_round_ranges",
    "status_summary",
]
