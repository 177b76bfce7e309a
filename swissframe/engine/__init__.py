"""The engine: exact rationals, the record of each player, tiebreakers and standings.

Layers, each importing only from the ones before it: ``_exact`` (exact scales and ranking,
where ties are decided), ``tiebreakers`` and ``_chess`` (one registered function per
criterion), ``standings`` (a ruleset run over the long table, ``_cumulative`` for every
round at once) and ``explain`` (one player's arithmetic). Public names are re-exported by
:mod:`swissframe`, :mod:`swissframe.standings`, :mod:`swissframe.tiebreakers` and
:mod:`swissframe.explain`.
"""

from __future__ import annotations

__all__ = [
]
