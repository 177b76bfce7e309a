"""swissframe: Swiss-system tournament standings, tiebreakers and cut analysis on Polars.

>>> import swissframe as sf
>>> sf.rules.MTG.name
'mtg'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from _swissframe_cli import thread_setting_problem as _thread_setting_problem

# Public modules are imported by their public paths, before the functions that share their
# names are bound (``sf.standings`` is the function, ``swissframe.standings`` the module).
from swissframe import (
    _namespace,  # noqa: F401 - registers df.swiss / lf.swiss (df.swiss.standings("mtg"))
    charts,
    platforms,
    rules,
    tiebreakers,
)
from swissframe.compare import Comparison, compare
from swissframe.cut import (
    cut_status,
    detect_intentional_draws,
    id_advice,
    id_report,
    next_round_ranges,
)
from swissframe.errors import (
    DataError,
    ImportFormatError,
    RulesetError,
    SchemaError,
    SwissframeError,
    ValidationError,
)
from swissframe.explain import explain
from swissframe.io._files import Source, read
from swissframe.io.tables import read_results
from swissframe.report import report
from swissframe.rounds import ROUND_TABLES, RoundsTable, recommended_rounds
from swissframe.rules import Criterion, Ruleset
from swissframe.schema import (
    MatchColumns,
    find_problems,
    from_matches,
    repair_mirrors,
    to_matches,
    validate_results,
)
from swissframe.sensitivity import sensitivity, standard_variants
from swissframe.simulate import (
    SIM_RULES,
    IdPolicy,
    SimRules,
    Simulation,
    pair_round,
    simulate,
)
from swissframe.standings import standings, standings_by_round
from swissframe.validate import ValidationReport, validate
from swissframe.verify import matching_rounds, summarize, verify

# (before any query: Polars stops at its first query with POLARS_MAX_THREADS=0, and starts
# every thread a huge value asks for; bad data 175)
if (_threads := _thread_setting_problem()) is not None:
    raise SwissframeError(_threads)

if TYPE_CHECKING:
    from swissframe.bulk import RecomputeReport, recompute
    from swissframe.io.decklist import DecklistEvents, read_decklist_cache
    from swissframe.io.tom import TomEvents, read_tom
    from swissframe.io.trf import TrfEvents, read_trf
    from swissframe.verify_reference import summarize_reference, verify_tom, verify_trf

#: Public names whose modules load on their first use (``import swissframe`` stays cheap: the
#: file readers and the archive recomputation are most of the package's own import time).
#: Only names that differ from their module's: ``swissframe.simulate`` the package, set on
#: the package when any of its modules is imported, must never hide ``sf.simulate``.
_LAZY: Final = {
    "RecomputeReport": "swissframe.bulk",
    "recompute": "swissframe.bulk",
    "DecklistEvents": "swissframe.io.decklist",
    "read_decklist_cache": "swissframe.io.decklist",
    "TomEvents": "swissframe.io.tom",
    "read_tom": "swissframe.io.tom",
    "TrfEvents": "swissframe.io.trf",
    "read_trf": "swissframe.io.trf",
    "summarize_reference": "swissframe.verify_reference",
    "verify_tom": "swissframe.verify_reference",
    "verify_trf": "swissframe.verify_reference",
}


def __getattr__(name: str) -> Any:
    """A public name of :data:`_LAZY`, imported from its module on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        msg = f"module 'swissframe' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__version__ = "0.1.0"

__all__ = [
    "ROUND_TABLES",
    "SIM_RULES",
    "Comparison",
    "Criterion",
    "DataError",
    "DecklistEvents",
    "IdPolicy",
    "ImportFormatError",
    "MatchColumns",
    "RecomputeReport",
    "RoundsTable",
    "Ruleset",
    "RulesetError",
    "SchemaError",
    "SimRules",
    "Simulation",
    "Source",
    "SwissframeError",
    "TomEvents",
    "TrfEvents",
    "ValidationError",
    "ValidationReport",
    "__version__",
    "charts",
    "compare",
    "cut_status",
    "detect_intentional_draws",
    "explain",
    "find_problems",
    "from_matches",
    "id_advice",
    "id_report",
    "matching_rounds",
    "next_round_ranges",
    "pair_round",
    "platforms",
    "read",
    "read_decklist_cache",
    "read_results",
    "read_tom",
    "read_trf",
    "recommended_rounds",
    "recompute",
    "repair_mirrors",
    "report",
    "rules",
    "sensitivity",
    "simulate",
    "standard_variants",
    "standings",
    "standings_by_round",
    "summarize",
    "summarize_reference",
    "tiebreakers",
    "to_matches",
    "validate",
    "validate_results",
    "verify",
    "verify_tom",
    "verify_trf",
]
