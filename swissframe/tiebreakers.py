"""The tiebreaker registry (public path; implemented in :mod:`swissframe.engine.tiebreakers`)."""

from __future__ import annotations

from swissframe.engine.tiebreakers import (
    CAPABILITIES,
    GROUP_TIEBREAKERS,
    TIEBREAKER_SPECS,
    TIEBREAKERS,
    Context,
    GroupContext,
    TiebreakerSpec,
    decode_ygo_number,
    register_group_tiebreaker,
    register_tiebreaker,
)

__all__ = [
    "CAPABILITIES",
    "GROUP_TIEBREAKERS",
    "TIEBREAKERS",
    "TIEBREAKER_SPECS",
    "Context",
    "GroupContext",
    "TiebreakerSpec",
    "decode_ygo_number",
    "register_group_tiebreaker",
    "register_tiebreaker",
]
