"""swissframe: Swiss-system tournament standings, tiebreakers and cut analysis on Polars.

>>> import swissframe as sf
>>> sf.rules.MTG.name
'mtg'
"""

from __future__ import annotations

from swissframe import rules
from swissframe.errors import (
    DataError,
    ImportFormatError,
    RulesetError,
    SchemaError,
    SwissframeError,
    ValidationError,
)
from swissframe.io.tables import read_results
from swissframe.io.tom import TomEvents, read_tom
from swissframe.io.trf import TrfEvents, read_trf
from swissframe.rules import Criterion, Ruleset
from swissframe.schema import (
    MatchColumns,
    find_problems,
    from_matches,
    repair_mirrors,
    to_matches,
    validate_results,
)
from swissframe.standings import standings, standings_by_round

__version__ = "0.1.0"

__all__ = [
    "Criterion",
    "DataError",
    "ImportFormatError",
    "MatchColumns",
    "Ruleset",
    "RulesetError",
    "SchemaError",
    "SwissframeError",
    "TomEvents",
    "TrfEvents",
    "ValidationError",
    "__version__",
    "find_problems",
    "from_matches",
    "read_results",
    "read_tom",
    "read_trf",
    "repair_mirrors",
    "rules",
    "standings",
    "standings_by_round",
    "to_matches",
    "validate_results",
]
