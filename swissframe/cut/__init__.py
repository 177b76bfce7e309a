"""Cut and intentional-draw analysis: next-round ranges, cut status, ID advice and reports.

Each analysis stacks the outcomes or scenarios it needs as a key column and runs the
engine over them: ``_round`` prepares the analysed round (outcome spaces, every player's
record after each outcome), ``_ranges`` bounds the tiebreakers, ``_status`` proves statuses
and evaluates scenarios (``_scenarios``: the fast scenario model), ``_ids`` advises and
reports on intentional draws.
"""

from __future__ import annotations

from swissframe.cut._ids import ID_SCORES, IdReport, detect_intentional_draws, id_advice, id_report
from swissframe.cut._ranges import next_round_ranges
from swissframe.cut._status import cut_status, status_summary

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
